//! The subsecond-offset heatmap (FlameScope's grid, with its bugs fixed), in exact integer nanoseconds.
//!
//! - Origin `t0` = the earliest selected sample's time floored to the whole second.
//! - Column = `floor((t − t0) / 1 s)`; there are `max column + 1` columns. The extent counts every selected
//!   sample (idle ones too), so an idle tail of the capture shows as empty columns rather than vanishing.
//! - Row = `floor(frac(t − t0) × R)` for `R` rows per second; row 0 is the start of the second.
//! - A cell counts samples (never weights), under the view's filters (event, labels) and FlameScope's idle
//!   filter when on: a `swapper` process whose stack is in cpuidle / cpu_idle / cpu_bringup_and_idle /
//!   native_safe_halt / xen_hypercall_sched_op / xen_hypercall_vcpu_op.
//! - Selecting cell (c1, r1) to cell (c2, r2) selects the half-open range
//!   `[t0 + c1 + r1/R, t0 + c2 + (r2 + 1)/R)`, so adjacent selections share no sample.
//! - A band from cell (c1, r1) to cell (c2, r2) selects the same rows in every second: the time range
//!   `[t0 + c1, t0 + c2 + 1)` with the offsets `[r1/R, (r2 + 1)/R)` of a second ([`Heatmap::band`]); a sample is
//!   in it exactly when its cell is in the rectangle.
//! - The grid has at most [`MAX_COLUMNS`] columns (its memory follows the time span, which the input chooses
//!   freely): a longer capture shows its first [`MAX_COLUMNS`] seconds, and [`Heatmap::outside`] counts the
//!   samples past them, which [`Heatmap::note`] puts into words.

use crate::model::{FrameId, Profile, EMPTY_STACK, NO_PARENT};
use crate::view::ViewOptions;

const SECOND: u64 = 1_000_000_000;

/// The most columns (seconds) a heatmap has: about 27 hours. Its cells take `MAX_COLUMNS × rows × 4` bytes.
pub const MAX_COLUMNS: u32 = 100_000;

/// Rows per second offered, like FlameScope.
pub const ROW_CHOICES: [u32; 6] = [10, 25, 49, 50, 99, 100];

