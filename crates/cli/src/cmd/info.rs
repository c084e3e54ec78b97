//! `scorch info`: format, samples, total, events, distinct stacks, maximum depth, how much of the
//! recording's duration the samples account for, the events the recorder lost, the sampling rate, how many
//! samples the shares rest on, and the stacks' health (truncated and unsymbolized shares, depth) with advice.
//! `--json` prints the same facts as one JSON object.

use crate::error::Result;
use crate::io::{load_warn, write_out};
use crate::view::{declare, UnitArgs};
use clap::Args;
use scorch_core::analysis::duration::{coverage, DurationSource};
use scorch_core::analysis::functions;
use scorch_core::analysis::health::{stack_health, Basis, DepthStats};
use scorch_core::analysis::stats::{self, CountSource, SamplingRate};
use scorch_core::model::units::{format_value, group_thousands, Weight};
use scorch_core::view::calltree::{CallTree, Order};
use scorch_core::view::ViewOptions;
use scorch_core::ImportOptions;
use serde::Serialize;

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// Print the facts as one JSON object
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub unit: UnitArgs,
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

/// What `scorch info` says about a profile (the default view: the default event, weighed).
#[derive(Serialize)]
struct Info {
    format: String,
    gzip: bool,
    samples: u64,
    /// The shown total in the unit's own terms: an integer, or a decimal for fractional folded counts.
    total: serde_json::Number,
    unit: String,
    events: Vec<Event>,
    /// perf: what was derived from scheduler events (off-CPU time, wall-clock), or why not.
    off_cpu: Option<String>,
    time_span_ns: Option<u64>,
    threads: usize,
    distinct_stacks: usize,
    frames: usize,
    call_tree_nodes: usize,
    max_depth: usize,
    warnings: u64,
    /// The recording's duration (stated by the file, else from the timestamps), `None` without either.
    duration_ns: Option<u64>,
    duration_source: Option<DurationSource>,
    cpus: Option<u32>,
    /// The total as a percentage of the duration (× CPUs), when the total is a time.
    duration_percent: Option<f64>,
    /// Events the recorder reported lost (perf `PERF_RECORD_LOST`), `None` when the input reports none.
    lost_events: Option<u64>,
    /// The records that reported them (perf's "lost N chunks").
    lost_chunks: Option<u64>,
    /// `lost / (samples + lost) × 100`, as `perf report` prints it.
    lost_percent: Option<f64>,
    /// `[second, events]` for each whole second of the timestamps with losses.
    lost_per_second: Option<Vec<(u64, u64)>>,
    /// How often the profile sampled (timestamps per CPU or thread, or pprof's period).
    sampling: Option<SamplingRate>,
    /// The sample count the shown shares rest on, and where it comes from (`None`: the profile has none).
    share_samples: Option<u64>,
    share_samples_source: Option<CountSource>,
    /// The widest 95 % half-width of a share, in percentage points, when fewer than 1,000 samples.
    few_samples_pp: Option<f64>,
    stack_health: Health,
}

/// Stack health (docs/FORMATS.md): shares of the shown total (0–1) and the weighted depth distribution.
#[derive(Serialize)]
struct Health {
    broken_share: f64,
    unsymbolized_share: f64,
    depth: DepthStats,
    /// How `broken_share` was decided: `entry_points`, or 0 by construction (`go_runtime`, `v8_profiler`) or not judged
    /// (`no_entry_points`).
    truncation_basis: Basis,
}

#[derive(Serialize)]
struct Event {
    name: String,
    samples: u64,
    total: u64,
    unit: String,
    shown: bool,
}

