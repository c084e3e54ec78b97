//! Differential profiles: a base (before) and a target (after), matched by the sequence of frame names from the
//! root (and kinds, with [`MatchBy::NameKind`]). See docs/SEMANTICS.md of the team and this repo's docs/DIFF.md.
//!
//! Invariants (tested): the diff of a profile with itself has every delta zero; shares of each side sum to
//! 100 %; swapping base and target negates every delta.

use super::functions::by_function;
use crate::model::{Format, FrameKind, Profile, ProfileBuilder, StackId, Unit, EMPTY_STACK, NO_PARENT};
use crate::view::calltree::{CallTree, NodeId, Order};
use crate::view::ViewOptions;
use rustc_hash::FxHashMap;

/// Which side gives the widths in the flame graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Widths {
    /// What the program does now (default).
    #[default]
    Target,
    Base,
}

/// How the frames of the two sides are matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatchBy {
    /// By name (default): the kind is an attribute, so a function that became inlined (`f` → `f_[i]`) is one
    /// frame whose kind changed, not one frame gone and one new. Process root frames stay apart from functions.
    #[default]
    Name,
    /// By name and kind, as the folded text reads (inferno-diff-folded's matching): merged frames are named as
    /// folded text writes them (`f_[i]`), so the movers list `f` and inlined `f` apart.
    NameKind,
}

/// Several profiles' call trees (each through its view) merged into one stack table: stack `s` of `profile` is a
/// call path present in at least one run.
pub struct Merged {
    pub profile: Profile,
    /// Per run, the self weight of each merged stack (every vector as long as the stack table).
    pub selfs: Vec<Vec<u64>>,
    /// Per run, the kinds the run's frame had on each merged stack, as bits `1 << kind` (0 where absent).
    pub kinds: Vec<Vec<u8>>,
}

impl Merged {
    /// Merges `runs`. Matching by name, a merged frame takes its kind from the first of `kind_from`'s runs
    /// that has the name, else from the first run that has it.
    pub fn new(runs: &[Side<'_>], by: MatchBy, kind_from: usize) -> Merged {
        let trees: Vec<CallTree> = runs
            .iter()
            .map(|r| CallTree::build(r.profile, &r.view, Order::Alphabetical))
            .collect();
        // The kind each name's merged frame shows (matching by name).
        let mut kind_of: FxHashMap<&str, FrameKind> = FxHashMap::default();
        if by == MatchBy::Name {
            let order = runs.iter().zip(&trees).enumerate();
            let (first, rest): (Vec<_>, Vec<_>) = order.partition(|(k, _)| *k >= kind_from);
            for (_, (r, t)) in first.into_iter().chain(rest) {
                for &f in t.frame.iter().skip(1) {
                    let kind = r.profile.frame_kind(f);
                    if kind != FrameKind::Process {
                        kind_of.entry(r.profile.frame_name(f)).or_insert(kind);
                    }
                }
            }
        }
        let mut b = ProfileBuilder::new(Format::Folded);
        let mut selfs: Vec<Vec<u64>> = Vec::with_capacity(runs.len());
        let mut kinds: Vec<Vec<u8>> = Vec::with_capacity(runs.len());
        for (r, t) in runs.iter().zip(&trees) {
            let p = r.profile;
            let mut merged_of = vec![None::<StackId>; t.len()];
            let mut own_self: Vec<u64> = Vec::new();
            let mut own_kinds: Vec<u8> = Vec::new();
            for (n, ((&f, &par), &own)) in t.frame.iter().zip(&t.parent).zip(&t.self_w).enumerate().skip(1) {
                let (name, kind) = (p.frame_name(f), p.frame_kind(f));
                let shown = match by {
                    MatchBy::Name if kind != FrameKind::Process => kind_of.get(name).copied().unwrap_or(kind),
                    _ => kind,
                };
                let frame = match (by, kind) {
                    // By name and kind, a kind is part of the name, as folded text writes it: the movers then
                    // list `f` and `f_[i]` apart.
                    (MatchBy::NameKind, FrameKind::Kernel | FrameKind::Jit | FrameKind::Inline) => {
                        let suffix = match kind {
                            FrameKind::Kernel => "k",
                            FrameKind::Jit => "j",
                            _ => "i",
                        };
                        b.frame(&format!("{name}_[{suffix}]"), shown)
                    }
                    _ => b.frame(name, shown),
                };
                let parent = merged_of.get(par as usize).copied().flatten();
                let s = b.stack(parent, frame);
                if let Some(m) = merged_of.get_mut(n) {
                    *m = Some(s);
                }
                if own_self.len() <= s.idx() {
                    own_self.resize(s.idx() + 1, 0);
                    own_kinds.resize(s.idx() + 1, 0);
                }
                if let Some(x) = own_self.get_mut(s.idx()) {
                    *x = x.saturating_add(own);
                }
                if let Some(x) = own_kinds.get_mut(s.idx()) {
                    *x |= 1 << (kind as u8);
                }
            }
            selfs.push(own_self);
            kinds.push(own_kinds);
        }
        let profile = b.build(Unit::Samples, 0, 0, Default::default());
        let n = profile.stacks.len();
        for v in &mut selfs {
            v.resize(n, 0);
        }
        for v in &mut kinds {
            v.resize(n, 0);
        }
        Merged {
            profile,
            selfs,
            kinds,
        }
    }

    /// Totals per stack (`total = self + Σ children`) from per-stack self weights.
    pub fn subtotals(&self, selfw: &[u64]) -> Vec<u64> {
        let n = self.profile.stacks.len();
        let mut tot = selfw.to_vec();
        tot.resize(n, 0);
        for i in (0..n).rev() {
            let par = self.profile.stacks.parent.get(i).copied().unwrap_or(NO_PARENT);
            if par != NO_PARENT {
                let v = tot.get(i).copied().unwrap_or(0);
                if let Some(x) = tot.get_mut(par as usize) {
                    *x = x.saturating_add(v);
                }
            }
        }
        tot
    }
}

/// A merged tree of two profiles. Stack `s` of `merged` is a call path present in either side.
pub struct Diff {
    pub merged: Profile,
    pub base_self: Vec<u64>,
    pub target_self: Vec<u64>,
    pub base_total: Vec<u64>,
    pub target_total: Vec<u64>,
    /// The kinds each side's frame had on each merged stack (bits `1 << kind`; 0 where the side lacks it).
    pub base_kinds: Vec<u8>,
    pub target_kinds: Vec<u8>,
    /// Root totals of each side (what shares divide by).
    pub base_sum: u64,
    pub target_sum: u64,
    pub base_unit: Unit,
    pub target_unit: Unit,
}

/// One side of a diff: a profile and the view that selects its samples.
#[derive(Clone)]
pub struct Side<'a> {
    pub profile: &'a Profile,
    pub view: ViewOptions,
}

