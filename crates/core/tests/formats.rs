//! The speedscope, bpftrace and async-profiler inputs on the recorded and vendored files
//! (`tests/data/{speedscope,bpftrace,async-profiler}`, README.md in each): the result does not depend on
//! chunking or gzip; broken input is a typed error naming the JSON path or the byte offset and line. (The
//! per-stack counts against independent oracles are in crates/cli/tests/formats.rs.)

use scorch_core::{Format, ImportErrorKind};

mod common;

use common::{data, load, same_however_cut};

#[test]
fn speedscope_files_read_the_same_however_cut() {
    let p = same_however_cut("speedscope", "py-spy-threads.speedscope.json", Format::Speedscope);
    // py-spy writes one profile per thread: two threads, named by the profiles.
    assert_eq!(p.threads.len(), 2);
    let names: Vec<_> = p
        .threads
        .comm
        .iter()
        .map(|&c| p.strings.get(c).to_string())
        .collect();
    assert!(names[1].ends_with("\"worker-b\""), "{names:?}");
    assert_eq!(p.meta.unit, scorch_core::Unit::Nanoseconds);
    // Seconds of 0.01 each: 10 ms a sample, exactly.
    assert!(p.samples.weight.iter().all(|&w| w == 10_000_000));
    let p = same_however_cut("speedscope", "speedscope-simple-evented.json", Format::Speedscope);
    assert_eq!(p.meta.unit, scorch_core::Unit::Samples);
    assert!(p.samples.time_ns.is_none(), "unit none: no times");
    assert_eq!(p.total(), 14);
    let p = same_however_cut("speedscope", "evented-ms.speedscope.json", Format::Speedscope);
    let t = p.samples.time_ns.as_ref().unwrap();
    // The open/close times are exact: 150.25 ms and 2999.999999 ms.
    assert!(t.contains(&150_250_000) && t.contains(&2_999_999_999), "{t:?}");
}

#[test]
fn speedscope_broken_files_are_typed_errors() {
    let good = data("speedscope", "py-spy-threads.speedscope.json");
    // Cut anywhere inside: an error, never a panic, naming the format.
    for cut in [good.len() / 3, good.len() / 2, good.len() - 2] {
        let e = load(&good[..cut]).unwrap_err();
        assert_eq!(e.format, Some(Format::Speedscope), "{e}");
        assert_eq!(e.kind, ImportErrorKind::Malformed, "{e}");
    }
    // speedscope's own invalid sample (a close of a frame that is not the innermost open one).
    let bad = br#"{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"A"},{"name":"B"}]},
      "profiles":[{"type":"evented","name":"p1","unit":"none","startValue":0,"endValue":100,"events":[
      {"type":"O","frame":0,"at":0},{"type":"C","frame":0,"at":1},{"type":"O","frame":1,"at":2},{"type":"O","frame":0,"at":2},
      {"type":"O","frame":0,"at":3},{"type":"C","frame":0,"at":4},{"type":"C","frame":1,"at":4},{"type":"C","frame":0,"at":5}]}]}"#;
    let e = load(bad).unwrap_err();
    assert!(
        e.message.starts_with("profiles[0].events[6]: closes frame 1"),
        "{e}"
    );
    // A wrong type: the JSON path and the byte offset of the value.
    let text = br#"{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","samples":[[0]],"weights":["x"]}]}"#;
    let e = load(text).unwrap_err();
    assert!(e.message.starts_with("profiles[0].weights[0]:"), "{e}");
    let at = text.windows(3).position(|w| w == b"\"x\"").unwrap() as u64;
    assert!((at..=at + 3).contains(&e.offset), "{e}: offset {}", e.offset);
}

#[test]
fn bpftrace_files_read_the_same_however_cut() {
    let p = same_however_cut("bpftrace", "kstack-ustack-comm.txt", Format::Bpftrace);
    assert_eq!(p.meta.records, 120);
    assert_eq!(p.total(), 296);
    assert!(p.meta.warnings.is_empty());
    let p = same_however_cut("bpftrace", "two-maps.txt", Format::Bpftrace);
    let names: Vec<_> = p.events.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, vec!["@", "@kernel"]);
}

