//! The speedscope, bpftrace and async-profiler inputs on the recorded and vendored files
//! (`tests/data/{speedscope,bpftrace,async-profiler}`, README.md in each): the result does not depend on
//! chunking or gzip; broken input is a typed error naming the JSON path or the byte offset and line. (The
//! per-stack counts against independent oracles are in crates/cli/tests/formats.rs.)

use scorch_core::export::to_folded;
use scorch_core::{import_bytes, Format, ImportError, ImportErrorKind, ImportOptions, Loader, Profile};
use std::io::Write;

fn data(dir: &str, name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{dir}/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn load(bytes: &[u8]) -> Result<Profile, ImportError> {
    import_bytes(bytes, ImportOptions::default()).map(|i| i.profile)
}

fn chunked(bytes: &[u8], size: usize) -> Profile {
    let mut l = Loader::new(ImportOptions::default());
    for c in bytes.chunks(size) {
        l.feed(c).unwrap();
    }
    l.finish().unwrap().profile
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// What must not change with chunking: the folded stacks with their weights, and every sample's time.
fn fingerprint(p: &Profile) -> (String, Option<Vec<u64>>, u64) {
    (to_folded(p), p.samples.time_ns.clone(), p.total())
}

fn same_however_cut(dir: &str, name: &str, format: Format) -> Profile {
    let bytes = data(dir, name);
    let whole = load(&bytes).unwrap();
    whole.validate().unwrap();
    assert_eq!(whole.meta.format, format, "{name}");
    let want = fingerprint(&whole);
    for size in [1, 7, 4096] {
        assert_eq!(
            fingerprint(&chunked(&bytes, size)),
            want,
            "{name} in chunks of {size}"
        );
    }
    let z = import_bytes(&gz(&bytes), ImportOptions::default()).unwrap();
    assert!(z.gzip);
    assert_eq!(fingerprint(&z.profile), want, "{name} gzip'd");
    whole
}

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
