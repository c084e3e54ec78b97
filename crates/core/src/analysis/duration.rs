//! Missing time: how much of the recording the samples account for, as `go tool pprof` prints it
//! ("Duration: 30.16s, Total samples = 29.74s (98.62%)"). When the widths do not add up to the wall clock, the
//! rest of the time was spent off-CPU (or lost), which is where an investigation looks next.
//!
//! The duration is the one the file states (pprof's `duration_nanos`); else, for samples with timestamps, the
//! span from the first to the last sample the view selects (or the view's time range), times the number of
//! CPUs those samples ran on when the input names them (perf's `[cpu]`): the CPU time that was there to be
//! sampled. The share is given only when the shown total is a time (nanoseconds), as pprof does, and never
//! against an invented CPU count: perf script without its `cpu` field leaves the number of CPUs unknown.
//!
//! A merged profile (several files combined by [`crate::import::many`]) holds separate recordings: its duration
//! is the **sum of each file's own** (stated, else the first to the last of that file's selected samples, times
//! that file's CPUs), never the first file's nor the span from the earliest file's first sample to the latest
//! file's last. So the summed total's share of it is at most 100 % when each file's is, and a `profile=NAME`
//! label filter gives that file's own duration and share.

use crate::import::many::{profile_durations, PROFILE_LABEL};
use crate::model::units::{format_percent, format_value};
use crate::model::{Format, LabelValue, Profile, Unit, Weight};
use crate::view::{band_span_ns, label_key, LabelMatch, ViewOptions};
use rustc_hash::FxHashMap as HashMap;

/// Where a [`Coverage`]'s duration comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DurationSource {
    /// The file says how long the recording lasted (pprof `duration_nanos`).
    Stated,
    /// From the first to the last selected sample's timestamp.
    Span,
    /// The view's time range.
    Range,
    /// A merged profile whose files give their durations both ways (some state one, some have timestamps).
    Mixed,
}

/// The recording's duration beside what the samples add up to.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Coverage {
    pub duration_ns: u64,
    pub source: DurationSource,
    /// CPUs the selected samples ran on, when the input names them (then the available time is
    /// `duration × cpus`).
    pub cpus: Option<u32>,
    /// The input could name CPUs (perf script) but does not (perf script without its `cpu` field): the CPU
    /// time that was there to be sampled is unknown, so there is no share.
    pub cpus_unknown: bool,
    /// V8 profiles (`.cpuprofile`, Chrome trace) of several threads: each thread is sampled the whole time
    /// (the profiler samples its isolate, whatever the CPUs do), so the time there was to sample is
    /// `duration × threads`. `None` for one thread and for every other format.
    pub threads: Option<u32>,
    /// A merged profile: the number of files whose own durations `duration_ns` sums (those the view's
    /// `profile=NAME` filter keeps); `None` for a single profile.
    pub files: Option<u32>,
    /// A merged profile whose files ran on different numbers of CPUs: the CPU time that was there to be
    /// sampled, `Σ duration × CPUs` over the files (`cpus` is then `None`).
    pub cpu_time_ns: Option<u64>,
    /// The view's total (raw weight units, see the profile's `decimals`).
    pub total: u64,
    /// `total` as a percentage of the available time, when the total is a time.
    pub percent: Option<f64>,
}

impl Coverage {
    /// `30.157 s (stated in the file), total 29.740 s (98.6 %)`, as `go tool pprof` heads its reports; the share
    /// only when the total is a time. `unit` and `decimals` are the view's (for the total).
    /// A merged profile of several files: `2 files, total duration 2.166 s (stated in each file), total …`.
    pub fn describe(&self, unit: &Unit, decimals: u32) -> String {
        let d = format_value(self.duration_ns as f64, &Unit::Nanoseconds);
        let many = self.files.is_some_and(|n| n != 1);
        let d = match self.files {
            Some(n) if many => format!("{n} files, total duration {d}"),
            _ => d,
        };
        let cpus = match self.cpus {
            Some(1) => " on 1 CPU".to_string(),
            Some(n) => format!(" × {n} CPUs"),
            None if self.cpus_unknown => " on an unknown number of CPUs".to_string(),
            None => match (self.threads, self.cpu_time_ns) {
                (Some(n), _) => format!(" × {n} threads (each sampled throughout)"),
                (None, Some(t)) => format!(" (CPU time {})", format_value(t as f64, &Unit::Nanoseconds)),
                (None, None) => String::new(),
            },
        };
        let source = match (self.source, many) {
            (DurationSource::Stated, false) => "stated in the file",
            (DurationSource::Stated, true) => "stated in each file",
            (DurationSource::Span, false) => "first to last sample",
            (DurationSource::Span, true) => "first to last sample of each file",
            (DurationSource::Range, _) => "the time range",
            (DurationSource::Mixed, _) => "stated in the file, else first to last sample, per file",
        };
        let total = Weight {
            raw: self.total,
            decimals,
        };
        let total = format_value(total.as_f64(), unit);
        match self.percent {
            Some(pct) => format!(
                "{d}{cpus} ({source}), total {total} ({})",
                format_percent(pct, 100.0)
            ),
            None => format!("{d}{cpus} ({source}), total {total}"),
        }
    }
}

