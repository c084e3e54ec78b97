//! Which samples an event choice counts (issue 40), on recordings made for it (perf-made/README.md, "issue 40"):
//!
//! - `scorch heatmap --all-events` counts the file's samples once: the derived off-CPU and wall-clock events are
//!   views of recorded samples, never more of them. The count to meet is perf's own (`perf script -F event |
//!   sort | uniq -c`, in `perf-made/issue40-oracle.txt`) and the number of event header lines in the text.
//! - An event is named as perf prints it, modifiers included: a recording with `-e cpu-clock:u -e cpu-clock:k`
//!   has two events, with perf's sample counts and periods; `--event cpu-clock:u` selects one; the bare
//!   `cpu-clock` is ambiguous there (an error naming both) and selects the one event where it is not.

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

/// Per event, the number of samples and the sum of their periods (1 when none is printed), read from the text:
/// after the time (`SECONDS.FRACTION:`) comes the period, if any, then the event.
fn read_events(text: &str) -> BTreeMap<String, (u64, u64)> {
    let is_time = |t: &str| {
        t.strip_suffix(':')
            .and_then(|t| t.split_once('.'))
            .is_some_and(|(a, b)| !a.is_empty() && (a.to_owned() + b).bytes().all(|c| c.is_ascii_digit()))
    };
    let mut out = BTreeMap::new();
    for h in header_lines(text) {
        let toks: Vec<&str> = h.split_whitespace().collect();
        let t = toks.iter().position(|t| is_time(t)).unwrap();
        let (period, event) = match toks[t + 1].parse::<u64>() {
            Ok(p) => (p, toks[t + 2]),
            Err(_) => (1, toks[t + 1]),
        };
        let e = out
            .entry(event.trim_end_matches(':').to_string())
            .or_insert((0, 0));
        e.0 += 1;
        e.1 += period;
    }
    out
}

fn sum_folded(out: &str) -> u64 {
    out.lines()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum()
}

#[test]
fn events_keep_their_modifiers() {
    let rel = "perf-made/modifiers.txt";
    let file = core_data(rel);
    let perf = perf_counts("modifiers.txt");
    assert_eq!(perf.len(), 2, "{perf:?}");
    let read = read_events(&text(rel));
    let info: Value = serde_json::from_str(&ok(&["info", "--json", &file])).unwrap();
    let events: BTreeMap<String, (u64, u64)> = info["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_string(),
                (e["samples"].as_u64().unwrap(), e["total"].as_u64().unwrap()),
            )
        })
        .collect();
    assert_eq!(events, read, "the events, their sample counts and periods");
    for (name, n) in &perf {
        assert_eq!(events[name].0, *n, "{name}: perf's count");
    }
    // perf report's "Event count" for each event is the sum of its periods.
    let oracle = text("perf-made/issue40-oracle.txt");
    for (name, (_, total)) in &events {
        let line = oracle
            .lines()
            .skip_while(|l| !l.contains(&format!("of event '{name}'")))
            .nth(1)
            .unwrap();
        assert_eq!(line, format!("# Event count (approx.): {total}"));
    }

    for (name, (n, total)) in &read {
        assert_eq!(
            sum_folded(&ok(&["fold", "--event", name, &file])),
            *total,
            "{name}"
        );
        assert_eq!(
            sum_folded(&ok(&["fold", "--count", "--event", name, &file])),
            *n,
            "{name}"
        );
    }
    // The bare name fits both: an error that names them.
    let (code, out, err) = scorch(&["fold", "--event", "cpu-clock", &file]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.contains("ambiguous") && err.contains("cpu-clock:u") && err.contains("cpu-clock:k"),
        "{err}"
    );
}

#[test]
fn a_bare_name_selects_the_one_event_that_has_it() {
    let rel = "perf-made/modifiers-sched.txt.gz";
    let file = core_data(rel);
    let perf = perf_counts("modifiers-sched.txt.gz");
    let n = perf["cpu-clock:u"];
    assert_eq!(read_events(&text(rel))["cpu-clock:u"].0, n);
    assert_eq!(
        sum_folded(&ok(&["fold", "--count", "--event", "cpu-clock", &file])),
        n
    );
    assert_eq!(
        ok(&["fold", "--event", "cpu-clock", &file]),
        ok(&["fold", "--event", "cpu-clock:u", &file])
    );
    // Its period is time, so wall-clock is derived from it.
    let info = ok(&["info", &file]);
    assert!(info.contains("wall-clock = cpu-clock:u (on-CPU"), "{info}");
}
