//! What `scorch info` says about a profile under a view: format, samples, total, events, distinct stacks,
//! maximum depth, how much of the recording's duration the samples account for, the events the recorder lost,
//! the sampling rate, how many samples the shares rest on, and the stacks' health. One function assembles it
//! ([`summary`]); the CLI prints it as text or JSON (the serialized fields are the JSON's).

use super::duration::{coverage, Coverage, DurationSource};
use super::health::{stack_health, Basis, DepthStats, StackHealth};
use super::stats::{self, CountSource, SamplingRate};
use crate::model::units::Weight;
use crate::model::{Profile, Unit};
use crate::view::calltree::{CallTree, Order};
use crate::view::ViewOptions;
use serde::Serialize;

/// What `scorch info` says about a profile (the default view: the default event, weighed).
#[derive(Debug, Serialize)]
pub struct Summary {
    pub format: String,
    pub gzip: bool,
    pub samples: u64,
    /// The shown total in the unit's own terms: an integer, or a decimal for fractional folded counts.
    pub total: serde_json::Number,
    pub unit: String,
    pub events: Vec<Event>,
    /// perf: what was derived from scheduler events (off-CPU time, wall-clock), or why not.
    pub off_cpu: Option<String>,
    pub time_span_ns: Option<u64>,
    pub threads: usize,
    pub distinct_stacks: usize,
    pub frames: usize,
    pub call_tree_nodes: usize,
    pub max_depth: usize,
    pub warnings: u64,
    /// The recording's duration (stated by the file, else from the timestamps), `None` without either.
    pub duration_ns: Option<u64>,
    pub duration_source: Option<DurationSource>,
    /// Several files merged: how many files' own durations `duration_ns` sums.
    pub duration_files: Option<u32>,
    pub cpus: Option<u32>,
    /// The total as a percentage of the duration (× CPUs), when the total is a time.
    pub duration_percent: Option<f64>,
    /// Events the recorder reported lost (perf `PERF_RECORD_LOST`), `None` when the input reports none.
    pub lost_events: Option<u64>,
    /// The records that reported them (perf's "lost N chunks").
    pub lost_chunks: Option<u64>,
    /// `lost / (samples + lost) × 100`, as `perf report` prints it.
    pub lost_percent: Option<f64>,
    /// `[second, events]` for each whole second of the timestamps with losses.
    pub lost_per_second: Option<Vec<(u64, u64)>>,
    /// How often the profile sampled (timestamps per CPU or thread, or pprof's period).
    pub sampling: Option<SamplingRate>,
    /// The sample count the shown shares rest on, and where it comes from (`None`: the profile has none).
    pub share_samples: Option<u64>,
    pub share_samples_source: Option<CountSource>,
    /// The widest 95 % half-width of a share, in percentage points, when fewer than 1,000 samples.
    pub few_samples_pp: Option<f64>,
    pub stack_health: Health,
    /// For the text: the shown total and its unit, the duration, the stacks' health in full.
    #[serde(skip)]
    pub shown: Weight,
    #[serde(skip)]
    pub view_unit: Unit,
    #[serde(skip)]
    pub coverage: Option<Coverage>,
    #[serde(skip)]
    pub health: StackHealth,
}

/// Stack health (docs/FORMATS.md): shares of the shown total (0–1) and the weighted depth distribution.
#[derive(Debug, Serialize)]
pub struct Health {
    pub broken_share: f64,
    pub unsymbolized_share: f64,
    pub depth: DepthStats,
    /// How `broken_share` was decided: `entry_points`, or 0 by construction (`go_runtime`, `v8_profiler`) or not judged
    /// (`no_entry_points`).
    pub truncation_basis: Basis,
    /// Binaries whose addresses have no names yet (`MODULE+0xOFFSET` frames), each with the weight of the
    /// stacks through it, heaviest first; absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<(String, u64)>,
}

#[derive(Debug, Serialize)]
pub struct Event {
    pub name: String,
    pub samples: u64,
    pub total: u64,
    pub unit: String,
    pub shown: bool,
}

/// The summary of `p` under `v` (`gzip`: whether the input was gzip'd).
pub fn summary(p: &Profile, v: &ViewOptions, gzip: bool) -> Summary {
    let tree = CallTree::build(p, v, Order::Alphabetical);
    let used_stacks = {
        let mut seen = vec![false; p.stacks.len()];
        for s in &p.samples.stack {
            if let Some(x) = seen.get_mut(s.idx()) {
                *x = true;
            }
        }
        seen.iter().filter(|&&b| b).count()
    };
    let unit = v.unit(p);
    let shown = Weight {
        raw: tree.total.first().copied().unwrap_or(0),
        decimals: p.meta.decimals,
    };
    let time_span_ns = p.samples.time_ns.as_ref().and_then(|t| {
        let (a, b) = (t.iter().min()?, t.iter().max()?);
        Some(b - a)
    });
    let cov = coverage(p, v);
    let lost = p.meta.lost.as_ref();
    let counts = super::functions::function_counts(p, v).map(|(_, n, src)| (n, src));
    let few = counts
        .filter(|&(n, _)| n < stats::FEW_SAMPLES)
        .and_then(|(n, _)| stats::widest_half_pp(n));
    let health = stack_health(p, v);
    Summary {
        format: p.meta.format.to_string(),
        gzip,
        samples: p.meta.records,
        total: if p.meta.decimals == 0 {
            shown.raw.into()
        } else {
            serde_json::Number::from_f64(shown.as_f64()).unwrap_or_else(|| shown.raw.into())
        },
        unit: unit.name().to_string(),
        events: p
            .events
            .iter()
            .enumerate()
            .map(|(i, e)| Event {
                name: e.name.clone(),
                samples: e.samples,
                total: e.total,
                unit: e.unit.name().to_string(),
                shown: Some(i as u16) == v.event,
            })
            .collect(),
        off_cpu: p
            .meta
            .info
            .iter()
            .find(|(k, _)| k == crate::model::OFF_CPU_NOTE)
            .map(|(_, v)| v.clone()),
        time_span_ns,
        threads: p.threads.len(),
        distinct_stacks: used_stacks,
        frames: p.frames.len(),
        call_tree_nodes: tree.len().saturating_sub(1),
        max_depth: p.max_depth(),
        warnings: p.meta.warnings.count,
        duration_ns: cov.as_ref().map(|c| c.duration_ns),
        duration_source: cov.as_ref().map(|c| c.source),
        duration_files: cov.as_ref().and_then(|c| c.files),
        cpus: cov.as_ref().and_then(|c| c.cpus),
        duration_percent: cov.as_ref().and_then(|c| c.percent),
        lost_events: lost.map(|l| l.events),
        lost_chunks: lost.map(|l| l.records),
        lost_percent: lost.map(|l| l.share(p.meta.records) * 100.0),
        lost_per_second: lost.map(|l| l.per_second.clone()),
        sampling: stats::sampling_rate(p, v),
        share_samples: counts.map(|c| c.0),
        share_samples_source: counts.map(|c| c.1),
        few_samples_pp: few,
        stack_health: Health {
            broken_share: health.broken_percent() / 100.0,
            unsymbolized_share: health.unsymbolized_percent() / 100.0,
            depth: health.depth,
            truncation_basis: health.basis,
            unresolved: health.unresolved.clone(),
        },
        shown,
        view_unit: unit,
        coverage: cov,
        health,
    }
}
