//! Java Flight Recorder recordings (docs/FORMATS.md, "JFR"), on a recording made here of `Hot.java` with
//! OpenJDK 17 (`tests/data/jfr/PROVENANCE.md`): scorch against the JDK's own reading of the recording, `jfr
//! print`, stored beside it and read by an independent script (`tests/oracles/jfr.py`).
//!
//! - `scorch fold --count` per stack = the `jdk.ExecutionSample` and `jdk.NativeMethodSample` stacks `jfr
//!   print` lists, counted (top frame first there, root first here; stacks the JVM cut, printed with `...`,
//!   under `[truncated stack]`).
//! - `scorch fold --event allocation` per stack = `jdk.ObjectAllocationSample`'s `weight` summed per stack
//!   (from `jfr print --json`); `monitor enter` and `thread park` = `jdk.JavaMonitorEnter`'s and
//!   `jdk.ThreadPark`'s durations in nanoseconds.
//! - Samples per thread = the sampled threads `jfr print` names; the truncated share = its `...` stacks.

mod common;
use common::scorch;

use std::collections::BTreeMap;
use std::process::Command;

fn root() -> String {
    format!("{}/../..", env!("CARGO_MANIFEST_DIR"))
}

fn data(name: &str) -> String {
    format!("{}/tests/data/jfr/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `STACK N` lines (the last space splits), summed per key.
fn lines(text: &str) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for line in text.lines() {
        let (k, n) = line.rsplit_once(' ').unwrap();
        *m.entry(k.to_string()).or_insert(0) += n.parse::<u64>().unwrap();
    }
    m
}

fn oracle(file: &str, args: &[&str]) -> BTreeMap<String, u64> {
    let out = Command::new("python3")
        .arg(format!("{}/tests/oracles/jfr.py", root()))
        .arg(data(file))
        .args(args)
        .output()
        .expect("python3 runs the oracle");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    lines(&String::from_utf8(out.stdout).unwrap())
}

fn fold(args: &[&str]) -> BTreeMap<String, u64> {
    let path = data("hot.jfr");
    let mut all = vec!["fold", "--root", "none"];
    all.extend_from_slice(args);
    all.push(&path);
    let (code, out, err) = scorch(&all);
    assert_eq!(code, 0, "{err}");
    lines(&out)
}

#[test]
fn sample_stacks_equal_jfr_print() {
    let want = oracle("hot.samples.txt", &["stacks"]);
    let got = fold(&["--count"]);
    assert_eq!(got, want);
    // The program's own hot methods, root first, and stacks the JVM cut.
    assert!(
        want.keys()
            .any(|k| k.starts_with("java.lang.Thread.run;demo.Hot$Worker.run;demo.Hot.locked;demo.Hot.fib")),
        "{want:?}"
    );
    assert!(
        want.keys().any(|k| k.starts_with("[truncated stack];")),
        "{want:?}"
    );
    assert!(
        want.keys().any(|k| k.ends_with("sun.nio.ch.Net.poll")),
        "native samples: {want:?}"
    );
}

#[test]
fn allocation_and_lock_weights_equal_jfr_print() {
    for (event, field, jdk) in [
        ("allocation", "weight", "jdk.ObjectAllocationSample"),
        ("monitor enter", "duration", "jdk.JavaMonitorEnter"),
        ("thread park", "duration", "jdk.ThreadPark"),
    ] {
        let want = oracle("hot.others.jsonl", &["weights", field, jdk]);
        assert!(!want.is_empty(), "{jdk}");
        assert_eq!(fold(&["--event", event]), want, "{event}");
    }
}

#[test]
fn threads_and_truncated_share_equal_jfr_print() {
    let want = oracle("hot.samples.txt", &["threads"]);
    let (code, out, err) = scorch(&["fold", "--count", &data("hot.jfr")]);
    assert_eq!(code, 0, "{err}");
    let mut got: BTreeMap<String, u64> = BTreeMap::new();
    for (k, n) in lines(&out) {
        let thread = k.split(';').next().unwrap().to_string();
        *got.entry(thread).or_insert(0) += n;
    }
    assert_eq!(got, want);
    assert!(
        got.contains_key("locker-a") && got.contains_key("waiter"),
        "{got:?}"
    );
    let cut = oracle("hot.samples.txt", &["truncated"])["truncated"];
    assert!(cut > 0);
    let (code, out, err) = scorch(&["info", "--json", &data("hot.jfr")]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "jfr");
    let total: u64 = want.values().sum();
    assert_eq!(v["total"].as_u64(), Some(total));
    let h = &v["stack_health"];
    assert_eq!(h["truncation_basis"], "jvm_walker");
    let share = h["broken_share"].as_f64().unwrap();
    assert_eq!((share * total as f64).round() as u64, cut, "{h}");
}

/// Events with a duration are markers: `scorch markers --json` = `jfr print --json`'s events of those types
/// (`hot.markers.jsonl`, read by `tests/oracles/jfr.py markers`): thread, type, start and duration, each to
/// the nanosecond.
#[test]
fn duration_events_are_markers_as_jfr_print_lists_them() {
    let out = Command::new("python3")
        .arg(format!("{}/tests/oracles/jfr.py", root()))
        .args([&data("hot.markers.jsonl"), "markers"])
        .output()
        .expect("python3 runs the oracle");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let want: Vec<(String, String, u64, u64)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect();
    // 31 monitor enters, 30 parks, 11 safepoints, 7 collections and 7 pauses, 2 waits, 1 compilation.
    assert_eq!(want.len(), 89);
    let (code, text, err) = scorch(&["markers", "--json", &data("hot.jfr")]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut got: Vec<(String, String, u64, u64)> = v["markers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["thread"].as_str().unwrap().to_string(),
                m["name"].as_str().unwrap().to_string(),
                m["start_ns"].as_u64().unwrap(),
                m["duration_ns"].as_u64().unwrap(),
            )
        })
        .collect();
    got.sort();
    assert_eq!(got, want);
    // The lock's contenders, and a collection's cause among its fields.
    assert!(want
        .iter()
        .any(|r| r.0 == "locker-b" && r.1 == "jdk.JavaMonitorEnter"));
    let gc = v["markers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "jdk.GarbageCollection")
        .unwrap();
    assert!(gc["fields"].to_string().contains("G1 Evacuation Pause"), "{gc}");
}
