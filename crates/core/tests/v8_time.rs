//! V8 profiles' duration and sampling rate (issue #40, item 4), checked against what the files state, read here
//! with serde_json: the duration is `endTime − startTime`, and the rate is the one the samples achieved.

mod common;

use common::{data, load};
use scorch_core::analysis::duration::{coverage, DurationSource};
use scorch_core::analysis::stats::sampling_rate;
use scorch_core::ViewOptions;
use serde_json::{json, Value};

/// The recorded `.cpuprofile` as one trace: a `Profile` event with its `startTime`, one `ProfileChunk` with
/// its nodes (linked by `parent`, as traces write them), samples, deltas and the `endTime` V8 writes when the
/// profiler stops.
fn cpuprofile_as_trace(cp: &Value) -> Vec<u8> {
    let mut nodes = cp["nodes"].as_array().unwrap().clone();
    let mut parent = std::collections::HashMap::new();
    for n in &nodes {
        for c in n["children"].as_array().into_iter().flatten() {
            parent.insert(c.as_i64().unwrap(), n["id"].as_i64().unwrap());
        }
    }
    for n in &mut nodes {
        let id = n["id"].as_i64().unwrap();
        let o = n.as_object_mut().unwrap();
        o.remove("children");
        if let Some(p) = parent.get(&id) {
            o.insert("parent".into(), json!(p));
        }
    }
    let trace = json!({"traceEvents": [
        {"name": "thread_name", "ph": "M", "pid": 7, "tid": 1, "args": {"name": "CrRendererMain"}},
        {"name": "Profile", "ph": "P", "pid": 7, "tid": 1, "id": "0x1", "ts": 0,
         "args": {"data": {"startTime": cp["startTime"]}}},
        {"name": "ProfileChunk", "ph": "P", "pid": 7, "tid": 2, "id": "0x1", "ts": 1,
         "args": {"data": {"cpuProfile": {"nodes": nodes, "samples": cp["samples"]},
                           "timeDeltas": cp["timeDeltas"], "endTime": cp["endTime"]}}}
    ]});
    serde_json::to_vec(&trace).unwrap()
}

#[test]
fn a_trace_states_its_duration_from_start_and_end() {
    let cp: Value = serde_json::from_slice(&data("v8", "node-small.cpuprofile")).unwrap();
    let (start, end) = (cp["startTime"].as_i64().unwrap(), cp["endTime"].as_i64().unwrap());
    let deltas: Vec<i64> = cp["timeDeltas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_i64().unwrap())
        .collect();
    let first = start + deltas[0];
    let last = start + deltas.iter().sum::<i64>();
    // The file's facts: samples add up to the time from the first sample to the end, which is more than the
    // first-to-last span and less than the stated duration.
    assert!(end - first > last - first);

    for bytes in [data("v8", "node-small.cpuprofile"), cpuprofile_as_trace(&cp)] {
        let p = load(&bytes).unwrap();
        let v = ViewOptions::default_for(&p);
        let c = coverage(&p, &v).unwrap();
        assert_eq!(c.source, DurationSource::Stated, "{:?}", p.meta.format);
        assert_eq!(
            c.duration_ns,
            ((end - start) * 1000) as u64,
            "{:?}",
            p.meta.format
        );
        assert_eq!(c.total, ((end - first) * 1000) as u64, "{:?}", p.meta.format);
        assert!(c.percent.unwrap() <= 100.0, "{c:?}");
    }
}

/// The recorded Chrome trace (no `endTime`: the trace stopped first) and the `.cpuprofile`: one rate, the
/// achieved one, `(samples − 1) / (last − first)` counted here, and the same for the thread.
#[test]
fn the_stated_rate_is_the_achieved_rate() {
    let trace: Value = serde_json::from_slice(&data("v8", "chromium-trace.json")).unwrap();
    let mut deltas: Vec<i64> = Vec::new();
    for e in trace["traceEvents"].as_array().unwrap() {
        if e["name"] == "ProfileChunk" {
            let d = &e["args"]["data"]["timeDeltas"];
            deltas.extend(d.as_array().into_iter().flatten().map(|x| x.as_i64().unwrap()));
        }
    }
    let cp: Value = serde_json::from_slice(&data("v8", "node-small.cpuprofile")).unwrap();
    let cp_deltas: Vec<i64> = cp["timeDeltas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_i64().unwrap())
        .collect();
    for (file, deltas) in [
        ("chromium-trace.json", deltas),
        ("node-small.cpuprofile", cp_deltas),
    ] {
        let span_us: i64 = deltas[1..].iter().sum();
        let want = (deltas.len() - 1) as f64 * 1e6 / span_us as f64;
        let p = load(&data("v8", file)).unwrap();
        let r = sampling_rate(&p, &ViewOptions::default_for(&p)).unwrap();
        assert_eq!(r.per_group.len(), 1, "{file}");
        assert!((r.per_group[0].hz - want).abs() < 1e-6, "{file}: {r:?} vs {want}");
        assert!((r.hz - want).abs() < 1e-6, "{file}: {r:?} vs {want}");
        assert_eq!(r.source, "achieved");
        assert!(r.describe().contains("states no interval"), "{}", r.describe());
    }
}

/// A Chrome trace of three threads (a page's main thread, its worker, and a third V8 isolate; recorded here,
/// tests/data/v8/README.md): each thread's profiler samples it the whole time, so the time there was to sample is
/// the duration × the threads, and the total (the three threads' sampled time) stays within it. Before, the
/// share was taken of one thread's time: 241 %.
#[test]
fn a_trace_of_several_threads_covers_duration_times_threads() {
    use std::io::Read;
    let gz = data("v8", "chromium-three-threads.json.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(gz.as_slice())
        .read_to_string(&mut text)
        .unwrap();
    // The oracle: the threads with a `Profile` event, read here.
    let trace: Value = serde_json::from_str(&text).unwrap();
    let mut tids: Vec<i64> = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["name"] == "Profile")
        .map(|e| e["tid"].as_i64().unwrap())
        .collect();
    tids.sort_unstable();
    tids.dedup();
    assert_eq!(tids.len(), 3);
    let p = load(&gz).unwrap();
    let c = coverage(&p, &ViewOptions::default_for(&p)).unwrap();
    assert_eq!(c.threads, Some(3));
    let pct = c.percent.unwrap();
    assert!(pct > 0.0 && pct <= 100.0, "{pct} % of duration × threads");
    let expect = c.total as f64 / (c.duration_ns as f64 * 3.0) * 100.0;
    assert!((pct - expect).abs() < 1e-9);
    assert!(c.describe(&p.meta.unit, 0).contains("× 3 threads"));
    // One thread alone: no multiplier.
    let one = load(&data("v8", "chromium-trace.json")).unwrap();
    assert_eq!(
        coverage(&one, &ViewOptions::default_for(&one)).unwrap().threads,
        None
    );
}
