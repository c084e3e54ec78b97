//! A call tree cut to what can be drawn (issue #39): what the view engine sends the page of a large tree.
//!
//! A flame graph 1,920 px wide shows a node of 1/65,536 of its total as 0.03 px. The page keeps only the nodes
//! of at least [`FINE`]'s share of the total ([`cut`]); each run of consecutive siblings that weigh less becomes
//! one **stand-in** node (frame [`ELIDED_FRAME`], no children) of their summed weight, which reaches as many rows
//! as their subtrees do. So every kept node keeps exactly its place in the whole graph (a node's place is the sum
//! of its earlier siblings' totals, `window::x_range`), and the stand-ins draw as the slivers the runs would.
//!
//! Zooming into a node whose cut could now show ([`needs_finer`]) asks the engine, which keeps the whole tree,
//! for that node's subtree cut finer ([`cut`] at that node); the page adds it to its own ([`Cut::graft`]). The
//! nodes it had keep their ids, so a zoom, a hover or a selection stays where it was.
//!
//! Costs: [`cut`] visits the nodes it keeps and their children; [`graft`] is linear in the page's tree and
//! the part. Nothing recurses.

use super::calltree::{alphabetical, CallTree, NodeId};
pub use super::calltree::{ELIDED_FRAME, ELIDED_NAME};
use crate::model::{FrameId, EMPTY_STACK};
use rustc_hash::FxHashMap;

/// A tree of more nodes than this is cut before it travels to the page; a smaller one goes whole (the cut would
/// save at most a few MB).
pub const CUT_ABOVE: usize = 100_000;

/// The cut keeps the nodes of at least `1 / FINE` of the total of the node it is made at.
pub const FINE: u64 = 65_536;

/// A zoom asks for a finer cut once what was cut could be `1 / COARSE` of the zoomed node's width (0.47 px of
/// 1,920): 16 times coarser than [`FINE`], so a zoom that follows seldom needs one too.
pub const COARSE: u64 = 4_096;

/// A cut tree: a [`CallTree`] whose stand-ins (frame [`ELIDED_FRAME`]) are leaves, with per node the rows its
/// subtree reaches below it in the whole tree (`window::heights`) and its id in the whole tree.
#[derive(Debug, Clone)]
pub struct Cut {
    pub tree: CallTree,
    pub heights: Vec<u32>,
    /// Per node: its id in the whole tree; for a stand-in, how many frames it stands for.
    pub full: Vec<u32>,
}

impl Cut {
    /// A tree not cut at all.
    pub fn whole(tree: CallTree, heights: Vec<u32>) -> Cut {
        let full = (0..tree.len() as u32).collect();
        Cut { tree, heights, full }
    }

    /// Is node `n` a stand-in?
    pub fn is_elided(&self, n: NodeId) -> bool {
        is_elided(&self.tree, n)
    }

    /// Node `at`'s subtree cut finer, as the engine made it ([`cut`] of the whole tree at `at`'s whole-tree id),
    /// added to this tree: the part's nodes this tree has keep their ids, the new ones come after, and each node
    /// whose children the part lists with less weight cut (or that is new) takes the part's list. A stand-in
    /// replaced so weighs nothing and is listed nowhere. `None` when the part is not of node `at`.
    pub fn graft(&self, at: NodeId, part: &Cut) -> Option<Cut> {
        graft(&self.tree, &self.heights, &self.full, at, part)
    }
}

