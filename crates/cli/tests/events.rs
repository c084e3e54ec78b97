//! Which samples an event choice counts (issue 40), on recordings made for it (perf-made/README.md, "issue 40"):
//!
//! - `scorch heatmap --all-events` counts the file's samples once: the derived off-CPU and wall-clock events are
//!   views of recorded samples, never more of them. The count to meet is perf's own (`perf script -F event |
//!   sort | uniq -c`, in `perf-made/issue40-oracle.txt`) and the number of event header lines in the text.

mod common;
use common::{core_data, scorch};

use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Read;

fn text(rel: &str) -> String {
    let bytes = std::fs::read(core_data(rel)).unwrap();
    if rel.ends_with(".gz") {
        let mut s = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .unwrap();
        s
    } else {
        String::from_utf8(bytes).unwrap()
    }
}

/// perf's own counts per event for `file` (`perf script -F event | sort | uniq -c`, issue40-oracle.txt).
fn perf_counts(file: &str) -> BTreeMap<String, u64> {
    let oracle = text("perf-made/issue40-oracle.txt");
    let head = format!("# {file}: perf script -F event");
    let mut lines = oracle.lines().skip_while(|l| !l.starts_with(&head)).skip(1);
    let mut out = BTreeMap::new();
    for l in lines.by_ref().take_while(|l| !l.starts_with('#')) {
        let (n, ev) = l.trim().split_once(' ').unwrap();
        out.insert(ev.trim().trim_end_matches(':').to_string(), n.parse().unwrap());
    }
    assert!(!out.is_empty(), "no counts for {file}");
    out
}

/// Sample header lines: the lines that start at column 0 (frames are indented, samples end with a blank line).
fn header_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with(|c: char| c.is_whitespace()) && !l.starts_with('#'))
        .collect()
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = scorch(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn heatmap_total(rel: &str) -> u64 {
    let out = ok(&[
        "heatmap",
        "--json",
        "--all-events",
        "--no-idle-filter",
        &core_data(rel),
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    v["counts"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c.as_array().unwrap())
        .map(|n| n.as_u64().unwrap())
        .sum()
}

#[test]
fn all_events_counts_the_recorded_samples_once() {
    // System-wide sched_switch: 632 switches, from which scorch derives hundreds of off-CPU waits.
    let rel = "perf-made/sched-all.txt.gz";
    let perf: u64 = perf_counts("sched-all.txt.gz").values().sum();
    assert_eq!(header_lines(&text(rel)).len() as u64, perf);
    let info: Value = serde_json::from_str(&ok(&["info", "--json", &core_data(rel)])).unwrap();
    let derived = info["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"].as_str().unwrap().starts_with("off-CPU"))
        .map(|e| e["samples"].as_u64().unwrap())
        .unwrap();
    assert!(
        derived > 100,
        "the recording has derived waits to leave out: {derived}"
    );
    assert_eq!(heatmap_total(rel), perf, "derived waits are not recorded samples");

    // cpu-clock and sched_switch, with both derived events (off-CPU and wall-clock): each sample once.
    let rel = "perf-made/offcpu.txt";
    assert_eq!(heatmap_total(rel), header_lines(&text(rel)).len() as u64);
    // cpu-clock:u and sched_switch, recorded system-wide.
    let rel = "perf-made/modifiers-sched.txt.gz";
    let perf: u64 = perf_counts("modifiers-sched.txt.gz").values().sum();
    assert_eq!(heatmap_total(rel), perf);
}
