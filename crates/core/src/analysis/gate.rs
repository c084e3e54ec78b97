//! The noise-aware regression gate of `scorch diff --fail-if-grows`: several runs per side, and a function fails
//! only when its growth is larger than a minimum effect *and* larger than the run-to-run spread within each side.
//! docs/DIFF.md says which test and why; its false-alarm rate is measured in docs/BENCHMARKS.md.
//!
//! Per function (a function is its name, as in [`super::functions`]) and per run: its share of that run's total
//! in percent — of its total (the stacks that contain it, each once; default) or of its self weight — or, with
//! `absolute`, its raw weight as a percentage of the base runs' mean total (so a uniform slowdown shows). The
//! function fails when
//!
//! 1. the mean over the target runs minus the mean over the base runs exceeds `min_pp` percentage points, and
//! 2. with two or more runs on each side, Welch's one-sided t-test on the per-run values (target larger than
//!    base) has `p < alpha`. With a single run on a side there is no spread to test against: the threshold alone
//!    decides, as the one-pair gate always did.
//!
//! Cost: one merged stack table and, per run, one vector over it: O(runs × (distinct stacks + functions)).

use super::diff::{MatchBy, Merged, Side};
use super::functions::by_function;
use super::stats::{mean, welch_greater, Welch};
use rustc_hash::FxHashMap;

/// What a function's number is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GateOn {
    /// The weight of the stacks that contain the function (catches a regression spread over thin callees).
    #[default]
    Total,
    /// The weight of the stacks whose leaf is the function.
    SelfWeight,
}

impl GateOn {
    pub fn name(self) -> &'static str {
        match self {
            GateOn::Total => "total",
            GateOn::SelfWeight => "self",
        }
    }
}

/// The default significance level of the gate's t-test.
pub const DEFAULT_ALPHA: f64 = 0.01;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GateOptions {
    pub on: GateOn,
    /// The minimum growth, in percentage points, that can fail.
    pub min_pp: f64,
    /// Raw weights (as a percentage of the base runs' mean total) instead of each run's shares.
    pub absolute: bool,
    /// The one-sided significance level of the t-test (with two or more runs per side).
    pub alpha: f64,
    /// How frames match: by name, or by name and kind (then `f` and inlined `f` are two functions).
    pub matching: MatchBy,
}

impl Default for GateOptions {
    fn default() -> GateOptions {
        GateOptions {
            on: GateOn::Total,
            min_pp: 0.0,
            absolute: false,
            alpha: DEFAULT_ALPHA,
            matching: MatchBy::Name,
        }
    }
}

/// One function that failed the gate.
#[derive(Debug, Clone, PartialEq)]
pub struct GateFailure {
    pub name: String,
    /// Per base run and per target run: the function's value in percent (see the module's doc).
    pub base: Vec<f64>,
    pub target: Vec<f64>,
    /// `mean(target) − mean(base)`, percentage points.
    pub delta: f64,
    /// Welch's test, with two or more runs per side.
    pub test: Option<Welch>,
    /// The call path (root first) where the function weighs most in the target runs together.
    pub path: Vec<String>,
}

/// The gate's verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct GateReport {
    /// How many functions were tested (those with weight in some run).
    pub functions: usize,
    /// Whether the t-test took part (two or more runs on each side).
    pub statistical: bool,
    /// The functions that failed, largest growth first.
    pub failures: Vec<GateFailure>,
}

