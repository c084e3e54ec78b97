//! The merged call tree: one node per distinct call path, with self and total weight.
//!
//! Invariants:
//! - node 0 is the root ("all"); every other node's parent has a smaller id (topological);
//! - `total[n] == self_w[n] + Σ total[children of n]`, and `total[0]` is the sum of the weights it was built from;
//! - the children of a node are stored contiguously and ordered by the tree's [`Order`].
//!
//! Building is iterative (no recursion whose depth follows the input).

use super::options::{keyed_weights, RootMode, ViewOptions, NO_ROOT};
use crate::model::{FrameId, Profile, EMPTY_STACK, NO_PARENT};
use rustc_hash::FxHashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    pub const ROOT: NodeId = NodeId(0);
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// How siblings are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// By name, like flamegraph.pl (stable across profiles: good for comparing).
    #[default]
    Alphabetical,
    /// Heaviest first, like speedscope's left-heavy view.
    Weight,
}

/// Sentinel frame for the root node.
pub const ROOT_FRAME: FrameId = FrameId(u32::MAX);

/// The frame of a stand-in of a cut tree (`super::cut`): one leaf for a run of consecutive siblings each lighter
/// than the cut.
pub const ELIDED_FRAME: FrameId = FrameId(u32::MAX - 1);

/// What a stand-in is called ([`CallTree::name`]).
pub const ELIDED_NAME: &str = "(narrower frames)";

#[derive(Debug, Clone)]
pub struct CallTree {
    pub frame: Vec<FrameId>,
    /// The profile stack each node stands for (`EMPTY_STACK` for the root and process roots).
    pub origin: Vec<u32>,
    pub parent: Vec<u32>,
    pub depth: Vec<u32>,
    pub self_w: Vec<u64>,
    pub total: Vec<u64>,
    pub(super) child_start: Vec<u32>,
    pub(super) child_list: Vec<NodeId>,
}

/// A [`CallTree`] or [`super::FlameLayout`] as plain columns of numbers (the transport's type).
pub use crate::model::wire::TreeColumns;

impl CallTree {
    /// The call tree of the samples a view selects, with its process roots.
    pub fn build(p: &Profile, v: &ViewOptions, order: Order) -> CallTree {
        if let Some(w) = Self::stack_weights(p, v) {
            return Self::from_stack_weights(p, &w, order);
        }
        let keyed = keyed_weights(p, v);
        let mut keys: Vec<_> = keyed.into_iter().filter(|&(_, w)| w > 0).collect();
        keys.sort_unstable_by_key(|&((r, s), _)| (r, s));
        let mut t = CallTree::empty();
        let mut groups: FxHashMap<u32, u32> = FxHashMap::default();
        let mut memo: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        let mut path = Vec::new();
        for ((root, stack), w) in keys {
            let base = if root == NO_ROOT {
                0
            } else {
                *groups
                    .entry(root)
                    .or_insert_with(|| t.push_node(FrameId(root), 0, EMPTY_STACK.0))
            };
            let mut node = base;
            if stack != EMPTY_STACK {
                // Walk up to the nearest stack that already has a node under this root, then create downwards.
                path.clear();
                let mut cur = Some(stack);
                let mut anchor = base;
                while let Some(c) = cur {
                    if let Some(&n) = memo.get(&(root, c.0)) {
                        anchor = n;
                        break;
                    }
                    path.push(c);
                    cur = p.stacks.parent(c);
                }
                node = anchor;
                for &st in path.iter().rev() {
                    let f = p.stacks.frame.get(st.idx()).copied().unwrap_or(FrameId(0));
                    node = t.push_node(f, node, st.0);
                    memo.insert((root, st.0), node);
                }
            }
            if let Some(slot) = t.self_w.get_mut(node as usize) {
                *slot = slot.saturating_add(w);
            }
        }
        // Totals, leaf to root (ids are topological).
        t.total = t.self_w.clone();
        for i in (1..t.len()).rev() {
            let par = t.parent.get(i).copied().unwrap_or(NO_PARENT) as usize;
            let add = t.total.get(i).copied().unwrap_or(0);
            if let Some(x) = t.total.get_mut(par) {
                *x = x.saturating_add(add);
            }
        }
        t.link_children(p, order);
        t
    }

