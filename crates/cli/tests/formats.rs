//! speedscope, bpftrace and async-profiler files through the binary (`crates/core/tests/data/…`, README.md
//! in each): `scorch fold --count` (and `scorch fold`'s weights) equal an independent reading of the file by a
//! Python script in `tests/oracles/` written from the format's documentation, not from scorch; for the formats
//! with time, `scorch heatmap --json --all-events --no-idle-filter` holds every sample; `scorch info` names the
//! format.

mod common;
use common::scorch;

use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

fn root() -> String {
    format!("{}/../..", env!("CARGO_MANIFEST_DIR"))
}

fn data(dir: &str, name: &str) -> String {
    format!("{}/crates/core/tests/data/{dir}/{name}", root())
}

/// Runs an oracle script; its lines are `STACK N1 N2 …` (`fields` numbers), summed per stack.
fn oracle_n(script: &str, args: &[&str], fields: usize) -> BTreeMap<String, Vec<u64>> {
    let out = Command::new("python3")
        .arg(format!("{}/tests/oracles/{script}", root()))
        .args(args)
        .output()
        .expect("python3 runs the oracle");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut m: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for line in text.lines() {
        let mut rest = line;
        let mut nums = vec![0u64; fields];
        for k in (0..fields).rev() {
            let (r, n) = rest.rsplit_once(' ').unwrap();
            nums[k] = n.parse().unwrap();
            rest = r;
        }
        let e = m.entry(rest.to_string()).or_insert_with(|| vec![0; fields]);
        for (a, b) in e.iter_mut().zip(nums) {
            *a += b;
        }
    }
    m
}

/// `STACK COUNT WEIGHT` oracles as (count, weight).
fn oracle(script: &str, args: &[&str], _weighted: bool) -> BTreeMap<String, (u64, u64)> {
    oracle_n(script, args, 2)
        .into_iter()
        .map(|(k, v)| (k, (v[0], v[1])))
        .collect()
}

/// `scorch fold` output as stack → value.
fn fold(args: &[&str]) -> BTreeMap<String, u64> {
    let (code, out, err) = scorch(args);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| {
            let (s, n) = l.rsplit_once(' ').unwrap();
            (s.to_string(), n.parse().unwrap())
        })
        .collect()
}

fn heatmap_cells(file: &str) -> u64 {
    let (code, out, err) = scorch(&["heatmap", "--json", "--all-events", "--no-idle-filter", file]);
    assert_eq!(code, 0, "{err}");
    let j: Value = serde_json::from_str(&out).unwrap();
    j["counts"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c.as_array().unwrap())
        .map(|x| x.as_u64().unwrap())
        .sum()
}

