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

/// For the stack chart (`bench/chart-browser.mjs`): N samples 100 µs apart (10 kHz) on one thread, walking a
/// random recursive tree of 20,000 call paths over 600 names: 70 % of samples repeat the previous stack, the
/// rest climb 1–3 frames and descend 1–4 (a program moving between nearby calls, as sampled programs do).
/// Deterministic.
pub fn chart_walk(samples: usize) -> Imported {
    const NODES: usize = 20_000;
    let mut next = xorshift(0x5851_f42d_4c95_7f2d);
    let mut b = ProfileBuilder::new(scorch_core::Format::PerfScript);
    let event = b.event("cpu-clock", Unit::Nanoseconds);
    let thread = b.thread("walk", Some(1), 1);
    let frames: Vec<_> = (0..600)
        .map(|i| b.frame(&format!("module{}::function_{i}", i % 37), FrameKind::User))
        .collect();
    let mut stacks: Vec<StackId> = Vec::with_capacity(NODES);
    let mut parent: Vec<usize> = Vec::with_capacity(NODES);
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); NODES];
    for i in 0..NODES {
        let (p, s) = if i == 0 {
            (usize::MAX, b.stack(None, frames[0]))
        } else {
            let p = (next() as usize) % i;
            children[p].push(i);
            (
                p,
                b.stack(Some(stacks[p]), frames[(next() as usize) % frames.len()]),
            )
        };
        parent.push(p);
        stacks.push(s);
    }
    let start: u64 = 1_000 * 1_000_000_000;
    let mut cur = 0usize;
    for i in 0..samples {
        if next() % 10 >= 7 {
            for _ in 0..1 + next() % 3 {
                if parent[cur] != usize::MAX {
                    cur = parent[cur];
                }
            }
            for _ in 0..1 + next() % 4 {
                let c = &children[cur];
                if c.is_empty() {
                    break;
                }
                cur = c[(next() as usize) % c.len()];
            }
        }
        let s = FullSample {
            stack: stacks[cur],
            weight: 100_000,
            time_ns: Some(start + i as u64 * 100_000),
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