    /// Each stack's self weight under `v`, when the tree of `p` under `v` is [`CallTree::from_stack_weights`] of
    /// them (no event or time filter, no per-thread roots, no frameless sample): the tree [`CallTree::build`]
    /// makes, and `view::cut::cut_stacks` cuts without making it.
    pub fn stack_weights(p: &Profile, v: &ViewOptions) -> Option<Vec<u64>> {
        let plain = v.event.is_none()
            && v.time_range.is_none()
            && (v.root == RootMode::None || p.samples.thread.is_none());
        if !plain || p.samples.stack.contains(&EMPTY_STACK) {
            return None;
        }
        let mut w = vec![0u64; p.stacks.len()];
        for i in 0..p.samples.len() {
            if let (Some(x), Some(slot)) = (
                v.weigh(p, i),
                p.samples.stack.get(i).and_then(|s| w.get_mut(s.idx())),
            ) {
                *slot = slot.saturating_add(x);
            }
        }
        Some(w)
    }

    /// The tree as plain columns, to move it between threads as typed arrays (`wire`): `[frame, origin, parent,
    /// child_list]` and `[total]`. What follows from them — each node's depth, its self weight (its total less
    /// its children's) and where its children start in `child_list` — does not travel: [`CallTree::from_columns`]
    /// works it out again, so 24 of the tree's 40 bytes per node are copied out and sent instead of 40.
    pub fn into_columns(self) -> TreeColumns {
        TreeColumns {
            u32s: vec![
                self.frame.into_iter().map(|f| f.0).collect(),
                self.origin,
                self.parent,
                self.child_list.into_iter().map(|n| n.0).collect(),
            ],
            u64s: vec![self.total],
        }
    }

    /// The tree [`CallTree::into_columns`] made, whole again; `None` when the columns do not fit together (see
    /// [`Rebuild`], which does the same a piece at a time).
    pub fn from_columns(c: TreeColumns) -> Option<CallTree> {
        let mut r = Rebuild::new(c)?;
        while !r.step(usize::MAX)? {}
        r.finish()
    }

    pub(crate) fn empty() -> CallTree {
        CallTree {
            frame: vec![ROOT_FRAME],
            origin: vec![EMPTY_STACK.0],
            parent: vec![NO_PARENT],
            depth: vec![0],
            self_w: vec![0],
            total: vec![0],
            child_start: Vec::new(),
            child_list: Vec::new(),
        }
    }

    fn push_node(&mut self, frame: FrameId, parent: u32, origin: u32) -> u32 {
        let id = self.frame.len() as u32;
        self.frame.push(frame);
        self.origin.push(origin);
        self.parent.push(parent);
        let d = self.depth.get(parent as usize).copied().unwrap_or(0) + 1;
        self.depth.push(d);
        self.self_w.push(0);
        self.total.push(0);
        id
    }

    /// The call tree of all samples of a profile, in its default view.
    pub fn from_profile(p: &Profile, order: Order) -> CallTree {
        Self::build(p, &ViewOptions::default_for(p), order)
    }

