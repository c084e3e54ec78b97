//! Folded export: scorch's canonical folded form, and inferno-diff-folded's two-count form of a diff.
//!
//! One line per distinct stack that has samples, frames root first joined by `;`, the summed weight after a
//! space, lines sorted bytewise. Kernel, JIT and inline frames carry inferno's `_[k]`, `_[j]`, `_[i]` so that
//! the export re-imports to the same profile. Samples with no frames at all are the line ` WEIGHT` (an empty
//! stack, as py-spy writes them), which flamegraph.pl, inferno and scorch read as weight on the root.

use crate::analysis::diff::Side;
use crate::model::{FrameId, FrameKind, Profile, StackId, Weight, EMPTY_STACK};
use crate::view::calltree::stack_weights;
use crate::view::{keyed_weights, ViewOptions, NO_ROOT};
use std::fmt::Write as _;

pub fn folded_name(out: &mut String, name: &str, kind: FrameKind) {
    out.push_str(name);
    match kind {
        FrameKind::Kernel => out.push_str("_[k]"),
        FrameKind::Jit => out.push_str("_[j]"),
        FrameKind::Inline => out.push_str("_[i]"),
        FrameKind::User | FrameKind::Process => {}
    }
}

/// The canonical folded lines of a profile, sorted, each ending in `\n`.
///
/// Time and memory are linear in the output: the stack table is walked once from its roots with one shared
/// buffer holding the current path (truncated to the parent's length before each frame is appended), and only
/// the rows that have samples become lines. Building every row's own text would cost Σ depth over all rows,
/// quadratic in the depth of a single deep stack.
pub fn to_folded(p: &Profile) -> String {
    join_lines(to_folded_lines(p))
}

/// The lines of [`to_folded`], sorted, without their `\n`: for a caller that writes them out one by one (the
/// text exists once, not also joined).
pub fn to_folded_lines(p: &Profile) -> Vec<String> {
    let w = stack_weights(p);
    let mut has = vec![false; p.stacks.len()];
    for s in &p.samples.stack {
        if let Some(h) = has.get_mut(s.idx()) {
            *h = true;
        }
    }
    let children = p.stacks.children();
    // Each text once (two rows can read the same as text), its weights summed; the order does not matter, the
    // lines are sorted at the end.
    let mut entries = rustc_hash::FxHashMap::<String, u64>::default();
    let mut path = String::new();
    // Rows still to visit, with the length of their parent's path in `path`.
    let mut todo: Vec<(StackId, usize)> = children.roots().iter().rev().map(|&s| (s, 0)).collect();
    while let Some((s, len)) = todo.pop() {
        path.truncate(len);
        if p.stacks.parent(s).is_some() {
            path.push(';');
        }
        let f = p.stacks.frame.get(s.idx()).copied().unwrap_or(FrameId(0));
        folded_name(&mut path, p.frame_name(f), p.frame_kind(f));
        if has.get(s.idx()).copied().unwrap_or(false) {
            add(&mut entries, &path, w.get(s.idx()).copied().unwrap_or(0));
        }
        let here = path.len();
        todo.extend(children.of(s).iter().rev().map(|&c| (c, here)));
    }
    let frameless = p
        .samples
        .stack
        .iter()
        .zip(&p.samples.weight)
        .filter(|(s, _)| **s == EMPTY_STACK)
        .fold(None, |a: Option<u64>, (_, &w)| {
            Some(a.unwrap_or(0).saturating_add(w))
        });
    if let Some(raw) = frameless {
        add(&mut entries, "", raw);
    }
    let lines = entries
        .into_iter()
        .map(|(mut s, raw)| {
            let _ = write!(
                s,
                " {}",
                Weight {
                    raw,
                    decimals: p.meta.decimals
                }
            );
            s
        })
        .collect();
    sorted(lines)
}

/// Adds `w` to `text`'s entry (a new entry copies the text once).
fn add<W: Sum + Default>(entries: &mut rustc_hash::FxHashMap<String, W>, text: &str, w: W) {
    match entries.get_mut(text) {
        Some(e) => *e = e.plus(w),
        None => {
            entries.insert(text.to_owned(), W::default().plus(w));
        }
    }
}

/// Folded texts with their summed weights, each text once (in order of first appearance). Two stacks can read
/// the same as text when their frames differ only in what folded text does not carry (a process root and a
/// frame of the same name, two frames of one name that the input kept apart): they are one line.
#[derive(Default)]
struct Merged<W> {
    seen: rustc_hash::FxHashMap<String, usize>,
    out: Vec<(String, W)>,
}

