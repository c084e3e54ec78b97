//! The thread choice on a real three-thread perf recording (`perf-made/threads.txt`): `--tagfilter tid=N` (and
//! `comm=`, `pid=`, lists) and a thread-slice diff, checked against `tests/oracles/threads.py`, an independent
//! Python reading of the perf script text (`tests/data/threads/oracle.json`).

mod common;
use common::{core_data, scorch};

use serde_json::Value;
use std::collections::BTreeMap;

fn oracle() -> Value {
    let path = format!("{}/tests/data/threads/oracle.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `stack weight` lines as a map.
fn folded(text: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let (stack, w) = line.rsplit_once(' ').unwrap();
        *out.entry(stack.to_string()).or_insert(0) += w.parse::<u64>().unwrap();
    }
    out
}

/// The oracle's stacks of the threads `pick` keeps, summed.
fn oracle_folded(o: &Value, pick: impl Fn(&Value) -> bool) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for t in o["threads"].as_array().unwrap().iter().filter(|t| pick(t)) {
        for (stack, w) in t["folded"].as_object().unwrap() {
            *out.entry(stack.clone()).or_insert(0) += w.as_u64().unwrap();
        }
    }
    out
}

fn fold(filter: &str) -> BTreeMap<String, u64> {
    let f = core_data("perf-made/threads.txt");
    let (code, out, err) = scorch(&["fold", "--tagfilter", filter, &f]);
    assert_eq!(code, 0, "{filter}: {err}");
    folded(&out)
}

#[test]
fn a_thread_filter_keeps_exactly_that_threads_stacks() {
    let o = oracle();
    let threads = o["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 3, "the recording has three threads");
    for t in threads {
        let tid = t["tid"].as_u64().unwrap();
        let want = oracle_folded(&o, |x| x["tid"] == t["tid"]);
        assert!(!want.is_empty());
        assert_eq!(fold(&format!("tid={tid}")), want, "tid={tid}");
        let comm = t["comm"].as_str().unwrap();
        assert_eq!(fold(&format!("comm={comm}")), want, "comm={comm}");
    }
    // Several threads, and a process: the union of their stacks.
    let (a, b) = (
        threads[0]["tid"].as_u64().unwrap(),
        threads[1]["tid"].as_u64().unwrap(),
    );
    let two = oracle_folded(&o, |x| x["tid"] == a || x["tid"] == b);
    assert_eq!(fold(&format!("tid={a},{b}")), two);
    let pid = threads[0]["pid"].as_u64().unwrap();
    assert_eq!(fold(&format!("pid={pid}")), oracle_folded(&o, |_| true));
}

#[test]
fn a_thread_slice_diff_has_the_two_threads_numbers() {
    let o = oracle();
    let threads = o["threads"].as_array().unwrap();
    let (a, b) = (&threads[0], &threads[1]);
    let f = core_data("perf-made/threads.txt");
    let (ta, tb) = (format!("tid={}", a["tid"]), format!("tid={}", b["tid"]));
    let (code, out, err) = scorch(&[
        "diff",
        "--folded",
        "--base-filter",
        &ta,
        "--target-filter",
        &tb,
        &f,
    ]);
    assert_eq!(code, 0, "{err}");
    let (mut base, mut target) = (BTreeMap::new(), BTreeMap::new());
    for line in out.lines() {
        let mut it = line.rsplitn(3, ' ');
        let t: u64 = it.next().unwrap().parse().unwrap();
        let b: u64 = it.next().unwrap().parse().unwrap();
        let stack = it.next().unwrap().to_string();
        if b > 0 {
            base.insert(stack.clone(), b);
        }
        if t > 0 {
            target.insert(stack, t);
        }
    }
    assert_eq!(base, oracle_folded(&o, |x| x["tid"] == a["tid"]));
    assert_eq!(target, oracle_folded(&o, |x| x["tid"] == b["tid"]));
    // The report names both slices and their sample counts.
    let (code, out, err) = scorch(&["diff", "--base-filter", &ta, "--target-filter", &tb, &f]);
    assert_eq!(code, 0, "{err}");
    let samples = out.lines().find(|l| l.contains("samples ")).unwrap();
    let nums: Vec<&str> = samples
        .split_whitespace()
        .filter(|w| w.parse::<u64>().is_ok())
        .collect();
    assert_eq!(
        nums,
        [a["samples"].to_string(), b["samples"].to_string()],
        "{samples}"
    );
    assert!(
        out.contains(&format!("[{ta}]")) && out.contains(&format!("[{tb}]")),
        "{out}"
    );
}

#[test]
fn thread_filters_that_name_nothing_are_input_errors() {
    let f = core_data("perf-made/threads.txt");
    for (filter, says) in [
        ("comm=nope", "no thread has comm=nope"),
        ("tid=1", "no thread has tid=1"),
        ("tid=x", "not a number"),
        ("nope=1", "comm=NAME, pid=N, tid=N"),
    ] {
        let (code, out, err) = scorch(&["fold", "--tagfilter", filter, &f]);
        assert_eq!((code, out.as_str()), (1, ""), "{filter}");
        assert!(err.contains(says), "{filter}: {err}");
    }
    // Without threads, comm/pid/tid are plain label keys, and a folded file has none.
    let (code, _, err) = scorch(&[
        "fold",
        "--tagfilter",
        "tid=1",
        &core_data("folded/ap-sample1.collapsed"),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("no labels"), "{err}");
}
