//! `scorch info`: format, samples, total, events, distinct stacks, maximum depth, how much of the
//! recording's duration the samples account for, the events the recorder lost, the sampling rate, how many
//! samples the shares rest on, and the stacks' health (truncated and unsymbolized shares, depth) with advice.
//! `--json` prints the same facts as one JSON object.

use crate::error::Result;
use crate::io::{load_many, load_warn, write_out};
use crate::view::{declare, UnitArgs};
use clap::Args;
use scorch_core::analysis::stats;
use scorch_core::analysis::summary::summary;
use scorch_core::model::units::{format_value, group_thousands};
use scorch_core::view::ViewOptions;
use scorch_core::ImportOptions;

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// Print the facts as one JSON object
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub unit: UnitArgs,
    /// The profile (`-`: standard input); several are merged as `scorch fold` merges them (the duration is then
    /// the sum of each file's own)
    #[arg(value_name = "FILE", required = true, num_args = 1..)]
    pub file: Vec<String>,
}

pub fn run(a: &InfoArgs) -> Result<()> {
    let (profile, gzip) = match a.file.as_slice() {
        [file] => {
            let imp = load_warn(file, ImportOptions::default())?;
            (imp.profile, imp.gzip)
        }
        files => (load_many(files, ImportOptions::default(), None)?.profile, false),
    };
    let p = &profile;
    let mut v = ViewOptions::default_for(p);
    declare(p, &mut v, a.unit.unit)?;
    let info = summary(p, &v, gzip);
    let (shown, unit, cov, health) = (info.shown, &info.view_unit, &info.coverage, &info.health);
    let lost = p.meta.lost.as_ref();
    let counts = info.share_samples.zip(info.share_samples_source);
    let few = info.few_samples_pp;
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
        format_value(shown.as_f64(), unit),
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
        let of = if a.file.len() > 1 {
            " (the earliest to the latest sample of all files)"
        } else {
            ""
        };
        text.push_str(&format!("time span:       {:.6} s{of}\n", span as f64 / 1e9));
    }
    if let Some(c) = &cov {
        text.push_str(&format!(
            "duration:        {}\n",
            c.describe(unit, p.meta.decimals)
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