/// Weights that add without overflow (saturating).
trait Sum: Copy {
    fn plus(self, other: Self) -> Self;
}

impl Sum for u64 {
    fn plus(self, other: Self) -> Self {
        self.saturating_add(other)
    }
}

impl Sum for i128 {
    fn plus(self, other: Self) -> Self {
        self.saturating_add(other)
    }
}

impl<W: Sum> Merged<W> {
    fn add(&mut self, text: &str, w: W) {
        match self.seen.get(text) {
            Some(&i) => {
                if let Some(e) = self.out.get_mut(i) {
                    e.1 = e.1.plus(w);
                }
            }
            None => {
                self.seen.insert(text.to_owned(), self.out.len());
                self.out.push((text.to_owned(), w));
            }
        }
    }
}

/// The folded stacks of what a view selects, unsorted: the process root (if any) then the stack, and the raw
/// summed weight. Samples with neither a root nor frames have the empty stack (written ` WEIGHT`). Two stacks
/// that read the same as text (frames that differ only in what folded text does not carry, such as a process
/// root and a frame of the same name) are one entry, their weights summed: each text appears once.
pub fn folded_entries(p: &Profile, v: &ViewOptions) -> Vec<(String, u64)> {
    let mut entries = Merged::<u64>::default();
    for ((root, stack), w) in keyed_weights(p, v) {
        entries.add(&stack_text(p, root, stack), w);
    }
    entries.out
}

/// The folded lines of what a view selects, sorted, weights summed.
pub fn to_folded_view(p: &Profile, v: &ViewOptions) -> String {
    join_lines(to_folded_view_lines(p, v))
}

/// The lines of [`to_folded_view`], without their `\n`.
pub fn to_folded_view_lines(p: &Profile, v: &ViewOptions) -> Vec<String> {
    let lines: Vec<String> = folded_entries(p, v)
        .into_iter()
        .map(|(mut s, w)| {
            let _ = write!(
                s,
                " {}",
                Weight {
                    raw: w,
                    decimals: p.meta.decimals
                }
            );
            s
        })
        .collect();
    sorted(lines)
}

/// Like [`to_folded_view`], but for an event that has a negative twin (pprof delta profiles): each stack's
/// signed value, the event's weight minus its twin's; stacks that net to zero are left out (as pprof does).
pub fn to_folded_signed(p: &Profile, v: &ViewOptions) -> String {
    join_lines(to_folded_signed_lines(p, v))
}

/// The lines of [`to_folded_signed`], without their `\n`.
pub fn to_folded_signed_lines(p: &Profile, v: &ViewOptions) -> Vec<String> {
    let twin = v
        .event
        .and_then(|e| p.events.iter().position(|x| x.negative_of == Some(e)));
    let Some(twin) = twin else {
        return to_folded_view_lines(p, v);
    };
    let mut net: std::collections::HashMap<(u32, StackId), i128> = std::collections::HashMap::new();
    for ((r, s), w) in keyed_weights(p, v) {
        *net.entry((r, s)).or_default() += i128::from(w);
    }
    let neg = ViewOptions {
        event: Some(twin as u16),
        ..v.clone()
    };
    for ((r, s), w) in keyed_weights(p, &neg) {
        *net.entry((r, s)).or_default() -= i128::from(w);
    }
    let mut entries = rustc_hash::FxHashMap::<String, i128>::default();
    for ((root, stack), w) in net {
        add(&mut entries, &stack_text(p, root, stack), w);
    }
    let lines: Vec<String> = entries
        .into_iter()
        .filter(|&(_, w)| w != 0)
        .map(|(mut s, w)| {
            let _ = write!(s, " {w}");
            s
        })
        .collect();
    sorted(lines)
}

/// What `scorch fold` prints for a view, and the app's folded export: the canonical lines (keeping folded
/// input's zero-count stacks) when the view is the profile as read, else the view's signed stacks. `explored`:
/// transforms, inversion or a sandwich side made `p`.
pub fn fold_view(p: &Profile, v: &ViewOptions, explored: bool) -> String {
    join_lines(fold_view_lines(p, v, explored))
}

/// The lines of [`fold_view`], sorted, without their `\n`: `scorch fold` writes them one by one, so a large
/// output exists once in memory rather than also joined into one string.
pub fn fold_view_lines(p: &Profile, v: &ViewOptions, explored: bool) -> Vec<String> {
    if v.time_range.is_none()
        && v.offsets.is_none()
        && !explored
        && p.events.is_empty()
        && p.samples.thread.is_none()
        && v.weight == crate::view::WeightMode::Weight
    {
        to_folded_lines(p)
    } else {
        to_folded_signed_lines(p, v)
    }
}