    /// The call tree for given self weights per stack id (`stack_self[s]` for stack `s`).
    /// Stacks whose subtree weighs nothing are left out.
    pub fn from_stack_weights(p: &Profile, stack_self: &[u64], order: Order) -> CallTree {
        let n = p.stacks.len();
        // Total per stack, accumulated leaf-to-root (the table is topological).
        let mut stack_total: Vec<u64> = (0..n).map(|i| stack_self.get(i).copied().unwrap_or(0)).collect();
        let mut keep: Vec<bool> = stack_total.iter().map(|&w| w > 0).collect();
        for i in (0..n).rev() {
            let par = p.stacks.parent.get(i).copied().unwrap_or(NO_PARENT);
            if par != NO_PARENT && keep.get(i).copied().unwrap_or(false) {
                let t = stack_total.get(i).copied().unwrap_or(0);
                if let Some(pt) = stack_total.get_mut(par as usize) {
                    *pt = pt.saturating_add(t);
                }
                if let Some(k) = keep.get_mut(par as usize) {
                    *k = true;
                }
            }
        }
        let kept = keep.iter().filter(|&&k| k).count();
        let mut t = CallTree {
            frame: Vec::with_capacity(kept + 1),
            origin: Vec::with_capacity(kept + 1),
            parent: Vec::with_capacity(kept + 1),
            depth: Vec::with_capacity(kept + 1),
            self_w: Vec::with_capacity(kept + 1),
            total: Vec::with_capacity(kept + 1),
            child_start: Vec::new(),
            child_list: Vec::new(),
        };
        t.frame.push(ROOT_FRAME);
        t.origin.push(EMPTY_STACK.0);
        t.parent.push(NO_PARENT);
        t.depth.push(0);
        t.self_w.push(0);
        t.total.push(0);
        let mut node_of = vec![u32::MAX; n];
        let mut root_total = 0u64;
        for (i, (&k, (&par, &frame))) in keep
            .iter()
            .zip(p.stacks.parent.iter().zip(&p.stacks.frame))
            .enumerate()
        {
            if !k {
                continue;
            }
            let st = stack_total.get(i).copied().unwrap_or(0);
            let pnode = if par == NO_PARENT {
                0
            } else {
                node_of.get(par as usize).copied().unwrap_or(0)
            };
            let id = t.frame.len() as u32;
            if let Some(slot) = node_of.get_mut(i) {
                *slot = id;
            }
            t.frame.push(frame);
            t.origin.push(i as u32);
            t.parent.push(pnode);
            let d = t.depth.get(pnode as usize).copied().unwrap_or(0) + 1;
            t.depth.push(d);
            t.self_w.push(stack_self.get(i).copied().unwrap_or(0));
            t.total.push(st);
            if par == NO_PARENT {
                root_total = root_total.saturating_add(st);
            }
        }
        if let Some(r) = t.total.first_mut() {
            *r = root_total;
        }
        t.link_children(p, order);
        t
    }

    fn link_children(&mut self, p: &Profile, order: Order) {
        // Counting sort of node ids by parent: `count[p]..count[p + 1]` is the slice of `p`'s children.
        let n = self.frame.len();
        let mut count = vec![0u32; n + 1];
        for &par in self.parent.iter().skip(1) {
            if let Some(c) = count.get_mut(par as usize + 1) {
                *c += 1;
            }
        }
        let mut acc = 0u32;
        for c in count.iter_mut() {
            acc += *c;
            *c = acc;
        }
        let mut fill = count.clone();
        let mut list = vec![NodeId(0); n.saturating_sub(1)];
        for (i, &par) in self.parent.iter().enumerate().skip(1) {
            if let Some(slot) = fill.get_mut(par as usize) {
                if let Some(x) = list.get_mut(*slot as usize) {
                    *x = NodeId(i as u32);
                }
                *slot += 1;
            }
        }
        let frame_of = |x: &NodeId| self.frame.get(x.idx()).copied().unwrap_or(ROOT_FRAME);
        let total_of = |x: &NodeId| self.total.get(x.idx()).copied().unwrap_or(0);
        for w in count.windows(2) {
            let &[a, b] = w else { continue };
            let Some(kids) = list.get_mut(a as usize..b as usize) else {
                continue;
            };
            match order {
                Order::Alphabetical => kids.sort_by(|x, y| alphabetical(p, frame_of(x), frame_of(y))),
                Order::Weight => kids.sort_by(|x, y| total_of(y).cmp(&total_of(x)).then(x.cmp(y))),
            }
        }
        self.child_start = count;
        self.child_list = list;
    }

    pub fn len(&self) -> usize {
        self.frame.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frame.len() <= 1
    }

