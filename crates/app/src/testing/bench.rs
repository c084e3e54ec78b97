//! Synthetic profiles for the benchmark hooks (`bench/heatmap-browser.mjs`, `bench/redraw-browser.mjs`): build a synthetic perf-like
//! profile of N timestamped samples inside the page, so the heatmap and range selections can be timed at sizes
//! no test file has.

use scorch_core::model::Warnings;
use scorch_core::model::{FullSample, ProfileBuilder, StackId};
use scorch_core::{FrameKind, Imported, Unit};

/// N samples over `seconds` seconds, a pool of 4,000 distinct stacks (depth 8–40) over 600 function names,
/// with a burst in the 600–800 ms of every second. Deterministic.
pub fn synthetic(samples: usize, seconds: u64) -> Imported {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let mut b = ProfileBuilder::new(scorch_core::Format::PerfScript);
    let event = b.event("cpu-clock", Unit::Nanoseconds);
    let thread = b.thread("bench", Some(1), 1);
    let frames: Vec<_> = (0..600)
        .map(|i| b.frame(&format!("module{}::function_{i}", i % 37), FrameKind::User))
        .collect();
    let mut pool: Vec<StackId> = Vec::with_capacity(4000);
    for _ in 0..4000 {
        let depth = 8 + (next() % 33) as usize;
        let mut parent = None;
        for d in 0..depth {
            // Shallow frames come from a small set, so stacks share prefixes as real ones do.
            let span = (6 + d * 20).min(frames.len());
            let f = frames[(next() as usize) % span];
            parent = Some(b.stack(parent, f));
        }
        if let Some(s) = parent {
            pool.push(s);
        }
    }
    let start: u64 = 1_000 * 1_000_000_000;
    let span = seconds * 1_000_000_000;
    for i in 0..samples {
        let mut t = start + (i as u64) * span / samples.max(1) as u64;
        // Move a third of the samples into the burst window of their second.
        if next().is_multiple_of(3) {
            let sec = t - t % 1_000_000_000;
            t = sec + 600_000_000 + next() % 200_000_000;
        }
        let s = FullSample {
            stack: pool[(next() as usize) % pool.len()],
            weight: 1_000_000,
            time_ns: Some(t),
            thread: Some(thread),
            event: Some(event),
            cpu: Some(0),
            labels: None,
        };
        let _ = b.push_full_sample(s, 0);
    }
    Imported {
        profile: b.build(Unit::Nanoseconds, 0, samples as u64, Warnings::default()),
        gzip: false,
        bytes: 0,
    }
}

/// A folded-like profile whose call tree has about `nodes` nodes: a random recursive tree over 5,000 function
/// names (depth about 2·e·ln n), one sample of weight 1–1000 per node. Deterministic.
pub fn tree(nodes: usize) -> Imported {
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let mut b = ProfileBuilder::new(scorch_core::Format::Folded);
    let frames: Vec<_> = (0..5000)
        .map(|i| {
            b.frame(
                &format!("pkg{}::module{}::function_{i}", i % 23, i % 151),
                FrameKind::User,
            )
        })
        .collect();
    let mut stacks: Vec<StackId> = Vec::with_capacity(nodes);
    for i in 0..nodes {
        // Attach to any earlier node (a random recursive tree), or start a new root now and then.
        let parent = if i == 0 || next().is_multiple_of(1000) {
            None
        } else {
            Some(stacks[(next() as usize) % stacks.len()])
        };
        let f = frames[(next() as usize) % frames.len()];
        stacks.push(b.stack(parent, f));
    }
    for &s in &stacks {
        let _ = b.push_sample(s, 1 + next() % 1000, 0);
    }
    Imported {
        profile: b.build(Unit::Samples, 0, nodes as u64, Warnings::default()),
        gzip: false,
        bytes: 0,
    }
}

/// A deterministic xorshift64 generator (benchmarks only; not a statistical tool).
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut rng = seed;
    move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    }
}
