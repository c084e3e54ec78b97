//! Are two sides of a diff comparable? The facts of each side that decide it — sample type, unit, sampling
//! period or rate, duration, sample count, labels — and which of them differ. Diffing CPU time against
//! allocated bytes, or a 99 Hz profile against a 999 Hz one, produces fake regressions; docs/DIFF.md says
//! which differences are errors (sample type, unit) and which are only marked.

use super::diff::Side;
use super::duration::coverage;
use crate::model::units::format_value;
use crate::model::Unit;
use crate::view::label_keys;

/// One side's (one run's) facts.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    /// The selected event (perf) or sample type (pprof); `None` for inputs without one (folded).
    pub sample_type: Option<String>,
    pub unit: Unit,
    /// The sampling period as the file states it (pprof: `10000000 cpu/nanoseconds`).
    pub period: Option<String>,
    /// Samples per second per CPU, from the samples and the span of their timestamps (perf), when the file
    /// states no period.
    pub rate_hz: Option<f64>,
    /// The recording's duration (stated, or from the first to the last sample).
    pub duration_ns: Option<u64>,
    /// Sample records the view selects.
    pub samples: u64,
    /// Label keys (pprof).
    pub labels: Vec<String>,
}

/// The facts of a side under its view.
pub fn facts(side: &Side<'_>) -> Facts {
    let p = side.profile;
    let v = &side.view;
    let samples = (0..p.samples.len()).filter(|&i| v.weigh(p, i).is_some()).count() as u64;
    let period = p
        .meta
        .info
        .iter()
        .find(|(k, _)| k == "period")
        .map(|(_, val)| val.clone());
    let cov = coverage(p, v);
    let rate_hz = match (&period, &cov) {
        (None, Some(c)) if c.duration_ns > 0 && p.meta.duration_ns.is_none() => {
            Some(samples as f64 / (c.duration_ns as f64 / 1e9) / f64::from(c.cpus.unwrap_or(1).max(1)))
        }
        _ => None,
    };
    Facts {
        sample_type: v
            .event
            .and_then(|e| p.events.get(e as usize))
            .map(|e| e.name.clone()),
        unit: v.unit(p),
        period,
        rate_hz,
        duration_ns: cov.map(|c| c.duration_ns),
        samples,
        labels: label_keys(p),
    }
}

/// A fact by which two sides can differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    SampleType,
    Unit,
    Period,
    Rate,
    Duration,
    Samples,
    Labels,
}

impl Fact {
    /// Whether a difference in this fact makes the diff meaningless (an error unless overridden).
    pub fn is_hard(self) -> bool {
        matches!(self, Fact::SampleType | Fact::Unit)
    }
}

/// Two quantities differ "enough to mark" when the larger is more than 1.5 times the smaller (or one of them is
/// missing): run-to-run variation of a few percent is expected, 10 s against 60 s or 99 against 999 Hz is not.
fn far(a: f64, b: f64) -> bool {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    hi > lo * 1.5
}

fn far_opt(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => far(a, b),
        (None, None) => false,
        _ => true,
    }
}

/// The facts in which `a` and `b` differ: exact for sample type (when both have one), unit, period and labels;
/// by more than a factor of 1.5 for rate, duration and sample count.
pub fn differences(a: &Facts, b: &Facts) -> Vec<Fact> {
    let mut out = Vec::new();
    // A side without a sample type (folded text) differs from one with a type only by its unit.
    if a.sample_type.is_some() && b.sample_type.is_some() && a.sample_type != b.sample_type {
        out.push(Fact::SampleType);
    }
    if a.unit != b.unit {
        out.push(Fact::Unit);
    }
    if a.period != b.period {
        out.push(Fact::Period);
    }
    if far_opt(a.rate_hz, b.rate_hz) {
        out.push(Fact::Rate);
    }
    if far_opt(a.duration_ns.map(|d| d as f64), b.duration_ns.map(|d| d as f64)) {
        out.push(Fact::Duration);
    }
    if far(a.samples as f64, b.samples as f64) {
        out.push(Fact::Samples);
    }
    if a.labels != b.labels {
        out.push(Fact::Labels);
    }
    out
}

/// `cpu (nanoseconds)`: a sample type with its unit, as mismatch messages name them.
pub fn describe_type(f: &Facts) -> String {
    match &f.sample_type {
        Some(t) => format!("{t} ({})", f.unit.name()),
        None => format!("no sample type ({})", f.unit.name()),
    }
}

/// One row of a diff's header: a fact, both sides' values (several runs joined by `, `, one value when they
/// agree), and whether it differs between the sides.
#[derive(Debug, Clone, PartialEq)]
pub struct FactRow {
    pub fact: Fact,
    pub name: &'static str,
    pub base: String,
    pub target: String,
    pub differs: bool,
}

