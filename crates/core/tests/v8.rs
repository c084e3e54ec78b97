//! The V8 importers (`.cpuprofile`, Chrome trace JSON) on the recorded files and on hostile input generated
//! here: the result does not depend on chunking or gzip; broken input is a typed error naming the JSON path and
//! the byte offset; cycles, missing nodes, a million-deep chain and absurd times neither hang nor overflow.
//! (The per-stack counts against an independent reading of the JSON are in crates/cli/tests/v8.rs.)

use scorch_core::export::to_folded;
use scorch_core::{Format, ImportError, ImportErrorKind};

mod common;

use common::{fingerprint, load};

fn data(name: &str) -> Vec<u8> {
    common::data("v8", name)
}

#[test]
fn chunking_and_gzip_do_not_change_the_result() {
    for (name, format) in [
        ("node-small.cpuprofile", Format::V8CpuProfile),
        ("chromium-trace.json", Format::ChromeTrace),
    ] {
        common::same_however_cut("v8", name, format);
    }
}

#[test]
fn the_trace_as_a_bare_array_without_its_closing_bracket_reads_the_same() {
    let bytes = data("chromium-trace.json");
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let mut text = String::from("[\n");
    for e in v["traceEvents"].as_array().unwrap() {
        text.push_str(&e.to_string());
        text.push_str(",\n");
    }
    // The Trace Event Format allows the array's `]` to be missing (a trace cut at the end of a record).
    let bare = load(text.as_bytes()).unwrap();
    assert_eq!(bare.meta.format, Format::ChromeTrace);
    assert_eq!(fingerprint(&bare), fingerprint(&load(&bytes).unwrap()));
}

#[test]
fn times_are_exact_and_weights_are_the_gaps() {
    // Start 1 s (in µs); samples 10 µs, 25 µs and 30 µs after it; end 40 µs after it.
    let text = br#"{"nodes":[
        {"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2,3]},
        {"id":2,"callFrame":{"functionName":"main","url":"file:///a.js","lineNumber":0,"columnNumber":0},"children":[4]},
        {"id":3,"callFrame":{"functionName":"(garbage collector)","url":"","lineNumber":-1,"columnNumber":-1}},
        {"id":4,"callFrame":{"functionName":"","url":"file:///a.js","lineNumber":4,"columnNumber":2}}],
      "startTime":1000000,"endTime":1000040,"samples":[4,3,1],"timeDeltas":[10,15,5]}"#;
    let p = load(text).unwrap();
    p.validate().unwrap();
    assert_eq!(
        p.samples.time_ns,
        Some(vec![1_000_010_000, 1_000_025_000, 1_000_030_000])
    );
    assert_eq!(p.samples.weight, vec![15_000, 5_000, 10_000]);
    // `(root)` is no frame: a sample on it has the empty stack (its weight is on the root alone).
    assert_eq!(
        to_folded(&p),
        " 10000\n(garbage collector) 5000\nmain;(anonymous) 15000\n"
    );
    assert_eq!(p.meta.duration_ns, Some(40_000));
}

#[test]
fn a_name_for_several_locations_gets_its_location() {
    let text = br#"{"nodes":[
        {"id":1,"callFrame":{"functionName":"(root)"},"children":[2,3,4]},
        {"id":2,"callFrame":{"functionName":"","url":"a.js","lineNumber":0,"columnNumber":5}},
        {"id":3,"callFrame":{"functionName":"","url":"a.js","lineNumber":0,"columnNumber":9}},
        {"id":4,"callFrame":{"functionName":"f","url":"b.js","lineNumber":6,"columnNumber":0},"children":[5]},
        {"id":5,"callFrame":{"functionName":"f","url":"b.js","lineNumber":6,"columnNumber":0}}],
      "startTime":0,"endTime":4,"samples":[2,3,5],"timeDeltas":[1,1,1]}"#;
    let p = load(text).unwrap();
    // Two anonymous functions on one line: the column tells them apart; `f` has one location: its bare name.
    // (The last sample weighs the time to endTime: 4 - 3 µs.)
    assert_eq!(
        to_folded(&p),
        "(anonymous) (a.js:1:10) 1000\n(anonymous) (a.js:1:6) 1000\nf;f 1000\n"
    );
}