/// Runs the gate over `base` and `target` runs.
pub fn gate(base: &[Side<'_>], target: &[Side<'_>], opts: &GateOptions) -> GateReport {
    let runs: Vec<Side<'_>> = base.iter().chain(target).copied().collect();
    let m = Merged::new(&runs, opts.matching, base.len());
    let nruns = runs.len();
    // Per function, per run: its (self, total) weight.
    let mut index: FxHashMap<&str, usize> = FxHashMap::default();
    let mut names: Vec<&str> = Vec::new();
    let mut weights: Vec<Vec<u64>> = Vec::new();
    for (k, selfw) in m.selfs.iter().enumerate() {
        for f in by_function(&m.profile, selfw) {
            let i = *index.entry(f.name).or_insert_with(|| {
                names.push(f.name);
                weights.push(vec![0; nruns]);
                names.len() - 1
            });
            let w = match opts.on {
                GateOn::Total => f.total_w,
                GateOn::SelfWeight => f.self_w,
            };
            if let Some(x) = weights.get_mut(i).and_then(|v| v.get_mut(k)) {
                *x = w;
            }
        }
    }
    let sums: Vec<f64> = m
        .selfs
        .iter()
        .map(|v| v.iter().fold(0u64, |a, &x| a.saturating_add(x)) as f64)
        .collect();
    let base_mean_sum = mean(sums.get(..base.len()).unwrap_or(&[]));
    let value = |k: usize, w: u64| -> f64 {
        let denom = if opts.absolute {
            base_mean_sum
        } else {
            sums.get(k).copied().unwrap_or(0.0)
        };
        if denom > 0.0 {
            w as f64 / denom * 100.0
        } else {
            0.0
        }
    };
    let statistical = base.len() >= 2 && target.len() >= 2;
    let mut failures = Vec::new();
    for (name, w) in names.iter().zip(&weights) {
        let vals: Vec<f64> = w.iter().enumerate().map(|(k, &x)| value(k, x)).collect();
        let (b, t) = vals.split_at(base.len().min(vals.len()));
        let delta = mean(t) - mean(b);
        let test = welch_greater(b, t);
        let significant = test.is_none_or(|x| x.p < opts.alpha);
        if delta > opts.min_pp && significant {
            failures.push(GateFailure {
                name: name.to_string(),
                base: b.to_vec(),
                target: t.to_vec(),
                delta,
                test,
                path: Vec::new(),
            });
        }
    }
    failures.sort_by(|a, b| b.delta.total_cmp(&a.delta).then_with(|| a.name.cmp(&b.name)));
    if !failures.is_empty() {
        // The heaviest call path of each failing function in the target runs together.
        let mut summed = vec![0u64; m.profile.stacks.len()];
        for selfw in m.selfs.get(base.len()..).unwrap_or(&[]) {
            for (x, &w) in summed.iter_mut().zip(selfw) {
                *x = x.saturating_add(w);
            }
        }
        let totals = m.subtotals(&summed);
        let mut heaviest: FxHashMap<&str, (u64, usize)> = FxHashMap::default();
        for (s, (&f, &tot)) in m.profile.stacks.frame.iter().zip(&totals).enumerate() {
            let e = heaviest.entry(m.profile.frame_name(f)).or_insert((tot, s));
            if tot > e.0 {
                *e = (tot, s);
            }
        }
        for fail in &mut failures {
            if let Some(&(_, s)) = heaviest.get(fail.name.as_str()) {
                fail.path = m
                    .profile
                    .stack_frames(crate::model::StackId(s as u32))
                    .into_iter()
                    .map(|f| m.profile.frame_name(f).to_string())
                    .collect();
            }
        }
    }
    GateReport {
        functions: names.len(),
        statistical,
        failures,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{import_bytes, ImportOptions};
    use crate::model::Profile;
    use crate::view::ViewOptions;

    fn prof(text: &str) -> Profile {
        import_bytes(text.as_bytes(), ImportOptions::default())
            .unwrap()
            .profile
    }

    fn sides(ps: &[Profile]) -> Vec<Side<'_>> {
        ps.iter()
            .map(|p| Side {
                profile: p,
                view: ViewOptions::default_for(p),
            })
            .collect()
    }

    #[test]
    fn a_shift_beyond_the_spread_fails_and_noise_passes() {
        // parse's total share: base 50, 52, 48 %; target 70, 71, 69 %.
        let base = [
            prof("main;parse;lex 50\nmain;render 50\n"),
            prof("main;parse;lex 52\nmain;render 48\n"),
            prof("main;parse;lex 48\nmain;render 52\n"),
        ];
        let target = [
            prof("main;parse;lex 70\nmain;render 30\n"),
            prof("main;parse;lex 71\nmain;render 29\n"),
            prof("main;parse;lex 69\nmain;render 31\n"),
        ];
        let r = gate(&sides(&base), &sides(&target), &GateOptions::default());
        assert!(r.statistical);
        assert_eq!(r.functions, 4);
        let names: Vec<&str> = r.failures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["lex", "parse"]);
        let f = &r.failures[0];
        assert_eq!(f.base, [50.0, 52.0, 48.0]);
        assert_eq!(f.target, [70.0, 71.0, 69.0]);
        assert!((f.delta - 20.0).abs() < 1e-9);
        assert_eq!(f.path, ["main", "parse", "lex"]);
        // Welch by hand: variances 4 and 1, se = √(4/3 + 1/3), t = 20 / se.
        let t = f.test.unwrap().t;
        assert!((t - 20.0 / (5.0f64 / 3.0).sqrt()).abs() < 1e-9, "{t}");
        // A 25-point minimum effect: nothing fails.
        let opts = GateOptions {
            min_pp: 25.0,
            ..GateOptions::default()
        };
        assert!(gate(&sides(&base), &sides(&target), &opts).failures.is_empty());
        // Base against base reordered: a shift of 0 never fails.
        let again = [base[2].clone(), base[0].clone(), base[1].clone()];
        assert!(gate(&sides(&base), &sides(&again), &GateOptions::default())
            .failures
            .is_empty());
    }

    #[test]
    fn growth_within_the_spread_passes() {
        // Means 50 → 56 %, but the runs scatter over 30 points: not significant at 1 %.
        let base = [
            prof("main;a 35\nmain;b 65\n"),
            prof("main;a 65\nmain;b 35\n"),
            prof("main;a 50\nmain;b 50\n"),
        ];
        let target = [
            prof("main;a 40\nmain;b 60\n"),
            prof("main;a 70\nmain;b 30\n"),
            prof("main;a 58\nmain;b 42\n"),
        ];
        let r = gate(&sides(&base), &sides(&target), &GateOptions::default());
        assert!(r.failures.is_empty(), "{r:?}");
        // One run per side: the threshold alone decides.
        let r = gate(&sides(&base[..1]), &sides(&target[..1]), &GateOptions::default());
        assert!(!r.statistical);
        assert_eq!(r.failures.len(), 1);
        assert_eq!(r.failures[0].name, "a");
        assert_eq!(r.failures[0].test, None);
    }

    #[test]
    fn total_catches_what_self_misses_and_absolute_a_uniform_slowdown() {
        // work's callees each grow a little; work itself has no self weight.
        let base = [
            prof("main;work;a 10\nmain;work;b 10\nmain;idle 80\n"),
            prof("main;work;a 11\nmain;work;b 9\nmain;idle 80\n"),
        ];
        let target = [
            prof("main;work;a 20\nmain;work;b 20\nmain;idle 60\n"),
            prof("main;work;a 21\nmain;work;b 19\nmain;idle 60\n"),
        ];
        let opts = GateOptions {
            min_pp: 15.0,
            ..GateOptions::default()
        };
        let names = |r: GateReport| -> Vec<String> { r.failures.into_iter().map(|f| f.name).collect() };
        assert_eq!(names(gate(&sides(&base), &sides(&target), &opts)), ["work"]);
        let on_self = GateOptions {
            on: GateOn::SelfWeight,
            ..opts
        };
        assert!(names(gate(&sides(&base), &sides(&target), &on_self)).is_empty());
        // Everything twice as slow: shares do not move, raw weights do.
        let slow = [
            prof("main;work;a 20\nmain;work;b 20\nmain;idle 160\n"),
            prof("main;work;a 22\nmain;work;b 18\nmain;idle 160\n"),
        ];
        assert!(names(gate(&sides(&base), &sides(&slow), &opts)).is_empty());
        let absolute = GateOptions {
            absolute: true,
            ..opts
        };
        assert_eq!(
            names(gate(&sides(&base), &sides(&slow), &absolute)),
            ["main", "idle", "work"]
        );
    }
}
