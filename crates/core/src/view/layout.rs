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

use super::calltree::{CallTree, NodeId};

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

    /// The layout as plain columns (`[x0, x1, row_x0…, row_x1…]` flattened, `[rows…, row lengths]`), to move it
    /// between threads as typed arrays.
    pub fn into_columns(self) -> (Vec<Vec<f64>>, Vec<Vec<u32>>) {
        let lens = self.rows.iter().map(|r| r.len() as u32).collect();
        let rows = self.rows.into_iter().flatten().map(|n| n.0).collect();
        let rx0 = self.row_x0.into_iter().flatten().collect();
        let rx1 = self.row_x1.into_iter().flatten().collect();
        (vec![self.x0, self.x1, rx0, rx1], vec![rows, lens])
    }

    /// The layout [`FlameLayout::into_columns`] made, for a tree of `nodes` nodes; `None` when they do not fit.
    pub fn from_columns(f64s: Vec<Vec<f64>>, u32s: Vec<Vec<u32>>, nodes: usize) -> Option<FlameLayout> {
        let [x0, x1, rx0, rx1]: [Vec<f64>; 4] = f64s.try_into().ok()?;
        let [rows, lens]: [Vec<u32>; 2] = u32s.try_into().ok()?;
        let flat = rows.len();
        let fits = x0.len() == nodes
            && x1.len() == nodes
            && rx0.len() == flat
            && rx1.len() == flat
            && lens.iter().map(|&l| l as usize).sum::<usize>() == flat
            && rows.iter().all(|&n| (n as usize) < nodes);
        if !fits {
            return None;
        }
        let split = |v: Vec<f64>| -> Vec<Vec<f64>> {
            let mut it = v.into_iter();
            lens.iter()
                .map(|&l| it.by_ref().take(l as usize).collect())
                .collect()
        };
        let mut it = rows.into_iter();
        let rows = lens
            .iter()
            .map(|&l| it.by_ref().take(l as usize).map(NodeId).collect())
            .collect();
        Some(FlameLayout {
            x0,
            x1,
            rows,
            row_x0: split(rx0),
            row_x1: split(rx1),
        })
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
            (back.x0, back.x1, back.rows, back.row_x0, back.row_x1),
            (l.x0, l.x1, l.rows, l.row_x0, l.row_x1)
        );
        assert!(FlameLayout::from_columns(f, u, t.len() - 1).is_none());
        let cols = t.clone().into_columns();
        let t2 = CallTree::from_columns(cols.clone()).unwrap();
        assert_eq!(t2.into_columns(), cols);
        let mut bad = cols;
        bad.u32s[5].push(99);
        assert!(CallTree::from_columns(bad).is_none());
    }
}
