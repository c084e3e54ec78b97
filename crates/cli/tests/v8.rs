//! The V8 importers through the binary, on the recorded files (`crates/core/tests/data/v8`, README.md there):
//! `scorch fold --count` and `scorch fold` equal an independent reading of the JSON (a walk of the whole
//! document as `serde_json::Value`, written here from the format's description, not from the importer), and
//! `scorch heatmap --json --all-events --no-idle-filter` holds every sample.

mod common;
use common::scorch;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};

fn data(name: &str) -> String {
    format!("{}/../core/tests/data/v8/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// One CPU profile as the file holds it: nodes (by id: call frame, parent), samples, times in µs.
#[derive(Default)]
struct Prof {
    nodes: Vec<Value>,
    samples: Vec<i64>,
    deltas: Vec<i64>,
    start: i64,
    end: Option<i64>,
    root: Option<String>,
}

/// Folded lines per stack: (sample count, summed weight in ns), by the rules of docs/FORMATS.md.
fn oracle(profiles: &[Prof]) -> BTreeMap<String, (u64, u64)> {
    let loc = |cf: &Value| {
        (
            cf["url"].as_str().unwrap_or("").to_string(),
            cf["lineNumber"].as_i64().unwrap_or(-1),
            cf["columnNumber"].as_i64().unwrap_or(-1),
        )
    };
    let base = |cf: &Value| match cf["functionName"].as_str().unwrap_or("") {
        "" => "(anonymous)".to_string(),
        s => s.to_string(),
    };
    // Which names stand for more than one location, over every profile of the file.
    let mut places: HashMap<String, BTreeSet<(String, i64, i64)>> = HashMap::new();
    for p in profiles {
        for n in &p.nodes {
            places
                .entry(base(&n["callFrame"]))
                .or_default()
                .insert(loc(&n["callFrame"]));
        }
    }
    let name = |cf: &Value| {
        let b = base(cf);
        let set = &places[&b];
        if set.len() == 1 {
            return b;
        }
        let lines: BTreeSet<_> = set.iter().map(|(u, l, _)| (u.clone(), *l)).collect();
        let (u, l, c) = loc(cf);
        let mut parts = vec![];
        if !u.is_empty() {
            parts.push(u);
        }
        if l >= 0 {
            parts.push((l + 1).to_string());
            if lines.len() < set.len() && c >= 0 {
                parts.push((c + 1).to_string());
            }
        }
        if parts.is_empty() {
            b
        } else {
            format!("{b} ({})", parts.join(":"))
        }
    };
    let mut out: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for p in profiles {
        let by_id: HashMap<i64, &Value> = p.nodes.iter().map(|n| (n["id"].as_i64().unwrap(), n)).collect();
        let mut parent: HashMap<i64, i64> = HashMap::new();
        for n in &p.nodes {
            let id = n["id"].as_i64().unwrap();
            if let Some(pa) = n["parent"].as_i64() {
                parent.insert(id, pa);
            }
            for c in n["children"].as_array().into_iter().flatten() {
                parent.insert(c.as_i64().unwrap(), id);
            }
        }
        let mut times = vec![];
        let mut t = p.start;
        for d in &p.deltas {
            t += d;
            times.push(t);
        }
        for (i, s) in p.samples.iter().enumerate() {
            let mut frames = vec![];
            let mut cur = Some(*s);
            while let Some(id) = cur {
                let cf = &by_id[&id]["callFrame"];
                let is_root = !parent.contains_key(&id) && cf["functionName"] == "(root)";
                if !is_root {
                    frames.push(name(cf));
                }
                cur = parent.get(&id).copied();
            }
            frames.extend(p.root.clone());
            frames.reverse();
            let next = times.get(i + 1).copied().or(p.end).unwrap_or(times[i]);
            let e = out.entry(frames.join(";")).or_default();
            e.0 += 1;
            e.1 += ((next - times[i]).max(0) * 1000) as u64;
        }
    }
    out
}

fn cpuprofile(v: &Value) -> Prof {
    Prof {
        nodes: v["nodes"].as_array().unwrap().clone(),
        samples: v["samples"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect(),
        deltas: v["timeDeltas"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect(),
        start: v["startTime"].as_i64().unwrap(),
        end: v["endTime"].as_i64(),
        root: None,
    }
}

/// A trace's profiles, one per (pid, id), rooted at their thread's name.
fn trace(v: &Value) -> Vec<Prof> {
    let events = v["traceEvents"].as_array().unwrap();
    let mut names: HashMap<(i64, i64), String> = HashMap::new();
    for e in events
        .iter()
        .filter(|e| e["name"] == "thread_name" && e["ph"] == "M")
    {
        names.insert(
            (e["pid"].as_i64().unwrap(), e["tid"].as_i64().unwrap()),
            e["args"]["name"].as_str().unwrap().to_string(),
        );
    }
    let mut order = vec![];
    let mut profs: HashMap<(i64, String), Prof> = HashMap::new();
    for e in events {
        let key = (
            e["pid"].as_i64().unwrap(),
            e["id"].as_str().unwrap_or("").to_string(),
        );
        let data = &e["args"]["data"];
        if e["name"] == "Profile" {
            order.push(key.clone());
            let p = profs.entry(key.clone()).or_default();
            p.start = data["startTime"].as_i64().unwrap();
            p.root = Some(names[&(key.0, e["tid"].as_i64().unwrap())].clone());
        } else if e["name"] == "ProfileChunk" {
            let p = profs.get_mut(&key).expect("a chunk before its Profile event");
            let cp = &data["cpuProfile"];
            p.nodes
                .extend(cp["nodes"].as_array().into_iter().flatten().cloned());
            p.samples.extend(
                cp["samples"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| x.as_i64().unwrap()),
            );
            p.deltas.extend(
                data["timeDeltas"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| x.as_i64().unwrap()),
            );
            if let Some(end) = data["endTime"].as_i64() {
                p.end = Some(end);
            }
        }
    }
    order.iter().map(|k| profs.remove(k).unwrap()).collect()
}

fn folded(text: &str) -> BTreeMap<String, u64> {
    text.lines()
        .map(|l| {
            let (s, w) = l.rsplit_once(' ').unwrap();
            (s.to_string(), w.parse().unwrap())
        })
        .collect()
}

fn check(file: &str, profiles: &[Prof]) {
    let want = oracle(profiles);
    let samples: u64 = want.values().map(|x| x.0).sum();
    assert!(
        samples > 500 && want.len() > 10,
        "{file}: too small to tell anything"
    );
    let (code, out, err) = scorch(&["fold", "--count", file]);
    assert_eq!(code, 0, "{err}");
    let counts: BTreeMap<String, u64> = want.iter().map(|(k, v)| (k.clone(), v.0)).collect();
    assert_eq!(folded(&out), counts, "{file}: counts per stack");
    let (code, out, err) = scorch(&["fold", file]);
    assert_eq!(code, 0, "{err}");
    let weights: BTreeMap<String, u64> = want
        .iter()
        .filter(|(_, v)| v.1 > 0)
        .map(|(k, v)| (k.clone(), v.1))
        .collect();
    assert_eq!(folded(&out), weights, "{file}: time per stack (ns)");
    // The heatmap holds every sample.
    let (code, out, err) = scorch(&["heatmap", "--json", "--all-events", "--no-idle-filter", file]);
    assert_eq!(code, 0, "{err}");
    let j: Value = serde_json::from_str(&out).unwrap();
    let cells: u64 = j["counts"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c.as_array().unwrap())
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(cells, samples, "{file}: heatmap cells");
    // The status facts: format and samples.
    let (code, out, err) = scorch(&["info", file]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("samples:         {samples}\n")), "{out}");
}

#[test]
fn node_cpuprofile_folds_like_an_independent_reading() {
    let file = data("node-small.cpuprofile");
    let v: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    check(&file, &[cpuprofile(&v)]);
    let (_, out, _) = scorch(&["info", &file]);
    assert!(out.starts_with("format:          v8-cpuprofile\n"), "{out}");
    // The program's hot functions are there, under the module's anonymous function.
    let (_, out, _) = scorch(&["top", &file]);
    for f in ["fib", "sieve", "strings", "sortNumbers"] {
        assert!(out.contains(f), "{f} missing from\n{out}");
    }
}

#[test]
fn chromium_trace_folds_like_an_independent_reading() {
    let file = data("chromium-trace.json");
    let v: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    check(&file, &trace(&v));
    let (_, out, _) = scorch(&["info", &file]);
    assert!(out.starts_with("format:          chrome-trace\n"), "{out}");
    assert!(out.contains("threads:         1\n"), "{out}");
}

#[test]
fn a_json_file_that_is_neither_names_the_formats_tried() {
    let dir = std::env::temp_dir().join(format!("scorch-v8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("other.json");
    std::fs::write(
        &f,
        br#"{"name": "package", "version": "1.0.0", "dependencies": {}}"#,
    )
    .unwrap();
    let (code, _, err) = scorch(&["info", f.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("looks like JSON"), "{err}");
    assert!(
        err.contains(
            "tried perf-data, jfr, cprofile, pprof, speedscope, gecko, dhat, v8-heapprofile, v8-cpuprofile, chrome-trace, callgrind, bpftrace, perf-script, folded"
        ),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