#[track_caller]
fn error(text: &[u8], kind: ImportErrorKind, says: &str) -> ImportError {
    let e = match load(text) {
        Err(e) => e,
        Ok(p) => panic!("read as a profile of {} samples", p.samples.len()),
    };
    assert_eq!(e.kind, kind, "{e}");
    assert!(e.message.contains(says), "{e}");
    assert!(e.format.is_some(), "{e}");
    e
}

const ROOT: &str = r#"{"id":1,"callFrame":{"functionName":"(root)"}}"#;

fn profile(nodes: &str, samples: &str, deltas: &str) -> Vec<u8> {
    format!(r#"{{"nodes":[{ROOT},{nodes}],"startTime":0,"endTime":9,"samples":[{samples}],"timeDeltas":[{deltas}]}}"#)
        .into_bytes()
}

#[test]
fn broken_cpuprofiles_are_typed_errors_with_paths() {
    let text = data("node-small.cpuprofile");
    // Truncated: the offset is at the end of what there is (serde stops on its last byte).
    let e = error(
        &text[..text.len() / 2],
        ImportErrorKind::Malformed,
        "the input ends early",
    );
    assert!(
        (text.len() / 2 - 1..=text.len() / 2).contains(&(e.offset as usize)),
        "{e}"
    );
    // A wrong type: the path and the offset of the bad value.
    let t = profile(
        r#"{"id":"x","callFrame":{"functionName":"f"},"parent":1}"#,
        "1",
        "1",
    );
    let e = error(
        &t,
        ImportErrorKind::Malformed,
        "nodes[1].id: invalid type: string \"x\"",
    );
    assert_eq!(&t[e.offset as usize - 2..=e.offset as usize], br#""x""#);
    let t = profile(r#"{"id":2,"parent":1}"#, "2", "1");
    error(
        &t,
        ImportErrorKind::Malformed,
        "nodes[1]: missing field `callFrame`",
    );
    // Broken links between nodes.
    let f = |id: u32, parent: u32| {
        format!(r#"{{"id":{id},"callFrame":{{"functionName":"f{id}"}},"parent":{parent}}}"#)
    };
    let t = profile(&format!("{},{},{}", f(2, 4), f(3, 2), f(4, 3)), "3", "1");
    error(
        &t,
        ImportErrorKind::Malformed,
        "nodes[1]: its chain of parents is a cycle",
    );
    let t = profile(&f(2, 99), "2", "1");
    error(
        &t,
        ImportErrorKind::Malformed,
        "nodes[1].parent: node 99 does not exist",
    );
    let t = profile(&format!("{},{}", f(2, 1), f(2, 1)), "2", "1");
    error(
        &t,
        ImportErrorKind::Malformed,
        "nodes[2]: node id 2 appears twice",
    );
    let t = br#"{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2,7]},{"id":2,"callFrame":{"functionName":"a"}}],"samples":[2],"timeDeltas":[1]}"#;
    error(
        t,
        ImportErrorKind::Malformed,
        "nodes[0].children[1]: node 7 does not exist",
    );
    let t = br#"{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2,3]},{"id":3,"callFrame":{"functionName":"b"},"children":[2]},{"id":2,"callFrame":{"functionName":"a"}}],"samples":[2],"timeDeltas":[1]}"#;
    error(
        t,
        ImportErrorKind::Malformed,
        "nodes[1].children[0]: node 2 already has another parent",
    );
    // Samples that do not fit the nodes or the deltas.
    error(
        &profile(&f(2, 1), "5", "1"),
        ImportErrorKind::Malformed,
        "samples[0]: node 5 does not exist",
    );
    error(
        &profile(&f(2, 1), "2,2", "1"),
        ImportErrorKind::Malformed,
        "samples has 2 entries but timeDeltas has 1",
    );
    error(
        &profile(&f(2, 1), "", ""),
        ImportErrorKind::NoValidRecords,
        "no samples",
    );
    // Absurd times: out of range, never an overflow.
    error(
        &profile(&f(2, 1), "2", "9223372036854775807"),
        ImportErrorKind::Malformed,
        "timeDeltas[0]: the time 9223372036854775807 µs is out of range",
    );
    let big = "9000000000000000";
    let t = profile(&f(2, 1), "2,2,2,2", &[big, big, big, big].join(","));
    error(&t, ImportErrorKind::Overflow, "out of range");
    error(
        &profile(&f(2, 1), "2", "-5"),
        ImportErrorKind::Overflow,
        "timeDeltas[0]: the time of sample 0 is out of range",
    );
}

#[test]
fn negative_deltas_weigh_zero_and_are_counted() {
    let f = r#"{"id":2,"callFrame":{"functionName":"f"},"parent":1}"#;
    let p = load(&profile(f, "2,2,2", "5,-2,4")).unwrap();
    assert_eq!(p.samples.time_ns, Some(vec![5000, 3000, 7000]));
    assert_eq!(p.samples.weight, vec![0, 4000, 2000]);
    assert!(
        p.meta
            .info
            .iter()
            .any(|(k, v)| k == "time going back" && v.starts_with("1 negative")),
        "{:?}",
        p.meta.info
    );
}

#[test]
fn a_chain_a_million_nodes_deep() {
    let n = 1_000_000;
    let mut t = String::from(r#"{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}"#);
    for i in 2..=n {
        t.push_str(&format!(
            r#",{{"id":{i},"callFrame":{{"functionName":"f{}"}},"parent":{}}}"#,
            i % 3,
            i - 1
        ));
    }
    t.push_str(&format!(r#"],"samples":[{n},{}],"timeDeltas":[1,1]}}"#, n / 2));
    let p = load(t.as_bytes()).unwrap();
    assert_eq!(p.max_depth(), n - 1);
    assert_eq!(p.samples.len(), 2);
    // A cycle at the bottom of the same chain is found, not walked forever.
    let cyc = t.replacen(
        r#"{"id":2,"callFrame":{"functionName":"f2"},"parent":1}"#,
        &format!(r#"{{"id":2,"callFrame":{{"functionName":"f2"}},"parent":{n}}}"#),
        1,
    );
    assert_ne!(cyc, t);
    error(
        cyc.as_bytes(),
        ImportErrorKind::Malformed,
        "its chain of parents is a cycle",
    );
}

#[test]
fn broken_traces_are_typed_errors_with_paths() {
    let text = data("chromium-trace.json");
    // Cut inside an event: the error names the event and points at its first byte.
    let cut = &text[..text.len() * 2 / 3];
    let e = error(
        cut,
        ImportErrorKind::Malformed,
        "is cut off: the input ends inside it",
    );
    assert!(e.message.starts_with("traceEvents["), "{e}");
    assert_eq!(cut[e.offset as usize], b'{');
    // A wrong type deep in a chunk.
    let t = br#"{"traceEvents":[{"name":"a","ph":"X"},{"name":"ProfileChunk","ph":"P","pid":1,"tid":1,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":7}}]}}}}]}"#;
    let e = error(
        t,
        ImportErrorKind::Malformed,
        "traceEvents[1].args.data.cpuProfile.nodes[0].callFrame.functionName: invalid type",
    );
    assert_eq!(t[e.offset as usize], b'7', "{e}");
    // Events but no profile; a profile whose chunks name a missing parent.
    let t = br#"[{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"main"}}]"#;
    error(
        t,
        ImportErrorKind::NoValidRecords,
        "the trace's 1 events hold no CPU profile samples",
    );
    let t = br#"[{"name":"Profile","ph":"P","pid":1,"tid":1,"id":"0x1","args":{"data":{"startTime":5}}},
        {"name":"ProfileChunk","ph":"P","pid":1,"tid":2,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"callFrame":{"functionName":"a"},"parent":3}],"samples":[2]},"timeDeltas":[1]}}}]"#;
    error(
        t,
        ImportErrorKind::Malformed,
        "profile \"0x1\" of pid 1 ([0] on): nodes[1].parent: node 3 does not exist",
    );
    let t = br#"{"traceEvents": 5}"#;
    error(t, ImportErrorKind::Malformed, "traceEvents: expected an array");
}

#[test]
fn trace_threads_and_chunks() {
    // Two profiles in one process: the sampled threads are the Profile events' (chunks come from the profiler's
    // thread); names from the metadata; a chunk's nodes, samples and deltas continue the earlier chunks'.
    let t = br#"{"traceEvents":[
      {"name":"thread_name","ph":"M","pid":7,"tid":1,"args":{"name":"CrRendererMain"}},
      {"name":"process_name","ph":"M","pid":7,"tid":0,"args":{"name":"Renderer"}},
      {"name":"Profile","ph":"P","pid":7,"tid":1,"id":"0x1","args":{"data":{"startTime":100}}},
      {"name":"Profile","ph":"P","pid":7,"tid":3,"id":"0x2","args":{"data":{"startTime":100}}},
      {"name":"ProfileChunk","ph":"P","pid":7,"tid":9,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"callFrame":{"functionName":"a"},"parent":1}],"samples":[2]},"timeDeltas":[1]}}},
      {"name":"ProfileChunk","ph":"P","pid":7,"tid":9,"id":"0x2","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":5,"callFrame":{"functionName":"w"},"parent":1}],"samples":[5,5]},"timeDeltas":[2,2]}}},
      {"name":"ProfileChunk","ph":"P","pid":7,"tid":9,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[{"id":3,"callFrame":{"functionName":"b"},"parent":2}],"samples":[3,2]},"timeDeltas":[3,4],"endTime":110}}}
    ],"metadata":{"source":"DevTools"}}"#;
    let p = load(t).unwrap();
    p.validate().unwrap();
    assert_eq!(p.threads.len(), 2);
    assert_eq!(to_folded(&p), "a 5000\na;b 4000\nw 2000\n");
    // Thread 3 has no name of its own: its process's.
    let comm: Vec<&str> = p.threads.comm.iter().map(|&s| p.strings.get(s)).collect();
    assert_eq!(comm, ["CrRendererMain", "Renderer"]);
    assert_eq!(
        (p.threads.pid.clone(), p.threads.tid.clone()),
        (vec![Some(7), Some(7)], vec![1, 3])
    );
    assert_eq!(p.samples.thread, Some(vec![0, 0, 0, 1, 1]));
    assert_eq!(
        p.samples.time_ns,
        Some(vec![101_000, 104_000, 108_000, 102_000, 104_000])
    );
    assert!(
        p.meta
            .info
            .contains(&("process 7".to_string(), "Renderer".to_string())),
        "{:?}",
        p.meta.info
    );
}