/// The coverage of a view, or `None` when the profile states no duration and has no timestamps.
pub fn coverage(p: &Profile, v: &ViewOptions) -> Option<Coverage> {
    let inputs = profile_durations(p);
    // A time range is one window of the common clock, not a duration per file.
    if !inputs.is_empty() && v.time_range.is_none() {
        return merged_coverage(p, v, &inputs);
    }
    let mut total = 0u64;
    let (mut first, mut last) = (u64::MAX, 0u64);
    let mut cpus: Vec<u32> = Vec::new();
    let mut threads: Vec<u32> = Vec::new();
    let times = p.samples.time_ns.as_ref();
    let cpu_col = p.samples.cpu.as_ref();
    let per_thread = matches!(p.meta.format, Format::V8CpuProfile | Format::ChromeTrace);
    let thread_col = p.samples.thread.as_ref().filter(|_| per_thread);
    for i in 0..p.samples.len() {
        let Some(w) = v.weigh(p, i) else { continue };
        total = total.saturating_add(w);
        if let Some(&t) = thread_col.and_then(|t| t.get(i)) {
            threads.push(t);
        }
        if let Some(&t) = times.and_then(|t| t.get(i)) {
            first = first.min(t);
            last = last.max(t);
        }
        // perf writes u32::MAX for a sample without a `[cpu]` field.
        if let Some(&c) = cpu_col.and_then(|c| c.get(i)).filter(|&&c| c != u32::MAX) {
            cpus.push(c);
        }
    }
    cpus.sort_unstable();
    cpus.dedup();
    threads.sort_unstable();
    threads.dedup();
    let threads = count(&threads).filter(|&n| n > 1);
    let (duration_ns, source, cpus) = if let Some(d) = p.meta.duration_ns {
        (d, DurationSource::Stated, None)
    } else if let Some((a, b)) = v.time_range {
        // A band covers only its offsets of each second.
        let d = v.offsets.map_or(b.saturating_sub(a), |o| band_span_ns(a, b, o));
        (d, DurationSource::Range, count(&cpus))
    } else if times.is_some() && first <= last {
        let d = v.offsets.map_or(last - first, |o| band_span_ns(first, last, o));
        (d, DurationSource::Span, count(&cpus))
    } else {
        return None;
    };
    // The share only when the total is a time: nanoseconds, or a time unit declared for folded counts.
    // Never against an invented CPU count: a span over samples that may have run on several CPUs at once.
    let cpus_unknown = source != DurationSource::Stated && cpu_col.is_some() && cpus.is_none();
    let ns_per_unit = v.unit(p).ns_per_unit().filter(|_| !cpus_unknown);
    let available = duration_ns as f64 * f64::from(cpus.or(threads).unwrap_or(1));
    let percent = share(p, total, ns_per_unit, available);
    Some(Coverage {
        duration_ns,
        source,
        cpus,
        cpus_unknown,
        threads,
        files: None,
        cpu_time_ns: None,
        total,
        percent,
    })
}

