//! The part of a flame graph worth drawing at one scale: the boxes at least one pixel wide in a window, as a small
//! tree of their own, and the runs of narrower frames between them as slivers. This is what the engine (the worker
//! that holds a profile) sends the page instead of the whole call tree and layout (issue #39): on a tree of
//! millions of nodes, a few thousand boxes are on screen at any zoom.
//!
//! Invariants of a [`Drawn`]:
//! - its tree holds exactly the whole tree's nodes at least `min` wide that overlap the window, and the root; every
//!   node's parent is in it too (a parent is as wide as its child and contains it), so its ids are topological;
//! - each node keeps the whole tree's frame, origin, depth, self and total, and its place in the whole graph's unit
//!   space: so `total` may exceed `self + Σ children` here (the narrow children are not in this tree) — numbers are
//!   read per node, never summed over this tree;
//! - slivers cover, row by row, the narrower nodes in the window, merged when less than `min` apart; a sliver never
//!   overlaps a box of its row.
//!
//! Cost: per row, one binary search for the window, each box, and a binary search per run of narrow nodes per
//! `min` of width — O(rows × (window / min) × log n), never a walk over every node.

use super::calltree::{CallTree, NodeId, TreeColumns};
use super::layout::FlameLayout;
use crate::model::NO_PARENT;
use rustc_hash::FxHashMap;

/// A run of frames narrower than the smallest box, merged, in one row: drawn as one neutral sliver.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sliver {
    pub depth: u32,
    pub x0: f64,
    pub x1: f64,
}

/// The boxes worth drawing at one scale ([`drawn`]).
#[derive(Debug, Clone)]
pub struct Drawn {
    /// The nodes drawn, with the whole tree's numbers.
    pub tree: CallTree,
    /// Their places in the whole graph's unit space.
    pub layout: FlameLayout,
    /// Per node of `tree`: its id in the whole tree.
    pub whole: Vec<NodeId>,
    /// The runs of narrower frames, by row then left to right.
    pub slivers: Vec<Sliver>,
}

/// The nodes of the whole graph (`t`, `l`) at least `min` wide that overlap `[a, b)` (unit space), with the root,
/// and per row the runs of narrower nodes in the window. `min` is one pixel of the window as drawn:
/// `(b - a) / width_px`.
pub fn drawn(t: &CallTree, l: &FlameLayout, a: f64, b: f64, min: f64) -> Drawn {
    let min = if min.is_finite() && min > 0.0 {
        min
    } else {
        f64::MIN_POSITIVE
    };
    let mut whole: Vec<NodeId> = vec![NodeId::ROOT];
    let mut slivers = Vec::new();
    for depth in 1..l.depth_count() {
        let (row, rx0, rx1) = (l.row(depth), l.row_x0(depth), l.row_x1(depth));
        let range = l.row_range(depth, a, b);
        let mut run: Option<(f64, f64)> = None;
        let depth32 = depth as u32;
        let flush = |slivers: &mut Vec<Sliver>, run: &mut Option<(f64, f64)>| {
            if let Some((x0, x1)) = run.take() {
                slivers.push(Sliver {
                    depth: depth32,
                    x0,
                    x1,
                });
            }
        };
        let mut i = range.start;
        while i < range.end {
            let (Some(&x0), Some(&x1), Some(&n)) = (rx0.get(i), rx1.get(i), row.get(i)) else {
                break;
            };
            if x1 - x0 >= min {
                flush(&mut slivers, &mut run);
                whole.push(n);
                i += 1;
                continue;
            }
            // A narrow node: skip every node that ends inside its cell of width `min` (siblings do not overlap,
            // so their ends are sorted too). A box starts at or after this node, so it ends past the cell and is
            // never skipped.
            let cell_end = a + (((x0.max(a) - a) / min).floor() + 1.0) * min;
            let ends = rx1.get(i..range.end).unwrap_or(&[]);
            let skip = gallop(ends, cell_end).max(1);
            let last = i + skip - 1;
            let end = rx1.get(last).copied().unwrap_or(x1);
            run = match run {
                Some((s, e)) if x0 - e < min => Some((s, end.max(e))),
                mut other => {
                    flush(&mut slivers, &mut other);
                    Some((x0, end))
                }
            };
            i = last + 1;
        }
        flush(&mut slivers, &mut run);
    }
    let tree = subtree(t, &whole);
    let at = |xs: &[f64], n: &NodeId| xs.get(n.idx()).copied().unwrap_or(0.0);
    let x0 = whole.iter().map(|n| at(&l.x0, n)).collect();
    let x1 = whole.iter().map(|n| at(&l.x1, n)).collect();
    let layout = FlameLayout::from_positions(&tree, x0, x1);
    Drawn {
        tree,
        layout,
        whole,
        slivers,
    }
}