    pub fn children(&self, n: NodeId) -> &[NodeId] {
        let a = self.child_start.get(n.idx()).copied().unwrap_or(0) as usize;
        let b = self.child_start.get(n.idx() + 1).copied().unwrap_or(0) as usize;
        self.child_list.get(a..b).unwrap_or(&[])
    }

    pub fn parent(&self, n: NodeId) -> Option<NodeId> {
        match self.parent.get(n.idx()) {
            Some(&p) if p != NO_PARENT => Some(NodeId(p)),
            _ => None,
        }
    }

    /// Nodes from the root (excluded) down to `n` (included).
    pub fn path(&self, n: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut cur = n;
        while cur != NodeId::ROOT {
            out.push(cur);
            match self.parent(cur) {
                Some(p) => cur = p,
                None => break,
            }
        }
        out.reverse();
        out
    }

    /// The ancestor of `n` (or `n` itself) at `depth`, walking up only the levels in between (no path is built:
    /// a tree can be millions of levels deep).
    pub fn ancestor_at(&self, n: NodeId, depth: u32) -> Option<NodeId> {
        let mut cur = n;
        loop {
            let d = *self.depth.get(cur.idx())?;
            if d == depth {
                return Some(cur);
            }
            if d < depth {
                return None;
            }
            cur = self.parent(cur)?;
        }
    }

    pub fn max_depth(&self) -> u32 {
        self.depth.iter().copied().max().unwrap_or(0)
    }

    /// Finds the node reached by following frame names from the root, e.g. `["main", "compute"]`.
    pub fn find_path(&self, p: &Profile, names: &[&str]) -> Option<NodeId> {
        let mut cur = NodeId::ROOT;
        for name in names {
            cur = *self
                .children(cur)
                .iter()
                .find(|&&c| self.frame.get(c.idx()).is_some_and(|&f| p.frame_name(f) == *name))?;
        }
        Some(cur)
    }

    /// The stack of the profile a node stands for is not kept; tests and exports walk names instead.
    pub fn name<'p>(&self, p: &'p Profile, n: NodeId) -> &'p str {
        match self.frame.get(n.idx()) {
            Some(&f) if f == ELIDED_FRAME => ELIDED_NAME,
            Some(&f) if f != ROOT_FRAME => p.frame_name(f),
            _ => "all",
        }
    }
}

/// Self weight per stack id for all samples of a profile.
pub fn stack_weights(p: &Profile) -> Vec<u64> {
    let mut w = vec![0u64; p.stacks.len()];
    for (s, &x) in p.samples.stack.iter().zip(&p.samples.weight) {
        if let Some(slot) = w.get_mut(s.idx()) {
            *slot = slot.saturating_add(x);
        }
    }
    w
}

/// A tree made whole again from [`CallTree::into_columns`]'s columns a piece at a time, so a page's thread can
/// do something else between the pieces: each node's depth, its self weight (its total less its children's) and
/// where its children start. The columns are refused (`None`) when they do not describe one tree: a parent at or
/// after its child, a child listed under another parent or not exactly once, children weighing more than their
/// parent.
pub struct Rebuild {
    frame: Vec<u32>,
    origin: Vec<u32>,
    parent: Vec<u32>,
    child_list: Vec<u32>,
    total: Vec<u64>,
    depth: Vec<u32>,
    child_start: Vec<u32>,
    /// The children's weight per node, then each node's self weight.
    self_w: Vec<u64>,
    /// One bit per node: listed as a child already.
    seen: Vec<u64>,
    stage: Stage,
    /// The next node (or parent) of the stage.
    at: usize,
    /// The running sum of the children counts.
    acc: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Depth, children count and children's weight per parent (ids are topological: a parent is done first).
    Walk,
    /// Children counts summed into where each node's children start.
    Starts,
    /// Each listed child under its own parent, once.
    Lists,
    /// Self weight: total less the children's.
    Selves,
    Done,
}

