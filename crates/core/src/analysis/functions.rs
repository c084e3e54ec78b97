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

use super::stats::{counts_view, wilson, CountSource, Interval};
use crate::model::{FrameId, Profile, StackId, EMPTY_STACK, NO_PARENT};
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
    // Each stack adds its weight to a function's total once: at the function's outermost frame on its path.
    // So a function's total is the sum, over its outermost rows, of the weight of the row's subtree. One walk
    // from the roots finds those rows (a count per function of its frames on the current path), in time and
    // memory linear in the stack table; walking every weighted stack up to the root would cost Σ depth.
    let n = p.stacks.len().min(per_stack.len());
    let mut sub: Vec<W> = per_stack.iter().take(n).copied().collect();
    // Whether the subtree holds a stack with a non-zero weight (signed weights can sum to zero).
    let mut weighed: Vec<bool> = sub.iter().map(|w| *w != W::default()).collect();
    for i in (0..n).rev() {
        let par = p.stacks.parent.get(i).copied().unwrap_or(NO_PARENT) as usize;
        if par < n {
            let (w, h) = (
                sub.get(i).copied().unwrap_or_default(),
                weighed.get(i).copied().unwrap_or(false),
            );
            if let Some(x) = sub.get_mut(par) {
                x.add(w);
            }
            if let Some(x) = weighed.get_mut(par) {
                *x |= h;
            }
        }
    }
    let function_at = |s: StackId| {
        p.stacks
            .frame
            .get(s.idx())
            .and_then(|f| function_of.get(f.idx()))
            .copied()
    };
    let mut seen = vec![false; sums.len()];
    for (s, &w) in per_stack.iter().enumerate().take(n) {
        if w == W::default() {
            continue;
        }
        if let Some(row) = function_at(StackId(s as u32)).and_then(|k| sums.get_mut(k)) {
            row.self_w.add(w);
        }
    }
    let children = p.stacks.children();
    // Frames of each function on the current path.
    let mut on_path = vec![0u32; sums.len()];
    // (row, entering): a row is entered, its children walked, then it is left.
    let weighs = |s: &StackId| s.idx() < n && weighed.get(s.idx()).copied().unwrap_or(false);
    let mut todo: Vec<(StackId, bool)> = children
        .roots()
        .iter()
        .filter(|s| weighs(s))
        .map(|&s| (s, true))
        .collect();
    while let Some((s, entering)) = todo.pop() {
        let Some(k) = function_at(s) else { continue };
        let (Some(count), Some(row), Some(hit)) = (on_path.get_mut(k), sums.get_mut(k), seen.get_mut(k))
        else {
            continue;
        };
        if !entering {
            *count -= 1;
            continue;
        }
        if *count == 0 {
            row.total_w.add(sub.get(s.idx()).copied().unwrap_or_default());
            *hit = true;
        }
        *count += 1;
        todo.push((s, false));
        todo.extend(children.of(s).iter().filter(|c| weighs(c)).map(|&c| (c, true)));
    }
    sums.into_iter()
        .zip(seen)
        .filter_map(|(row, hit)| hit.then_some(row))
        .collect()
}

/// One function of the function table.
/// (Serde: the page's import worker builds the table of a large profile and sends it over.)
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FunctionRow {
    pub name: String,
    /// Weight of the samples whose leaf frame is this function.
    pub self_w: u64,
    /// Weight of the samples whose stack contains it (once per sample, however often it recurs).
    pub total_w: u64,
    pub self_samples: u64,
    pub total_samples: u64,
    /// 95 % intervals of the self and total shares, from the sample counts behind them
    /// ([`super::stats`]; `None` when the profile has no sample counts).
    pub self_interval: Option<Interval>,
    pub total_interval: Option<Interval>,
}