/// How many of `ends` (sorted) are below `x`, searched from the front in growing steps: a run of narrow nodes is
/// usually short, so this reads a few neighbouring entries where a binary search over the rest of a row of a
/// million nodes would miss the cache at every step.
fn gallop(ends: &[f64], x: f64) -> usize {
    let below = |k: usize| ends.get(k).is_some_and(|&e| e < x);
    let mut hi = 1;
    while below(hi - 1) {
        if hi >= ends.len() {
            return ends.len();
        }
        hi = (hi * 2).min(ends.len());
    }
    let lo = hi / 2;
    lo + ends.get(lo..hi).map_or(0, |r| r.partition_point(|&e| e < x))
}

/// The tree of the nodes `keep` of `t` (the root first, then each node after its parent), numbered in that order,
/// with `t`'s numbers. Children are listed in id order (row order: left to right).
fn subtree(t: &CallTree, keep: &[NodeId]) -> CallTree {
    let new_id: FxHashMap<u32, u32> = keep.iter().enumerate().map(|(i, n)| (n.0, i as u32)).collect();
    let col = |xs: &[u32], n: &NodeId| xs.get(n.idx()).copied().unwrap_or(0);
    let col64 = |xs: &[u64], n: &NodeId| xs.get(n.idx()).copied().unwrap_or(0);
    let parent: Vec<u32> = keep
        .iter()
        .map(|&n| {
            t.parent(n)
                .and_then(|p| new_id.get(&p.0).copied())
                .unwrap_or(NO_PARENT)
        })
        .collect();
    // Children by parent: a counting sort, each parent's children in id order.
    let len = keep.len();
    let mut child_start = vec![0u32; len + 1];
    for &p in &parent {
        if let Some(c) = child_start.get_mut(p as usize + 1) {
            *c += 1;
        }
    }
    let mut acc = 0u32;
    for c in child_start.iter_mut() {
        acc += *c;
        *c = acc;
    }
    let mut fill = child_start.clone();
    let mut child_list = vec![0u32; acc as usize];
    for (i, &p) in parent.iter().enumerate() {
        if let Some(slot) = fill.get_mut(p as usize) {
            if let Some(x) = child_list.get_mut(*slot as usize) {
                *x = i as u32;
            }
            *slot += 1;
        }
    }
    let frames: Vec<u32> = keep
        .iter()
        .map(|n| t.frame.get(n.idx()).map_or(u32::MAX, |f| f.0))
        .collect();
    let columns = TreeColumns {
        u32s: vec![
            frames,
            keep.iter().map(|n| col(&t.origin, n)).collect(),
            parent,
            keep.iter().map(|n| col(&t.depth, n)).collect(),
            child_start,
            child_list,
        ],
        u64s: vec![
            keep.iter().map(|n| col64(&t.self_w, n)).collect(),
            keep.iter().map(|n| col64(&t.total, n)).collect(),
        ],
    };
    // The columns fit together by construction (one entry per kept node, parents before children); the root
    // alone is the fallback that cannot fail.
    CallTree::from_columns(columns)
        .or_else(|| CallTree::from_columns(root_only(t)))
        .unwrap_or_else(CallTree::empty)
}

