//! The raw Gecko format Firefox writes (`schema` + `data` rows, `stringTable`, content processes in
//! `processes[]`): a stack of very many frames, each its own location (a chain of prefixes), and very many
//! markers of distinct names whose interval starts never end and whose ends never started (the pairing's
//! open lists), also through `scorch markers --json`.

use super::{scale, scorch, shape_of, tempdir, write};
use std::io::Write as _;

/// A raw thread: `frames` distinct locations in one chain, one sample on its deepest stack at each of
/// `samples` times, `markers` rows (a start and an end of distinct names per pair).
fn thread(out: &mut Vec<u8>, frames: usize, samples: usize, pairs: usize) {
    out.extend_from_slice(
        br#"{"name":"GeckoMain","pid":7,"tid":7,"samples":{"schema":{"stack":0,"time":1},"data":["#,
    );
    for i in 0..samples {
        if i > 0 {
            out.push(b',');
        }
        write!(out, "[{},{}.5]", frames - 1, i).unwrap();
    }
    out.extend_from_slice(br#"]},"stackTable":{"schema":{"prefix":0,"frame":1},"data":["#);
    for i in 0..frames {
        if i > 0 {
            out.push(b',');
        }
        match i {
            0 => out.extend_from_slice(b"[null,0]"),
            _ => write!(out, "[{},{i}]", i - 1).unwrap(),
        }
    }
    out.extend_from_slice(br#"]},"frameTable":{"schema":{"location":0,"category":6},"data":["#);
    for i in 0..frames {
        if i > 0 {
            out.push(b',');
        }
        write!(out, "[{i}]").unwrap();
    }
    out.extend_from_slice(br#"]},"markers":{"schema":{"name":0,"startTime":1,"endTime":2,"phase":3,"category":4,"data":5},"data":["#);
    for i in 0..pairs {
        if i > 0 {
            out.push(b',');
        }
        // A start of one name and an end of another: neither ever pairs.
        write!(
            out,
            "[{},1.0,null,2,0],[{},null,2.0,3,0]",
            frames + 2 * i,
            frames + 2 * i + 1
        )
        .unwrap();
    }
    out.extend_from_slice(br#"]},"stringTable":["#);
    for i in 0..frames {
        if i > 0 {
            out.push(b',');
        }
        write!(out, r#""f{i} (in libx.so)""#).unwrap();
    }
    for i in 0..2 * pairs {
        write!(out, r#","m{i}""#).unwrap();
    }
    out.extend_from_slice(b"]}");
}

fn profile(frames: usize, samples: usize, pairs: usize) -> Vec<u8> {
    let mut out = br#"{"meta":{"version":34,"startTime":1795786967164.1086,"interval":1,"categories":[{"name":"Other"}]},"libs":[],"threads":["#.to_vec();
    thread(&mut out, frames, samples, pairs);
    out.extend_from_slice(br#"],"processes":[{"meta":{"startTime":1795786970510.4175},"threads":["#);
    thread(&mut out, frames, samples, pairs);
    out.extend_from_slice(b"]}]}");
    out
}

#[test]
fn gecko_raw_deep_stack() {
    let frames = 100_000 * scale();
    // Two threads (the parent's and a content process's), one sample each.
    shape_of("gecko-raw-deep", profile(frames, 1, 1), 2, "f0", true);
}

#[test]
fn gecko_raw_markers_never_paired() {
    let pairs = 100_000 * scale();
    let text = profile(2, 1, pairs);
    let dir = tempdir();
    let file = write(&dir, "gecko-raw-markers", &text);
    let r = scorch(&["markers", "--json", file.to_str().unwrap()], text.len() as u64);
    assert_eq!(r.code, 0, "{}", r.err);
    let v: serde_json::Value = serde_json::from_slice(&r.out).unwrap();
    // Every start and every end is a marker of its own, in both processes.
    assert_eq!(v["markers"].as_array().unwrap().len(), 4 * pairs);
    let _ = std::fs::remove_dir_all(&dir);
}
