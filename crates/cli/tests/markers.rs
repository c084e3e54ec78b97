//! `scorch markers` (docs/CLI.md; docs/FORMATS.md, "Markers") against an independent walk of the input's JSON
//! (`tests/oracles/markers.py`, written from the Trace Event Format and the processed Gecko profile's marker
//! table, not from scorch):
//!
//! - a real Chromium trace (`crates/core/tests/data/v8/chromium-trace.json`, recorded by `record-trace.cjs`:
//!   49 `X` events and 2 `I` events): every marker's thread, name, start and duration;
//! - a Gecko profile: samply's real recording (`crates/core/tests/data/gecko/`) has no markers, so a marker
//!   table (intervals, instants, an interval's start and end, a row without a time) is written into a copy of
//!   it here; the oracle reads the same copy;
//! - a real Firefox recording in the raw Gecko format (`data/gecko/firefox-raw.json.gz`, PROVENANCE.md: six
//!   threads in six processes, 58,588 markers): every marker's thread (name, pid, tid), name, start and
//!   duration.

mod common;
use common::{core_data, scorch};

use std::collections::BTreeMap;
use std::process::Command;

fn root() -> String {
    format!("{}/../..", env!("CARGO_MANIFEST_DIR"))
}

type Row = (String, String, u64, Option<u64>);

fn oracle(path: &str) -> Vec<Row> {
    let out = Command::new("python3")
        .arg(format!("{}/tests/oracles/markers.py", root()))
        .arg(path)
        .output()
        .expect("python3 runs the oracle");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().ok(),
            )
        })
        .collect()
}

fn scorch_rows(path: &str) -> Vec<Row> {
    let (code, out, err) = scorch(&["markers", "--json", path]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut rows: Vec<Row> = v["markers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["thread"].as_str().unwrap().to_string(),
                m["name"].as_str().unwrap().to_string(),
                m["start_ns"].as_u64().unwrap(),
                m["duration_ns"].as_u64(),
            )
        })
        .collect();
    rows.sort_by(|a, b| (&a.0, a.2, &a.1, a.3).cmp(&(&b.0, b.2, &b.1, b.3)));
    rows
}

fn sorted(mut rows: Vec<Row>) -> Vec<Row> {
    rows.sort_by(|a, b| (&a.0, a.2, &a.1, a.3).cmp(&(&b.0, b.2, &b.1, b.3)));
    rows
}

/// Markers per thread and name: how many.
fn counts(rows: &[Row]) -> BTreeMap<(String, String), usize> {
    let mut m = BTreeMap::new();
    for r in rows {
        *m.entry((r.0.clone(), r.1.clone())).or_insert(0) += 1;
    }
    m
}

#[test]
fn a_chromium_traces_duration_and_instant_events() {
    let path = core_data("v8/chromium-trace.json");
    let want = sorted(oracle(&path));
    assert_eq!(want.len(), 51, "49 X and 2 I events");
    let got = scorch_rows(&path);
    assert_eq!(counts(&got), counts(&want));
    assert_eq!(got, want);
    assert!(want
        .iter()
        .any(|r| r.1 == "CpuProfiler::StartProfiling" && r.3 == Some(3_978_000)));
    // The text: one line per marker, the thread first.
    let (code, out, err) = scorch(&["markers", &path]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 51);
    assert!(out.lines().all(|l| l.split('\t').count() == 4), "{out}");
}

