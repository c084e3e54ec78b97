//! The cProfile importer on hand-made marshal bytes (as CPython's `marshal.dumps` writes them) and on the
//! recording of `crates/cli/tests/data/cprofile/` (whose per-function oracle test is `crates/cli/tests/cprofile.rs`).

use super::*;

fn read(bytes: &[u8]) -> Result<Profile, ImportError> {
    let mut p = CprofileParser::new(&CprofileOptions::default());
    p.feed(bytes)?;
    p.finish()
}

/// A short ASCII string, interned and with a reference slot, as CPython writes names.
fn s(x: &str) -> Vec<u8> {
    let mut v = vec![0xda, x.len() as u8];
    v.extend_from_slice(x.as_bytes());
    v
}

fn int(x: i32) -> Vec<u8> {
    let mut v = vec![b'i'];
    v.extend_from_slice(&x.to_le_bytes());
    v
}

fn float(x: f64) -> Vec<u8> {
    let mut v = vec![b'g'];
    v.extend_from_slice(&x.to_le_bytes());
    v
}

fn key(file: &str, line: i32, name: &str) -> Vec<u8> {
    [vec![b')', 3], s(file), int(line), s(name)].concat()
}

/// One entry: key, calls, tottime, cumtime, (caller, cumtime from it).
type Entry = (Vec<u8>, u32, f64, f64, Vec<(Vec<u8>, f64)>);

/// `{callee: (cc, nc, tt, ct, {caller: (nc, cc, tt, ct)})}`
fn stats(entries: &[Entry]) -> Vec<u8> {
    let mut v = vec![b'{'];
    for (k, nc, tt, ct, callers) in entries {
        v.extend_from_slice(k);
        v.extend_from_slice(&[b')', 5]);
        v.extend(int(*nc as i32));
        v.extend(int(*nc as i32));
        v.extend(float(*tt));
        v.extend(float(*ct));
        v.push(b'{');
        for (c, t) in callers {
            v.extend_from_slice(c);
            v.extend_from_slice(&[b')', 4]);
            v.extend(int(1));
            v.extend(int(1));
            v.extend(float(0.0));
            v.extend(float(*t));
        }
        v.push(b'0');
    }
    v.push(b'0');
    v
}

#[test]
fn a_graph_with_a_shared_callee() {
    // main (1 ms self) calls a (2 ms + c) and b (3 ms + c); c (4 ms self) is shared: each gets half.
    let (main, a, b, c) = (
        key("m.py", 1, "main"),
        key("m.py", 5, "a"),
        key("m.py", 9, "b"),
        key("m.py", 13, "c"),
    );
    let bytes = stats(&[
        (main.clone(), 1, 0.001, 0.010, vec![]),
        (a.clone(), 1, 0.002, 0.004, vec![(main.clone(), 0.004)]),
        (b.clone(), 1, 0.003, 0.005, vec![(main.clone(), 0.005)]),
        (
            c.clone(),
            2,
            0.004,
            0.004,
            vec![(a.clone(), 0.002), (b.clone(), 0.002)],
        ),
    ]);
    let p = read(&bytes).unwrap();
    assert_eq!(p.meta.format, Format::Cprofile);
    let folded = crate::export::to_folded_view(&p, &crate::view::ViewOptions::default_for(&p));
    assert_eq!(
        folded,
        "main 1000000\nmain;a 2000000\nmain;a;c 2000000\nmain;b 3000000\nmain;b;c 2000000\n"
    );
    assert_eq!(p.events.len(), 3);
    assert_eq!(p.events[1].total, 5, "calls");
}

