//! The layout's tests: boxes never overlap, edges go down (reversed ones up) and never through a box, cycles
//! are broken, sweeps remove avoidable crossings, bad input, and the benchmark.
use super::*;

fn random_graph(n: usize, m: usize, seed: u64) -> Vec<(u32, u32)> {
    let mut x = seed | 1;
    let mut next = |k: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % k
    };
    let mut edges = Vec::with_capacity(m);
    // A tree of calls, then more calls mostly downwards and some back up (recursion).
    for v in 1..n {
        edges.push(((next(v as u64)) as u32, v as u32));
    }
    while edges.len() < m {
        let a = next(n as u64) as u32;
        let b = if next(10) == 0 {
            next(n as u64) as u32
        } else {
            (a as u64 + 1 + next(40)).min(n as u64 - 1) as u32
        };
        if a != b {
            edges.push((a, b));
        }
    }
    edges
}

fn check(n: usize, edges: &[(u32, u32)], l: &Layout) {
    // No two boxes of a rank overlap.
    let mut by_rank: Vec<Vec<usize>> = vec![Vec::new(); l.rank.iter().max().map_or(0, |&r| r as usize + 1)];
    for v in 0..n {
        by_rank[l.rank[v] as usize].push(v);
    }
    for r in &mut by_rank {
        r.sort_by(|&a, &b| l.x[a].total_cmp(&l.x[b]));
        for w in r.windows(2) {
            assert!(l.x[w[0]] + l.w[w[0]] <= l.x[w[1]] + 1e-6, "{w:?} overlap");
        }
    }
    // Every edge that is not reversed goes down; reversed ones go up.
    for (i, &(a, b)) in edges.iter().enumerate() {
        if a == b {
            continue;
        }
        let (ra, rb) = (l.rank[a as usize], l.rank[b as usize]);
        if l.reversed[i] {
            assert!(ra > rb, "edge {i} reversed but {ra} -> {rb}");
        } else {
            assert!(ra < rb, "edge {i}: {ra} -> {rb}");
        }
        let pts = l.edge_start[i] as usize..l.edge_start[i + 1] as usize;
        assert!(pts.len() >= 2);
        let ys: Vec<f64> = l.py[pts].to_vec();
        for w in ys.windows(2) {
            if l.reversed[i] {
                assert!(w[0] >= w[1]);
            } else {
                assert!(w[0] <= w[1]);
            }
        }
    }
    assert!(l.x.iter().all(|&x| x >= -1e-6));
    // No edge passes through a box (its own ends touch their boxes' borders only), but for those drawn straight
    // past the cap on dummy points.
    for (i, &(a, b)) in edges.iter().enumerate() {
        let pts: Vec<(f64, f64)> = (l.edge_start[i] as usize..l.edge_start[i + 1] as usize)
            .map(|k| (l.px[k], l.py[k]))
            .collect();
        if pts.len() == 2 && l.rank[a as usize].abs_diff(l.rank[b as usize]) > 1 {
            continue;
        }
        for s in pts.windows(2) {
            let (y0, y1) = (s[0].1.min(s[1].1), s[0].1.max(s[1].1));
            let (x0, x1) = (s[0].0.min(s[1].0), s[0].0.max(s[1].0));
            // The boxes of the ranks the segment's height meets whose width meets its width (by rank, by x).
            for r in by_rank
                .iter()
                .filter(|r| r.first().is_some_and(|&v| l.y[v] < y1 && l.y[v] + l.h[v] > y0))
            {
                let from = r.partition_point(|&v| l.x[v] + l.w[v] <= x0);
                for &v in r[from..].iter().take_while(|&&v| l.x[v] <= x1) {
                    assert!(
                        !through(s[0], s[1], (l.x[v], l.y[v], l.w[v], l.h[v])),
                        "edge {i} crosses box {v}"
                    );
                }
            }
        }
    }
}

/// Whether the segment a–b passes through the inside of the box (x, y, w, h) (Liang–Barsky clipping against the
/// box shrunk by a hair, so touching its border does not count).
fn through(a: (f64, f64), b: (f64, f64), (x, y, w, h): (f64, f64, f64, f64)) -> bool {
    let e = 1e-6;
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - (x + e)),
        (dx, (x + w - e) - a.0),
        (-dy, a.1 - (y + e)),
        (dy, (y + h - e) - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    t0 < t1
}