fn info(file: &str) -> Value {
    let (code, out, err) = scorch(&["info", "--json", file]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn speedscope_counts_and_weights_equal_the_oracle() {
    for (name, timed) in [
        ("py-spy-threads.speedscope.json", true),
        ("evented-ms.speedscope.json", true),
        ("speedscope-simple-evented.json", false),
    ] {
        let file = data("speedscope", name);
        let want = oracle("speedscope.py", &[&file], true);
        assert!(!want.is_empty());
        let counts = fold(&["fold", "--count", &file]);
        let c: BTreeMap<_, _> = want.iter().map(|(k, v)| (k.clone(), v.0)).collect();
        assert_eq!(counts, c, "{name}: counts");
        let weights = fold(&["fold", &file]);
        let w: BTreeMap<_, _> = want.iter().map(|(k, v)| (k.clone(), v.1)).collect();
        assert_eq!(weights, w, "{name}: weights");
        let samples: u64 = c.values().sum();
        let i = info(&file);
        assert_eq!(i["format"], "speedscope");
        assert_eq!(i["samples"].as_u64(), Some(samples), "{name}: {i}");
        if timed {
            assert_eq!(heatmap_cells(&file), samples, "{name}: heatmap cells");
        }
    }
}

#[test]
fn an_unknown_json_file_says_which_formats_were_tried() {
    let dir = std::env::temp_dir().join(format!("scorch-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("x.json");
    std::fs::write(&f, br#"{"hello": [1, 2, 3]}"#).unwrap();
    let (code, _, err) = scorch(&["info", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    for name in [
        "speedscope",
        "v8-cpuprofile",
        "chrome-trace",
        "perf-script",
        "folded",
    ] {
        assert!(err.contains(name), "{name} missing: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bpftrace_counts_equal_the_oracles() {
    for (name, maps) in [
        ("kstack-ustack-comm.txt", &["@"][..]),
        ("two-maps.txt", &["@", "@kernel"][..]),
    ] {
        let file = data("bpftrace", name);
        for map in maps {
            let want = oracle("bpftrace.py", &[&file, map], true);
            assert!(!want.is_empty());
            // Weights are the blocks' COUNTs (samples); --count counts blocks, as it counts folded lines.
            let weights = fold(&["fold", "--event", map, &file]);
            let w: BTreeMap<_, _> = want.iter().map(|(k, v)| (k.clone(), v.1)).collect();
            assert_eq!(weights, w, "{name} {map}: counts");
            let blocks = fold(&["fold", "--count", "--event", map, &file]);
            let b: BTreeMap<_, _> = want.iter().map(|(k, v)| (k.clone(), v.0)).collect();
            assert_eq!(blocks, b, "{name} {map}: blocks");
        }
        assert_eq!(info(&file)["format"], "bpftrace");
    }
    // FlameGraph's own collapser on the map it reads (`@[ustack]`), its offsets dropped.
    let pl = std::fs::read_to_string(data("bpftrace", "two-maps.stackcollapse-bpftrace.txt")).unwrap();
    let mut want: BTreeMap<String, u64> = BTreeMap::new();
    for line in pl.lines() {
        let (stack, n) = line.rsplit_once(' ').unwrap();
        let stack: Vec<&str> = stack
            .split(';')
            .map(|f| match f.rsplit_once('+') {
                Some((name, off)) if !name.is_empty() && off.bytes().all(|c| c.is_ascii_digit()) => name,
                _ => f,
            })
            .collect();
        *want.entry(stack.join(";")).or_default() += n.parse::<u64>().unwrap();
    }
    assert_eq!(
        fold(&["fold", "--event", "@", &data("bpftrace", "two-maps.txt")]),
        want
    );
}

#[test]
fn async_profiler_collapsed_folds_to_its_own_lines() {
    // async-profiler's `collapsed` is folded: each line is `frames COUNT`, and scorch's export writes the same
    // stacks back (kinds as the same `_[k]`/`_[j]`/`_[i]` suffixes), summed per stack.
    let file = data("async-profiler", "collapsed-threads.txt");
    let mut want: BTreeMap<String, u64> = BTreeMap::new();
    for line in std::fs::read_to_string(&file).unwrap().lines() {
        let (stack, n) = line.rsplit_once(' ').unwrap();
        *want.entry(stack.to_string()).or_default() += n.parse::<u64>().unwrap();
    }
    assert_eq!(fold(&["fold", &file]), want);
    let i = info(&file);
    assert_eq!(i["format"], "folded");
    assert_eq!(i["total"].as_u64(), Some(want.values().sum()));
}

#[test]
fn gecko_counts_and_times_equal_the_oracle() {
    for name in [
        "samply-two-threads.json.gz",
        "samply-two-threads.symbolicated.json",
    ] {
        let file = data("gecko", name);
        let want = oracle_n("gecko.py", &[&file], 3);
        assert!(!want.is_empty());
        let counts = fold(&["fold", "--count", &file]);
        let c: BTreeMap<_, _> = want.iter().map(|(k, v)| (k.clone(), v[0])).collect();
        assert_eq!(counts, c, "{name}: counts");
        let weights = fold(&["fold", &file]);
        let w: BTreeMap<_, _> = want.iter().map(|(k, v)| (k.clone(), v[1])).collect();
        assert_eq!(weights, w, "{name}: weights");
        let samples: u64 = c.values().sum();
        let timed: u64 = want.values().map(|v| v[2]).sum();
        assert_eq!(timed, samples, "{name}: every sample has a time");
        assert_eq!(heatmap_cells(&file), samples, "{name}: heatmap cells");
        let i = info(&file);
        assert_eq!(i["format"], "gecko");
        assert_eq!(i["samples"].as_u64(), Some(samples));
    }
}