pub fn run(a: &InfoArgs) -> Result<()> {
    let imp = load_warn(&a.file, ImportOptions::default())?;
    let p = &imp.profile;
    let mut v = ViewOptions::default_for(p);
    declare(p, &mut v, a.unit.unit)?;
    let tree = CallTree::build(p, &v, Order::Alphabetical);
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
    let cov = coverage(p, &v);
    let lost = p.meta.lost.as_ref();
    let counts = functions::function_counts(p, &v).map(|(_, n, src)| (n, src));
    let few = counts
        .filter(|&(n, _)| n < stats::FEW_SAMPLES)
        .and_then(|(n, _)| stats::widest_half_pp(n));
    let health = stack_health(p, &v);
    let info = Info {
        format: p.meta.format.to_string(),
        gzip: imp.gzip,
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
            .find(|(k, _)| k == scorch_core::import::perf::sched::NOTE)
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
        cpus: cov.as_ref().and_then(|c| c.cpus),
        duration_percent: cov.as_ref().and_then(|c| c.percent),
        lost_events: lost.map(|l| l.events),
        lost_chunks: lost.map(|l| l.records),
        lost_percent: lost.map(|l| l.share(p.meta.records) * 100.0),
        lost_per_second: lost.map(|l| l.per_second.clone()),
        sampling: stats::sampling_rate(p, &v),
        share_samples: counts.map(|c| c.0),
        share_samples_source: counts.map(|c| c.1),
        few_samples_pp: few,
        stack_health: Health {
            broken_share: health.broken_percent() / 100.0,
            unsymbolized_share: health.unsymbolized_percent() / 100.0,
            depth: health.depth,
            truncation_basis: health.basis,
        },
    };
    if a.json {
        let mut text = serde_json::to_string_pretty(&info).map_err(|e| e.to_string())?;
        text.push('\n');
        return write_out(text.as_bytes());
    }
    let mut text = format!(
        "format:          {}{}\nsamples:         {}\ntotal:           {} ({})\nunit:            {}\n",
        info.format,
        if info.gzip { " (gzip)" } else { "" },
        info.samples,
        shown,
        format_value(shown.as_f64(), &unit),
        info.unit,
    );
    if !info.events.is_empty() {
        text.push_str("events:\n");
        for e in &info.events {
            text.push_str(&format!(
                "  {}{}: {} samples, total {} {}\n",
                e.name,
                if e.shown { " (shown)" } else { "" },
                group_thousands(e.samples),
                group_thousands(e.total),
                e.unit
            ));
        }
    }
    if let Some(note) = &info.off_cpu {
        text.push_str(&format!("off-CPU:         {note}\n"));
    }
    if let Some(span) = info.time_span_ns {
        text.push_str(&format!("time span:       {:.6} s\n", span as f64 / 1e9));
    }
    if let Some(c) = &cov {
        text.push_str(&format!(
            "duration:        {}\n",
            c.describe(&unit, p.meta.decimals)
        ));
    }
    if let Some(l) = lost {
        text.push_str(&format!(
            "lost:            {} events in {} chunks ({:.2} % of {} samples + lost); the busiest moments are \
             under-counted\n",
            group_thousands(l.events),
            group_thousands(l.records),
            l.share(p.meta.records) * 100.0,
            group_thousands(p.meta.records.saturating_add(l.events)),
        ));
    }
    if let Some(r) = &info.sampling {
        text.push_str(&format!("sampling rate:   {}\n", r.describe()));
        if !r.per_group.is_empty() {
            const SHOWN: usize = 8;
            let list: Vec<String> = r
                .per_group
                .iter()
                .take(SHOWN)
                .map(|g| format!("{} {} Hz", g.group, stats::format_hz(g.hz)))
                .collect();
            let more = r.per_group.len().saturating_sub(SHOWN);
            text.push_str(&format!(
                "  achieved:      {}{}\n",
                list.join(", "),
                if more > 0 {
                    format!(", … ({more} more)")
                } else {
                    String::new()
                }
            ));
        }
    }
    if let (Some((n, _)), Some(pp)) = (counts, few) {
        text.push_str(&format!(
            "few samples:     shares rest on {} samples: they are ± {:.1} pp (95 %)\n",
            group_thousands(n),
            pp
        ));
    }
    if info.threads > 0 {
        text.push_str(&format!(
            "threads:         {}\n",
            group_thousands(info.threads as u64)
        ));
    }
    text.push_str(&format!(
        "distinct stacks: {}\nframes:          {}\ncall-tree nodes: {}\nmax depth:       {}\nwarnings:        {}\n",
        group_thousands(info.distinct_stacks as u64),
        group_thousands(info.frames as u64),
        group_thousands(info.call_tree_nodes as u64),
        info.max_depth,
        info.warnings,
    ));
    for line in health.describe() {
        text.push_str(&line);
        text.push('\n');
    }
    for a in health.advice() {
        text.push_str(&format!("advice:          {}: {}\n", a.title, a.text));
    }
    write_out(text.as_bytes())
}
