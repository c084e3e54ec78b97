//! How long the first view's cut of a large profile takes natively (a benchmark, not a test; docs/BENCHMARKS.md):
//! `cargo run --release -p scorch-core --example cut_time FILE [RUNS]` imports FILE once, then times
//! `CallTree::stack_weights` and `view::cut::cut_stacks` (what the import worker runs for the first flame graph
//! of a large profile) RUNS times (3 by default).

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: cut_time FILE [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(3);
    let bytes = std::fs::read(&path).expect("the file");
    let t = Instant::now();
    let imported = scorch_core::import_bytes(&bytes, Default::default()).expect("a profile");
    let p = &imported.profile;
    println!(
        "import {:.1} ms: {} stacks, {} samples, {} frames",
        t.elapsed().as_secs_f64() * 1e3,
        p.stacks.len(),
        p.samples.len(),
        p.frames.len()
    );
    let view = scorch_core::ViewOptions::default_for(p);
    for _ in 0..runs {
        let t = Instant::now();
        let Some(w) = scorch_core::CallTree::stack_weights(p, &view) else {
            println!("not a plain view: no cut from the stack table");
            return;
        };
        let weights = t.elapsed();
        let order = scorch_core::view::calltree::Order::Alphabetical;
        match scorch_core::view::cut::cut_stacks(p, &w, order) {
            Some(c) => println!(
                "weights {:.1} ms, cut {:.1} ms: {} nodes",
                weights.as_secs_f64() * 1e3,
                (t.elapsed() - weights).as_secs_f64() * 1e3,
                c.tree.len()
            ),
            None => println!("not cut (a small tree)"),
        }
    }
}