#[test]
fn bpftrace_cut_input_is_a_warning_or_a_typed_error() {
    let good = data("bpftrace", "kstack-ustack-comm.txt");
    // Cut inside a block: the blocks before it, and a warning for the cut one (its line named).
    let cut = good.windows(12).position(|w| w == b"do_task_stat").unwrap() + 6;
    let p = load(&good[..cut]).unwrap();
    assert_eq!(p.meta.warnings.count, 1);
    assert!(
        p.meta.warnings.first[0].message.contains("cut off by the end"),
        "{:?}",
        p.meta.warnings
    );
    // Nothing complete: a typed error.
    let e = load(b"Attaching 1 probe...\n@[\n    spin+38\n").unwrap_err();
    assert_eq!(
        (e.format, e.kind),
        (Some(Format::Bpftrace), ImportErrorKind::NoValidRecords)
    );
}

#[test]
fn async_profiler_collapsed_reads_as_folded_with_its_kinds() {
    let p = same_however_cut("async-profiler", "collapsed-threads.txt", Format::Folded);
    let kind = |name: &str| {
        (0..p.frames.len())
            .map(|i| scorch_core::FrameId(i as u32))
            .find(|&f| p.frame_name(f) == name)
            .map(|f| p.frame_kind(f))
    };
    use scorch_core::FrameKind;
    // `--threads` roots are plain frames named as written.
    assert_eq!(kind("[main tid=4402]"), Some(FrameKind::User));
    // `_[j]` JIT-compiled, `_[i]` inlined, `_[k]` kernel: the kind, and the suffix leaves the name.
    assert_eq!(kind("com.example.App.compute"), Some(FrameKind::Jit));
    assert_eq!(kind("java.util.HashMap.putVal"), Some(FrameKind::Inline));
    assert_eq!(kind("do_syscall_64"), Some(FrameKind::Kernel));
    // `_[0]` (interpreted) and `_[1]` (C1-compiled) are not kinds scorch has: they stay in the name.
    assert_eq!(kind("com.example.App.compute_[0]"), Some(FrameKind::User));
    assert_eq!(kind("com.example.App.compute_[1]"), Some(FrameKind::User));
    // Native frames have no suffix.
    assert_eq!(kind("writeBytes"), Some(FrameKind::User));
    assert_eq!(p.total(), 965);
}

#[test]
fn gecko_files_read_the_same_however_cut_with_exact_times() {
    let p = same_however_cut("gecko", "samply-two-threads.symbolicated.json", Format::Gecko);
    assert_eq!(p.threads.len(), 2);
    // Every sample's time is the file's `time` in ms as integer ns (read here with serde_json).
    let v: serde_json::Value =
        serde_json::from_slice(&data("gecko", "samply-two-threads.symbolicated.json")).unwrap();
    let mut want = Vec::new();
    for t in v["threads"].as_array().unwrap() {
        for x in t["samples"]["time"].as_array().unwrap() {
            want.push((x.as_f64().unwrap() * 1e6).round() as u64);
        }
    }
    assert_eq!(p.samples.time_ns.as_ref().unwrap(), &want);
    // The gzip'd recording is the same profile (unsymbolicated names).
    let z = load(&data("gecko", "samply-two-threads.json.gz")).unwrap();
    assert_eq!(z.samples.time_ns, p.samples.time_ns);
    assert_eq!(z.total(), p.total());
}

#[test]
fn gecko_broken_files_are_typed_errors() {
    let good = data("gecko", "samply-two-threads.symbolicated.json");
    for cut in [good.len() / 3, good.len() - 2] {
        let e = load(&good[..cut]).unwrap_err();
        assert_eq!(
            (e.format, e.kind.clone()),
            (Some(Format::Gecko), ImportErrorKind::Malformed),
            "{e}"
        );
    }
    let text = String::from_utf8(good)
        .unwrap()
        .replacen("\"stack\":[", "\"stack\":[\"x\",", 1);
    let e = load(text.as_bytes()).unwrap_err();
    assert!(
        e.message.starts_with("threads[0].samples.stack[0]: invalid type"),
        "{e}"
    );
    assert!(e.offset > 0);
}
