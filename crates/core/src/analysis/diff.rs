//! Differential profiles: a base (before) and a target (after), matched by the sequence of frame names (and
//! kinds) from the root. See docs/SEMANTICS.md of the team and this repo's docs/DIFF.md.
//!
//! Invariants (tested): the diff of a profile with itself has every delta zero; shares of each side sum to
//! 100 %; swapping base and target negates every delta.

use super::functions::by_function;
use crate::model::{Format, Profile, ProfileBuilder, StackId, Unit, EMPTY_STACK, NO_PARENT};
use crate::view::calltree::{CallTree, NodeId, Order};
use crate::view::ViewOptions;

/// Which side gives the widths in the flame graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Widths {
    /// What the program does now (default).
    #[default]
    Target,
    Base,
}

/// A merged tree of two profiles. Stack `s` of `merged` is a call path present in either side.
pub struct Diff {
    pub merged: Profile,
    pub base_self: Vec<u64>,
    pub target_self: Vec<u64>,
    pub base_total: Vec<u64>,
    pub target_total: Vec<u64>,
    /// Root totals of each side (what shares divide by).
    pub base_sum: u64,
    pub target_sum: u64,
    pub base_unit: Unit,
    pub target_unit: Unit,
}

/// One side of a diff: a profile and the view that selects its samples.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub profile: &'a Profile,
    pub view: ViewOptions,
}

impl Diff {
    pub fn new(base: Side<'_>, target: Side<'_>) -> Diff {
        let mut b = ProfileBuilder::new(Format::Folded);
        let mut selfs: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
        for (k, side) in [base, target].into_iter().enumerate() {
            let p = side.profile;
            let t = CallTree::build(p, &side.view, Order::Alphabetical);
            let mut merged_of = vec![None::<StackId>; t.len()];
            let slot = if k == 0 { &mut selfs[0] } else { &mut selfs[1] };
            for (n, ((&f, &par), &own)) in t.frame.iter().zip(&t.parent).zip(&t.self_w).enumerate().skip(1) {
                let frame = b.frame(p.frame_name(f), p.frame_kind(f));
                let parent = merged_of.get(par as usize).copied().flatten();
                let s = b.stack(parent, frame);
                if let Some(m) = merged_of.get_mut(n) {
                    *m = Some(s);
                }
                if slot.len() <= s.idx() {
                    slot.resize(s.idx() + 1, 0);
                }
                if let Some(x) = slot.get_mut(s.idx()) {
                    *x = x.saturating_add(own);
                }
            }
        }
        let merged = b.build(Unit::Samples, 0, 0, Default::default());
        let n = merged.stacks.len();
        let [mut base_self, mut target_self] = selfs;
        base_self.resize(n, 0);
        target_self.resize(n, 0);
        let subtotal = |selfw: &[u64]| {
            let mut tot = selfw.to_vec();
            for i in (0..n).rev() {
                let par = merged.stacks.parent.get(i).copied().unwrap_or(NO_PARENT);
                if par != NO_PARENT {
                    let v = tot.get(i).copied().unwrap_or(0);
                    if let Some(x) = tot.get_mut(par as usize) {
                        *x = x.saturating_add(v);
                    }
                }
            }
            tot
        };
        let base_total = subtotal(&base_self);
        let target_total = subtotal(&target_self);
        let sum = |v: &[u64]| v.iter().fold(0u64, |a, &x| a.saturating_add(x));
        Diff {
            base_sum: sum(&base_self),
            target_sum: sum(&target_self),
            base_unit: base.view.unit(base.profile),
            target_unit: target.view.unit(target.profile),
            merged,
            base_self,
            target_self,
            base_total,
            target_total,
        }
    }

    /// The flame graph tree with widths from one side; `origin` maps its nodes to merged stacks.
    pub fn tree(&self, widths: Widths, order: Order) -> CallTree {
        let w = match widths {
            Widths::Target => &self.target_self,
            Widths::Base => &self.base_self,
        };
        CallTree::from_stack_weights(&self.merged, w, order)
    }

    /// Per-node numbers of a tree from [`Diff::tree`].
    pub fn node(&self, t: &CallTree, n: NodeId) -> NodeDiff {
        let s = t.origin.get(n.idx()).copied().unwrap_or(EMPTY_STACK.0);
        if s == EMPTY_STACK.0 {
            return NodeDiff {
                base_self: 0,
                base_total: self.base_sum,
                target_self: 0,
                target_total: self.target_sum,
            };
        }
        let i = s as usize;
        NodeDiff {
            base_self: self.base_self.get(i).copied().unwrap_or(0),
            base_total: self.base_total.get(i).copied().unwrap_or(0),
            target_self: self.target_self.get(i).copied().unwrap_or(0),
            target_total: self.target_total.get(i).copied().unwrap_or(0),
        }
    }

    /// Share of `x` in a side's total, as a fraction.
    pub fn share(x: u64, sum: u64) -> f64 {
        if sum == 0 {
            0.0
        } else {
            x as f64 / sum as f64
        }
    }

    /// Functions by change, with base and target self and total shares: [`by_function`] over both sides at
    /// once (a function is its name; a stack adds to a function's total once).
    pub fn movers(&self) -> Vec<Mover> {
        let per_stack: Vec<(u64, u64)> = self
            .base_self
            .iter()
            .zip(&self.target_self)
            .map(|(&b, &t)| (b, t))
            .collect();
        let (bt, tt) = (self.base_sum, self.target_sum);
        let mut out: Vec<Mover> = by_function(&self.merged, &per_stack)
            .into_iter()
            .map(|f| Mover {
                name: f.name.to_string(),
                base_self: Self::share(f.self_w.0, bt),
                target_self: Self::share(f.self_w.1, tt),
                base_total: Self::share(f.total_w.0, bt),
                target_total: Self::share(f.total_w.1, tt),
                base_self_raw: f.self_w.0,
                target_self_raw: f.self_w.1,
            })
            .collect();
        out.sort_by(|a, b| {
            b.self_delta()
                .abs()
                .total_cmp(&a.self_delta().abs())
                .then_with(|| a.name.cmp(&b.name))
        });
        out
    }
}

/// The numbers of one diff node (raw, in each side's unit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeDiff {
    pub base_self: u64,
    pub base_total: u64,
    pub target_self: u64,
    pub target_total: u64,
}

/// One function's change. Shares are fractions of each side's total.
#[derive(Debug, Clone, PartialEq)]
pub struct Mover {
    pub name: String,
    pub base_self: f64,
    pub target_self: f64,
    pub base_total: f64,
    pub target_total: f64,
    pub base_self_raw: u64,
    pub target_self_raw: u64,
}

impl Mover {
    /// Change in self share, in percentage points.
    pub fn self_delta(&self) -> f64 {
        (self.target_self - self.base_self) * 100.0
    }
    /// Change in total share, in percentage points.
    pub fn total_delta(&self) -> f64 {
        (self.target_total - self.base_total) * 100.0
    }
}