#[test]
fn json_that_is_neither_says_what_was_tried() {
    for text in [
        &br#"[1, 2, 3]"#[..],
        br#"{"node": [1]}"#,
        br#"[{"name": "x"}]"#,
        b"{\"a\":{\"traceEvents\":[]}}",
    ] {
        let e = load(text).unwrap_err();
        assert_eq!(e.kind, ImportErrorKind::UnknownFormat, "{e}");
        assert!(e.message.contains("looks like JSON"), "{e}");
        assert!(e.message.contains("v8-cpuprofile, chrome-trace"), "{e}");
    }
    // A top-level "nodes" claims to be a .cpuprofile: then its content must be one.
    let e = error(
        br#"{"nodes": [1]}"#,
        ImportErrorKind::Malformed,
        "nodes[0]: invalid type: integer `1`, expected struct Node",
    );
    assert_eq!(e.format, Some(Format::V8CpuProfile));
}

#[test]
fn one_name_for_two_hundred_thousand_locations() {
    // Every node an anonymous function on its own line: each is told apart by its location, and naming them
    // costs O(nodes) (deciding per node over all of the name's locations would be 4·10^10 steps).
    let n = 200_000;
    let mut t = String::from(r#"{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}"#);
    for i in 2..=n {
        t.push_str(&format!(r#",{{"id":{i},"callFrame":{{"functionName":"","url":"a.js","lineNumber":{i},"columnNumber":0}},"parent":1}}"#));
    }
    let ids: Vec<String> = (2..=n).map(|i| i.to_string()).collect();
    t.push_str(&format!(
        r#"],"samples":[{}],"timeDeltas":[{}]}}"#,
        ids.join(","),
        vec!["1"; n - 1].join(",")
    ));
    let p = load(t.as_bytes()).unwrap();
    assert_eq!(p.frames.len(), n - 1);
    assert_eq!(p.frame_name(p.stacks.frame[0]), "(anonymous) (a.js:3)");
}
