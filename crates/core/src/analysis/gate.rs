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
//!    base) has `p < alpha`, where each side's variance is at least the sampling variance of its values: a share
//!    q of a run of N samples varies by q(1 − q)/N from sampling alone, so three runs that happen to agree more
//!    closely than that do not make a tiny shift look significant. With a single run on a side there is no
//!    spread to test against: the threshold alone decides, as the one-pair gate always did.
//!
//! Cost: one merged stack table and, per run, one vector over it: O(runs × (distinct stacks + functions)).

use super::diff::{MatchBy, Merged, Side};
use super::functions::by_function;
use super::welch::{mean, welch_greater_floored, Welch};
use crate::model::Unit;
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
    let runs: Vec<Side<'_>> = base.iter().chain(target).cloned().collect();
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
    // Samples behind each run: its weights when they count samples, else its sample records (a record may
    // stand for several samples — pprof aggregates them — so this errs towards a larger floor).
    let counts: Vec<f64> = runs
        .iter()
        .zip(&sums)
        .map(|(r, &sum)| {
            let p = r.profile;
            if r.view.unit(p) == Unit::Samples {
                sum / 10f64.powi(p.meta.decimals.min(30) as i32)
            } else {
                (0..p.samples.len())
                    .filter(|&i| r.view.weigh(p, i).is_some())
                    .count() as f64
            }
        })
        .collect();
    // The sampling variance of run k's value: a share q of N samples varies by q(1 − q)/N from sampling alone,
    // scaled to the value's percent units.
    let floor = |k: usize, w: u64| -> f64 {
        let sum = sums.get(k).copied().unwrap_or(0.0);
        let n = counts.get(k).copied().unwrap_or(0.0);
        let denom = if opts.absolute { base_mean_sum } else { sum };
        if sum <= 0.0 || n <= 0.0 || denom <= 0.0 {
            return 0.0;
        }
        let q = w as f64 / sum;
        let scale = sum / denom * 100.0;
        q * (1.0 - q) / n * scale * scale
    };
    let statistical = base.len() >= 2 && target.len() >= 2;
    let mut failures = Vec::new();
    for (name, w) in names.iter().zip(&weights) {
        let vals: Vec<f64> = w.iter().enumerate().map(|(k, &x)| value(k, x)).collect();
        let floors: Vec<f64> = w.iter().enumerate().map(|(k, &x)| floor(k, x)).collect();
        let split = base.len().min(vals.len());
        let (b, t) = vals.split_at(split);
        let (fb, ft) = floors.split_at(split);
        let delta = mean(t) - mean(b);
        let test = welch_greater_floored(b, t, mean(fb), mean(ft));
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
        // parse's total share: base 50, 52, 48 %; target 70, 71, 69 % (of 10,000 samples a run, so sampling
        // alone moves a share by less than the runs do).
        let base = [
            prof("main;parse;lex 5000\nmain;render 5000\n"),
            prof("main;parse;lex 5200\nmain;render 4800\n"),
            prof("main;parse;lex 4800\nmain;render 5200\n"),
        ];
        let target = [
            prof("main;parse;lex 7000\nmain;render 3000\n"),
            prof("main;parse;lex 7100\nmain;render 2900\n"),
            prof("main;parse;lex 6900\nmain;render 3100\n"),
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
    fn runs_that_agree_by_chance_do_not_beat_sampling_noise() {
        // a: 50, 50, 51 % → 52, 52, 53 %: the runs agree closely, t = 4.2 on their own spread. Of 100 samples a
        // run, sampling alone moves a 50 % share by 5 points (q(1 − q)/N = 25 pp²): not significant.
        let base = [
            prof("main;a 50\nmain;b 50\n"),
            prof("main;a 50\nmain;b 50\n"),
            prof("main;a 51\nmain;b 49\n"),
        ];
        let target = [
            prof("main;a 52\nmain;b 48\n"),
            prof("main;a 52\nmain;b 48\n"),
            prof("main;a 53\nmain;b 47\n"),
        ];
        let opts = GateOptions {
            min_pp: 1.0,
            ..GateOptions::default()
        };
        let r = gate(&sides(&base), &sides(&target), &opts);
        assert!(r.failures.is_empty(), "{r:?}");
        // Of 10,000 samples a run (the same shares), sampling moves it by 0.5 points: the shift is real.
        let scaled = |shares: [(u64, u64); 3]| -> Vec<Profile> {
            shares
                .iter()
                .map(|(a, b)| prof(&format!("main;a {}\nmain;b {}\n", a * 100, b * 100)))
                .collect()
        };
        let (b2, t2) = (
            scaled([(50, 50), (50, 50), (51, 49)]),
            scaled([(52, 48), (52, 48), (53, 47)]),
        );
        let r = gate(&sides(&b2), &sides(&t2), &opts);
        let names: Vec<&str> = r.failures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a"]);
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
        // work's callees each grow a little; work itself has no self weight. 10,000 to 20,000 samples a run.
        let base = [
            prof("main;work;a 1000\nmain;work;b 1000\nmain;idle 8000\n"),
            prof("main;work;a 1100\nmain;work;b 900\nmain;idle 8000\n"),
        ];
        let target = [
            prof("main;work;a 2000\nmain;work;b 2000\nmain;idle 6000\n"),
            prof("main;work;a 2100\nmain;work;b 1900\nmain;idle 6000\n"),
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
            prof("main;work;a 2000\nmain;work;b 2000\nmain;idle 16000\n"),
            prof("main;work;a 2200\nmain;work;b 1800\nmain;idle 16000\n"),
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
