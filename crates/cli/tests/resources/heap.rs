//! The heap profile formats. V8's `.heapprofile`: a call tree written as nested JSON objects, one level per
//! frame — a chain far deeper than any JSON parser's recursion limit, and a node with very many children.
//! DHAT: a program point with a very deep stack, and very many program points.

use super::{input_shape, scale};
use std::io::Write as _;

#[test]
fn heapprofile_deep_chain() {
    // Only the deepest node has a size: one stack of `depth` frames, not `depth` stacks (whose folded output
    // alone would be quadratic).
    let depth = 50_000 * scale();
    let mut text =
        br#"{"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":0,"children":["#.to_vec();
    for i in 1..=depth {
        let size = u8::from(i == depth);
        write!(
            text,
            r#"{{"callFrame":{{"functionName":"f","url":"a.js","lineNumber":1}},"selfSize":{size},"id":{i},"children":["#
        )
        .unwrap();
    }
    for _ in 0..=depth {
        text.extend_from_slice(b"]}");
    }
    text.extend_from_slice(br#","samples":[]}"#);
    input_shape("heapprofile-deep", text, 1, "f");
}

#[test]
fn heapprofile_node_with_very_many_children() {
    let width = 50_000 * scale();
    let mut text = br#"{"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":0,"children":[{"callFrame":{"functionName":"main"},"selfSize":1,"id":1,"children":["#.to_vec();
    for i in 0..width {
        if i > 0 {
            text.push(b',');
        }
        write!(
            text,
            r#"{{"callFrame":{{"functionName":"c{i}"}},"selfSize":3,"id":{},"children":[]}}"#,
            i + 2
        )
        .unwrap();
    }
    text.extend_from_slice(br#"]}]},"samples":[{"size":1,"nodeId":1,"ordinal":1}]}"#);
    // The shown event's total: bytes, 1 + 3 per child (the one allocation sample is the other event's).
    input_shape("heapprofile-wide", text, 1 + 3 * width as u64, "main");
}

#[test]
fn dhat_deep_program_point() {
    // One program point whose stack is 200,000 frames, each its own `ftbl` entry of one function.
    let depth = 200_000 * scale();
    let mut text = br#"{"dhatFileVersion":2,"mode":"heap","pps":[{"tb":7,"tbk":1,"fs":["#.to_vec();
    for i in 1..=depth {
        if i > 1 {
            text.push(b',');
        }
        write!(text, "{i}").unwrap();
    }
    text.extend_from_slice(br#"]}],"ftbl":["[root]""#);
    for i in 1..=depth {
        write!(text, r#","0x{i:X}: f (a.c:{i})""#).unwrap();
    }
    text.extend_from_slice(b"]}");
    input_shape("dhat-deep", text, 7, "f");
}

#[test]
fn dhat_very_many_program_points() {
    // 100,000 program points, each main → its own function.
    let n = 100_000 * scale();
    let mut text = br#"{"dhatFileVersion":2,"mode":"heap","pps":["#.to_vec();
    for i in 0..n {
        if i > 0 {
            text.push(b',');
        }
        write!(text, r#"{{"tb":3,"tbk":1,"gb":1,"gbk":1,"fs":[{},1]}}"#, i + 2).unwrap();
    }
    text.extend_from_slice(br#"],"ftbl":["[root]","0x1: main (a.c:1)""#);
    for i in 0..n {
        write!(text, r#","0x{:X}: g{i} (a.c:{i})""#, i + 2).unwrap();
    }
    text.extend_from_slice(b"]}");
    input_shape("dhat-wide", text, 3 * n as u64, "main");
}