/// [`Cut::graft`] of the cut tree whose columns are `t`, `heights` and `full`, borrowed: the page keeps its graph's
/// columns apart, and this copies them once, into the result.
pub fn graft(t: &CallTree, heights: &[u32], full: &[u32], at: NodeId, part: &Cut) -> Option<Cut> {
    let p = &part.tree;
    let same = p.frame.first() == t.frame.get(at.idx())
        && part.full.first() == full.get(at.idx())
        && p.total.first() == t.total.get(at.idx());
    if !same || is_elided(t, at) || part.full.len() != p.len() || part.heights.len() != p.len() {
        return None;
    }
    let n0 = t.len();
    // This tree's nodes by whole-tree id, those the part can name only: `at`'s subtree (a node is under `at`
    // in the whole tree only when it is under `at` here). Indexing every node made a zoom's graft 10–15 ms on
    // the page for a cut graph of 145,648 nodes (`bench/redraw-browser.mjs`).
    let mut index: FxHashMap<u32, u32> = FxHashMap::default();
    let mut todo = vec![at];
    while let Some(n) = todo.pop() {
        if !is_elided(t, n) {
            if let Some(&f) = full.get(n.idx()) {
                index.insert(f, n.0);
            }
        }
        todo.extend_from_slice(t.children(n));
    }
    let mut out = Cut {
        tree: t.clone(),
        heights: heights.to_vec(),
        full: full.to_vec(),
    };
    // Part id → this tree's id (u32::MAX: left out); per part node, whether its list is taken.
    let mut map = vec![u32::MAX; p.len()];
    let mut taken = vec![false; p.len()];
    // This tree's id → the part node whose list it takes.
    let mut list_of: FxHashMap<u32, u32> = FxHashMap::default();
    for i in 0..p.len() {
        let id = NodeId(i as u32);
        let here = if i == 0 {
            at.0
        } else {
            let pp = *p.parent.get(i)? as usize;
            let existing = if is_elided(p, id) {
                None
            } else {
                index.get(part.full.get(i)?).copied()
            };
            match existing {
                Some(e) => e,
                None if *taken.get(pp)? => {
                    let parent = *map.get(pp)?;
                    let depth = out.tree.depth.get(parent as usize)?.checked_add(1)?;
                    let e = out.tree.len() as u32;
                    out.tree.frame.push(*p.frame.get(i)?);
                    out.tree.origin.push(*p.origin.get(i)?);
                    out.tree.parent.push(parent);
                    out.tree.depth.push(depth);
                    out.tree.self_w.push(*p.self_w.get(i)?);
                    out.tree.total.push(*p.total.get(i)?);
                    out.full.push(*part.full.get(i)?);
                    out.heights.push(*part.heights.get(i)?);
                    e
                }
                None => continue,
            }
        };
        *map.get_mut(i)? = here;
        if p.children(id).is_empty() {
            continue;
        }
        let fresh = here as usize >= n0;
        if fresh || elided_weight(p, id) < elided_weight(t, NodeId(here)) {
            *taken.get_mut(i)? = true;
            list_of.insert(here, i as u32);
        }
    }
    // The lists again: the part's where taken, this tree's elsewhere.
    let n = out.tree.len();
    let mut start = Vec::with_capacity(n + 1);
    let mut list = Vec::with_capacity(n);
    let mut dead = Vec::new();
    for node in 0..n {
        start.push(list.len() as u32);
        let nid = NodeId(node as u32);
        match list_of.get(&(node as u32)) {
            Some(&i) => {
                for &c in p.children(NodeId(i)) {
                    let m = *map.get(c.idx())?;
                    if m == u32::MAX {
                        return None;
                    }
                    list.push(NodeId(m));
                }
                if node < n0 {
                    dead.extend(t.children(nid).iter().copied().filter(|&c| is_elided(t, c)));
                }
            }
            None if node < n0 => list.extend_from_slice(t.children(nid)),
            None => {}
        }
    }
    start.push(list.len() as u32);
    out.tree.child_start = start;
    out.tree.child_list = list;
    for d in dead {
        if let Some(x) = out.tree.total.get_mut(d.idx()) {
            *x = 0;
        }
        if let Some(x) = out.tree.self_w.get_mut(d.idx()) {
            *x = 0;
        }
    }
    Some(out)
}