/// Every function of a view (see the module doc for what a function is; process roots are not on stacks, so
/// they are left out), heaviest self first, and the view's total weight and sample count.
pub fn functions(p: &Profile, v: &ViewOptions) -> (Vec<FunctionRow>, u64, u64) {
    // Weight, record count and sample count (behind the intervals) per stack.
    let (mut total_w, mut total_n) = (0u64, 0u64);
    let counts = counts_view(p, v).map(|(cv, _)| cv);
    let mut n = 0u64;
    let per_stack = per_stack(p, |i| {
        let x = v.weigh(p, i);
        let c = counts.as_ref().and_then(|cv| cv.weigh(p, i));
        if x.is_none() && c.is_none() {
            return None;
        }
        if let Some(x) = x {
            total_w = total_w.saturating_add(x);
            total_n += 1;
        }
        n = n.saturating_add(c.unwrap_or(0));
        Some((x.unwrap_or(0), (u64::from(x.is_some()), c.unwrap_or(0))))
    });
    let interval = |k: u64| if counts.is_some() { wilson(k, n) } else { None };
    let mut rows: Vec<FunctionRow> = by_function(p, &per_stack)
        .into_iter()
        .map(|f| FunctionRow {
            name: f.name.to_string(),
            self_w: f.self_w.0,
            total_w: f.total_w.0,
            self_samples: f.self_w.1 .0,
            total_samples: f.total_w.1 .0,
            self_interval: interval(f.self_w.1 .1),
            total_interval: interval(f.total_w.1 .1),
        })
        .filter(|r| r.total_samples > 0)
        .collect();
    // The app's function table shows its default order (self, heaviest first) as the rows come, without sorting
    // them again (`components/function_table.rs`): keep the two the same.
    rows.sort_by(|a, b| {
        b.self_w
            .cmp(&a.self_w)
            .then(b.total_w.cmp(&a.total_w))
            .then(a.name.cmp(&b.name))
    });
    (rows, total_w, total_n)
}

/// The sample counts behind one function's shares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionCounts {
    pub name: String,
    /// Samples whose leaf is the function.
    pub self_n: u64,
    /// Samples whose stack contains it (once each).
    pub total_n: u64,
}

/// Sample counts per function (the one aggregation, [`by_function`]) and the view's sample count `n`;
/// `None` when the profile has no sample counts.
pub fn function_counts(p: &Profile, v: &ViewOptions) -> Option<(Vec<FunctionCounts>, u64, CountSource)> {
    let (cv, source) = counts_view(p, v)?;
    let mut n = 0u64;
    let per_stack = per_stack(p, |i| {
        let c = cv.weigh(p, i)?;
        n = n.saturating_add(c);
        Some(c)
    });
    let rows = by_function(p, &per_stack)
        .into_iter()
        .map(|f| FunctionCounts {
            name: f.name.to_string(),
            self_n: f.self_w,
            total_n: f.total_w,
        })
        .collect();
    Some((rows, n, source))
}

/// Per stack, the sum of `pick(i)` over the samples `i` on it (a sample `pick` skips adds nothing).
fn per_stack<W: Tally>(p: &Profile, mut pick: impl FnMut(usize) -> Option<W>) -> Vec<W> {
    let mut per_stack = vec![W::default(); p.stacks.len()];
    for i in 0..p.samples.len() {
        let Some(w) = pick(i) else { continue };
        let s = p.samples.stack.get(i).copied().unwrap_or(EMPTY_STACK);
        if let Some(slot) = per_stack.get_mut(s.idx()) {
            slot.add(w);
        }
    }
    per_stack
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::folded::parse;

    /// The definition, walked per stack: self at the leaf, total once per stack that contains the function.
    fn by_walking_up(p: &Profile, per_stack: &[i128]) -> Vec<(String, i128, i128)> {
        let mut out: Vec<(String, i128, i128)> = Vec::new();
        for (s, &w) in per_stack.iter().enumerate() {
            if w == 0 {
                continue;
            }
            let names: Vec<&str> = p
                .stack_frames(StackId(s as u32))
                .iter()
                .map(|&f| p.frame_name(f))
                .collect();
            let mut once: Vec<&str> = names.clone();
            once.sort_unstable();
            once.dedup();
            for name in once {
                let at = match out.iter().position(|r| r.0 == name) {
                    Some(i) => i,
                    None => {
                        out.push((name.to_string(), 0, 0));
                        out.len() - 1
                    }
                };
                out[at].2 += w;
                if names.last() == Some(&name) {
                    out[at].1 += w;
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn one_walk_agrees_with_the_definition() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for _ in 0..200 {
            let mut text = String::new();
            for _ in 0..(1 + next(12)) {
                let depth = 1 + next(7);
                let frames: Vec<String> = (0..depth)
                    .map(|_| ["a", "b", "c", "a_[i]"][next(4) as usize].to_string())
                    .collect();
                text.push_str(&format!("{} {}\n", frames.join(";"), next(5)));
            }
            let p = parse(text.as_bytes()).unwrap();
            // Signed weights, some cancelling out along a path.
            let per_stack: Vec<i128> = (0..p.stacks.len()).map(|_| next(7) as i128 - 3).collect();
            let mut got: Vec<(String, i128, i128)> = by_function(&p, &per_stack)
                .into_iter()
                .map(|f| (f.name.to_string(), f.self_w, f.total_w))
                .collect();
            got.sort();
            assert_eq!(got, by_walking_up(&p, &per_stack), "{text}");
        }
    }
}
