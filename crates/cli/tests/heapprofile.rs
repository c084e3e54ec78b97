//! V8 sampling heap profiles (docs/FORMATS.md, "V8 heap profiles"), on a recording made here of `prog.js` with
//! `node --heap-prof` (`tests/data/heapprofile/PROVENANCE.md`): scorch's numbers against an independent
//! reading of the JSON by `tests/oracles/heapprofile.py` (a Python walk of the node tree written from the
//! DevTools protocol's description of the format).
//!
//! - `scorch fold` (event `bytes`, the default) = each node's `selfSize` on its path, per stack; `scorch fold
//!   --event allocations` = the number of `samples` naming each node, per stack.
//! - `scorch top`: per function, flat = the sum of its nodes' `selfSize`, cum = the sum over the nodes with it
//!   anywhere on their path (once per node, recursion or not).
//! - `scorch info`: the two events' totals = the oracle's sums; the samples naming no node of the tree are
//!   counted in a warning (V8 writes some: 25 of 3,096 here).

mod common;
use common::scorch;

use std::collections::BTreeMap;
use std::process::Command;

fn root() -> String {
    format!("{}/../..", env!("CARGO_MANIFEST_DIR"))
}

fn data(name: &str) -> String {
    format!("{}/tests/data/heapprofile/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The oracle's lines `KEY N1 N2`, summed per key.
fn oracle(mode: &str) -> BTreeMap<String, (u64, u64)> {
    let out = Command::new("python3")
        .arg(format!("{}/tests/oracles/heapprofile.py", root()))
        .args([&data("prog.heapprofile"), mode])
        .output()
        .expect("python3 runs the oracle");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut m: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let (rest, b) = line.rsplit_once(' ').unwrap();
        let (key, a) = rest.rsplit_once(' ').unwrap();
        let e = m.entry(key.to_string()).or_default();
        e.0 += a.parse::<u64>().unwrap();
        e.1 += b.parse::<u64>().unwrap();
    }
    assert!(m.len() > 50, "{mode}: {} rows", m.len());
    m
}

fn fold(args: &[&str]) -> BTreeMap<String, u64> {
    let (code, out, err) = scorch(args);
    assert_eq!(code, 0, "{err}");
    let mut m = BTreeMap::new();
    for line in out.lines() {
        let (stack, n) = line.rsplit_once(' ').unwrap();
        *m.entry(stack.to_string()).or_default() += n.parse::<u64>().unwrap();
    }
    m
}

#[test]
fn fold_per_stack_equals_self_size_and_sample_counts() {
    let want = oracle("stacks");
    let pick = |f: fn(&(u64, u64)) -> u64| {
        let mut m: BTreeMap<String, u64> = want.iter().map(|(k, v)| (k.clone(), f(v))).collect();
        m.retain(|_, v| *v > 0);
        m
    };
    let file = data("prog.heapprofile");
    assert_eq!(fold(&["fold", &file]), pick(|v| v.0));
    assert_eq!(fold(&["fold", "--event", "bytes", &file]), pick(|v| v.0));
    assert_eq!(fold(&["fold", "--event", "allocations", &file]), pick(|v| v.1));
    // The program's own allocations are there, under its functions (recursion kept: tree;tree;…).
    assert!(want
        .keys()
        .any(|k| k.ends_with(";main;makeArray;makeString;repeat")));
    assert!(want.keys().any(|k| k.contains(";main;tree;tree;tree;tree;")));
}

#[test]
fn top_per_function_equals_the_oracle() {
    let (code, out, err) = scorch(&["top", "--json", "-n", "100000", &data("prog.heapprofile")]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut got = BTreeMap::new();
    for f in v["functions"].as_array().unwrap() {
        got.insert(
            f["name"].as_str().unwrap().to_string(),
            (f["flat"].as_u64().unwrap(), f["cum"].as_u64().unwrap()),
        );
    }
    let mut want = oracle("functions");
    want.retain(|_, v| v.1 > 0);
    got.retain(|_, v| v.1 > 0);
    assert_eq!(got, want);
}

#[test]
fn info_totals_and_the_samples_outside_the_tree() {
    let (code, out, err) = scorch(&["info", "--json", &data("prog.heapprofile")]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "v8-heapprofile");
    let want = oracle("stacks");
    let bytes: u64 = want.values().map(|x| x.0).sum();
    let allocations: u64 = want.values().map(|x| x.1).sum();
    let events = v["events"].as_array().unwrap();
    assert_eq!(events.len(), 2, "{out}");
    assert_eq!(
        (events[0]["name"].as_str(), events[0]["total"].as_u64()),
        (Some("bytes"), Some(bytes))
    );
    assert_eq!(events[0]["unit"], "bytes");
    assert_eq!(
        (events[1]["name"].as_str(), events[1]["total"].as_u64()),
        (Some("allocations"), Some(allocations))
    );
    assert_eq!(v["total"].as_u64(), Some(bytes));
    // The file's samples, counted straight from the JSON: those naming no node are the warning's.
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data("prog.heapprofile")).unwrap()).unwrap();
    let samples = doc["samples"].as_array().unwrap().len() as u64;
    assert!(
        samples > allocations,
        "{samples} samples, {allocations} in the tree"
    );
    assert_eq!(v["warnings"].as_u64(), Some(1), "{out}");
    assert!(
        err.contains(&format!("{} of {samples} samples name", samples - allocations)),
        "{err}"
    );
}
