//! A series: several profiles in order (nightly runs, commits of a bisection), each function's self and total
//! share of each profile's total, and the trend of those shares. Shares are those of [`top`] (flat / total,
//! cum / total of the profile's own view), so a column equals `scorch top --json` of that profile.
//!
//! Built one profile at a time ([`SeriesBuilder::push`]): memory is O(distinct functions × profiles), and a
//! caller can drop each profile after pushing it.

use super::gate::GateOn;
use super::top::top;
use crate::model::Profile;
use crate::view::ViewOptions;
use rustc_hash::FxHashMap as HashMap;

/// One function's shares, one per profile in series order (fractions of each profile's total; 0 where the
/// function does not occur).
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesRow {
    pub name: String,
    pub self_share: Vec<f64>,
    pub total_share: Vec<f64>,
}

impl SeriesRow {
    /// The shares `on` asks for.
    pub fn shares(&self, on: GateOn) -> &[f64] {
        match on {
            GateOn::SelfWeight => &self.self_share,
            GateOn::Total => &self.total_share,
        }
    }
}

/// How to order a series' rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortBy {
    /// |last − previous|, largest first.
    Latest,
    /// max − min, largest first.
    Spread,
    /// |least-squares slope over the profile index|, largest first.
    Slope,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// The profiles' names, in series order.
    pub names: Vec<String>,
    pub rows: Vec<SeriesRow>,
}

/// Accumulates a series one profile at a time.
#[derive(Debug, Default)]
pub struct SeriesBuilder {
    names: Vec<String>,
    index: HashMap<String, usize>,
    rows: Vec<SeriesRow>,
}

impl SeriesBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the next profile, seen through `v`. O(the profile's samples and stacks).
    pub fn push(&mut self, name: &str, p: &Profile, v: &ViewOptions) {
        let k = self.names.len();
        self.names.push(name.to_string());
        let (fns, total) = top(p, v);
        let share = |x: i128| if total == 0 { 0.0 } else { x as f64 / total as f64 };
        for f in fns {
            let i = match self.index.get(&f.name) {
                Some(&i) => i,
                None => {
                    self.rows.push(SeriesRow {
                        name: f.name.clone(),
                        self_share: Vec::new(),
                        total_share: Vec::new(),
                    });
                    let i = self.rows.len() - 1;
                    self.index.insert(f.name.clone(), i);
                    i
                }
            };
            if let Some(r) = self.rows.get_mut(i) {
                r.self_share.resize(k, 0.0);
                r.total_share.resize(k, 0.0);
                r.self_share.push(share(f.flat));
                r.total_share.push(share(f.cum));
            }
        }
    }

    /// The series, rows in first-appearance order.
    pub fn finish(mut self) -> Series {
        let n = self.names.len();
        for r in &mut self.rows {
            r.self_share.resize(n, 0.0);
            r.total_share.resize(n, 0.0);
        }
        Series {
            names: self.names,
            rows: self.rows,
        }
    }
}

/// Last − previous (0 with fewer than two values).
pub fn latest(xs: &[f64]) -> f64 {
    match xs {
        [.., a, b] => b - a,
        _ => 0.0,
    }
}

/// Max − min (0 when empty).
pub fn spread(xs: &[f64]) -> f64 {
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
    if xs.is_empty() {
        0.0
    } else {
        max - min
    }
}

/// The least-squares slope of `xs` over the index 0, 1, …, n−1 (0 with fewer than two values).
pub fn slope(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    if xs.len() < 2 {
        return 0.0;
    }
    let mx = (n - 1.0) / 2.0;
    let my = xs.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (i, &y) in xs.iter().enumerate() {
        let dx = i as f64 - mx;
        sxy += dx * (y - my);
        sxx += dx * dx;
    }
    if sxx == 0.0 {
        0.0
    } else {
        sxy / sxx
    }
}

/// Last − first (0 with fewer than two values).
pub fn change(xs: &[f64]) -> f64 {
    match xs {
        [a, .., b] => b - a,
        _ => 0.0,
    }
}

impl SortBy {
    /// The sort key of one row's shares.
    pub fn key(self, xs: &[f64]) -> f64 {
        match self {
            SortBy::Latest => latest(xs),
            SortBy::Spread => spread(xs),
            SortBy::Slope => slope(xs),
        }
    }
}

impl Series {
    /// The profiles (columns) in the order `order` gives (indices into the current order; an index out of
    /// range or repeated leaves the series as it is).
    pub fn reorder(&mut self, order: &[usize]) {
        let n = self.names.len();
        let mut seen = vec![false; n];
        let ok = order.len() == n
            && order
                .iter()
                .all(|&i| seen.get_mut(i).is_some_and(|x| !std::mem::replace(x, true)));
        if !ok {
            return;
        }
        let pick = |xs: &[f64]| -> Vec<f64> { order.iter().filter_map(|&i| xs.get(i).copied()).collect() };
        self.names = order.iter().filter_map(|&i| self.names.get(i).cloned()).collect();
        for r in &mut self.rows {
            r.self_share = pick(&r.self_share);
            r.total_share = pick(&r.total_share);
        }
    }

    /// Rows by |key| of their `on` shares, largest first, then by name.
    pub fn sort(&mut self, by: SortBy, on: GateOn) {
        self.rows.sort_by(|a, b| {
            let (ka, kb) = (by.key(a.shares(on)).abs(), by.key(b.shares(on)).abs());
            kb.total_cmp(&ka).then_with(|| a.name.cmp(&b.name))
        });
    }

    /// The rows whose `on` share grew by more than `pct` percentage points from the first profile to the
    /// last, with that growth in points, largest first.
    pub fn trend_gate(&self, pct: f64, on: GateOn) -> Vec<(&SeriesRow, f64)> {
        let mut out: Vec<(&SeriesRow, f64)> = self
            .rows
            .iter()
            .map(|r| (r, change(r.shares(on)) * 100.0))
            .filter(|&(_, pp)| pp > pct)
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.name.cmp(&b.0.name)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trend_measures() {
        let xs = [0.1, 0.2, 0.4];
        assert!((latest(&xs) - 0.2).abs() < 1e-12);
        assert!((spread(&xs) - 0.3).abs() < 1e-12);
        // numpy.polyfit([0,1,2], [0.1,0.2,0.4], 1)[0] = 0.15
        assert!((slope(&xs) - 0.15).abs() < 1e-12);
        assert!((change(&xs) - 0.3).abs() < 1e-12);
        assert_eq!(slope(&[0.5]), 0.0);
        assert_eq!(latest(&[]), 0.0);
    }
}
