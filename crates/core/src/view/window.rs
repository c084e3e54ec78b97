//! A flame graph drawn from its call tree alone, one window at a time: no whole [`super::FlameLayout`] (two x
//! positions per node and rows of every node, 36 bytes per node) has to be built, sent or kept to draw, hover or
//! zoom (issue #39: on a tree of millions of nodes, what a page keeps should be what it draws).
//!
//! - [`x_range`]: a node's place in unit space, from its ancestors and their earlier siblings;
//! - [`node_at`]: the node under a point, by descending from the zoom;
//! - [`window`]: per row on screen, the boxes at least `min` wide in the zoom's subtree, left to right, and
//!   between them runs of narrower frames (one entry per run of siblings within a cell of width `min`, carried
//!   down as one entry per row their subtrees reach).
//!
//! Positions are computed with the same integer prefix sums and the same one multiplication as
//! [`super::FlameLayout::new`], so a box here has exactly the layout's `x0` and `x1`. Cost: [`x_range`] and
//! [`node_at`] walk one path, adding earlier siblings' totals (O(depth × siblings)); [`window`] visits the boxes
//! of its rows and the rows above them and each box's children once, and writes at most one run per cell per
//! row — never a walk over the whole tree. Nothing recurses.

use super::calltree::{CallTree, NodeId, ELIDED_FRAME};
use std::ops::Range;

/// A [`Window`] entry that is not one node but a run of frames narrower than `min`, drawn as a sliver.
pub const RUN: NodeId = NodeId(u32::MAX);

/// Per node: how many rows below it its deepest descendant of non-zero total lies (0 for a leaf). One pass, from
/// the last node to the first (ids are topological: a child comes after its parent).
pub fn heights(t: &CallTree) -> Vec<u32> {
    let mut h = Heights::new(t);
    while !h.step(t, usize::MAX) {}
    h.finish()
}

/// [`heights`] a piece at a time, so a page's thread can do something else between the pieces.
pub struct Heights {
    h: Vec<u32>,
    /// Nodes in all.
    n: usize,
    /// The nodes from here on are done (once `h` has grown to `n`).
    at: usize,
}

impl Heights {
    pub fn new(t: &CallTree) -> Heights {
        Heights {
            // Zeroed a piece at a time too: a large stretch of fresh memory written at once is a long task.
            h: Vec::with_capacity(t.len()),
            n: t.len(),
            at: t.len(),
        }
    }

    /// The next `work` nodes (first each node's zero, then from the last node towards the first); `true` once
    /// every node is done.
    pub fn step(&mut self, t: &CallTree, work: usize) -> bool {
        let work = work.max(1);
        if self.h.len() < self.n {
            self.h.resize(self.n.min(self.h.len().saturating_add(work)), 0);
            return false;
        }
        let lo = self.at.saturating_sub(work).max(1);
        for i in (lo..self.at).rev() {
            let (Some(&p), Some(&tot), Some(&hi)) = (t.parent.get(i), t.total.get(i), self.h.get(i)) else {
                continue;
            };
            if tot == 0 {
                continue;
            }
            if let Some(slot) = self.h.get_mut(p as usize) {
                *slot = (*slot).max(hi.saturating_add(1));
            }
        }
        self.at = lo;
        self.at <= 1
    }

    /// The heights, once [`Heights::step`] has said every node is done.
    pub fn finish(self) -> Vec<u32> {
        self.h
    }
}

/// `1 / root total` (0 for an empty tree), the one factor every position is multiplied by.
fn inv(t: &CallTree) -> f64 {
    match t.total.first() {
        Some(&root) if root > 0 => 1.0 / root as f64,
        _ => 0.0,
    }
}

fn total(t: &CallTree, n: NodeId) -> u64 {
    t.total.get(n.idx()).copied().unwrap_or(0)
}

fn depth(t: &CallTree, n: NodeId) -> usize {
    t.depth.get(n.idx()).copied().unwrap_or(0) as usize
}

/// Where node `n` starts, in units of the root's total: the sum of the totals of the earlier siblings of it and
/// of each of its ancestors.
fn start(t: &CallTree, n: NodeId) -> u64 {
    let mut path = vec![n];
    let mut cur = n;
    while let Some(p) = t.parent(cur) {
        path.push(p);
        cur = p;
    }
    let mut s = 0u64;
    for w in path.windows(2).rev() {
        let [child, parent] = *w else {
            continue;
        };
        for &c in t.children(parent) {
            if c == child {
                break;
            }
            s = s.saturating_add(total(t, c));
        }
    }
    s
}