/// Function-name fragments of idle stacks (FlameScope's `idle_stack`).
const IDLE: [&str; 6] = [
    "cpuidle",
    "cpu_idle",
    "cpu_bringup_and_idle",
    "native_safe_halt",
    "xen_hypercall_sched_op",
    "xen_hypercall_vcpu_op",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeatmapOptions {
    /// Rows per second. Default is 50.
    pub rows: u32,
    /// Leave out idle (swapper) samples. Default is on, as FlameScope always has it.
    pub idle_filter: bool,
}

impl Default for HeatmapOptions {
    fn default() -> Self {
        HeatmapOptions {
            rows: 50,
            idle_filter: true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heatmap {
    pub origin_ns: u64,
    pub rows: u32,
    pub columns: u32,
    /// Column-major: the count of cell (c, r) is `counts[c * rows + r]`.
    pub counts: Vec<u32>,
    pub max: u32,
    /// Samples the grid would count that lie past its last column (the capture spans more than
    /// [`MAX_COLUMNS`] seconds); 0 normally.
    pub outside: u64,
}

impl Heatmap {
    /// The grid as plain columns (the transport's type): the counts, then rows, columns and the largest count;
    /// the origin and the samples outside it.
    pub fn into_columns(self) -> crate::model::wire::TreeColumns {
        crate::model::wire::TreeColumns {
            u32s: vec![self.counts, vec![self.rows, self.columns, self.max]],
            u64s: vec![vec![self.origin_ns, self.outside]],
        }
    }

    /// The grid back from [`Heatmap::into_columns`]; `None` when the columns do not hold together.
    pub fn from_columns(mut c: crate::model::wire::TreeColumns) -> Option<Heatmap> {
        let [rows, columns, max]: [u32; 3] = c.u32s.get(1)?.as_slice().try_into().ok()?;
        let [origin_ns, outside]: [u64; 2] = c.u64s.first()?.as_slice().try_into().ok()?;
        let counts = std::mem::take(c.u32s.first_mut()?);
        (counts.len() as u64 == u64::from(rows) * u64::from(columns)).then_some(Heatmap {
            origin_ns,
            rows,
            columns,
            counts,
            max,
            outside,
        })
    }

    /// What the user should be told about the grid's limit, when samples fell outside it.
    pub fn note(&self) -> Option<String> {
        (self.outside > 0).then(|| {
            format!(
                "more than {MAX_COLUMNS} columns in the heatmap: the view is limited to the first {MAX_COLUMNS} \
                 seconds; {} samples are outside it",
                self.outside
            )
        })
    }

    pub fn count(&self, c: u32, r: u32) -> u32 {
        self.counts
            .get((c as usize) * self.rows as usize + r as usize)
            .copied()
            .unwrap_or(0)
    }

    /// The time range `[start, end)` of a selection from cell `a` to cell `b` (in either order).
    pub fn range(&self, a: (u32, u32), b: (u32, u32)) -> (u64, u64) {
        let key = |(c, r): (u32, u32)| (c, r);
        let (lo, hi) = if key(a) <= key(b) { (a, b) } else { (b, a) };
        (self.cell_start(lo.0, lo.1), self.cell_start(hi.0, hi.1 + 1))
    }

    /// The band from cell `a` to cell `b` (any two corners of the rectangle): its time range (whole seconds)
    /// and its offsets within each second, both half-open in ns, as [`ViewOptions`] takes them.
    pub fn band(&self, a: (u32, u32), b: (u32, u32)) -> ((u64, u64), (u64, u64)) {
        let (c1, c2) = (a.0.min(b.0), a.0.max(b.0));
        let (r1, r2) = (a.1.min(b.1), a.1.max(b.1).min(self.rows.max(1) - 1));
        let r1 = r1.min(r2);
        let range = (self.cell_start(c1, 0), self.cell_start(c2.saturating_add(1), 0));
        (range, (self.row_start(r1), self.row_start(r2 + 1)))
    }

    /// The cells (first column and row, last column and row) of a band: the inverse of [`Heatmap::band`] for
    /// bands made on this grid, and the smallest rectangle holding any other band.
    pub fn band_cells(&self, range: (u64, u64), offsets: (u64, u64)) -> Option<((u32, u32), (u32, u32))> {
        let last = self.columns.checked_sub(1)?;
        let col = |t: u64| u32::try_from(t.saturating_sub(self.origin_ns) / SECOND).unwrap_or(u32::MAX);
        let (c1, c2) = (col(range.0), col(range.1.saturating_sub(1)));
        if range.1 <= range.0 || range.1 <= self.origin_ns || c1 > last || offsets.1 <= offsets.0 {
            return None;
        }
        let row = |o: u64| ((o.min(SECOND - 1)) * u64::from(self.rows) / SECOND) as u32;
        Some(((c1, row(offsets.0)), (c2.min(last), row(offsets.1 - 1))))
    }

    /// Offset of row `r` within its second in ns (`r == rows` is 1 s), rounded up like [`Heatmap::cell_start`].
    pub fn row_start(&self, r: u32) -> u64 {
        (u64::from(r) * SECOND).div_ceil(u64::from(self.rows.max(1)))
    }

    /// Start of cell (c, r) in ns; `r == rows` is the start of the next second.
    pub fn cell_start(&self, c: u32, r: u32) -> u64 {
        let within = self.row_start(r);
        self.origin_ns
            .saturating_add(u64::from(c) * SECOND)
            .saturating_add(within)
    }

    /// The cell a time falls in (for times inside the grid).
    pub fn cell_of(&self, t: u64) -> Option<(u32, u32)> {
        let d = t.checked_sub(self.origin_ns)?;
        let c = u32::try_from(d / SECOND).ok()?;
        let r = ((d % SECOND) * u64::from(self.rows) / SECOND) as u32;
        (c < self.columns).then_some((c, r))
    }
}

/// Per stack: is any frame on it an idle function?
fn idle_stacks(p: &Profile) -> Vec<bool> {
    // Names are matched once per frame, not once per stack (a stack table can be millions of rows).
    let idle_frame: Vec<bool> = (0..p.frames.len())
        .map(|i| {
            let name = p.frame_name(FrameId(i as u32));
            IDLE.iter().any(|x| name.contains(x))
        })
        .collect();
    let mut idle: Vec<bool> = Vec::with_capacity(p.stacks.len());
    for (&par, &f) in p.stacks.parent.iter().zip(&p.stacks.frame) {
        let inherited = par != NO_PARENT && idle.get(par as usize).copied().unwrap_or(false);
        idle.push(inherited || idle_frame.get(f.idx()).copied().unwrap_or(false));
    }
    idle
}

/// Which samples are idle (FlameScope's filter). All false for profiles without threads.
pub fn idle_samples(p: &Profile) -> Vec<bool> {
    let (Some(threads), false) = (&p.samples.thread, p.threads.is_empty()) else {
        return vec![false; p.samples.len()];
    };
    let swapper: Vec<bool> = p
        .threads
        .comm
        .iter()
        .map(|&c| p.strings.get(c).contains("swapper"))
        .collect();
    let idle = idle_stacks(p);
    p.samples
        .stack
        .iter()
        .zip(threads)
        .map(|(s, &t)| {
            swapper.get(t as usize).copied().unwrap_or(false)
                && *s != EMPTY_STACK
                && idle.get(s.idx()).copied().unwrap_or(false)
        })
        .collect()
}

/// The heatmap of the samples a view selects (its time range and band are ignored). `None` without timestamps.
pub fn heatmap(p: &Profile, v: &ViewOptions, o: &HeatmapOptions) -> Option<Heatmap> {
    let times = p.samples.time_ns.as_ref()?;
    let rows = o.rows.clamp(1, 1000);
    let v = ViewOptions {
        time_range: None,
        offsets: None,
        ..v.clone()
    };
    let idle = if o.idle_filter {
        idle_samples(p)
    } else {
        Vec::new()
    };
    let selected = |i: usize| v.weigh(p, i).is_some();
    let keep = |i: usize| selected(i) && !idle.get(i).copied().unwrap_or(false);
    // The grid spans every selected sample, idle ones included: an idle stretch stays visible as empty cells.
    let first = times
        .iter()
        .enumerate()
        .filter(|&(i, _)| selected(i))
        .map(|(_, &t)| t)
        .min()?;
    let origin_ns = first - first % SECOND;
    let last = times
        .iter()
        .enumerate()
        .filter(|&(i, _)| selected(i))
        .map(|(_, &t)| t)
        .max()
        .unwrap_or(first);
    // A very long capture would make a huge grid: cap it, and count what falls past it.
    let columns = ((last - origin_ns) / SECOND + 1).min(u64::from(MAX_COLUMNS)) as u32;
    let mut counts = vec![0u32; columns as usize * rows as usize];
    let mut max = 0;
    let mut outside = 0u64;
    for (i, &t) in times.iter().enumerate() {
        if !keep(i) {
            continue;
        }
        let d = t - origin_ns;
        let c = d / SECOND;
        if c >= u64::from(columns) {
            outside += 1;
            continue;
        }
        let r = (d % SECOND) * u64::from(rows) / SECOND;
        if let Some(cell) = counts.get_mut(c as usize * rows as usize + r as usize) {
            *cell = cell.saturating_add(1);
            max = max.max(*cell);
        }
    }
    Some(Heatmap {
        origin_ns,
        rows,
        columns,
        counts,
        max,
        outside,
    })
}

/// `12.345` seconds (decimal, exact) to nanoseconds.
pub fn parse_seconds(s: &str) -> Option<u64> {
    let (int, frac) = s.trim().split_once('.').unwrap_or((s.trim(), ""));
    if int.is_empty() && frac.is_empty() || frac.len() > 9 {
        return None;
    }
    let int: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut ns = 0u64;
    for i in 0..9 {
        let d = frac
            .as_bytes()
            .get(i)
            .map_or(Some(0), |&b| b.is_ascii_digit().then(|| u64::from(b - b'0')))?;
        ns = ns * 10 + d;
    }
    int.checked_mul(SECOND)?.checked_add(ns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_comes_back_from_its_columns_and_bad_columns_are_refused() {
        let h = Heatmap {
            origin_ns: u64::MAX - 7,
            rows: 2,
            columns: 3,
            counts: vec![0, 1, 2, 3, 4, 9],
            max: 9,
            outside: 5,
        };
        assert_eq!(Heatmap::from_columns(h.clone().into_columns()), Some(h.clone()));
        let mut short = h.clone().into_columns();
        short.u32s[0].pop();
        assert_eq!(Heatmap::from_columns(short), None);
        let mut no_head = h.into_columns();
        no_head.u64s.clear();
        assert_eq!(Heatmap::from_columns(no_head), None);
        assert_eq!(Heatmap::from_columns(Default::default()), None);
    }

    #[test]
    fn ranges_are_half_open_and_adjacent() {
        let h = Heatmap {
            origin_ns: 5_000 * SECOND,
            rows: 50,
            columns: 3,
            counts: vec![0; 150],
            max: 0,
            outside: 0,
        };
        assert_eq!(h.range((1, 10), (1, 19)), (5_001_200_000_000, 5_001_400_000_000));
        assert_eq!(h.range((1, 20), (2, 0)), (5_001_400_000_000, 5_002_020_000_000));
        assert_eq!(h.range((2, 0), (1, 20)), h.range((1, 20), (2, 0)));
        assert_eq!(h.cell_of(5_001_400_000_000), Some((1, 20)));
        assert_eq!(h.cell_of(5_001_399_999_999), Some((1, 19)));
        // 49 rows do not divide a second evenly: cell starts round up so that cell_of agrees.
        let h = Heatmap { rows: 49, ..h };
        for r in 0..49 {
            assert_eq!(h.cell_of(h.cell_start(0, r)), Some((0, r)), "row {r}");
            assert_eq!(
                h.cell_of(h.cell_start(0, r + 1) - 1),
                Some((0, r)),
                "end of row {r}"
            );
        }
        // A band: the same rows in every second; corners in any order; its cells come back.
        let h = Heatmap { rows: 50, ..h };
        let band = h.band((2, 14), (1, 10));
        assert_eq!(
            band,
            ((5_001_000_000_000, 5_003_000_000_000), (200_000_000, 300_000_000))
        );
        assert_eq!(h.band_cells(band.0, band.1), Some(((1, 10), (2, 14))));
        let h = Heatmap { rows: 49, ..h };
        let (range, off) = h.band((0, 3), (2, 7));
        assert_eq!(h.band_cells(range, off), Some(((0, 3), (2, 7))));
        assert_eq!(off, (h.row_start(3), h.row_start(8)));
        assert_eq!(h.band_cells((0, 5), off), None);
        assert_eq!(parse_seconds("2.5"), Some(2_500_000_000));
        assert_eq!(parse_seconds("0.000000001"), Some(1));
        assert_eq!(parse_seconds("x"), None);
    }
}