/// Is node `n` of `t` a stand-in?
pub fn is_elided(t: &CallTree, n: NodeId) -> bool {
    t.frame.get(n.idx()) == Some(&ELIDED_FRAME)
}

/// The summed weight of `n`'s children that are stand-ins.
fn elided_weight(t: &CallTree, n: NodeId) -> u64 {
    t.children(n)
        .iter()
        .filter(|&&c| is_elided(t, c))
        .fold(0u64, |s, c| {
            s.saturating_add(t.total.get(c.idx()).copied().unwrap_or(0))
        })
}

/// The cut of a node of total `total`: the least total a node keeps ([`FINE`]; 0 keeps every node).
pub fn min_of(total: u64) -> u64 {
    total / FINE
}

/// Does a zoom to a node of total `total`, in a tree cut at `min` there, need it cut finer ([`COARSE`])?
pub fn needs_finer(min: u64, total: u64) -> bool {
    min > 0 && min > total / COARSE
}

/// Node `at`'s subtree of `t` (heights `h`, `window::heights`) with the nodes of total at least `min`, the rest
/// as stand-ins, one per run of consecutive lighter siblings (see the module). Node 0 of the cut is `at` (depth
/// 0, no parent); nodes are numbered breadth first, so a parent comes before its children.
pub fn cut(t: &CallTree, h: &[u32], at: NodeId, min: u64) -> Cut {
    let get = |v: &[u64], n: NodeId| v.get(n.idx()).copied().unwrap_or(0);
    let node = |n: NodeId| Kid {
        frame: t.frame.get(n.idx()).copied(),
        origin: t.origin.get(n.idx()).copied().unwrap_or(EMPTY_STACK.0),
        self_w: get(&t.self_w, n),
        total: get(&t.total, n),
        full: n.0,
        height: h.get(n.idx()).copied().unwrap_or(0),
    };
    cut_from(node(at), min, |whole, _, out| {
        out.extend(t.children(NodeId(whole)).iter().map(|&k| node(k)));
    })
}

/// A node as [`cut_from`] sees it: what the cut keeps of it.
struct Kid {
    /// `None`: a node of no frame (the root of an empty tree).
    frame: Option<FrameId>,
    origin: u32,
    self_w: u64,
    total: u64,
    /// Its id in the whole tree.
    full: u32,
    height: u32,
}

/// The cut of the subtree of `at` at `min` ([`cut`]), its nodes' children (in the whole tree's order, by
/// whole-tree id) listed by `kids`.
fn cut_from(at: Kid, min: u64, mut kids: impl FnMut(u32, u32, &mut Vec<Kid>)) -> Cut {
    let mut c = Cut {
        tree: CallTree::empty(),
        heights: vec![at.height],
        full: vec![at.full],
    };
    if let Some(f) = at.frame {
        c.tree.frame = vec![f];
        c.tree.origin = vec![at.origin];
        c.tree.self_w = vec![at.self_w];
        c.tree.total = vec![at.total];
    }
    c.tree.child_start = vec![0];
    let mut i = 0;
    let mut list = Vec::new();
    while i < c.tree.len() {
        let id = NodeId(i as u32);
        let whole = c.full.get(i).copied().unwrap_or(0);
        let depth = c.tree.depth.get(i).copied().unwrap_or(0).saturating_add(1);
        if !is_elided(&c.tree, id) {
            list.clear();
            let origin = c.tree.origin.get(i).copied().unwrap_or(EMPTY_STACK.0);
            kids(whole, origin, &mut list);
            // A run of lighter siblings: weight, frames, rows below.
            let mut run = (0u64, 0u32, 0u32);
            for k in &list {
                if k.total >= min {
                    push_run(&mut c, &mut run, i as u32, depth);
                    let n = push(&mut c, i as u32, depth, k.frame, k.self_w, k.total);
                    if let Some(o) = c.tree.origin.get_mut(n) {
                        *o = k.origin;
                    }
                    if let Some(x) = c.full.get_mut(n) {
                        *x = k.full;
                    }
                    if let Some(x) = c.heights.get_mut(n) {
                        *x = k.height;
                    }
                } else if k.total > 0 {
                    run.0 = run.0.saturating_add(k.total);
                    run.1 = run.1.saturating_add(1);
                    run.2 = run.2.max(k.height);
                }
            }
            push_run(&mut c, &mut run, i as u32, depth);
        }
        c.tree.child_start.push(c.tree.child_list.len() as u32);
        i += 1;
    }
    c
}