#[test]
fn ranks_down_no_overlaps_deterministic() {
    for seed in 1..6 {
        let n = 300;
        let edges = random_graph(n, 900, seed);
        let widths: Vec<f64> = (0..n).map(|i| 20.0 + (i % 7) as f64 * 13.0).collect();
        let heights = vec![30.0; n];
        let l = layout(n, &edges, &widths, &heights, &LayoutOptions::default());
        check(n, &edges, &l);
        let again = layout(n, &edges, &widths, &heights, &LayoutOptions::default());
        assert_eq!(l, again);
    }
}

#[test]
fn a_cycle_is_broken_and_a_chain_is_straight() {
    // main → a → b → a (recursion), main → c; then a long edge main → d over c → d's chain.
    let edges = [(0, 1), (1, 2), (2, 1), (0, 3), (3, 4), (4, 5), (0, 5)];
    let l = layout(6, &edges, &[10.0; 6], &[10.0; 6], &LayoutOptions::default());
    check(6, &edges, &l);
    assert_eq!(l.rank[0], 0);
    assert_eq!(l.reversed.iter().filter(|&&r| r).count(), 1);
    // main → 5 spans three ranks: two dummies between its ends, each a point above and below its rank's boxes.
    let e = 6;
    assert_eq!(l.edge_start[e + 1] - l.edge_start[e], 6);
}

#[test]
fn sweeps_remove_avoidable_crossings() {
    // Two parents, children given crossed: 0 → 3, 1 → 2.
    let edges = [(0, 3), (1, 2)];
    let l = layout(4, &edges, &[10.0; 4], &[10.0; 4], &LayoutOptions::default());
    assert_eq!(l.crossings, 0);
}

#[test]
fn bad_input_does_not_panic() {
    let l = layout(2, &[(0, 5), (1, 1), (0, 1)], &[], &[], &LayoutOptions::default());
    assert_eq!(l.edge_start.len(), 4);
    let empty = layout(0, &[], &[], &[], &LayoutOptions::default());
    assert!(empty.x.is_empty());
}

/// A call-graph-like shape: every node at one of `levels` depths, a tree of calls one level down, more
/// calls one to three levels down, and one in twenty back up (recursion).
fn levelled_graph(n: usize, m: usize, levels: usize, seed: u64) -> Vec<(u32, u32)> {
    let mut x = seed | 1;
    let mut next = |k: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % k.max(1)
    };
    let per = n.div_ceil(levels);
    let level_start = |l: usize| (l * per).min(n);
    let pick = |l: usize, r: u64| {
        let (a, b) = (level_start(l), level_start(l + 1));
        (a + (r as usize) % (b - a).max(1)).min(n - 1) as u32
    };
    let mut edges = Vec::with_capacity(m);
    for v in per..n {
        let l = v / per;
        edges.push((pick(l - 1, next(per as u64)), v as u32));
    }
    while edges.len() < m {
        let a = next(n as u64) as usize;
        let l = a / per;
        let (a, b) = if next(20) == 0 && l > 0 {
            (a as u32, pick(next(l as u64) as usize, next(per as u64)))
        } else {
            let down = (l + 1 + next(3) as usize).min(levels - 1);
            (a as u32, pick(down, next(per as u64)))
        };
        if a != b {
            edges.push((a, b));
        }
    }
    edges
}

/// `cargo test -p scorch-core --release --lib layout_benchmark -- --ignored --nocapture`
#[test]
#[ignore]
fn layout_benchmark() {
    let n = 10_000;
    for (shape, edges) in [
        ("call-graph-like (60 levels)", levelled_graph(n, 40_000, 60, 7)),
        (
            "deep random (calls up to 40 ids ahead)",
            random_graph(n, 40_000, 7),
        ),
    ] {
        let widths: Vec<f64> = (0..n).map(|i| 40.0 + (i % 11) as f64 * 9.0).collect();
        let heights = vec![36.0; n];
        let t = std::time::Instant::now();
        let l = layout(n, &edges, &widths, &heights, &LayoutOptions::default());
        let took = t.elapsed();
        let dummies = (l.px.len() - 2 * edges.len()) / 2;
        println!(
            "{shape}: layout of {n} nodes, {} edges: {took:?} ({} ranks, {dummies} dummy points, {} crossings)",
            edges.len(),
            l.rank.iter().max().map_or(0, |&r| r + 1),
            l.crossings
        );
        check(n, &edges, &l);
    }
}