#[test]
fn references_are_shared_not_copied() {
    // Reference slots: a key tuple with FLAG_REF, then `r` to it as a caller.
    let mut bytes = vec![0xfb, 0xa9, 3]; // {  ) with FLAG_REF (ref 1; the dict is ref 0)
    bytes.extend(s("f.py")); // ref 2
    bytes.extend(int(1));
    bytes.extend(s("main")); // ref 3
    bytes.extend([b')', 5]);
    bytes.extend(int(1));
    bytes.extend(int(1));
    bytes.extend(float(0.5));
    bytes.extend(float(0.5));
    bytes.extend([b'{', b'0']);
    bytes.extend([b')', 3, b'r', 2, 0, 0, 0]);
    bytes.extend(int(2));
    bytes.extend([b'r', 3, 0, 0, 0]); // the same name at another line: named apart
    bytes.extend([b')', 5]);
    bytes.extend(int(1));
    bytes.extend(int(1));
    bytes.extend(float(0.25));
    bytes.extend(float(0.25));
    bytes.extend([b'{', b'r', 1, 0, 0, 0, b')', 4]);
    bytes.extend(int(1));
    bytes.extend(int(1));
    bytes.extend(float(0.25));
    bytes.extend(float(0.25));
    bytes.extend([b'0', b'0']);
    let p = read(&bytes).unwrap();
    let folded = crate::export::to_folded_view(&p, &crate::view::ViewOptions::default_for(&p));
    assert_eq!(
        folded,
        "main (f.py:1) 500000000\nmain (f.py:1);main (f.py:2) 250000000\n"
    );
}

#[test]
fn errors_have_offsets() {
    let good = stats(&[(key("m.py", 1, "main"), 1, 0.001, 0.001, vec![])]);
    for n in 0..good.len() {
        let e = read(&good[..n]).unwrap_err();
        assert!(e.offset <= n as u64, "{n}: {e}");
    }
    let e = read(&[b'{', b'r', 9, 0, 0, 0]).unwrap_err();
    assert!(e.message.contains("a reference to object 9"), "{e}");
    assert_eq!(e.offset, 1);
    let e = read(&[b'{', b'(', 0xff, 0xff, 0xff, 0x7f]).unwrap_err();
    assert!(e.message.contains("only 0 can follow"), "{e}");
    let e = read(&[&[b'{'][..], &[b')', 1].repeat(100), b"N"].concat()).unwrap_err();
    assert!(e.message.contains("nested more than 64"), "{e}");
    let bad = [
        &[b'{'][..],
        &key("m.py", 1, "main"),
        &[b')', 2],
        &int(1),
        &int(1),
        b"0",
    ]
    .concat();
    let e = read(&bad).unwrap_err();
    assert!(e.message.contains("entry 0 (m.py:1(main)): 2 numbers"), "{e}");
    assert_eq!(e.offset, 1);
    assert_eq!(read(b"{0").unwrap_err().kind, ImportErrorKind::NoValidRecords);
    let e = read(&[&good[..], b"x"].concat()).unwrap_err();
    assert!(e.message.contains("bytes after"), "{e}");
}

#[test]
fn a_callers_dict_shared_by_reference_costs_no_more_than_the_input() {
    // One callers dict of 4,000 callers, given to 4,000 functions by reference (5 bytes each): walking it for
    // each would be 16,000,000 steps from 400 KB; the walk stops at its budget (16 per input byte) instead.
    let n = 4000;
    let mut b = vec![b'{'];
    for i in 0..n {
        b.extend(key("m.py", i, &format!("f{i}")));
        b.extend_from_slice(&[b')', 5]);
        b.extend(int(1));
        b.extend(int(1));
        b.extend(float(0.001));
        b.extend(float(0.001));
        if i == 0 {
            // References so far: "m.py" (0), "f0" (1); the dict takes 2.
            b.push(0xfb);
            for j in 0..n {
                b.extend(key("m.py", j, &format!("g{j}")));
                b.extend_from_slice(&[b')', 4]);
                b.extend(int(1));
                b.extend(int(1));
                b.extend(float(0.0));
                b.extend(float(0.0));
            }
            b.push(b'0');
        } else {
            b.extend_from_slice(&[b'r', 2, 0, 0, 0]);
        }
    }
    b.push(b'0');
    let e = read(&b).unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::LimitExceeded, "{e}");
    assert!(e.message.contains("shared by reference"), "{e}");
}