/// [`cut`] at the root, at [`min_of`] its total, of the tree [`CallTree::from_stack_weights`] builds of `p` from
/// these per-stack self weights in `order` — without building that tree: the same nodes, ids, whole-tree ids,
/// heights and stand-ins. One pass over the stack table, leaf to root, for the totals, the heights, the whole-tree
/// ids and each node's children (a list threaded through the stacks); only the children of the nodes kept are
/// sorted (the whole tree sorts every node's: most of its build, 127 ms natively for folded 400 MB's 2,882,322
/// nodes). `None` when the tree would not be cut (at most [`CUT_ABOVE`] nodes, a total under [`FINE`], or nothing
/// lighter than the cut): build it whole.
pub fn cut_stacks(
    p: &crate::model::Profile,
    stack_self: &[u64],
    order: super::calltree::Order,
) -> Option<Cut> {
    cut_stacks_above(p, stack_self, order, CUT_ABOVE)
}

/// [`cut_stacks`] of a tree of more than `above` nodes.
fn cut_stacks_above(
    p: &crate::model::Profile,
    stack_self: &[u64],
    order: super::calltree::Order,
    above: usize,
) -> Option<Cut> {
    use crate::model::NO_PARENT;
    const NONE: u32 = u32::MAX;
    let n = p.stacks.len();
    // A stack is a node of the tree when its subtree weighs anything (`from_stack_weights`): when its total is
    // over 0 (weights are never negative). Slot 0 is the root; stack `i` is slot `i + 1`.
    let mut total: Vec<u64> = (0..n).map(|i| stack_self.get(i).copied().unwrap_or(0)).collect();
    // The rows each node's subtree reaches below it (`window::heights`).
    let mut height = vec![0u32; n + 1];
    // Each slot's first child and each stack's next sibling, in stack order (whole-tree id order).
    let mut first = vec![NONE; n + 1];
    let mut next = vec![NONE; n];
    // Nodes at or after each stack: its whole-tree id is `kept - after + 1` (nodes in stack order, from 1).
    let mut after = vec![0u32; n];
    let (mut root_total, mut kept) = (0u64, 0u32);
    // Leaf to root: a stack's children come after it (the table is topological), so its total and height are
    // complete when it is reached.
    for i in (0..n).rev() {
        let t = total.get(i).copied().unwrap_or(0);
        if t == 0 {
            continue;
        }
        kept += 1;
        if let Some(x) = after.get_mut(i) {
            *x = kept;
        }
        let h = height.get(i + 1).copied().unwrap_or(0).saturating_add(1);
        let up = p.stacks.parent.get(i).copied().unwrap_or(NO_PARENT);
        let slot = if up == NO_PARENT {
            root_total = root_total.saturating_add(t);
            0
        } else {
            if let Some(x) = total.get_mut(up as usize) {
                *x = x.saturating_add(t);
            }
            up as usize + 1
        };
        if let Some(x) = height.get_mut(slot) {
            *x = (*x).max(h);
        }
        if let Some(f) = first.get_mut(slot) {
            if let Some(x) = next.get_mut(i) {
                *x = *f;
            }
            *f = i as u32;
        }
    }
    let min = min_of(root_total);
    if (kept as usize) < above || min == 0 {
        return None;
    }
    let kid = |s: u32| {
        let i = s as usize;
        Kid {
            frame: p.stacks.frame.get(i).copied(),
            origin: s,
            self_w: stack_self.get(i).copied().unwrap_or(0),
            total: total.get(i).copied().unwrap_or(0),
            full: kept - after.get(i).copied().unwrap_or(kept) + 1,
            height: height.get(i + 1).copied().unwrap_or(0),
        }
    };
    let root = Kid {
        frame: Some(super::ROOT_FRAME),
        origin: EMPTY_STACK.0,
        self_w: 0,
        total: root_total,
        full: 0,
        height: height.first().copied().unwrap_or(0),
    };
    let rank = FrameRank::of(p, kept as usize);
    let mut stacks: Vec<u32> = Vec::new();
    let c = cut_from(root, min, |_, origin, out| {
        let slot = if origin == EMPTY_STACK.0 {
            0
        } else {
            origin as usize + 1
        };
        stacks.clear();
        let mut k = first.get(slot).copied().unwrap_or(NONE);
        while k != NONE {
            stacks.push(k);
            k = next.get(k as usize).copied().unwrap_or(NONE);
        }
        // As `CallTree::link_children` orders them (a stable sort of ids in increasing order).
        let total_of = |s: &u32| total.get(*s as usize).copied().unwrap_or(0);
        match order {
            super::calltree::Order::Alphabetical => rank.sort(p, &mut stacks),
            super::calltree::Order::Weight => {
                stacks.sort_by(|x, y| total_of(y).cmp(&total_of(x)).then(x.cmp(y)))
            }
        }
        out.extend(stacks.iter().map(|&s| kid(s)));
    });
    (c.tree.len() < kept as usize + 1).then_some(c)
}

