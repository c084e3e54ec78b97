//! Per-function numbers: the one aggregation ([`by_function`]) behind `scorch top` ([`super::top`]), the
//! function table ([`functions`]) and the diff's movers ([`super::diff::Diff::movers`]).
//!
//! **A function is its name.** The frame kind is an attribute: an inlined copy `f_[i]`, a kernel `f_[k]` and a
//! plain `f` are all the function `f`, as users expect when they ask how much time is spent under `f`.
//!
//! - *self*: the weight of the stacks whose leaf frame is the function;
//! - *total*: the weight of the stacks that contain the function, each stack counted **once** however often
//!   the function appears in it (recursion, or recursion through an inlined copy: `main;f;f_[i]` adds its
//!   weight to `f`'s total once). So no total exceeds the sum of all weights, and no share exceeds 100 %.
//!
//! The aggregation runs over per-stack weights of any [`Tally`]: signed weights (top nets a delta profile's
//! negative twin), weight and sample count together (the function table), or base and target together (the
//! diff), so the three cannot disagree on what a function is or how often a stack counts.

use crate::model::{FrameId, Profile, StackId, EMPTY_STACK};
use crate::view::ViewOptions;
use rustc_hash::FxHashMap;

/// A weight that per-function sums add up.
pub trait Tally: Copy + Default + PartialEq {
    /// Adds `other` (saturating where the type can overflow).
    fn add(&mut self, other: Self);
}

impl Tally for u64 {
    fn add(&mut self, other: Self) {
        *self = self.saturating_add(other);
    }
}

impl Tally for i128 {
    fn add(&mut self, other: Self) {
        *self = self.saturating_add(other);
    }
}

/// Two tallies at once (weight and sample count; base and target).
impl<A: Tally, B: Tally> Tally for (A, B) {
    fn add(&mut self, other: Self) {
        self.0.add(other.0);
        self.1.add(other.1);
    }
}

/// One function's sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FunctionSums<'p, W> {
    pub name: &'p str,
    /// The weight of the stacks whose leaf is this function.
    pub self_w: W,
    /// The weight of the stacks that contain it, each once.
    pub total_w: W,
}

/// Per-function self and total of `p`'s stacks, where `per_stack[s]` is the self weight of stack `s` (stacks
/// past the slice weigh nothing). Only functions on some stack with a non-zero weight are returned, in the order
/// of their first frame id.
pub fn by_function<'p, W: Tally>(p: &'p Profile, per_stack: &[W]) -> Vec<FunctionSums<'p, W>> {
    // The function of each frame: frames with the same name are one function.
    let mut index: FxHashMap<&str, usize> = FxHashMap::default();
    let mut sums: Vec<FunctionSums<'p, W>> = Vec::new();
    let function_of: Vec<usize> = (0..p.frames.len())
        .map(|i| {
            let name = p.frame_name(FrameId(i as u32));
            *index.entry(name).or_insert_with(|| {
                sums.push(FunctionSums {
                    name,
                    self_w: W::default(),
                    total_w: W::default(),
                });
                sums.len() - 1
            })
        })
        .collect();
    // `stamp[k]` is the last stack that added to function k's total: a stack adds to each function once.
    let mut stamp = vec![u32::MAX; sums.len()];
    let mut seen = vec![false; sums.len()];
    for (s, &w) in per_stack.iter().enumerate().take(p.stacks.len()) {
        if w == W::default() {
            continue;
        }
        let mut cur = Some(StackId(s as u32));
        let mut leaf = true;
        while let Some(st) = cur {
            let Some(k) = p
                .stacks
                .frame
                .get(st.idx())
                .and_then(|f| function_of.get(f.idx()))
            else {
                break;
            };
            if let (Some(row), Some(mark), Some(hit)) =
                (sums.get_mut(*k), stamp.get_mut(*k), seen.get_mut(*k))
            {
                if leaf {
                    row.self_w.add(w);
                }
                if *mark != s as u32 {
                    *mark = s as u32;
                    row.total_w.add(w);
                    *hit = true;
                }
            }
            leaf = false;
            cur = p.stacks.parent(st);
        }
    }
    sums.into_iter()
        .zip(seen)
        .filter_map(|(row, hit)| hit.then_some(row))
        .collect()
}

/// One function of the function table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionRow {
    pub name: String,
    /// Weight of the samples whose leaf frame is this function.
    pub self_w: u64,
    /// Weight of the samples whose stack contains it (once per sample, however often it recurs).
    pub total_w: u64,
    pub self_samples: u64,
    pub total_samples: u64,
}

/// Every function of a view (see the module doc for what a function is; process roots are not on stacks, so
/// they are left out), heaviest self first, and the view's total weight and sample count.
pub fn functions(p: &Profile, v: &ViewOptions) -> (Vec<FunctionRow>, u64, u64) {
    // Weight and sample count per stack.
    let mut per_stack = vec![(0u64, 0u64); p.stacks.len()];
    let (mut total_w, mut total_n) = (0u64, 0u64);
    for i in 0..p.samples.len() {
        let Some(x) = v.weigh(p, i) else { continue };
        total_w = total_w.saturating_add(x);
        total_n += 1;
        let s = p.samples.stack.get(i).copied().unwrap_or(EMPTY_STACK);
        if let Some(slot) = per_stack.get_mut(s.idx()) {
            slot.add((x, 1));
        }
    }
    let mut rows: Vec<FunctionRow> = by_function(p, &per_stack)
        .into_iter()
        .map(|f| FunctionRow {
            name: f.name.to_string(),
            self_w: f.self_w.0,
            total_w: f.total_w.0,
            self_samples: f.self_w.1,
            total_samples: f.total_w.1,
        })
        .filter(|r| r.total_samples > 0)
        .collect();
    rows.sort_by(|a, b| {
        b.self_w
            .cmp(&a.self_w)
            .then(b.total_w.cmp(&a.total_w))
            .then(a.name.cmp(&b.name))
    });
    (rows, total_w, total_n)
}