impl Rebuild {
    pub fn new(c: TreeColumns) -> Option<Rebuild> {
        let [frame, origin, parent, child_list]: [Vec<u32>; 4] = c.u32s.try_into().ok()?;
        let [total]: [Vec<u64>; 1] = c.u64s.try_into().ok()?;
        let n = frame.len();
        let fits = n > 0
            && [origin.len(), parent.len(), total.len()].iter().all(|&l| l == n)
            && child_list.len() == n - 1;
        fits.then(|| Rebuild {
            frame,
            origin,
            parent,
            child_list,
            total,
            // Grown as the walk goes, not zeroed whole here: writing a large stretch of fresh memory at once is
            // a long task of its own (tens of ms on a tree of millions of nodes).
            depth: Vec::with_capacity(n),
            child_start: Vec::with_capacity(n + 1),
            self_w: Vec::with_capacity(n),
            seen: vec![0; n.div_ceil(64)],
            stage: Stage::Walk,
            at: 1,
            acc: 0,
        })
    }

    /// Does the next `work` nodes' share; `Some(true)` once the tree is whole, `None` when the columns do not fit.
    pub fn step(&mut self, work: usize) -> Option<bool> {
        let n = self.frame.len();
        let mut left = work.max(1);
        while left > 0 && self.stage != Stage::Done {
            let end = self.at.saturating_add(left);
            let stage_end = match self.stage {
                Stage::Starts => n + 1,
                _ => n,
            };
            let end = end.min(stage_end);
            left -= end - self.at;
            match self.stage {
                Stage::Walk => {
                    if self.depth.is_empty() {
                        // The root.
                        self.depth.push(0);
                        self.self_w.push(0);
                        self.child_start.extend([0, 0]);
                    }
                    for i in self.at..end {
                        let p = *self.parent.get(i)? as usize;
                        if p >= i {
                            return None;
                        }
                        let d = self.depth.get(p)?.checked_add(1)?;
                        self.depth.push(d);
                        self.self_w.push(0);
                        self.child_start.push(0);
                        *self.child_start.get_mut(p + 1)? += 1;
                        let t = *self.total.get(i)?;
                        let sum = self.self_w.get_mut(p)?;
                        *sum = sum.checked_add(t)?;
                    }
                }
                Stage::Starts => {
                    for c in self.child_start.get_mut(self.at..end)? {
                        self.acc = self.acc.checked_add(*c)?;
                        *c = self.acc;
                    }
                }
                Stage::Lists => {
                    for p in self.at..end {
                        let (a, b) = (*self.child_start.get(p)?, *self.child_start.get(p + 1)?);
                        for &c in self.child_list.get(a as usize..b as usize)? {
                            let (word, bit) = (self.seen.get_mut(c as usize / 64)?, 1u64 << (c % 64));
                            let once = *word & bit == 0;
                            *word |= bit;
                            if c == 0 || !once || *self.parent.get(c as usize)? as usize != p {
                                return None;
                            }
                        }
                    }
                }
                Stage::Selves => {
                    for i in self.at..end {
                        let t = *self.total.get(i)?;
                        let s = self.self_w.get_mut(i)?;
                        *s = t.checked_sub(*s)?;
                    }
                }
                Stage::Done => {}
            }
            self.at = end;
            if end == stage_end {
                (self.stage, self.at) = match self.stage {
                    Stage::Walk => (Stage::Starts, 0),
                    Stage::Starts => (Stage::Lists, 0),
                    Stage::Lists => (Stage::Selves, 0),
                    Stage::Selves | Stage::Done => (Stage::Done, 0),
                };
            }
        }
        Some(self.stage == Stage::Done)
    }

    /// The whole tree, once [`Rebuild::step`] has said so; `None` before.
    pub fn finish(self) -> Option<CallTree> {
        (self.stage == Stage::Done).then(|| CallTree {
            frame: self.frame.into_iter().map(FrameId).collect(),
            origin: self.origin,
            parent: self.parent,
            depth: self.depth,
            self_w: self.self_w,
            total: self.total,
            child_start: self.child_start,
            child_list: self.child_list.into_iter().map(NodeId).collect(),
        })
    }
}