/// Stacks in alphabetical order of their frames (name, then kind), as the call tree orders siblings. With few
/// frames for the nodes, each frame's place in that order is found once (a sort of the frames) and siblings
/// are sorted by it; otherwise by comparing names.
enum FrameRank {
    Ranks(Vec<u32>),
    Names,
}

impl FrameRank {
    fn of(p: &crate::model::Profile, nodes: usize) -> FrameRank {
        let f = p.frames.len();
        if f.saturating_mul(RANK_FRAMES_PER_NODE) > nodes {
            return FrameRank::Names;
        }
        let mut by: Vec<FrameId> = (0..f as u32).map(FrameId).collect();
        by.sort_by(|&x, &y| alphabetical(p, x, y));
        // Frames of the same name and kind share a place (the sort of siblings below is stable).
        let mut rank = vec![0u32; f];
        let (mut r, mut prev) = (0u32, None);
        for &x in &by {
            if prev.is_some_and(|y| alphabetical(p, y, x).is_ne()) {
                r += 1;
            }
            if let Some(v) = rank.get_mut(x.idx()) {
                *v = r;
            }
            prev = Some(x);
        }
        FrameRank::Ranks(rank)
    }

    fn sort(&self, p: &crate::model::Profile, stacks: &mut [u32]) {
        let frame_of = |s: u32| {
            p.stacks
                .frame
                .get(s as usize)
                .copied()
                .unwrap_or(super::ROOT_FRAME)
        };
        match self {
            FrameRank::Ranks(rank) => {
                stacks.sort_by_key(|&s| rank.get(frame_of(s).idx()).copied().unwrap_or(u32::MAX))
            }
            FrameRank::Names => stacks.sort_by(|&x, &y| alphabetical(p, frame_of(x), frame_of(y))),
        }
    }
}

/// Frames are ranked ([`FrameRank`]) when the tree has at least this many nodes per frame: the frames' sort
/// then costs less than comparing names in the sorts of the kept nodes' children.
const RANK_FRAMES_PER_NODE: usize = 4;