/// A tree of `t`'s root alone, as columns.
fn root_only(t: &CallTree) -> TreeColumns {
    let first = |xs: &[u32]| xs.first().copied().unwrap_or(0);
    let first64 = |xs: &[u64]| xs.first().copied().unwrap_or(0);
    TreeColumns {
        u32s: vec![
            vec![t.frame.first().map_or(u32::MAX, |f| f.0)],
            vec![first(&t.origin)],
            vec![NO_PARENT],
            vec![0],
            vec![0, 0],
            Vec::new(),
        ],
        u64s: vec![vec![first64(&t.self_w)], vec![first64(&t.total)]],
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::import::folded::parse;
    use crate::view::calltree::Order;

    /// A folded profile of `lines` random stacks over a few names, up to `depth` deep (a small LCG: the same
    /// profile every run).
    pub(crate) fn random_profile(seed: u64, lines: usize, depth: usize) -> Vec<u8> {
        let mut s = seed;
        let mut next = move |m: u64| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) % m
        };
        let mut out = String::new();
        for _ in 0..lines {
            let d = 1 + next(depth as u64) as usize;
            let frames: Vec<String> = (0..d).map(|_| format!("f{}", next(6))).collect();
            // Weights spread over four orders of magnitude, so some nodes are far narrower than a pixel.
            let w = 1 + next(10) * 10u64.pow(next(4) as u32);
            out.push_str(&format!("{} {}\n", frames.join(";"), w));
        }
        out.into_bytes()
    }

    /// Checks `drawn` against a walk over every node of the whole tree (the oracle: a plain filter, no rows, no
    /// binary search).
    fn check(t: &CallTree, l: &FlameLayout, a: f64, b: f64, min: f64) {
        let d = drawn(t, l, a, b, min);
        let expected: Vec<NodeId> = (0..t.len() as u32)
            .map(NodeId)
            .filter(|&n| {
                let (x0, x1) = (l.x0[n.idx()], l.x1[n.idx()]);
                n == NodeId::ROOT || (t.total[n.idx()] > 0 && x1 - x0 >= min && x1 > a && x0 < b)
            })
            .collect();
        let mut got = d.whole.clone();
        got.sort();
        assert_eq!(got, expected, "window [{a}, {b}), min {min}");
        for (i, &w) in d.whole.iter().enumerate() {
            let (n, w) = (i, w.idx());
            assert_eq!(d.tree.frame[n], t.frame[w]);
            assert_eq!(d.tree.depth[n], t.depth[w]);
            assert_eq!((d.tree.self_w[n], d.tree.total[n]), (t.self_w[w], t.total[w]));
            assert_eq!((d.layout.x0[n], d.layout.x1[n]), (l.x0[w], l.x1[w]));
            let parent = d.tree.parent(NodeId(n as u32)).map(|p| d.whole[p.idx()]);
            assert_eq!(parent, t.parent(NodeId(w as u32)));
            for &c in d.tree.children(NodeId(n as u32)) {
                assert_eq!(d.tree.parent(c), Some(NodeId(n as u32)));
            }
        }
        // Every narrow node in the window lies in a sliver of its row; no sliver overlaps a box of its row.
        for n in 1..t.len() {
            let (x0, x1, depth) = (l.x0[n], l.x1[n], t.depth[n]);
            if t.total[n] == 0 || x1 <= a || x0 >= b {
                continue;
            }
            if x1 - x0 < min {
                assert!(
                    d.slivers
                        .iter()
                        .any(|s| s.depth == depth && s.x0 <= x0 && x1 <= s.x1),
                    "node {n} [{x0}, {x1}) at depth {depth} is in no sliver"
                );
            }
        }
        for s in &d.slivers {
            for (i, &w) in d.whole.iter().enumerate() {
                if d.tree.depth[i] == s.depth && w != NodeId::ROOT {
                    let (x0, x1) = (l.x0[w.idx()], l.x1[w.idx()]);
                    assert!(x1 <= s.x0 || s.x1 <= x0, "sliver {s:?} overlaps box [{x0}, {x1})");
                }
            }
        }
        // At most one sliver per `min` of window per row, plus the row's boxes (the bound on what is sent).
        let rows = l.depth_count() as f64;
        let boxes = d.whole.len() as f64;
        assert!(d.slivers.len() as f64 <= rows * ((b - a) / min + 2.0) + boxes);
    }

    #[test]
    fn drawn_holds_every_wide_node_in_the_window_and_slivers_for_the_rest() {
        for seed in 0..12 {
            let p = parse(&random_profile(seed, 400, 12)).unwrap();
            for order in [Order::Alphabetical, Order::Weight] {
                let t = CallTree::from_profile(&p, order);
                let l = FlameLayout::new(&t);
                for (a, b, px) in [
                    (0.0, 1.0, 200.0),
                    (0.0, 1.0, 1.0e6),
                    (0.2, 0.45, 300.0),
                    (0.7, 0.7001, 50.0),
                ] {
                    check(&t, &l, a, b, (b - a) / px);
                }
                // A zoom onto a node: its own interval as the window.
                let n = NodeId((t.len() / 2) as u32);
                let (a, b) = (l.x0[n.idx()], l.x1[n.idx()]);
                check(&t, &l, a, b, (b - a) / 800.0);
            }
        }
    }

    #[test]
    fn the_drawn_tree_finds_nodes_where_the_whole_does() {
        let p = parse(b"main;a;b 300\nmain;a 200\nmain;c 500\nother 1000\nmain;tiny 1\n").unwrap();
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        let l = FlameLayout::new(&t);
        let d = drawn(&t, &l, 0.0, 1.0, 1.0 / 1000.0);
        let tiny = t.find_path(&p, &["main", "tiny"]).unwrap();
        assert!(
            !d.whole.contains(&tiny),
            "a node narrower than a pixel is a sliver"
        );
        assert_eq!(d.slivers.len(), 1);
        for x in [0.05, 0.3, 0.6, 0.9] {
            for depth in 0..l.depth_count() {
                let here = d.layout.node_at(x, depth).map(|n| d.whole[n.idx()]);
                assert_eq!(here, l.node_at(x, depth), "x {x}, depth {depth}");
            }
        }
        // `main`'s total keeps its narrow child's weight: numbers are the whole tree's.
        let main = t.find_path(&p, &["main"]).unwrap();
        let i = d.whole.iter().position(|&n| n == main).unwrap();
        assert_eq!(d.tree.total[i], 1001);
    }

    #[test]
    fn gallop_counts_as_a_binary_search_does() {
        let ends: Vec<f64> = (0..100).map(|i| (i / 3) as f64).collect();
        for n in [0, 1, 2, 5, 64, 100] {
            for x in [-1.0, 0.0, 0.5, 1.0, 7.0, 20.5, 33.0, 40.0] {
                let e = &ends[..n];
                assert_eq!(gallop(e, x), e.partition_point(|&v| v < x), "n {n}, x {x}");
            }
        }
    }

    #[test]
    fn an_empty_or_odd_window_gives_the_root_alone() {
        let p = parse(b"main;a 3\n").unwrap();
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        let l = FlameLayout::new(&t);
        for (a, b, min) in [(0.5, 0.5, 0.01), (2.0, 3.0, 0.01), (0.0, 1.0, f64::NAN)] {
            let d = drawn(&t, &l, a, b, min);
            assert_eq!(d.whole[0], NodeId::ROOT);
            assert_eq!(d.tree.len(), d.whole.len());
        }
    }
}
