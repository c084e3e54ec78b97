//! Flame layout in unit space: x in [0, 1] (share of the root's total), y = depth (root = 0).
//!
//! Pixels are the app's business; this module only answers "where is node n" and "which node is at (x, depth)".
//!
//! Invariants:
//! - a node's interval lies inside its parent's: `x0[p] <= x0[n]` and `x1[n] <= x1[p]`;
//! - siblings do not overlap and follow the tree's child order from left to right;
//! - `rows[d]` lists the nodes of depth `d` with non-zero width, sorted by `x0`; `row_x0[d]` and `row_x1[d]` hold
//!   their intervals in the same order (contiguous, so a renderer walking a row reads memory in order: on a
//!   million-node tree, looking each node up in `x0`/`x1` by id costs a cache miss per step).

use crate::calltree::{CallTree, NodeId};

#[derive(Debug, Clone)]
pub struct FlameLayout {
    pub x0: Vec<f64>,
    pub x1: Vec<f64>,
    pub rows: Vec<Vec<NodeId>>,
    pub row_x0: Vec<Vec<f64>>,
    pub row_x1: Vec<Vec<f64>>,
}

impl FlameLayout {
    pub fn new(t: &CallTree) -> FlameLayout {
        let n = t.len();
        let mut start = vec![0u64; n];
        let mut x0 = Vec::with_capacity(n);
        let mut x1 = Vec::with_capacity(n);
        let root = t.total.first().copied().unwrap_or(0);
        let inv = if root == 0 { 0.0 } else { 1.0 / root as f64 };
        let mut rows: Vec<Vec<NodeId>> = vec![Vec::new(); t.max_depth() as usize + 1];
        // Node ids are topological, so a parent's start is known before its children are placed.
        for (i, (&tot, &depth)) in t.total.iter().zip(&t.depth).enumerate() {
            let node = NodeId(i as u32);
            let s = start.get(i).copied().unwrap_or(0);
            x0.push(s as f64 * inv);
            x1.push(s.saturating_add(tot) as f64 * inv);
            if tot > 0 {
                if let Some(r) = rows.get_mut(depth as usize) {
                    r.push(node);
                }
            }
            let mut cursor = s;
            for &c in t.children(node) {
                if let Some(slot) = start.get_mut(c.idx()) {
                    *slot = cursor;
                }
                cursor = cursor.saturating_add(t.total.get(c.idx()).copied().unwrap_or(0));
            }
        }
        let at = |xs: &[f64], n: &NodeId| xs.get(n.idx()).copied().unwrap_or(0.0);
        for r in &mut rows {
            r.sort_by(|a, b| at(&x0, a).total_cmp(&at(&x0, b)));
        }
        let row_x0 = rows
            .iter()
            .map(|r| r.iter().map(|n| at(&x0, n)).collect())
            .collect();
        let row_x1 = rows
            .iter()
            .map(|r| r.iter().map(|n| at(&x1, n)).collect())
            .collect();
        FlameLayout {
            x0,
            x1,
            rows,
            row_x0,
            row_x1,
        }
    }

    /// The node at unit-space `x` in row `depth`, if any.
    pub fn node_at(&self, x: f64, depth: usize) -> Option<NodeId> {
        let (row, rx0, rx1) = (
            self.rows.get(depth)?,
            self.row_x0.get(depth)?,
            self.row_x1.get(depth)?,
        );
        let i = rx0.partition_point(|&a| a <= x).checked_sub(1)?;
        (x < *rx1.get(i)?).then_some(*row.get(i)?)
    }

    /// Index range of `rows[depth]` that overlaps `[a, b)`.
    pub fn row_range(&self, depth: usize, a: f64, b: f64) -> std::ops::Range<usize> {
        let (Some(rx0), Some(rx1)) = (self.row_x0.get(depth), self.row_x1.get(depth)) else {
            return 0..0;
        };
        let lo = rx1.partition_point(|&x| x <= a);
        let hi = rx0.partition_point(|&x| x < b);
        lo..hi.max(lo)
    }

    pub fn depth_count(&self) -> usize {
        self.rows.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calltree::Order;
    use crate::folded::parse;

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
}