#[test]
fn a_gecko_profiles_marker_table() {
    let src = core_data("gecko/samply-two-threads.symbolicated.json");
    let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&src).unwrap()).unwrap();
    let threads = doc["threads"].as_array_mut().unwrap();
    // samply's threads have their own strings: the names are added to each thread's table.
    for (k, t) in threads.iter_mut().enumerate() {
        let a = t["stringArray"].as_array_mut().unwrap();
        let base = a.len() as u64;
        for s in [format!("Load {k}"), "Paint".to_string(), "GC".to_string()] {
            a.push(serde_json::json!(s));
        }
        t["markers"] = serde_json::json!({
            "length": 5,
            "name": [base, base + 1, base + 2, base + 2, base],
            "startTime": [10.5, 20.25, 30.0, null, null],
            "endTime": [15.75, null, null, 31.125, null],
            "phase": [1, 0, 2, 3, 1],
            "category": [0, 0, 0, 0, 0],
            "data": [null, null, null, null, null],
        });
    }
    let dir = std::env::temp_dir().join(format!("scorch-markers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gecko-markers.json");
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    let path = path.to_str().unwrap();
    let want = sorted(oracle(path));
    // 3 markers from 5 rows per thread: the start and end of `GC` are one interval, and the interval without
    // times is not a marker.
    assert_eq!(want.len(), 3 * doc["threads"].as_array().unwrap().len());
    assert!(want
        .iter()
        .any(|r| r.1 == "GC" && r.2 == 30_000_000 && r.3 == Some(1_125_000)));
    assert_eq!(scorch_rows(path), want);
    assert!(want
        .iter()
        .any(|r| r.1 == "Load 0" && r.2 == 10_500_000 && r.3 == Some(5_250_000)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A marker with its thread's pid and tid (the threads of a Firefox profile are all `GeckoMain`).
type IdRow = (String, String, String, String, u64, Option<u64>);

fn oracle_ids(path: &str) -> Vec<IdRow> {
    let out = Command::new("python3")
        .arg(format!("{}/tests/oracles/markers.py", root()))
        .arg(path)
        .output()
        .expect("python3 runs the oracle");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut rows: Vec<IdRow> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[4].to_string(),
                f[5].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().ok(),
            )
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_firefox_recording_in_the_raw_gecko_format() {
    let path = format!(
        "{}/tests/data/gecko/firefox-raw.json.gz",
        env!("CARGO_MANIFEST_DIR")
    );
    let want = oracle_ids(&path);
    assert_eq!(want.len(), 58_588);
    let (code, out, err) = scorch(&["markers", "--json", &path]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let id = |x: &serde_json::Value| x.as_u64().map_or(String::new(), |n| n.to_string());
    let mut got: Vec<IdRow> = v["markers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["thread"].as_str().unwrap().to_string(),
                id(&m["pid"]),
                id(&m["tid"]),
                m["name"].as_str().unwrap().to_string(),
                m["start_ns"].as_u64().unwrap(),
                m["duration_ns"].as_u64(),
            )
        })
        .collect();
    got.sort();
    // Per thread: how many, then every marker.
    let per_thread = |rows: &[IdRow]| {
        let mut m: BTreeMap<(String, String, String), usize> = BTreeMap::new();
        for r in rows {
            *m.entry((r.0.clone(), r.1.clone(), r.2.clone())).or_insert(0) += 1;
        }
        m
    };
    assert_eq!(per_thread(&got), per_thread(&want));
    assert_eq!(per_thread(&want).len(), 6, "six threads, one per process");
    assert_eq!(got, want);
    // The page's own `performance.measure` (its 300 ms loop: 299.2 ms) and `performance.mark`s, in a content process.
    let timing = |r: &&IdRow| r.3 == "UserTiming";
    assert!(want
        .iter()
        .filter(timing)
        .any(|r| r.5.is_some_and(|d| d >= 290_000_000)));
    assert_eq!(want.iter().filter(timing).filter(|r| r.5.is_none()).count(), 2);
    // The samples: as many as the raw tables hold (an independent count).
    let (code, out, err) = scorch(&["info", "--json", &path]);
    assert_eq!(code, 0, "{err}");
    let info: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(info["samples"].as_u64(), Some(raw_sample_count(&path)));
}

/// The raw profile's samples, counted by Python from the JSON.
fn raw_sample_count(path: &str) -> u64 {
    let out = Command::new("python3")
        .args([
            "-c",
            "import gzip,json,sys; p=json.load(gzip.open(sys.argv[1])); \
             print(sum(len(t['samples']['data']) for t in p['threads'] + [t for s in p['processes'] for t in s['threads']]))",
            path,
        ])
        .output()
        .expect("python3 runs");
    String::from_utf8(out.stdout).unwrap().trim().parse().unwrap()
}

/// perf's tracepoint samples are instants: `scorch markers --json` = `tests/oracles/perf_tracepoints.py`
/// (an independent reading of perf script's header lines) on real recordings with a sampled event beside
/// `sched:sched_switch` (`crates/core/tests/data/perf-made/`, README.md there; and `data/perfdata/sys.data`
/// against perf's own `sys.script` of it): thread, name (with the switched tasks) and start, to the
/// nanosecond.
#[test]
fn perf_script_tracepoints_are_instants() {
    let perfdata = |f: &str| format!("{}/tests/data/perfdata/{f}", env!("CARGO_MANIFEST_DIR"));
    // (the file scorch reads, perf script's text of it, tracepoint samples)
    for (path, script, n) in [
        (
            core_data("perf-made/offcpu-sleep.txt.gz"),
            core_data("perf-made/offcpu-sleep.txt.gz"),
            509,
        ),
        (
            core_data("perf-made/modifiers-sched.txt.gz"),
            core_data("perf-made/modifiers-sched.txt.gz"),
            38,
        ),
        // perf.data: the recording beside the `perf script --ns` text perf wrote of it.
        (perfdata("sys.data"), perfdata("sys.script"), 166),
    ] {
        let file = &path;
        let out = Command::new("python3")
            .arg(format!("{}/tests/oracles/perf_tracepoints.py", root()))
            .arg(&script)
            .output()
            .expect("python3 runs the oracle");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let want: Vec<(String, String, u64)> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[0].to_string(), f[1].to_string(), f[2].parse().unwrap())
            })
            .collect();
        assert_eq!(want.len(), n, "{file}");
        let (code, text, err) = scorch(&["markers", "--json", &path]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut got: Vec<(String, String, u64)> = v["markers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                assert!(m["duration_ns"].is_null(), "an instant: {m}");
                (
                    m["thread"].as_str().unwrap().to_string(),
                    m["name"].as_str().unwrap().to_string(),
                    m["start_ns"].as_u64().unwrap(),
                )
            })
            .collect();
        got.sort();
        assert_eq!(got, want, "{file}");
    }
    assert!(scorch(&["markers", &core_data("perf-made/offcpu-sleep.txt.gz")])
        .1
        .contains("sched:sched_switch bash → offcpu-sleep"));
}
