//! `scorch heatmap`: FlameScope's subsecond-offset heatmap.

use crate::error::Result;
use crate::io::{load_warn, write_out};
use crate::view::{view, EventArgs, ViewSpec};
use clap::Args;
use scorch_core::analysis::heatmap::{heatmap, Heatmap, HeatmapOptions, ROW_CHOICES};
use scorch_core::ImportOptions;
use serde::Serialize;

#[derive(Args, Debug)]
pub struct HeatmapArgs {
    #[command(flatten)]
    pub event: EventArgs,
    /// Rows per second: 10, 25, 49, 50, 99 or 100
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = parse_rows)]
    pub rows: u32,
    /// Count the samples of every event the file recorded, each once (default: the shown event only); derived
    /// events (off-CPU, wall-clock) are views of those and are not counted again
    #[arg(long)]
    pub all_events: bool,
    /// Keep idle (swapper) samples
    #[arg(long)]
    pub no_idle_filter: bool,
    /// JSON: origin_ns, rows, columns, max, counts (per column, row 0 first)
    #[arg(long)]
    pub json: bool,
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

fn parse_rows(s: &str) -> Result<u32, String> {
    s.parse()
        .ok()
        .filter(|r| ROW_CHOICES.contains(r))
        .ok_or_else(|| format!("takes one of {ROW_CHOICES:?}"))
}

/// `--json`'s document: sample counts per column (second), row 0 (offset 0) first.
#[derive(Serialize, Debug, PartialEq)]
pub struct HeatmapJson {
    pub origin_ns: u64,
    pub rows: u32,
    pub columns: u32,
    pub max: u32,
    pub counts: Vec<Vec<u32>>,
    /// Samples past the last column (a capture longer than the grid's cap); only written when there are any.
    #[serde(skip_serializing_if = "is_zero")]
    pub outside: u64,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

impl HeatmapJson {
    pub fn new(h: &Heatmap) -> HeatmapJson {
        HeatmapJson {
            origin_ns: h.origin_ns,
            rows: h.rows,
            columns: h.columns,
            max: h.max,
            counts: (0..h.columns)
                .map(|c| (0..h.rows).map(|r| h.count(c, r)).collect())
                .collect(),
            outside: h.outside,
        }
    }
}

pub fn run(a: &HeatmapArgs) -> Result<()> {
    let imp = load_warn(&a.file, ImportOptions::default())?;
    let p = &imp.profile;
    let mut v = view(p, &ViewSpec::new(&a.event))?;
    if a.all_events {
        // No event: every recorded one, never a derived one (`ViewOptions::event`).
        v.event = None;
    }
    let o = HeatmapOptions {
        rows: a.rows,
        idle_filter: !a.no_idle_filter,
    };
    let h = heatmap(p, &v, &o).ok_or_else(|| {
        format!(
            "{}: no heatmap: the profile has no timestamps ({} input carries none)",
            a.file, p.meta.format
        )
    })?;
    if let Some(note) = h.note() {
        eprintln!("warning: {note}");
    }
    let text = if a.json {
        let mut t = serde_json::to_string(&HeatmapJson::new(&h)).map_err(|e| format!("writing JSON: {e}"))?;
        t.push('\n');
        t
    } else {
        let mut t = format!(
            "origin {:.6} s · {} columns (seconds) × {} rows ({} ms each) · max {} samples per cell\n",
            h.origin_ns as f64 / 1e9,
            h.columns,
            h.rows,
            1000.0 / f64::from(h.rows),
            h.max
        );
        for r in (0..h.rows).rev() {
            t.push_str(&format!(
                "{:>7.1} ms |",
                f64::from(r) * 1000.0 / f64::from(h.rows)
            ));
            for c in 0..h.columns {
                t.push_str(&format!("{:>4}", h.count(c, r)));
            }
            t.push('\n');
        }
        t
    };
    write_out(text.as_bytes())
}