/// Siblings' order in [`Order::Alphabetical`]: by frame name, then kind (a stable sort keeps ties in id order).
/// `view::cut` orders the children of the stack table's nodes by it too.
pub(crate) fn alphabetical(p: &Profile, a: FrameId, b: FrameId) -> std::cmp::Ordering {
    p.frame_name(a)
        .cmp(p.frame_name(b))
        .then(p.frame_kind(a).cmp(&p.frame_kind(b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::folded::parse;

    #[test]
    fn totals_and_self() {
        let p = parse(b"main;a;b 3\nmain;a 2\nmain;c 6\nother 1\n").unwrap();
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        assert_eq!(t.total[0], 12);
        let main = t.find_path(&p, &["main"]).unwrap();
        let a = t.find_path(&p, &["main", "a"]).unwrap();
        assert_eq!((t.self_w[main.idx()], t.total[main.idx()]), (0, 11));
        assert_eq!((t.self_w[a.idx()], t.total[a.idx()]), (2, 5));
        let names: Vec<_> = t.children(main).iter().map(|&c| t.name(&p, c)).collect();
        assert_eq!(names, ["a", "c"]);
        let heavy = CallTree::from_profile(&p, Order::Weight);
        let main = heavy.find_path(&p, &["main"]).unwrap();
        let names: Vec<_> = heavy.children(main).iter().map(|&c| heavy.name(&p, c)).collect();
        assert_eq!(names, ["c", "a"]);
        assert_eq!(t.max_depth(), 3);
    }

    fn same(a: &CallTree, b: &CallTree) {
        assert_eq!(a.frame, b.frame);
        assert_eq!(a.origin, b.origin);
        assert_eq!(a.parent, b.parent);
        assert_eq!(a.depth, b.depth);
        assert_eq!(a.self_w, b.self_w);
        assert_eq!(a.total, b.total);
        assert_eq!(a.child_start, b.child_start);
        assert_eq!(a.child_list, b.child_list);
    }

    /// What does not travel (depth, self, where children start) comes back exactly as it was built.
    #[test]
    fn columns_round_trip() {
        let p = parse(b"main;a;b 3\nmain;a 2\nmain;c 6\nother 1\nmain;a;b;b;b 4\nx;y;z 0\n").unwrap();
        let weights: Vec<u64> = (0..p.stacks.len() as u64).map(|i| i % 3).collect();
        for t in [
            CallTree::from_profile(&p, Order::Alphabetical),
            CallTree::from_profile(&p, Order::Weight),
            CallTree::from_stack_weights(&p, &weights, Order::Weight),
        ] {
            let cols = t.clone().into_columns();
            assert_eq!(cols.u32s.len() * 4 + cols.u64s.len() * 8, 24);
            same(&CallTree::from_columns(cols.clone()).unwrap(), &t);
            // A piece at a time, pieces of every size: the same tree.
            for work in 1..=4 {
                let mut r = Rebuild::new(cols.clone()).unwrap();
                let mut steps = 0;
                while !r.step(work).unwrap() {
                    steps += 1;
                }
                assert!(steps >= (t.len() * 4) / work - 1);
                same(&r.finish().unwrap(), &t);
            }
        }
    }

    /// Columns that do not describe one tree are refused, never trusted.
    #[test]
    fn columns_that_do_not_fit() {
        let p = parse(b"main;a;b 3\nmain;a 2\nmain;c 6\n").unwrap();
        let cols = CallTree::from_profile(&p, Order::Alphabetical).into_columns();
        let broken = |f: &dyn Fn(&mut TreeColumns)| {
            let mut c = cols.clone();
            f(&mut c);
            CallTree::from_columns(c).is_none()
        };
        assert!(CallTree::from_columns(cols.clone()).is_some());
        // A parent after its child.
        assert!(broken(&|c| c.u32s[2][1] = 3));
        // A child listed twice, another not at all.
        assert!(broken(&|c| c.u32s[3][1] = c.u32s[3][0]));
        // A child weighing more than its parent.
        assert!(broken(&|c| c.u64s[0][2] = 1000));
        // A column short.
        assert!(broken(&|c| {
            c.u32s[1].pop();
        }));
    }
}