/// Adds node of `frame` under `parent` (listed as its child); its index. Origin, whole-tree id and height are the
/// caller's to set.
fn push(c: &mut Cut, parent: u32, depth: u32, frame: Option<FrameId>, self_w: u64, total: u64) -> usize {
    let n = c.tree.len();
    c.tree.frame.push(frame.unwrap_or(ELIDED_FRAME));
    c.tree.origin.push(EMPTY_STACK.0);
    c.tree.parent.push(parent);
    c.tree.depth.push(depth);
    c.tree.self_w.push(self_w);
    c.tree.total.push(total);
    c.tree.child_list.push(NodeId(n as u32));
    c.full.push(0);
    c.heights.push(0);
    n
}

/// Ends a run of lighter siblings: a stand-in for it, if it weighs anything.
fn push_run(c: &mut Cut, run: &mut (u64, u32, u32), parent: u32, depth: u32) {
    let (w, frames, rows) = std::mem::take(run);
    if w == 0 {
        return;
    }
    let n = push(c, parent, depth, Some(ELIDED_FRAME), w, w);
    if let Some(x) = c.full.get_mut(n) {
        *x = frames;
    }
    if let Some(x) = c.heights.get_mut(n) {
        *x = rows;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::calltree::Order;
    use crate::view::window::{heights, x_range};
    use crate::Profile;

    /// A profile of `n` random stacks over 40 frames, up to 12 deep, weights 1..1000 skewed low.
    fn random(seed: u64, n: usize) -> Profile {
        let mut s = seed;
        let mut r = move |m: u64| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) % m
        };
        let mut text = String::new();
        for _ in 0..n {
            let d = 1 + r(12);
            let frames: Vec<String> = (0..d).map(|_| format!("f{}", r(40))).collect();
            let w = 1 + r(1000) * r(1000) / 1000;
            text.push_str(&format!("{} {w}\n", frames.join(";")));
        }
        crate::import::folded::parse(text.as_bytes()).unwrap()
    }

    /// Every listed node of `c` (reached from its root) in `t`: totals add up, a kept node has its whole-tree
    /// total, frame and place, a stand-in lies between its kept neighbours. The reached kept nodes' whole ids.
    fn check(t: &CallTree, c: &Cut) -> Vec<u32> {
        let ct = &c.tree;
        let mut kept = Vec::new();
        let mut stack = vec![NodeId::ROOT];
        while let Some(n) = stack.pop() {
            let kids = ct.children(n);
            let sum: u64 = kids.iter().map(|k| ct.total[k.idx()]).sum();
            assert_eq!(ct.self_w[n.idx()] + sum, ct.total[n.idx()], "node {n:?}");
            if !c.is_elided(n) {
                let w = NodeId(c.full[n.idx()]);
                assert_eq!(ct.total[n.idx()], t.total[w.idx()]);
                assert_eq!(ct.frame[n.idx()], t.frame[w.idx()]);
                assert_eq!(x_range(ct, n), x_range(t, w), "node {n:?}");
                kept.push(w.0);
            } else {
                assert!(kids.is_empty());
            }
            for &k in kids {
                assert_eq!(ct.parent[k.idx()], n.0);
                assert_eq!(ct.depth[k.idx()], ct.depth[n.idx()] + 1);
            }
            stack.extend_from_slice(kids);
        }
        kept.sort_unstable();
        kept
    }

    fn all_at_least(t: &CallTree, under: NodeId, min: u64) -> Vec<u32> {
        let mut out = Vec::new();
        let mut stack = vec![under];
        while let Some(n) = stack.pop() {
            out.push(n.0);
            stack.extend(t.children(n).iter().filter(|k| t.total[k.idx()] >= min));
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn a_cut_keeps_places_and_a_graft_refines_it() {
        for (seed, order) in [
            (1, Order::Alphabetical),
            (2, Order::Weight),
            (3, Order::Alphabetical),
        ] {
            let p = random(seed, 3000);
            let t = CallTree::from_profile(&p, order);
            let h = heights(&t);
            let total = t.total[0];
            let min = total / 2000;
            let c = cut(&t, &h, NodeId::ROOT, min);
            assert!(c.tree.len() < t.len() / 2, "{} of {}", c.tree.len(), t.len());
            assert_eq!(check(&t, &c), all_at_least(&t, NodeId::ROOT, min));
            // A stand-in reaches the rows its frames' subtrees do, and counts them.
            let rows = |c: &Cut| (0..c.tree.len()).map(|i| c.tree.depth[i] + c.heights[i]).max();
            assert_eq!(rows(&c), (0..t.len()).map(|i| t.depth[i] + h[i]).max());
            let counted: u32 = (0..c.tree.len())
                .filter(|&i| c.is_elided(NodeId(i as u32)))
                .map(|i| c.full[i])
                .sum();
            let lighter = (1..t.len()).filter(|&i| t.total[i] < min && t.total[t.parent[i] as usize] >= min);
            assert_eq!(counted as usize, lighter.count());

            // Zoom into a kept node of about 1 % whose cut shows: its subtree cut finer, grafted.
            let z = (1..c.tree.len())
                .map(|i| NodeId(i as u32))
                .filter(|&n| !c.is_elided(n) && needs_finer(min, c.tree.total[n.idx()]))
                .max_by_key(|n| c.tree.total[n.idx()])
                .unwrap();
            let whole = NodeId(c.full[z.idx()]);
            let fine = min_of(t.total[whole.idx()]).max(1);
            let part = cut(&t, &h, whole, fine);
            let g = c.graft(z, &part).unwrap();
            let kept = check(&t, &g);
            // Everything the first cut had, and everything under the zoom at the finer cut.
            let mut want = all_at_least(&t, NodeId::ROOT, min);
            want.extend(all_at_least(&t, whole, fine));
            want.sort_unstable();
            want.dedup();
            assert_eq!(kept, want);
            // Ids of nodes the first cut had are unchanged.
            for i in 0..c.tree.len() {
                if !c.is_elided(NodeId(i as u32)) {
                    assert_eq!(g.full[i], c.full[i]);
                }
            }
            // Grafting the whole tree, uncut, at the root gives every node; a coarser part changes nothing.
            let whole_part = cut(&t, &h, NodeId::ROOT, 0);
            let all = g.graft(NodeId::ROOT, &whole_part).unwrap();
            assert_eq!(check(&t, &all), (0..t.len() as u32).collect::<Vec<_>>());
            let coarse = cut(&t, &h, NodeId::ROOT, min * 4);
            assert_eq!(check(&t, &g.graft(NodeId::ROOT, &coarse).unwrap()), kept);
            // A part of another node is refused.
            assert!(c.graft(NodeId::ROOT, &part).is_none());
        }
    }

    #[test]
    fn a_cut_at_zero_is_the_whole_tree() {
        let p = random(7, 500);
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        let c = cut(&t, &heights(&t), NodeId::ROOT, 0);
        assert_eq!(c.tree.len(), t.len());
        assert_eq!(check(&t, &c).len(), t.len());
        assert!(!needs_finer(0, 1));
        // Cut at 1/65,536 of 2^30: a node of 1/16 of that needs no finer cut, one of 1/32 does.
        assert!(!needs_finer(min_of(1 << 30), 1 << 26));
        assert!(needs_finer(min_of(1 << 30), 1 << 25));
    }
    #[test]
    fn a_wide_stand_in_draws_as_a_run_down_the_rows_its_frames_reach() {
        use crate::view::window::{window, RUN};
        let mut text = String::from("root;a 1000\n");
        for i in 0..100 {
            text.push_str(&format!("root;b;c{i};d 1\n"));
        }
        let p = crate::import::folded::parse(text.as_bytes()).unwrap();
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        let c = cut(&t, &heights(&t), NodeId::ROOT, 2);
        // b is kept (100), its hundred children are one stand-in reaching one row below it (d).
        assert_eq!(c.tree.frame.iter().filter(|&&f| f == ELIDED_FRAME).count(), 1);
        let w = window(&c.tree, &c.heights, NodeId::ROOT, 1.0 / 1100.0, 0..6);
        let (b0, b1) = x_range(&t, t.find_path(&p, &["root", "b"]).unwrap());
        for depth in [3, 4] {
            let r = w.row(depth);
            assert_eq!(w.node[r.clone()], [RUN], "row {depth}");
            assert_eq!((w.x0[r.start], w.x1[r.start]), (b0, b1));
        }
        assert!(w.row(5).is_empty());
    }

    /// Siblings in the order of their frames' ranks are in the order of their names and kinds, as the call tree
    /// sorts them: frames of one name in several kinds (`_[k]`, `_[j]`) included.
    #[test]
    fn ranked_frames_sort_as_names_do() {
        let mut text = String::new();
        for (i, name) in ["b", "a_[k]", "a", "c_[j]", "a_[j]", "c", "b_[k]"]
            .iter()
            .enumerate()
        {
            text.push_str(&format!("root;{name} {}\n", i + 1));
        }
        let p = crate::import::folded::parse(text.as_bytes()).unwrap();
        let all: Vec<u32> = (0..p.stacks.len() as u32).collect();
        let (mut by_rank, mut by_name) = (all.clone(), all);
        FrameRank::of(&p, usize::MAX).sort(&p, &mut by_rank);
        FrameRank::Names.sort(&p, &mut by_name);
        assert!(matches!(FrameRank::of(&p, usize::MAX), FrameRank::Ranks(_)));
        assert!(matches!(FrameRank::of(&p, 1), FrameRank::Names));
        assert_eq!(by_rank, by_name);
        let names: Vec<(&str, crate::FrameKind)> = by_rank
            .iter()
            .filter_map(|&s| p.stacks.frame.get(s as usize))
            .map(|&f| (p.frame_name(f), p.frame_kind(f)))
            .collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
    }

    /// The cut made from the stack table is the cut of the tree built from it: every column, in both orders, on
    /// random profiles; and none when the tree is small or its total too light to cut.
    #[test]
    fn a_cut_of_the_stacks_is_the_cut_of_their_tree() {
        use crate::view::ViewOptions;
        for (seed, order) in [
            (11, Order::Alphabetical),
            (12, Order::Weight),
            (13, Order::Alphabetical),
        ] {
            let p = random(seed, 4000);
            let v = ViewOptions::default_for(&p);
            let w = CallTree::stack_weights(&p, &v).expect("a plain view");
            let t = CallTree::from_stack_weights(&p, &w, order);
            let h = heights(&t);
            let want = cut(&t, &h, NodeId::ROOT, min_of(t.total[0]));
            assert!(want.tree.len() < t.len(), "the random tree is cut");
            let got = cut_stacks_above(&p, &w, order, 10).expect("cut");
            assert_eq!(got.tree.frame, want.tree.frame);
            assert_eq!(got.tree.origin, want.tree.origin);
            assert_eq!(got.tree.parent, want.tree.parent);
            assert_eq!(got.tree.depth, want.tree.depth);
            assert_eq!(got.tree.self_w, want.tree.self_w);
            assert_eq!(got.tree.total, want.tree.total);
            assert_eq!(got.tree.child_start, want.tree.child_start);
            assert_eq!(got.tree.child_list, want.tree.child_list);
            assert_eq!(got.heights, want.heights);
            assert_eq!(got.full, want.full);
            // Not cut: a tree of at most `above` nodes, and one whose total is under 65,536.
            assert!(cut_stacks_above(&p, &w, order, t.len()).is_none());
            let light: Vec<u64> = w.iter().map(|&x| x.min(1)).collect();
            assert!(cut_stacks_above(&p, &light, order, 10).is_none());
        }
    }
}