/// The coverage of a merged profile's view: each counted file's own duration (stated, else the span of its
/// selected samples × its CPUs), summed. A file counts unless the view's `profile=NAME` filter leaves it out.
/// O(samples + label sets).
fn merged_coverage(p: &Profile, v: &ViewOptions, inputs: &[(String, Option<u64>)]) -> Option<Coverage> {
    let n = inputs.len();
    let by_name: HashMap<&str, usize> = inputs
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.as_str(), i))
        .collect();
    let key = label_key(p, PROFILE_LABEL);
    // The file of each label set.
    let set_input: Vec<Option<usize>> = p
        .label_sets
        .iter()
        .map(|set| {
            let l = set.iter().find(|l| Some(l.key) == key)?;
            match l.value {
                LabelValue::Str(s) => by_name.get(p.strings.get(s)).copied(),
                LabelValue::Num(..) => None,
            }
        })
        .collect();
    let counted = |name: &str| match &v.label {
        Some(f) if Some(f.key) == key => match f.matcher {
            LabelMatch::Str(s) => p.strings.get(s) == name,
            LabelMatch::Range(..) => false,
        },
        _ => true,
    };
    let times = p.samples.time_ns.as_ref();
    let cpu_col = p.samples.cpu.as_ref();
    let labels = p.samples.labels.as_ref();
    // Per file: the first and last selected timestamp, the CPUs named.
    let mut acc: Vec<((u64, u64), Vec<u32>)> = vec![((u64::MAX, 0u64), Vec::new()); n];
    let mut total = 0u64;
    for i in 0..p.samples.len() {
        let Some(w) = v.weigh(p, i) else { continue };
        total = total.saturating_add(w);
        let Some(k) = labels
            .and_then(|l| l.get(i))
            .and_then(|&s| set_input.get(s as usize).copied().flatten())
            .and_then(|k| acc.get_mut(k))
        else {
            continue;
        };
        let (span, cpus) = k;
        if let Some(&t) = times.and_then(|t| t.get(i)) {
            span.0 = span.0.min(t);
            span.1 = span.1.max(t);
        }
        // perf writes u32::MAX for a sample without a `[cpu]` field.
        if let Some(&c) = cpu_col.and_then(|c| c.get(i)).filter(|&&c| c != u32::MAX) {
            cpus.push(c);
        }
    }
    let (mut duration_ns, mut available, mut files) = (0u64, 0f64, 0u32);
    let (mut stated, mut spanned, mut cpus_unknown) = (false, false, false);
    let mut counts: Vec<Option<u32>> = Vec::new();
    for ((name, own), ((a, b), list)) in inputs.iter().zip(&mut acc) {
        if !counted(name) {
            continue;
        }
        files += 1;
        let (d, c) = if let Some(d) = *own {
            stated = true;
            (d, None)
        } else if times.is_some() {
            spanned = true;
            let (a, b) = (*a, *b);
            // A file none of whose samples the view selects adds no time.
            let d = if a <= b {
                v.offsets.map_or(b - a, |o| band_span_ns(a, b, o))
            } else {
                0
            };
            list.sort_unstable();
            list.dedup();
            let c = count(list);
            cpus_unknown |= cpu_col.is_some() && c.is_none() && a <= b;
            counts.push(c);
            (d, c)
        } else {
            // Neither stated nor timed: the sum is unknown.
            return None;
        };
        duration_ns = duration_ns.saturating_add(d);
        available += d as f64 * f64::from(c.unwrap_or(1));
    }
    if files == 0 {
        return None;
    }
    let source = match (stated, spanned) {
        (true, true) => DurationSource::Mixed,
        (true, false) => DurationSource::Stated,
        _ => DurationSource::Span,
    };
    let same = counts.iter().all(|c| Some(c) == counts.first());
    let cpus = counts.first().copied().flatten().filter(|_| same && !stated);
    let cpu_time_ns = (cpus.is_none() && !cpus_unknown && counts.iter().any(|c| c.is_some_and(|c| c > 1)))
        .then_some(available as u64);
    let ns_per_unit = v.unit(p).ns_per_unit().filter(|_| !cpus_unknown);
    let percent = share(p, total, ns_per_unit, available);
    Some(Coverage {
        duration_ns,
        source,
        cpus,
        cpus_unknown,
        threads: None,
        files: Some(files),
        cpu_time_ns,
        total,
        percent,
    })
}

/// `total` (the view's raw weight) as a percentage of `available` ns, when the total is a time (`ns_per_unit`).
fn share(p: &Profile, total: u64, ns_per_unit: Option<f64>, available: f64) -> Option<f64> {
    let t = Weight {
        raw: total,
        decimals: p.meta.decimals,
    };
    ns_per_unit
        .filter(|_| available > 0.0)
        .map(|k| t.as_f64() * k / available * 100.0)
}

fn count(cpus: &[u32]) -> Option<u32> {
    (!cpus.is_empty()).then(|| u32::try_from(cpus.len()).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{import_bytes, ImportOptions};

    #[test]
    fn folded_has_no_duration() {
        let p = import_bytes(b"a;b 3\n", ImportOptions::default())
            .unwrap()
            .profile;
        assert_eq!(coverage(&p, &ViewOptions::default_for(&p)), None);
    }

    #[test]
    fn perf_span_times_cpus() {
        // Two CPUs, 1 s apart; cpu-clock periods of 0.25 s each: 1 s of samples in 2 CPU-seconds.
        let text = b"a 1 [000] 10.000000: 250000000 cpu-clock:\n\t1 f (/bin/a)\n\n\
a 1 [001] 10.500000: 250000000 cpu-clock:\n\t1 f (/bin/a)\n\n\
a 1 [000] 10.750000: 250000000 cpu-clock:\n\t1 f (/bin/a)\n\n\
a 1 [001] 11.000000: 250000000 cpu-clock:\n\t1 f (/bin/a)\n\n";
        let p = import_bytes(text, ImportOptions::default()).unwrap().profile;
        let c = coverage(&p, &ViewOptions::default_for(&p)).unwrap();
        assert_eq!(
            (c.duration_ns, c.source, c.cpus),
            (1_000_000_000, DurationSource::Span, Some(2))
        );
        assert_eq!(c.total, 1_000_000_000);
        assert_eq!(c.percent, Some(50.0));
        assert_eq!(
            c.describe(&Unit::Nanoseconds, 0),
            "1.000 s × 2 CPUs (first to last sample), total 1.000 s (50.0 %)"
        );
        // Counted instead of weighed: no share of a time.
        let v = ViewOptions {
            weight: crate::WeightMode::Count,
            ..ViewOptions::default_for(&p)
        };
        assert_eq!(coverage(&p, &v).unwrap().percent, None);
    }
}
