//! Lost events on the heatmap's grid: which columns (seconds) had losses, for a mark per such column.

use crate::model::Lost;

const SECOND: u64 = 1_000_000_000;

/// `(column, events lost)` for the columns of a heatmap with origin `origin_ns` (a whole second) and `columns`
/// columns that had losses, in column order. Losses outside the grid are left out. O(seconds with losses).
pub fn lost_columns(lost: &Lost, origin_ns: u64, columns: u32) -> Vec<(u32, u64)> {
    let first = origin_ns / SECOND;
    lost.per_second
        .iter()
        .filter_map(|&(s, n)| {
            let c = u32::try_from(s.checked_sub(first)?).ok()?;
            (c < columns).then_some((c, n))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_inside_the_grid() {
        let mut l = Lost::default();
        for (t, n) in [(4, 1), (5, 2), (7, 3), (9, 4), (u64::MAX / SECOND, 5)] {
            l.add(Some(t * SECOND + 10), n);
        }
        assert_eq!(lost_columns(&l, 5 * SECOND, 4), vec![(0, 2), (2, 3)]);
        assert_eq!(lost_columns(&l, 0, 5), vec![(4, 1)]);
    }
}
