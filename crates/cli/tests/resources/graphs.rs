//! The formats that state a call graph (callgrind): shapes whose expansion into stacks could outgrow the input
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