/// Node `n`'s interval `[x0, x1)` in unit space: exactly [`super::FlameLayout`]'s.
pub fn x_range(t: &CallTree, n: NodeId) -> (f64, f64) {
    let (s, inv) = (start(t, n), inv(t));
    (s as f64 * inv, s.saturating_add(total(t, n)) as f64 * inv)
}

/// The node of non-zero total at unit-space `x` in row `row`, in the subtree of `zoom` (whose row is at most
/// `row`); what [`super::FlameLayout::node_at`] finds there.
pub fn node_at(t: &CallTree, zoom: NodeId, x: f64, row: usize) -> Option<NodeId> {
    if row < depth(t, zoom) || total(t, zoom) == 0 {
        return None;
    }
    let inv = inv(t);
    let (mut cur, mut s) = (zoom, start(t, zoom));
    if !(s as f64 * inv <= x && x < s.saturating_add(total(t, zoom)) as f64 * inv) {
        return None;
    }
    while depth(t, cur) < row {
        let mut cursor = s;
        let mut next = None;
        for &c in t.children(cur) {
            let tot = total(t, c);
            let end = cursor.saturating_add(tot);
            if tot > 0 && cursor as f64 * inv <= x && x < end as f64 * inv {
                next = Some((c, cursor));
                break;
            }
            cursor = end;
        }
        (cur, s) = next?;
    }
    Some(cur)
}

/// What is drawn of a flame graph in the window of one zoom, row by row ([`window`]).
#[derive(Debug, Clone, Default)]
pub struct Window {
    rows: Range<usize>,
    /// Row `rows.start + i` is `start[i]..start[i + 1]` of the columns below.
    start: Vec<u32>,
    /// A node drawn as a box, or [`RUN`]: frames narrower than `min`, drawn as a sliver.
    pub node: Vec<NodeId>,
    pub x0: Vec<f64>,
    pub x1: Vec<f64>,
}

impl Window {
    /// The index range of row `depth` in the columns (empty outside the rows held).
    pub fn row(&self, depth: usize) -> Range<usize> {
        let Some(i) = depth.checked_sub(self.rows.start) else {
            return 0..0;
        };
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&a), Some(&b)) if depth < self.rows.end => a as usize..b as usize,
            _ => 0..0,
        }
    }

    pub fn len(&self) -> usize {
        self.node.len()
    }

    pub fn is_empty(&self) -> bool {
        self.node.is_empty()
    }
}

/// One node whose children are being placed: the next child's index and where it starts.
struct Open {
    node: NodeId,
    next: usize,
    cursor: u64,
}

