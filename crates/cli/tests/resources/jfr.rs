//! JFR recordings, written here byte by byte (`Jfr`): a chunk with the metadata event (the types scorch reads:
//! symbols, classes, methods, stack frames and traces, threads, `jdk.ExecutionSample`), one constant pool event
//! and the samples. Shapes: one stack trace of very many frames, each its own method; very many samples of
//! one stack.

use super::{scale, shape_of};

/// A compressed integer (7 bits a byte, low first).
fn var(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn var_len(v: u64) -> usize {
    let mut b = Vec::new();
    var(&mut b, v);
    b.len()
}

/// An event: its size (counting the size's own bytes) and the body.
fn event(out: &mut Vec<u8>, body: &[u8]) {
    let mut n = 1;
    while var_len((body.len() + n) as u64) != n {
        n += 1;
    }
    var(out, (body.len() + n) as u64);
    out.extend_from_slice(body);
}

fn utf8(out: &mut Vec<u8>, s: &str) {
    out.push(3);
    var(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// The metadata event's body: its string table and the element tree of the classes below.
fn metadata() -> Vec<u8> {
    // (id, name, super type, fields: (name, class, pooled, array)).
    type F = (&'static str, u64, bool, bool);
    let classes: [(u64, &str, Option<&str>, &[F]); 11] = [
        (1, "long", None, &[]),
        (2, "int", None, &[]),
        (3, "boolean", None, &[]),
        (4, "java.lang.String", None, &[]),
        (10, "jdk.types.Symbol", None, &[("string", 4, false, false)]),
        (11, "java.lang.Class", None, &[("name", 10, true, false)]),
        (
            12,
            "jdk.types.Method",
            None,
            &[
                ("type", 11, true, false),
                ("name", 10, true, false),
                ("hidden", 3, false, false),
            ],
        ),
        (
            13,
            "jdk.types.StackFrame",
            None,
            &[("method", 12, true, false), ("lineNumber", 2, false, false)],
        ),
        (
            14,
            "jdk.types.StackTrace",
            None,
            &[("truncated", 3, false, false), ("frames", 13, false, true)],
        ),
        (
            15,
            "java.lang.Thread",
            None,
            &[("javaName", 4, false, false), ("javaThreadId", 1, false, false)],
        ),
        (
            20,
            "jdk.ExecutionSample",
            Some("jdk.jfr.Event"),
            &[
                ("startTime", 1, false, false),
                ("sampledThread", 15, true, false),
                ("stackTrace", 14, true, false),
            ],
        ),
    ];
    let mut strings: Vec<String> = Vec::new();
    let mut s = |t: &str| -> u64 {
        if let Some(i) = strings.iter().position(|x| x == t) {
            return i as u64;
        }
        strings.push(t.to_string());
        (strings.len() - 1) as u64
    };
    // An element: name, attributes, children.
    let mut tree = Vec::new();
    var(&mut tree, s("root"));
    var(&mut tree, 0);
    var(&mut tree, 1);
    var(&mut tree, s("metadata"));
    var(&mut tree, 0);
    var(&mut tree, classes.len() as u64);
    for (id, name, sup, fields) in classes {
        var(&mut tree, s("class"));
        let mut attrs = vec![(s("id"), s(&id.to_string())), (s("name"), s(name))];
        if let Some(sup) = sup {
            attrs.push((s("superType"), s(sup)));
        }
        var(&mut tree, attrs.len() as u64);
        for (k, v) in attrs {
            var(&mut tree, k);
            var(&mut tree, v);
        }
        var(&mut tree, fields.len() as u64);
        for &(fname, class, pooled, array) in fields {
            var(&mut tree, s("field"));
            let mut attrs = vec![(s("name"), s(fname)), (s("class"), s(&class.to_string()))];
            if pooled {
                attrs.push((s("constantPool"), s("true")));
            }
            if array {
                attrs.push((s("dimension"), s("1")));
            }
            var(&mut tree, attrs.len() as u64);
            for (k, v) in attrs {
                var(&mut tree, k);
                var(&mut tree, v);
            }
            var(&mut tree, 0);
        }
    }
    // Type id 0, start, duration, metadata id; the strings; the tree.
    let mut body = Vec::new();
    for v in [0u64, 0, 0, 1] {
        var(&mut body, v);
    }
    var(&mut body, strings.len() as u64);
    for t in &strings {
        utf8(&mut body, t);
    }
    body.extend_from_slice(&tree);
    body
}

/// A recording of `samples` samples of one stack of `depth` frames `C.f0` (root) … `C.f{depth-1}` (top).
fn recording(depth: usize, samples: usize) -> Vec<u8> {
    let mut events = Vec::new();
    event(&mut events, &metadata());
    // The constant pool event: start, duration, delta, flush, pools.
    let mut cp = Vec::new();
    var(&mut cp, 1);
    for _ in 0..3 {
        var(&mut cp, 0);
    }
    cp.push(0);
    var(&mut cp, 5);
    // Symbols: 0 is `C`, i + 1 is `f{i}`.
    var(&mut cp, 10);
    var(&mut cp, depth as u64 + 1);
    var(&mut cp, 0);
    utf8(&mut cp, "C");
    for i in 0..depth {
        var(&mut cp, i as u64 + 1);
        utf8(&mut cp, &format!("f{i}"));
    }
    var(&mut cp, 11);
    var(&mut cp, 1);
    var(&mut cp, 1);
    var(&mut cp, 0);
    var(&mut cp, 12);
    var(&mut cp, depth as u64);
    for i in 0..depth {
        var(&mut cp, i as u64 + 1);
        var(&mut cp, 1);
        var(&mut cp, i as u64 + 1);
        cp.push(0);
    }
    var(&mut cp, 14);
    var(&mut cp, 1);
    var(&mut cp, 1);
    cp.push(0);
    var(&mut cp, depth as u64);
    for i in (0..depth).rev() {
        var(&mut cp, i as u64 + 1);
        var(&mut cp, 7);
    }
    var(&mut cp, 15);
    var(&mut cp, 1);
    var(&mut cp, 1);
    utf8(&mut cp, "main");
    var(&mut cp, 1);
    event(&mut events, &cp);
    for i in 0..samples {
        let mut e = Vec::new();
        var(&mut e, 20);
        var(&mut e, 1000 + i as u64);
        var(&mut e, 1);
        var(&mut e, 1);
        event(&mut events, &e);
    }
    let mut out = Vec::new();
    out.extend_from_slice(b"FLR\0");
    out.extend_from_slice(&2u16.to_be_bytes());
    out.extend_from_slice(&1u16.to_be_bytes());
    let size = 68 + events.len() as i64;
    // size, constant pool offset, metadata offset, start ns, duration ns, start ticks, ticks per second.
    for v in [
        size,
        0,
        68,
        1_700_000_000_000_000_000,
        1_000_000,
        1000,
        1_000_000_000,
    ] {
        out.extend_from_slice(&v.to_be_bytes());
    }
    out.extend_from_slice(&1i32.to_be_bytes());
    out.extend_from_slice(&events);
    out
}

#[test]
fn jfr_deep_stack_trace() {
    // One stack trace of 200,000 frames, each its own method and symbol; three samples of it.
    let text = recording(200_000 * scale(), 3);
    shape_of("jfr-deep", text, 3, "C.f0", true);
}

#[test]
fn jfr_very_many_samples() {
    // 200,000 samples of one stack of three frames.
    let n = 200_000 * scale();
    shape_of("jfr-many", recording(3, n), n as u64, "C.f0", true);
}
