//! The formats that state a call graph (callgrind, Python's cProfile): shapes whose expansion into stacks could outgrow the input
//! — a chain of diamonds (2^N paths, weights large enough never to run out), a function with very many callees,
//! the most events over very many functions.

use super::{input_shape, scale};
use std::io::Write as _;

#[test]
fn callgrind_chain_of_diamonds() {
    // f_i calls a_i and b_i, which both call f_{i+1}: 2^n paths from f0. Consistent costs, scaled by 2^40 so
    // that the halving weights never reach zero: f self 2K, a/b self K, T_i = T_{i+1} + 4K.
    let n = 400 * scale();
    let k: u64 = 1 << 40;
    let mut t = vec![0u64; n + 1];
    t[n] = 2 * k;
    for i in (0..n).rev() {
        t[i] = t[i + 1] + 4 * k;
    }
    let mut text = b"# callgrind format\nevents: Ir\n".to_vec();
    for i in 0..n {
        let x = t[i + 1] / 2 + k;
        writeln!(
            text,
            "fn=f{i}\n1 {}\ncfn=a{i}\ncalls=1 1\n1 {x}\ncfn=b{i}\ncalls=1 1\n1 {x}",
            2 * k
        )
        .unwrap();
        for ab in ["a", "b"] {
            writeln!(text, "fn={ab}{i}\n1 {k}\ncfn=f{}\ncalls=1 1\n1 {}", i + 1, x - k).unwrap();
        }
    }
    writeln!(text, "fn=f{n}\n1 {}", 2 * k).unwrap();
    input_shape("callgrind-diamonds", text, t[0], "f0");
}

#[test]
fn callgrind_function_with_very_many_callees() {
    let width = 50_000 * scale();
    let mut text = b"events: Ir\nfn=root\n1 1\n".to_vec();
    for i in 0..width {
        writeln!(text, "cfn=({i}) c{i}\ncalls=1 1\n1 3").unwrap();
    }
    for i in 0..width {
        writeln!(text, "fn=c{i}\n1 3").unwrap();
    }
    input_shape("callgrind-wide", text, 1 + 3 * width as u64, "root");
}

#[test]
fn callgrind_most_events_over_very_many_functions() {
    let n = 5_000 * scale();
    let events: Vec<String> = (0..256).map(|i| format!("e{i}")).collect();
    let mut text = format!("events: {}\nfn=main\n1 1\n", events.join(" ")).into_bytes();
    for i in 0..n {
        writeln!(text, "cfn=g{i}\ncalls=1 1\n1 2\nfn=g{i}\n1 2\nfn=main").unwrap();
    }
    input_shape("callgrind-events", text, 1 + 2 * n as u64, "main");
}

/// Python's marshal, as pstats files hold it: a `(file, line, name)` key.
fn pkey(name: &str) -> Vec<u8> {
    let mut v = vec![b')', 3, b'z', 4];
    v.extend_from_slice(b"p.py");
    v.push(b'i');
    v.extend_from_slice(&1i32.to_le_bytes());
    v.extend_from_slice(&[b'z', name.len() as u8]);
    v.extend_from_slice(name.as_bytes());
    v
}

/// A time in seconds: an int (marshal `i`) when whole, else a binary float (`g`).
fn psecs(s: f64) -> Vec<u8> {
    if s.fract() == 0.0 && s.abs() < 2e9 {
        [&[b'i'][..], &(s as i32).to_le_bytes()].concat()
    } else {
        [&[b'g'][..], &s.to_le_bytes()].concat()
    }
}

/// One pstats entry: `key: (1, 1, tt, ct, {caller: (1, 1, 0, ct)})`.
fn pentry(out: &mut Vec<u8>, name: &str, tt: f64, callers: &[(&str, f64)]) {
    out.extend(pkey(name));
    out.extend_from_slice(&[b')', 5, b'i', 1, 0, 0, 0, b'i', 1, 0, 0, 0]);
    out.extend(psecs(tt));
    out.extend(psecs(tt));
    out.push(b'{');
    for (c, ct) in callers {
        out.extend(pkey(c));
        out.extend_from_slice(&[b')', 4, b'i', 1, 0, 0, 0, b'i', 1, 0, 0, 0]);
        out.extend(psecs(0.0));
        out.extend(psecs(*ct));
    }
    out.push(b'0');
}

#[test]
fn cprofile_chain_of_diamonds() {
    // As callgrind's: f_i calls a_i and b_i, which both call f_{i+1}; 2^n paths. Whole seconds (2^10 of them
    // per unit, 2^40 ns) so that the halving weights never reach zero.
    let n = 400 * scale();
    let k = 1024.0;
    let mut t = vec![0f64; n + 1];
    t[n] = 2.0 * k;
    for i in (0..n).rev() {
        t[i] = t[i + 1] + 4.0 * k;
    }
    let mut text = vec![b'{'];
    for i in 0..n {
        let x = t[i + 1] / 2.0 + k;
        let f = format!("f{i}");
        let caller = (i > 0).then(|| [(format!("a{}", i - 1), x - k), (format!("b{}", i - 1), x - k)]);
        let callers: Vec<(&str, f64)> = caller.iter().flatten().map(|(c, w)| (c.as_str(), *w)).collect();
        pentry(&mut text, &f, 2.0 * k, &callers);
        pentry(&mut text, &format!("a{i}"), k, &[(&f, x)]);
        pentry(&mut text, &format!("b{i}"), k, &[(&f, x)]);
    }
    let last = t[n] / 2.0;
    pentry(
        &mut text,
        &format!("f{n}"),
        2.0 * k,
        &[(&format!("a{}", n - 1), last), (&format!("b{}", n - 1), last)],
    );
    text.push(b'0');
    input_shape("cprofile-diamonds", text, (t[0] * 1e9) as u64, "f0");
}

#[test]
fn cprofile_function_with_very_many_callees() {
    let width = 50_000 * scale();
    let mut text = vec![b'{'];
    pentry(&mut text, "main", 1e-9, &[]);
    for i in 0..width {
        pentry(&mut text, &format!("c{i}"), 3e-9, &[("main", 3e-9)]);
    }
    text.push(b'0');
    input_shape("cprofile-wide", text, 1 + 3 * width as u64, "main");
}