/// Per row in `rows` (depths), what the subtree of `zoom` draws at one scale, left to right: each node at least
/// `min` wide (unit space; one pixel of the window), and for the narrower ones, runs: consecutive narrow
/// siblings that start in one cell of width `min` (cells counted from the zoom's `x0`) are one [`RUN`] entry in
/// their row, and one in each row below that their subtrees reach (`heights`, from [`heights`]), spanning the
/// run. Entries of a row are sorted and do not overlap; every node of the subtree in a row lies in a box or a
/// run of that row, and every run holds at least one node of its row.
pub fn window(t: &CallTree, heights: &[u32], zoom: NodeId, min: f64, rows: Range<usize>) -> Window {
    let min = if min.is_finite() && min > 0.0 {
        min
    } else {
        f64::MIN_POSITIVE
    };
    let inv = inv(t);
    let mut out: Vec<Vec<(NodeId, f64, f64)>> = vec![Vec::new(); rows.len()];
    let mut emit = |d: usize, n: NodeId, x0: f64, x1: f64| {
        if let Some(r) = d.checked_sub(rows.start).and_then(|i| out.get_mut(i)) {
            r.push((n, x0, x1));
        }
    };
    let zt = total(t, zoom);
    let s = start(t, zoom);
    let a = s as f64 * inv;
    if zt > 0 {
        emit(depth(t, zoom), zoom, a, s.saturating_add(zt) as f64 * inv);
    }
    let mut open = Vec::new();
    if zt > 0 && depth(t, zoom) + 1 < rows.end {
        open.push(Open {
            node: zoom,
            next: 0,
            cursor: s,
        });
    }
    while let Some(top) = open.last_mut() {
        let kids = t.children(top.node);
        let Some(&c) = kids.get(top.next) else {
            open.pop();
            continue;
        };
        let tot = total(t, c);
        if tot == 0 {
            top.next += 1;
            continue;
        }
        let d = depth(t, c);
        let cs = top.cursor;
        let (x0, x1) = (cs as f64 * inv, cs.saturating_add(tot) as f64 * inv);
        if x1 - x0 >= min && t.frame.get(c.idx()) == Some(&ELIDED_FRAME) {
            // A stand-in of a cut tree (`super::cut`) at least `min` wide: the narrower frames it stands for, as
            // the whole tree draws them — a run over its width, in its row and each row their subtrees reach.
            top.next += 1;
            top.cursor = cs.saturating_add(tot);
            let h = heights.get(c.idx()).copied().unwrap_or(0) as usize;
            for row in d.max(rows.start)..=(d + h).min(rows.end.saturating_sub(1)) {
                emit(row, RUN, x0, x1);
            }
            continue;
        }
        if x1 - x0 >= min {
            top.next += 1;
            top.cursor = cs.saturating_add(tot);
            emit(d, c, x0, x1);
            if d + 1 < rows.end && !t.children(c).is_empty() {
                open.push(Open {
                    node: c,
                    next: 0,
                    cursor: cs,
                });
            }
            continue;
        }
        // A run: this narrow child and the narrow siblings after it that end within its cell.
        let cell_end = a + (((x0 - a) / min).floor() + 1.0) * min;
        let (mut j, mut cursor, mut h) = (top.next, cs, 0u32);
        while let Some(&k) = kids.get(j) {
            let kt = total(t, k);
            let end = cursor.saturating_add(kt);
            if kt > 0 {
                let (k0, k1) = (cursor as f64 * inv, end as f64 * inv);
                if k1 - k0 >= min || (j > top.next && k1 > cell_end) {
                    break;
                }
                h = h.max(heights.get(k.idx()).copied().unwrap_or(0));
            }
            cursor = end;
            j += 1;
        }
        top.next = j;
        top.cursor = cursor;
        let run_x1 = cursor as f64 * inv;
        // Its own row, and each row below it that its subtrees reach, within the rows asked for.
        let first = d.max(rows.start);
        let last = (d + h as usize).min(rows.end.saturating_sub(1));
        for row in first..=last {
            emit(row, RUN, x0, run_x1);
        }
    }
    let mut w = Window {
        rows: rows.clone(),
        start: Vec::with_capacity(rows.len() + 1),
        ..Window::default()
    };
    w.start.push(0);
    for r in out {
        for (n, x0, x1) in r {
            w.node.push(n);
            w.x0.push(x0);
            w.x1.push(x1);
        }
        w.start.push(u32::try_from(w.node.len()).unwrap_or(u32::MAX));
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::folded::parse;
    use crate::view::calltree::Order;
    use crate::view::FlameLayout;

    /// A folded profile of `lines` random stacks over a few names, up to `depth` deep (a small LCG: the same
    /// profile every run).
    fn random_profile(seed: u64, lines: usize, depth: usize) -> Vec<u8> {
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

    fn in_subtree(t: &CallTree, n: NodeId, zoom: NodeId) -> bool {
        t.ancestor_at(n, t.depth[zoom.idx()]) == Some(zoom)
    }

    /// Checks [`window`] against the whole layout (the oracle: [`FlameLayout::new`] and a filter over every
    /// node).
    fn check(t: &CallTree, l: &FlameLayout, zoom: NodeId, px: f64, rows: Range<usize>) {
        let (a, b) = (l.x0[zoom.idx()], l.x1[zoom.idx()]);
        let min = (b - a) / px;
        let w = window(t, &heights(t), zoom, min, rows.clone());
        for d in rows.clone() {
            let r = w.row(d);
            let nodes: Vec<NodeId> = l
                .row(d)
                .iter()
                .copied()
                .filter(|&n| in_subtree(t, n, zoom))
                .collect();
            // The boxes: exactly the layout's nodes at least `min` wide, in order, at the layout's places.
            let wide: Vec<(NodeId, f64, f64)> = nodes
                .iter()
                .map(|&n| (n, l.x0[n.idx()], l.x1[n.idx()]))
                .filter(|&(_, x0, x1)| x1 - x0 >= min)
                .collect();
            let boxes: Vec<(NodeId, f64, f64)> = r
                .clone()
                .filter(|&i| w.node[i] != RUN)
                .map(|i| (w.node[i], w.x0[i], w.x1[i]))
                .collect();
            assert_eq!(boxes, wide, "row {d}, zoom {zoom:?}, {px} px");
            // Sorted, disjoint entries.
            for i in r.clone().skip(1) {
                assert!(
                    w.x1[i - 1] <= w.x0[i],
                    "row {d}: entries overlap or are out of order"
                );
            }
            // Every narrow node lies in a run of its row; every run holds one.
            for &n in &nodes {
                let (x0, x1) = (l.x0[n.idx()], l.x1[n.idx()]);
                if x1 - x0 < min {
                    assert!(
                        r.clone()
                            .any(|i| w.node[i] == RUN && w.x0[i] <= x0 && x1 <= w.x1[i]),
                        "row {d}: narrow node {n:?} [{x0}, {x1}) is in no run"
                    );
                }
            }
            for i in r.clone().filter(|&i| w.node[i] == RUN) {
                assert!(
                    nodes
                        .iter()
                        .any(|n| w.x0[i] <= l.x0[n.idx()] && l.x1[n.idx()] <= w.x1[i]),
                    "row {d}: run [{}, {}) holds no node",
                    w.x0[i],
                    w.x1[i]
                );
            }
            // Runs of one group of siblings start in distinct cells; a new group starts after a box ends.
            let runs = r.clone().filter(|&i| w.node[i] == RUN).count() as f64;
            let all_boxes = w.node.iter().filter(|&&n| n != RUN).count() as f64;
            assert!(runs <= px + 2.0 + 2.0 * all_boxes, "row {d}: {runs} runs");
        }
        assert!(w.row(rows.end).is_empty());
    }

    #[test]
    fn a_window_draws_what_the_whole_layout_does() {
        for seed in 0..10 {
            let p = parse(&random_profile(seed, 400, 12)).unwrap();
            for order in [Order::Alphabetical, Order::Weight] {
                let t = CallTree::from_profile(&p, order);
                let l = FlameLayout::new(&t);
                let deep = l.depth_count();
                for px in [200.0, 1.0e6, 7.0] {
                    check(&t, &l, NodeId::ROOT, px, 0..deep);
                }
                // Some rows only, as when the graph is scrolled.
                check(&t, &l, NodeId::ROOT, 300.0, 3..6);
                // A zoom onto nodes, its own interval the window.
                for n in [t.len() / 2, t.len() / 3, t.len() - 1] {
                    let z = NodeId(n as u32);
                    check(&t, &l, z, 800.0, t.depth[n] as usize..deep);
                }
            }
        }
    }

    #[test]
    fn positions_and_the_node_under_a_point_are_the_layouts() {
        for seed in 0..6 {
            let p = parse(&random_profile(seed, 300, 10)).unwrap();
            let t = CallTree::from_profile(&p, Order::Alphabetical);
            let l = FlameLayout::new(&t);
            for n in 0..t.len() {
                let n = NodeId(n as u32);
                assert_eq!(x_range(&t, n), (l.x0[n.idx()], l.x1[n.idx()]), "node {n:?}");
            }
            let zooms = [NodeId::ROOT, NodeId((t.len() / 2) as u32)];
            for z in zooms {
                for d in 0..l.depth_count() {
                    for k in 0..=500 {
                        let x = k as f64 / 500.0;
                        let want = l.node_at(x, d).filter(|&n| in_subtree(&t, n, z));
                        let want = if d < t.depth[z.idx()] as usize { None } else { want };
                        assert_eq!(node_at(&t, z, x, d), want, "x {x}, row {d}, zoom {z:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn heights_count_rows_below_each_node() {
        let p = parse(b"a;b;c 1\na;d 1\ne 1\n").unwrap();
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        let h = heights(&t);
        for work in 1..=3 {
            let mut pieces = Heights::new(&t);
            while !pieces.step(&t, work) {}
            assert_eq!(pieces.finish(), h);
        }
        let at = |path: &[&str]| h[t.find_path(&p, path).unwrap().idx()];
        assert_eq!(h[0], 3);
        assert_eq!((at(&["a"]), at(&["a", "b"]), at(&["a", "b", "c"])), (2, 1, 0));
        assert_eq!((at(&["a", "d"]), at(&["e"])), (0, 0));
    }

    #[test]
    fn an_empty_tree_or_odd_scale_draws_nothing_wrong() {
        let p = parse(b"a;b 5\n").unwrap();
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        for min in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let w = window(&t, &heights(&t), NodeId::ROOT, min, 0..3);
            // The root is drawn; with no usable scale every node is a box.
            assert!(w.row(0).len() == 1);
            assert!(w.row(2).len() == 1);
        }
        assert!(node_at(&t, NodeId(99), 0.5, 1).is_none());
        assert!(window(&t, &heights(&t), NodeId::ROOT, 0.1, Range { start: 5, end: 2 }).is_empty());
    }
}