impl Diff {
    /// The diff with frames matched by name ([`MatchBy::Name`]).
    pub fn new(base: Side<'_>, target: Side<'_>) -> Diff {
        Diff::matching(base, target, MatchBy::Name)
    }

    /// The diff with frames matched as `by` says; merged frames show the target's kind.
    pub fn matching(base: Side<'_>, target: Side<'_>, by: MatchBy) -> Diff {
        Diff::pooled(&[base], &[target], by)
    }

    /// Several runs per side, pooled: each side's weights are the sums over its runs (so its shares are shares
    /// of the runs together).
    pub fn pooled(base: &[Side<'_>], target: &[Side<'_>], by: MatchBy) -> Diff {
        let runs: Vec<Side<'_>> = base.iter().chain(target).cloned().collect();
        let m = Merged::new(&runs, by, base.len());
        let n = m.profile.stacks.len();
        let (mut base_self, mut target_self) = (vec![0u64; n], vec![0u64; n]);
        let (mut base_kinds, mut target_kinds) = (vec![0u8; n], vec![0u8; n]);
        for (k, (selfw, kinds)) in m.selfs.iter().zip(&m.kinds).enumerate() {
            let (sw, kw) = if k < base.len() {
                (&mut base_self, &mut base_kinds)
            } else {
                (&mut target_self, &mut target_kinds)
            };
            for (x, &w) in sw.iter_mut().zip(selfw) {
                *x = x.saturating_add(w);
            }
            for (x, &w) in kw.iter_mut().zip(kinds) {
                *x |= w;
            }
        }
        let base_total = m.subtotals(&base_self);
        let target_total = m.subtotals(&target_self);
        let sum = |v: &[u64]| v.iter().fold(0u64, |a, &x| a.saturating_add(x));
        let unit = |s: &[Side<'_>]| s.first().map_or(Unit::Samples, |s| s.view.unit(s.profile));
        Diff {
            base_sum: sum(&base_self),
            target_sum: sum(&target_self),
            base_unit: unit(base),
            target_unit: unit(target),
            merged: m.profile,
            base_self,
            target_self,
            base_total,
            target_total,
            base_kinds,
            target_kinds,
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
        // The kinds each function's frames had on each side.
        let mut kinds: FxHashMap<&str, (u8, u8)> = FxHashMap::default();
        for (s, &f) in self.merged.stacks.frame.iter().enumerate() {
            let k = kinds.entry(self.merged.frame_name(f)).or_default();
            k.0 |= self.base_kinds.get(s).copied().unwrap_or(0);
            k.1 |= self.target_kinds.get(s).copied().unwrap_or(0);
        }
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
                kinds: kinds.get(f.name).copied().unwrap_or_default(),
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
    /// The kinds of its frames in the base and in the target (bits `1 << kind`).
    pub kinds: (u8, u8),
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

    /// `Some("user → inline")` when the function is on both sides and its frames' kinds differ (an inlining
    /// flip): one function whose kind changed, not one gone and one new.
    pub fn kind_change(&self) -> Option<String> {
        let (b, t) = self.kinds;
        (b != 0 && t != 0 && b != t).then(|| format!("{} → {}", kind_names(b), kind_names(t)))
    }
}

/// Does this profile hold both sides of a diff by itself: a two-count folded file (`stack BASE TARGET`, from
/// difffolded.pl), whose events are `base` (event 0) and `target` (event 1)?
pub fn two_counts(p: &Profile) -> bool {
    p.meta.format == Format::Folded && p.events.iter().map(|e| e.name.as_str()).eq(["base", "target"])
}

/// `user+inline` for a set of kind bits.
pub fn kind_names(bits: u8) -> String {
    const ALL: [FrameKind; 5] = [
        FrameKind::User,
        FrameKind::Kernel,
        FrameKind::Jit,
        FrameKind::Inline,
        FrameKind::Process,
    ];
    let names: Vec<&str> = ALL
        .iter()
        .filter(|&&k| bits & (1 << (k as u8)) != 0)
        .map(|k| k.name())
        .collect();
    names.join("+")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{import_bytes, ImportOptions};

    fn side(p: &Profile) -> Side<'_> {
        Side {
            profile: p,
            view: ViewOptions::default_for(p),
        }
    }

    #[test]
    fn an_inlining_flip_is_a_changed_kind_not_gone_and_new() {
        let base = import_bytes(b"main;f;g 5\nmain;h 5\n", ImportOptions::default())
            .unwrap()
            .profile;
        let target = import_bytes(b"main;f_[i];g 5\nmain;h 5\n", ImportOptions::default())
            .unwrap()
            .profile;
        // By name: one path main;f;g, shown with the target's kind, unchanged on both sides.
        let d = Diff::new(side(&base), side(&target));
        assert_eq!(d.merged.stacks.len(), 4);
        assert_eq!(d.base_self, d.target_self);
        let f = d
            .merged
            .frames
            .name
            .iter()
            .position(|&s| d.merged.strings.get(s) == "f");
        assert_eq!(
            d.merged.frame_kind(crate::model::FrameId(f.unwrap() as u32)),
            FrameKind::Inline
        );
        let movers = d.movers();
        let fm = movers.iter().find(|m| m.name == "f").unwrap();
        assert_eq!(fm.kind_change().as_deref(), Some("user → inline"));
        assert!(movers
            .iter()
            .all(|m| m.self_delta() == 0.0 && m.total_delta() == 0.0));
        assert!(movers
            .iter()
            .filter(|m| m.name != "f")
            .all(|m| m.kind_change().is_none()));
        // By name and kind: f and inlined f are two frames, so main;f;g is gone and main;f_[i];g new.
        let d = Diff::matching(side(&base), side(&target), MatchBy::NameKind);
        assert_eq!(d.merged.stacks.len(), 6);
        assert_ne!(d.base_self, d.target_self);
        let movers = d.movers();
        let delta = |n: &str| movers.iter().find(|m| m.name == n).unwrap().total_delta();
        assert_eq!((delta("f"), delta("f_[i]"), delta("g")), (-50.0, 50.0, 0.0));
    }

    #[test]
    fn pooled_runs_sum_each_side() {
        let p = |t: &[u8]| import_bytes(t, ImportOptions::default()).unwrap().profile;
        let (b1, b2, t1) = (p(b"a 1\nb 3\n"), p(b"a 3\nb 1\n"), p(b"a 2\nb 2\n"));
        let d = Diff::pooled(&[side(&b1), side(&b2)], &[side(&t1)], MatchBy::Name);
        assert_eq!((d.base_sum, d.target_sum), (8, 4));
        assert!(d.movers().iter().all(|m| m.self_delta() == 0.0));
    }
}
