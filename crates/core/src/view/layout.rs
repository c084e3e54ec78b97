//! Flame layout in unit space: x in [0, 1] (share of the root's total), y = depth (root = 0).
//!
//! Pixels are the app's business; this module only answers "where is node n" and "which node is at (x, depth)".
//!
//! Invariants:
//! - a node's interval lies inside its parent's: `x0[p] <= x0[n]` and `x1[n] <= x1[p]`;
//! - siblings do not overlap and follow the tree's child order from left to right;
//! - row `d` lists the nodes of depth `d` with non-zero width, sorted by `x0`, with their intervals in the same
//!   order. Rows are slices of three flat arrays (`row_nodes`, `row_x0s`, `row_x1s`) cut by `row_start`: a
//!   renderer walking a row reads memory in order (on a million-node tree, looking each node up in `x0`/`x1` by
//!   id costs a cache miss per step), and a 5,000,000-deep tree is five arrays, not 15 million small vectors.

use super::calltree::{CallTree, NodeId};

#[derive(Debug, Clone)]
pub struct FlameLayout {
    pub x0: Vec<f64>,
    pub x1: Vec<f64>,
    /// Row `d` is `row_start[d]..row_start[d + 1]` of the three arrays below (`depth_count() + 1` entries).
    row_start: Vec<u32>,
    row_nodes: Vec<NodeId>,
    row_x0s: Vec<f64>,
    row_x1s: Vec<f64>,
}

impl FlameLayout {
    pub fn new(t: &CallTree) -> FlameLayout {
        let n = t.len();
        let mut start = vec![0u64; n];
        let mut x0 = Vec::with_capacity(n);
        let mut x1 = Vec::with_capacity(n);
        let root = t.total.first().copied().unwrap_or(0);
        let inv = if root == 0 { 0.0 } else { 1.0 / root as f64 };
        // Node ids are topological, so a parent's start is known before its children are placed.
        for (i, &tot) in t.total.iter().enumerate() {
            let node = NodeId(i as u32);
            let s = start.get(i).copied().unwrap_or(0);
            x0.push(s as f64 * inv);
            x1.push(s.saturating_add(tot) as f64 * inv);
            let mut cursor = s;
            for &c in t.children(node) {
                if let Some(slot) = start.get_mut(c.idx()) {
                    *slot = cursor;
                }
                cursor = cursor.saturating_add(t.total.get(c.idx()).copied().unwrap_or(0));
            }
        }
        drop(start);
        Self::from_positions(t, x0, x1)
    }

    /// The layout of `t` with each node's interval given (`x0[n]..x1[n]`, one per node): the rows are made from
    /// them. A node of zero total is in no row. For a tree that is part of a larger one ([`super::drawn`]),
    /// whose nodes keep their places in the whole graph.
    pub fn from_positions(t: &CallTree, x0: Vec<f64>, x1: Vec<f64>) -> FlameLayout {
        let depths = t.max_depth() as usize + 1;
        // Counting sort by depth: first the size of each row, then each node into its row's next slot.
        let mut row_start = vec![0u32; depths + 1];
        for (&tot, &depth) in t.total.iter().zip(&t.depth) {
            if tot > 0 {
                if let Some(c) = row_start.get_mut(depth as usize + 1) {
                    *c += 1;
                }
            }
        }
        for d in 1..row_start.len() {
            let prev = row_start.get(d - 1).copied().unwrap_or(0);
            if let Some(c) = row_start.get_mut(d) {
                *c += prev;
            }
        }
        let flat = row_start.last().copied().unwrap_or(0) as usize;
        let mut next: Vec<u32> = row_start.clone();
        let mut row_nodes = vec![NodeId::ROOT; flat];
        for (i, (&tot, &depth)) in t.total.iter().zip(&t.depth).enumerate() {
            if tot == 0 {
                continue;
            }
            if let Some(k) = next.get_mut(depth as usize) {
                if let Some(slot) = row_nodes.get_mut(*k as usize) {
                    *slot = NodeId(i as u32);
                }
                *k += 1;
            }
        }
        drop(next);
        let at = |xs: &[f64], n: &NodeId| xs.get(n.idx()).copied().unwrap_or(0.0);
        for w in row_start.windows(2) {
            if let (Some(&a), Some(&b)) = (w.first(), w.get(1)) {
                if let Some(r) = row_nodes.get_mut(a as usize..b as usize) {
                    if !r.is_sorted_by(|a, b| at(&x0, a) <= at(&x0, b)) {
                        r.sort_by(|a, b| at(&x0, a).total_cmp(&at(&x0, b)));
                    }
                }
            }
        }
        let row_x0s = row_nodes.iter().map(|n| at(&x0, n)).collect();
        let row_x1s = row_nodes.iter().map(|n| at(&x1, n)).collect();
        FlameLayout {
            x0,
            x1,
            row_start,
            row_nodes,
            row_x0s,
            row_x1s,
        }
    }

    /// The index range of row `depth` in the flat arrays (empty past the last row).
    fn span(&self, depth: usize) -> std::ops::Range<usize> {
        match (self.row_start.get(depth), self.row_start.get(depth + 1)) {
            (Some(&a), Some(&b)) if a <= b => a as usize..b as usize,
            _ => 0..0,
        }
    }

    /// The nodes of row `depth` with non-zero width, sorted by `x0` (empty past the last row).
    pub fn row(&self, depth: usize) -> &[NodeId] {
        self.row_nodes.get(self.span(depth)).unwrap_or(&[])
    }