/// The header rows for runs `b` (base) and `t` (target): sample type, unit, period and rate where any side has
/// one, duration, samples, labels. `one_file` names the sides' sample types as a two-count file's counts.
pub fn fact_rows(b: &[Facts], t: &[Facts], one_file: bool) -> Vec<FactRow> {
    let join = |mut v: Vec<String>| -> String {
        if v.windows(2).all(|w| w.first() == w.last()) {
            v.truncate(1);
        }
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(", ")
        }
    };
    let col = |fs: &[Facts], f: &dyn Fn(&Facts) -> String| join(fs.iter().map(f).collect());
    let mut diffs: Vec<Fact> = Vec::new();
    for x in b {
        for y in t {
            for f in differences(x, y) {
                if !diffs.contains(&f) {
                    diffs.push(f);
                }
            }
        }
    }
    let mut rows = Vec::new();
    let mut push = |fact: Fact, name: &'static str, f: &dyn Fn(&Facts) -> String| {
        rows.push(FactRow {
            fact,
            name,
            base: col(b, f),
            target: col(t, f),
            differs: diffs.contains(&fact),
        })
    };
    push(Fact::SampleType, "sample type", &|x: &Facts| {
        if one_file {
            "first counts".to_string()
        } else {
            x.sample_type.clone().unwrap_or_else(|| "-".to_string())
        }
    });
    push(Fact::Unit, "unit", &|x: &Facts| x.unit.name().to_string());
    let any = |f: &dyn Fn(&Facts) -> bool| b.iter().chain(t).any(f);
    if any(&|x: &Facts| x.period.is_some()) {
        push(Fact::Period, "period", &|x: &Facts| {
            x.period.clone().unwrap_or_else(|| "-".into())
        });
    }
    if any(&|x: &Facts| x.rate_hz.is_some()) {
        push(Fact::Rate, "sample rate", &|x: &Facts| {
            x.rate_hz.map_or("-".into(), |r| format!("{r:.0} Hz per CPU"))
        });
    }
    push(Fact::Duration, "duration", &|x: &Facts| {
        x.duration_ns
            .map_or("-".into(), |n| format_value(n as f64, &Unit::Nanoseconds))
    });
    push(Fact::Samples, "samples", &|x: &Facts| x.samples.to_string());
    push(Fact::Labels, "labels", &|x: &Facts| {
        if x.labels.is_empty() {
            "-".into()
        } else {
            x.labels.join(" ")
        }
    });
    rows
}

/// One line over [`fact_rows`], as the diff bar shows it: what differs (`≠ samples: 213 → 136`, by more than 1.5×
/// for rate, duration and samples), what is only within 1.5× with both values (`within 1.5×: samples 1280 →
/// 1586`), and what is equal. A fact neither side states (`-` on both) is left out. Never says "agree" of two
/// different values.
pub fn facts_summary(rows: &[FactRow]) -> String {
    let mut differ = Vec::new();
    let mut within = Vec::new();
    let mut equal = Vec::new();
    for r in rows {
        if r.differs {
            differ.push(format!("≠ {}: {} → {}", r.name, r.base, r.target));
        } else if r.base != r.target {
            within.push(format!("{} {} → {}", r.name, r.base, r.target));
        } else if r.base != "-" {
            equal.push(r.name);
        }
    }
    let mut parts = Vec::new();
    if !differ.is_empty() {
        parts.push(format!(
            "{} (rate, duration, samples: by more than 1.5×)",
            differ.join(" · ")
        ));
    }
    if !within.is_empty() {
        parts.push(format!("within 1.5×: {}", within.join(", ")));
    }
    if !equal.is_empty() {
        parts.push(format!("equal: {}", equal.join(", ")));
    }
    parts.join(" · ")
}

/// Why a diff of these sides is refused (sample types or units differ), naming both; `None` when comparable.
pub fn refusal(b: &Facts, t: &Facts) -> Option<String> {
    let hard: Vec<Fact> = differences(b, t).into_iter().filter(|d| d.is_hard()).collect();
    if hard.is_empty() {
        return None;
    }
    let what = if hard.contains(&Fact::SampleType) {
        "sample types"
    } else {
        "units"
    };
    Some(format!(
        "the sides are not comparable, their {what} differ: base is {}, target is {}",
        describe_type(b),
        describe_type(t)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{import_bytes, ImportOptions};
    use crate::view::ViewOptions;

    #[test]
    fn folded_and_perf_facts() {
        let f = import_bytes(b"a;b 3\na 1\n", ImportOptions::default())
            .unwrap()
            .profile;
        let ff = facts(&Side {
            profile: &f,
            view: ViewOptions::default_for(&f),
        });
        assert_eq!(ff.sample_type, None);
        assert_eq!(
            (ff.unit.clone(), ff.samples, ff.duration_ns),
            (Unit::Samples, 2, None)
        );
        // Four cpu-clock samples on one CPU over 0.3 s: 4 / 0.3 s.
        let text = b"a 1 [000] 10.000000: 1000 cpu-clock:\n\t1 f (/bin/a)\n\n\
a 1 [000] 10.100000: 1000 cpu-clock:\n\t1 f (/bin/a)\n\n\
a 1 [000] 10.200000: 1000 cpu-clock:\n\t1 f (/bin/a)\n\n\
a 1 [000] 10.300000: 1000 cpu-clock:\n\t1 f (/bin/a)\n\n";
        let p = import_bytes(text, ImportOptions::default()).unwrap().profile;
        let pf = facts(&Side {
            profile: &p,
            view: ViewOptions::default_for(&p),
        });
        assert_eq!(pf.sample_type.as_deref(), Some("cpu-clock"));
        assert_eq!(pf.duration_ns, Some(300_000_000));
        assert!((pf.rate_hz.unwrap() - 4.0 / 0.3).abs() < 1e-9);
        let d = differences(&ff, &pf);
        // Folded text has no sample type: it differs from perf's cpu-clock by its unit (samples, nanoseconds).
        assert!(!d.contains(&Fact::SampleType) && d.contains(&Fact::Unit));
        assert!(d.contains(&Fact::Rate) && d.contains(&Fact::Duration));
        assert!(differences(&pf, &pf).is_empty());
        assert_eq!(describe_type(&pf), "cpu-clock (nanoseconds)");
    }
}
