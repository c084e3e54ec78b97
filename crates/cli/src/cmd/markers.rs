//! `scorch markers FILE [--json]`: the profile's markers (Chrome trace duration and instant events, Gecko
//! markers, JFR events with a duration, perf script tracepoints), by thread then start: the list is the core's (`analysis::markers`).

use crate::error::Result;
use crate::io::{load_warn, write_out};
use clap::Args;
use scorch_core::analysis::markers::marker_list;
use scorch_core::ImportOptions;
use std::fmt::Write as _;

#[derive(Args, Debug)]
pub struct MarkersArgs {
    /// Print the list as one JSON object (`origin_ns`, `markers`: thread, pid, tid, name, category, start_ns,
    /// offset_ns, duration_ns, fields)
    #[arg(long)]
    pub json: bool,
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

/// One line per marker: `THREAD<TAB>START<TAB>DURATION<TAB>NAME`, the start in seconds from the origin (the
/// earliest sample or marker), the duration in milliseconds (`-` for an instant).
pub fn run(a: &MarkersArgs) -> Result<()> {
    let imp = load_warn(&a.file, ImportOptions::default())?;
    let list = marker_list(&imp.profile);
    if a.json {
        let mut text = serde_json::to_string_pretty(&list).map_err(|e| e.to_string())?;
        text.push('\n');
        return write_out(text.as_bytes());
    }
    let mut text = String::new();
    for m in &list.markers {
        let dur = m
            .duration_ns
            .map_or("-".to_string(), |d| format!("{:.3}", d as f64 / 1e6));
        let _ = writeln!(
            text,
            "{}\t{:.6}\t{dur}\t{}",
            m.thread,
            m.offset_ns as f64 / 1e9,
            m.name
        );
    }
    write_out(text.as_bytes())
}