    /// The `x0` of each node of [`FlameLayout::row`], in the same order.
    pub fn row_x0(&self, depth: usize) -> &[f64] {
        self.row_x0s.get(self.span(depth)).unwrap_or(&[])
    }

    /// The `x1` of each node of [`FlameLayout::row`], in the same order.
    pub fn row_x1(&self, depth: usize) -> &[f64] {
        self.row_x1s.get(self.span(depth)).unwrap_or(&[])
    }

    /// Every row, root first.
    pub fn rows(&self) -> impl Iterator<Item = &[NodeId]> + '_ {
        (0..self.depth_count()).map(|d| self.row(d))
    }

    /// The layout as plain columns (`[x0, x1, row x0s, row x1s]`, `[row nodes, row lengths]`), to move it
    /// between threads as typed arrays.
    pub fn into_columns(self) -> (Vec<Vec<f64>>, Vec<Vec<u32>>) {
        let lens = self
            .row_start
            .windows(2)
            .map(|w| match w {
                [a, b] => b.saturating_sub(*a),
                _ => 0,
            })
            .collect();
        let rows = self.row_nodes.into_iter().map(|n| n.0).collect();
        (
            vec![self.x0, self.x1, self.row_x0s, self.row_x1s],
            vec![rows, lens],
        )
    }

    /// The layout [`FlameLayout::into_columns`] made, for a tree of `nodes` nodes; `None` when they do not fit.
    pub fn from_columns(f64s: Vec<Vec<f64>>, u32s: Vec<Vec<u32>>, nodes: usize) -> Option<FlameLayout> {
        let [x0, x1, rx0, rx1]: [Vec<f64>; 4] = f64s.try_into().ok()?;
        let [rows, lens]: [Vec<u32>; 2] = u32s.try_into().ok()?;
        let flat = rows.len();
        let mut row_start = Vec::with_capacity(lens.len() + 1);
        let mut sum = 0u64;
        row_start.push(0u32);
        for &l in &lens {
            sum += u64::from(l);
            row_start.push(u32::try_from(sum).ok()?);
        }
        let fits = x0.len() == nodes
            && x1.len() == nodes
            && rx0.len() == flat
            && rx1.len() == flat
            && sum == flat as u64
            && rows.iter().all(|&n| (n as usize) < nodes);
        if !fits {
            return None;
        }
        Some(FlameLayout {
            x0,
            x1,
            row_start,
            row_nodes: rows.into_iter().map(NodeId).collect(),
            row_x0s: rx0,
            row_x1s: rx1,
        })
    }

    /// The node at unit-space `x` in row `depth`, if any.
    pub fn node_at(&self, x: f64, depth: usize) -> Option<NodeId> {
        let (row, rx0, rx1) = (self.row(depth), self.row_x0(depth), self.row_x1(depth));
        let i = rx0.partition_point(|&a| a <= x).checked_sub(1)?;
        (x < *rx1.get(i)?).then_some(*row.get(i)?)
    }

    /// Index range of `row(depth)` that overlaps `[a, b)`.
    pub fn row_range(&self, depth: usize, a: f64, b: f64) -> std::ops::Range<usize> {
        let (rx0, rx1) = (self.row_x0(depth), self.row_x1(depth));
        let lo = rx1.partition_point(|&x| x <= a);
        let hi = rx0.partition_point(|&x| x < b);
        lo..hi.max(lo)
    }

    pub fn depth_count(&self) -> usize {
        self.row_start.len().saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::folded::parse;
    use crate::view::calltree::Order;

    #[test]
    fn children_inside_parents() {
        let p = parse(b"main;a;b 3\nmain;a 2\nmain;c 5\nother 10\n").unwrap();
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        let l = FlameLayout::new(&t);
        let main = t.find_path(&p, &["main"]).unwrap();
        let c = t.find_path(&p, &["main", "c"]).unwrap();
        assert_eq!((l.x0[main.idx()], l.x1[main.idx()]), (0.0, 0.5));
        assert_eq!((l.x0[c.idx()], l.x1[c.idx()]), (0.25, 0.5));
        assert_eq!(l.node_at(0.3, 2), Some(c));
        assert_eq!(l.node_at(0.3, 1), Some(main));
        assert_eq!(l.node_at(0.6, 2), None);
        assert_eq!(l.row_range(2, 0.3, 0.4), 1..2);
    }

    #[test]
    fn columns_round_trip() {
        let p = parse(b"main;a;b 3\nmain;a 2\nmain;c 5\nother 10\n").unwrap();
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        let l = FlameLayout::new(&t);
        let (f, u) = l.clone().into_columns();
        let back = FlameLayout::from_columns(f.clone(), u.clone(), t.len()).unwrap();
        assert_eq!(
            (
                &back.x0,
                &back.x1,
                &back.row_start,
                &back.row_nodes,
                &back.row_x0s,
                &back.row_x1s
            ),
            (&l.x0, &l.x1, &l.row_start, &l.row_nodes, &l.row_x0s, &l.row_x1s)
        );
        assert_eq!(back.rows().count(), l.depth_count());
        assert!(FlameLayout::from_columns(f, u, t.len() - 1).is_none());
        let cols = t.clone().into_columns();
        let t2 = CallTree::from_columns(cols.clone()).unwrap();
        assert_eq!(t2.into_columns(), cols);
        let mut bad = cols;
        bad.u32s[3].push(99);
        assert!(CallTree::from_columns(bad).is_none());
    }
}