/// Lines sorted bytewise.
fn sorted(mut lines: Vec<String>) -> Vec<String> {
    lines.sort_unstable();
    lines
}

/// Lines joined, each ending in `\n`.
fn join_lines(lines: Vec<String>) -> String {
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// The folded text of a root frame (or none) followed by a stack; empty when there is neither.
pub(crate) fn stack_text(p: &Profile, root: u32, stack: StackId) -> String {
    let mut s = String::new();
    // Whether a frame has been written: an empty name is still a frame, and needs its separator.
    let mut first = true;
    if root != NO_ROOT {
        let f = FrameId(root);
        folded_name(&mut s, p.frame_name(f), p.frame_kind(f));
        first = false;
    }
    if stack != EMPTY_STACK {
        for f in p.stack_frames(stack) {
            if !first {
                s.push(';');
            }
            folded_name(&mut s, p.frame_name(f), p.frame_kind(f));
            first = false;
        }
    }
    s
}

/// `inferno-diff-folded` output: `stack BASE TARGET` for every stack in either side, with fractional counts
/// truncated; `normalize` scales base counts to the target's total exactly as inferno does
/// (`base × total_target / total_base` in f64, truncated).
pub fn diff_folded(base: Side<'_>, target: Side<'_>, normalize: bool) -> String {
    let whole = |p: &Profile, raw: u64| {
        let d = 10u64.saturating_pow(p.meta.decimals);
        raw / d.max(1)
    };
    let mut stacks: std::collections::BTreeMap<String, [u64; 2]> = std::collections::BTreeMap::new();
    let mut totals = [0u64; 2];
    for (k, side) in [base, target].into_iter().enumerate() {
        for (text, raw) in folded_entries(side.profile, &side.view) {
            let w = whole(side.profile, raw);
            let entry = stacks.entry(text).or_default();
            if let (Some(x), Some(t)) = (entry.get_mut(k), totals.get_mut(k)) {
                *x += w;
                *t = t.saturating_add(w);
            }
        }
    }
    let mut out = String::new();
    for (stack, [mut b, t]) in stacks {
        if normalize && totals[0] != totals[1] && totals[0] != 0 {
            b = (b as f64 * totals[1] as f64 / totals[0] as f64) as u64;
        }
        out.push_str(&format!("{stack} {b} {t}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::folded::parse;

    #[test]
    fn canonical_lines_from_one_walk() {
        // Prefixes with samples, siblings out of order, an empty frame name at the root and under it, kinds.
        let p = parse(b"main;b 1\nmain 2\n;x 3\nmain;a_[k];c 4\nmain;a_[k] 5\nz;;y 6\n").unwrap();
        assert_eq!(
            to_folded(&p),
            ";x 3\nmain 2\nmain;a_[k] 5\nmain;a_[k];c 4\nmain;b 1\nz;;y 6\n"
        );
    }

    #[test]
    fn stacks_that_read_the_same_are_one_line() {
        // A user frame named `f_[k]` and a kernel frame `f` both read `f_[k]` in folded text.
        let mut b = crate::model::ProfileBuilder::new(crate::model::Format::Folded);
        let main = b.frame("main", FrameKind::User);
        let user = b.frame("f_[k]", FrameKind::User);
        let kernel = b.frame("f", FrameKind::Kernel);
        let m = b.stack(None, main);
        let s1 = b.stack(Some(m), user);
        let s2 = b.stack(Some(m), kernel);
        b.push_sample(s1, 2, 0).unwrap();
        b.push_sample(s2, 3, 0).unwrap();
        let p = b.build(
            crate::model::Unit::Samples,
            0,
            2,
            crate::model::Warnings::default(),
        );
        assert_eq!(to_folded(&p), "main;f_[k] 5\n");
        assert_eq!(
            to_folded_view(&p, &ViewOptions::default_for(&p)),
            "main;f_[k] 5\n"
        );
    }

    #[test]
    fn a_deep_stack_exports_in_linear_time() {
        // 200,000 frames: building every prefix's text would copy about 4·10^10 bytes.
        let depth = 200_000;
        let mut text = vec!["f"; depth].join(";");
        text.push_str(" 7\n");
        let p = parse(text.as_bytes()).unwrap();
        assert_eq!(to_folded(&p), text);
    }
}
