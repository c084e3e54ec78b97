//! Reading a profile the way experts do: search with a matched share, the function table, transforms (focus,
//! ignore, hide, merge, collapse recursion, show-from), the inverted (bottom-up) tree and the sandwich.
//!
//! Every transform maps a [`Profile`] to a new one over a new stack table (strings and frames are shared, so a
//! frame id means the same before and after), so everything downstream — call tree, layout, heatmap range,
//! export, link — works on a transformed profile unchanged, and transforms stack by applying them in order.
//!
//! Invariants (tested with exact numbers in `tests/explore.rs`):
//! - a transform never adds weight: the total after is at most the total before, and hide, merge and the
//!   recursion collapses keep it exactly;
//! - each transform is one pass over the stack table in topological order (no recursion, no walk per stack),
//!   except the inverted tree and the callers side of the sandwich, whose output is itself Σ depth large;
//!   those are capped by [`MAX_INVERTED_NODES`] and fail with a message rather than run away;
//! - the matched share counts a sample once however many matching frames its stack has, so it never exceeds
//!   the shown total.

use crate::calltree::{CallTree, ROOT_FRAME};
use crate::model::{FrameId, Profile, StackId, StackTable, EMPTY_STACK, NO_PARENT};
use crate::view::ViewOptions;
use rustc_hash::FxHashMap;

/// What the search box holds: plain text (a substring) or a regular expression, with or without case.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Pattern {
    pub text: String,
    pub regex: bool,
    pub case_sensitive: bool,
}

impl Pattern {
    pub fn plain(text: &str) -> Pattern {
        Pattern {
            text: text.to_string(),
            ..Pattern::default()
        }
    }

    pub fn regex(text: &str) -> Pattern {
        Pattern {
            text: text.to_string(),
            regex: true,
            case_sensitive: true,
        }
    }

    /// Compiles the pattern; an invalid regular expression is an error message for the user.
    pub fn compile(&self) -> Result<Matcher, String> {
        if self.regex {
            regex_lite::RegexBuilder::new(&self.text)
                .case_insensitive(!self.case_sensitive)
                .size_limit(1 << 20)
                .build()
                .map(Matcher::Regex)
                .map_err(|e| format!("not a valid regular expression: {e}"))
        } else if self.case_sensitive {
            Ok(Matcher::Substring(self.text.clone()))
        } else {
            Ok(Matcher::SubstringNoCase(self.text.to_lowercase()))
        }
    }

    /// `FLAGS:TEXT`, FLAGS a subset of `r` (regex) and `c` (case-sensitive): the form used in links.
    pub fn to_text(&self) -> String {
        let mut flags = String::new();
        if self.regex {
            flags.push('r');
        }
        if self.case_sensitive {
            flags.push('c');
        }
        format!("{flags}:{}", self.text)
    }

    pub fn from_text(s: &str) -> Option<Pattern> {
        let (flags, text) = s.split_once(':')?;
        if !flags.chars().all(|c| c == 'r' || c == 'c') {
            return None;
        }
        Some(Pattern {
            text: text.to_string(),
            regex: flags.contains('r'),
            case_sensitive: flags.contains('c'),
        })
    }
}

/// A compiled [`Pattern`], or an exact function name.
#[derive(Debug, Clone)]
pub enum Matcher {
    Substring(String),
    /// The needle is already lower-case.
    SubstringNoCase(String),
    Regex(regex_lite::Regex),
    Exact(String),
}

impl Matcher {
    pub fn is_match(&self, name: &str) -> bool {
        match self {
            Matcher::Substring(n) => name.contains(n.as_str()),
            Matcher::SubstringNoCase(n) => {
                if name.is_ascii() && n.is_ascii() {
                    name.as_bytes()
                        .windows(n.len().max(1))
                        .any(|w| w.eq_ignore_ascii_case(n.as_bytes()))
                        || n.is_empty()
                } else {
                    name.to_lowercase().contains(n.as_str())
                }
            }
            Matcher::Regex(r) => r.is_match(name),
            Matcher::Exact(n) => name == n,
        }
    }

    /// Per frame id: does the frame's name match? Process roots never match.
    pub fn frame_mask(&self, p: &Profile) -> Vec<bool> {
        (0..p.frames.len())
            .map(|i| {
                let f = FrameId(i as u32);
                p.frame_kind(f) != crate::FrameKind::Process && self.is_match(p.frame_name(f))
            })
            .collect()
    }
}

/// A view transform, as in pprof (`-focus`, `-ignore`, `-hide`, `-show_from`) and the Firefox Profiler
/// (focus on function, merge function, collapse recursion). Function transforms name a function exactly;
/// pattern transforms take a search [`Pattern`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transform {
    /// Keep only samples through the function, re-rooted at its outermost call.
    Focus(String),
    /// Remove the function's frames: its callees join its callers, its self weight goes to its caller.
    Merge(String),
    /// Collapse recursion, direct and indirect: `a f b f c` becomes `a f c`.
    CollapseRecursion(String),
    /// Collapse direct recursion only: `a f f f c` becomes `a f c`, `a f b f c` stays.
    CollapseDirect(String),
    /// Drop every sample whose stack has a matching frame.
    Ignore(Pattern),
    /// Remove matching frames, merging their callees into their callers.
    Hide(Pattern),
    /// Drop the frames above the outermost match (pprof's `show_from`); samples without a match are dropped.
    ShowFrom(Pattern),
}

impl Transform {
    /// A short label for the transform's chip.
    pub fn label(&self) -> String {
        match self {
            Transform::Focus(f) => format!("focus: {f}"),
            Transform::Merge(f) => format!("merge: {f}"),
            Transform::CollapseRecursion(f) => format!("collapse recursion: {f}"),
            Transform::CollapseDirect(f) => format!("collapse direct recursion: {f}"),
            Transform::Ignore(p) => format!("ignore: {}", pattern_label(p)),
            Transform::Hide(p) => format!("hide: {}", pattern_label(p)),
            Transform::ShowFrom(p) => format!("show from: {}", pattern_label(p)),
        }
    }

    /// `focus:NAME`, `merge:NAME`, `rec:NAME`, `drec:NAME`, `ignore:FLAGS:TEXT`, `hide:FLAGS:TEXT`,
    /// `from:FLAGS:TEXT`: the form used in links and by the CLI.
    pub fn to_text(&self) -> String {
        match self {
            Transform::Focus(f) => format!("focus:{f}"),
            Transform::Merge(f) => format!("merge:{f}"),
            Transform::CollapseRecursion(f) => format!("rec:{f}"),
            Transform::CollapseDirect(f) => format!("drec:{f}"),
            Transform::Ignore(p) => format!("ignore:{}", p.to_text()),
            Transform::Hide(p) => format!("hide:{}", p.to_text()),
            Transform::ShowFrom(p) => format!("from:{}", p.to_text()),
        }
    }

    pub fn from_text(s: &str) -> Option<Transform> {
        let (kind, rest) = s.split_once(':')?;
        Some(match kind {
            "focus" => Transform::Focus(rest.to_string()),
            "merge" => Transform::Merge(rest.to_string()),
            "rec" => Transform::CollapseRecursion(rest.to_string()),
            "drec" => Transform::CollapseDirect(rest.to_string()),
            "ignore" => Transform::Ignore(Pattern::from_text(rest)?),
            "hide" => Transform::Hide(Pattern::from_text(rest)?),
            "from" => Transform::ShowFrom(Pattern::from_text(rest)?),
            _ => return None,
        })
    }

    fn matcher(&self) -> Result<Matcher, String> {
        match self {
            Transform::Focus(f)
            | Transform::Merge(f)
            | Transform::CollapseRecursion(f)
            | Transform::CollapseDirect(f) => Ok(Matcher::Exact(f.clone())),
            Transform::Ignore(p) | Transform::Hide(p) | Transform::ShowFrom(p) => p.compile(),
        }
    }
}

fn pattern_label(p: &Pattern) -> String {
    match (p.regex, p.case_sensitive) {
        (true, true) => format!("/{}/", p.text),
        (true, false) => format!("/{}/i", p.text),
        (false, true) => format!("\"{}\"", p.text),
        (false, false) => format!("\"{}\" (any case)", p.text),
    }
}

/// A list of transforms as one line of text (items joined by newlines; names never contain one).
pub fn transforms_to_text(ts: &[Transform]) -> String {
    ts.iter().map(Transform::to_text).collect::<Vec<_>>().join("\n")
}

pub fn transforms_from_text(s: &str) -> Vec<Transform> {
    s.split('\n').filter_map(Transform::from_text).collect()
}

/// State of a stack while transforming: a new stack id, the empty path, or dropped.
const EMPTY: u32 = NO_PARENT;
const GONE: u32 = u32::MAX - 1;

/// Interns (parent, frame) rows into a new stack table; parents always exist first, so it is topological.
#[derive(Default)]
struct Interner {
    table: StackTable,
    ids: FxHashMap<(u32, FrameId), u32>,
}

impl Interner {
    fn get(&mut self, parent: u32, frame: FrameId) -> u32 {
        let table = &mut self.table;
        *self.ids.entry((parent, frame)).or_insert_with(|| {
            table.parent.push(parent);
            table.frame.push(frame);
            (table.frame.len() - 1) as u32
        })
    }

    fn frame(&self, s: u32) -> Option<FrameId> {
        self.table.frame.get(s as usize).copied()
    }
}

fn finish(p: &Profile, new: Vec<u32>, interner: Interner, empty_kept: bool) -> Profile {
    p.restack(interner.table, |s| {
        if s == EMPTY_STACK {
            return empty_kept.then_some(EMPTY_STACK);
        }
        match new.get(s.idx()).copied().unwrap_or(GONE) {
            GONE => None,
            EMPTY => Some(EMPTY_STACK),
            x => Some(StackId(x)),
        }
    })
}

/// Applies one transform.
pub fn apply(p: &Profile, t: &Transform) -> Result<Profile, String> {
    let mask = t.matcher()?.frame_mask(p);
    let hit = |f: FrameId| mask.get(f.idx()).copied().unwrap_or(false);
    let n = p.stacks.len();
    let mut new: Vec<u32> = Vec::with_capacity(n);
    let mut it = Interner::default();
    // For indirect recursion: the new stack of the outermost call of the function on the path, if any.
    let mut outer: Vec<u32> = Vec::new();
    for i in 0..n {
        let parent = p.stacks.parent.get(i).copied().unwrap_or(NO_PARENT);
        let f = p.stacks.frame.get(i).copied().unwrap_or(FrameId(0));
        // Focus and show-from start "not started" (GONE) at the root; a match starts the path afresh.
        let start = if matches!(t, Transform::Focus(_) | Transform::ShowFrom(_)) {
            GONE
        } else {
            EMPTY
        };
        let pnew = if parent == NO_PARENT {
            start
        } else {
            new.get(parent as usize).copied().unwrap_or(GONE)
        };
        let s = match t {
            Transform::Focus(_) | Transform::ShowFrom(_) => {
                if pnew != GONE {
                    it.get(pnew, f)
                } else if hit(f) {
                    it.get(EMPTY, f)
                } else {
                    GONE
                }
            }
            Transform::Ignore(_) => {
                if pnew == GONE || hit(f) {
                    GONE
                } else {
                    it.get(pnew, f)
                }
            }
            Transform::Hide(_) | Transform::Merge(_) => {
                if hit(f) {
                    pnew
                } else {
                    it.get(pnew, f)
                }
            }
            Transform::CollapseDirect(_) => {
                if hit(f) && pnew != EMPTY && it.frame(pnew).is_some_and(hit) {
                    pnew
                } else {
                    it.get(pnew, f)
                }
            }
            Transform::CollapseRecursion(_) => {
                let above = if parent == NO_PARENT {
                    GONE
                } else {
                    outer.get(parent as usize).copied().unwrap_or(GONE)
                };
                let s = if hit(f) && above != GONE {
                    above
                } else {
                    it.get(pnew, f)
                };
                outer.push(if above == GONE && hit(f) { s } else { above });
                s
            }
        };
        new.push(s);
    }
    let empty_kept = !matches!(t, Transform::Focus(_) | Transform::ShowFrom(_));
    Ok(finish(p, new, it, empty_kept))
}

/// Applies transforms in order.
pub fn apply_all(p: &Profile, ts: &[Transform]) -> Result<Option<Profile>, String> {
    let mut cur: Option<Profile> = None;
    for t in ts {
        let next = apply(cur.as_ref().unwrap_or(p), t)?;
        cur = Some(next);
    }
    Ok(cur)
}

/// The most nodes the inverted tree or the callers tree may have (their size is Σ depth over sampled stacks).
pub const MAX_INVERTED_NODES: usize = 20_000_000;

/// Stacks that some sample stands on.
fn sampled(p: &Profile) -> Vec<bool> {
    let mut used = vec![false; p.stacks.len()];
    for s in &p.samples.stack {
        if let Some(u) = used.get_mut(s.idx()) {
            *u = true;
        }
    }
    used
}

/// Appends the path from `s` up to the root, leaf first, under `base` in the interner.
fn push_reversed(
    p: &Profile,
    it: &mut Interner,
    base: u32,
    s: StackId,
    budget: &mut usize,
) -> Result<u32, String> {
    let mut node = base;
    let mut cur = Some(s);
    while let Some(c) = cur {
        *budget = budget.checked_sub(1).ok_or_else(|| {
            format!("the inverted tree would have more than {MAX_INVERTED_NODES} nodes; focus on a part of the profile first")
        })?;
        let f = p.stacks.frame.get(c.idx()).copied().unwrap_or(FrameId(0));
        node = it.get(node, f);
        cur = p.stacks.parent(c);
    }
    Ok(node)
}

/// The inverted (bottom-up) profile: every stack reversed, so the roots are the leaf functions merged by name
/// and their children are their callers. Its call tree answers "which function is hottest, whoever called it".
pub fn invert(p: &Profile) -> Result<Profile, String> {
    let used = sampled(p);
    let mut it = Interner::default();
    let mut new = vec![GONE; p.stacks.len()];
    let mut budget = MAX_INVERTED_NODES;
    for (i, (&u, slot)) in used.iter().zip(new.iter_mut()).enumerate() {
        if u {
            *slot = push_reversed(p, &mut it, EMPTY, StackId(i as u32), &mut budget)?;
        }
    }
    Ok(finish(p, new, it, true))
}

/// The callers side of a sandwich: for each sample through the function, the path from its innermost call up to
/// the root, inverted (the function at the root, its callers as children). Samples not through it are dropped.
pub fn callers(p: &Profile, function: &str) -> Result<Profile, String> {
    let mask = Matcher::Exact(function.to_string()).frame_mask(p);
    let n = p.stacks.len();
    // The innermost call of the function at or above each stack.
    let mut inner: Vec<u32> = Vec::with_capacity(n);
    for (i, (&f, &par)) in p.stacks.frame.iter().zip(&p.stacks.parent).enumerate() {
        let v = if mask.get(f.idx()).copied().unwrap_or(false) {
            i as u32
        } else {
            match par {
                NO_PARENT => GONE,
                par => inner.get(par as usize).copied().unwrap_or(GONE),
            }
        };
        inner.push(v);
    }
    let used = sampled(p);
    let mut it = Interner::default();
    let mut memo: FxHashMap<u32, u32> = FxHashMap::default();
    let mut new = vec![GONE; n];
    let mut budget = MAX_INVERTED_NODES;
    for (i, (&t, &u)) in inner.iter().zip(&used).enumerate() {
        if !u || t == GONE {
            continue;
        }
        let id = match memo.get(&t) {
            Some(&id) => id,
            None => {
                let id = push_reversed(p, &mut it, EMPTY, StackId(t), &mut budget)?;
                memo.insert(t, id);
                id
            }
        };
        if let Some(slot) = new.get_mut(i) {
            *slot = id;
        }
    }
    Ok(finish(p, new, it, false))
}

/// The callees side of a sandwich: the samples through the function, re-rooted at its outermost call.
pub fn callees(p: &Profile, function: &str) -> Result<Profile, String> {
    apply(p, &Transform::Focus(function.to_string()))
}

/// The weight of the samples whose path has a match, each counted once (flamegraph.pl's "Matched"): the sum of
/// the totals of matching nodes that have no matching ancestor. `frame_mask` is per frame id.
pub fn matched_total(tree: &CallTree, frame_mask: &[bool]) -> u64 {
    let is_match = |n: usize| {
        tree.frame
            .get(n)
            .is_some_and(|&f| f != ROOT_FRAME && frame_mask.get(f.idx()).copied().unwrap_or(false))
    };
    let mut covered = vec![false; tree.len()];
    let mut sum = 0u64;
    for n in 1..tree.len() {
        let par = tree.parent.get(n).copied().unwrap_or(0) as usize;
        let above = covered.get(par).copied().unwrap_or(false);
        let m = is_match(n);
        if m && !above {
            sum = sum.saturating_add(tree.total.get(n).copied().unwrap_or(0));
        }
        if let Some(c) = covered.get_mut(n) {
            *c = above || m;
        }
    }
    sum
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

/// Every function of a view (frames merged by name; process roots left out), heaviest self first, and the
/// view's total weight and sample count.
pub fn functions(p: &Profile, v: &ViewOptions) -> (Vec<FunctionRow>, u64, u64) {
    // Weight and count per stack.
    let n = p.stacks.len();
    let mut w = vec![0u64; n];
    let mut c = vec![0u64; n];
    let (mut total_w, mut total_n) = (0u64, 0u64);
    for i in 0..p.samples.len() {
        let Some(x) = v.weigh(p, i) else { continue };
        total_w = total_w.saturating_add(x);
        total_n += 1;
        let s = p.samples.stack.get(i).copied().unwrap_or(EMPTY_STACK);
        if let (Some(a), Some(b)) = (w.get_mut(s.idx()), c.get_mut(s.idx())) {
            *a = a.saturating_add(x);
            *b += 1;
        }
    }
    // Function index per frame: frames with the same name are one function.
    let mut by_name: FxHashMap<&str, usize> = FxHashMap::default();
    let mut rows: Vec<FunctionRow> = Vec::new();
    let fn_of: Vec<usize> = (0..p.frames.len())
        .map(|i| {
            let name = p.frame_name(FrameId(i as u32));
            *by_name.entry(name).or_insert_with(|| {
                rows.push(FunctionRow {
                    name: name.to_string(),
                    self_w: 0,
                    total_w: 0,
                    self_samples: 0,
                    total_samples: 0,
                });
                rows.len() - 1
            })
        })
        .collect();
    let mut stamp = vec![u32::MAX; rows.len()];
    for (s, (&ws, &cs)) in w.iter().zip(&c).enumerate() {
        if cs == 0 {
            continue;
        }
        let mut cur = Some(StackId(s as u32));
        let mut leaf = true;
        while let Some(st) = cur {
            let f = p.stacks.frame.get(st.idx()).copied().unwrap_or(FrameId(0));
            let k = fn_of.get(f.idx()).copied().unwrap_or(0);
            if let (Some(row), Some(mark)) = (rows.get_mut(k), stamp.get_mut(k)) {
                if leaf {
                    row.self_w = row.self_w.saturating_add(ws);
                    row.self_samples += cs;
                }
                if *mark != s as u32 {
                    *mark = s as u32;
                    row.total_w = row.total_w.saturating_add(ws);
                    row.total_samples += cs;
                }
            }
            leaf = false;
            cur = p.stacks.parent(st);
        }
    }
    let mut rows: Vec<FunctionRow> = rows.into_iter().filter(|r| r.total_samples > 0).collect();
    rows.sort_by(|a, b| {
        b.self_w
            .cmp(&a.self_w)
            .then(b.total_w.cmp(&a.total_w))
            .then(a.name.cmp(&b.name))
    });
    (rows, total_w, total_n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::to_folded_view;
    use crate::folded::parse;

    fn fold(p: &Profile) -> String {
        to_folded_view(p, &ViewOptions::default_for(p))
    }

    #[test]
    fn transform_text_round_trips() {
        let ts = vec![
            Transform::Focus("main".into()),
            Transform::Hide(Pattern::regex("^std::")),
            Transform::Ignore(Pattern::plain("a:b")),
            Transform::ShowFrom(Pattern {
                text: "x".into(),
                regex: false,
                case_sensitive: true,
            }),
            Transform::CollapseDirect("f".into()),
        ];
        assert_eq!(transforms_from_text(&transforms_to_text(&ts)), ts);
    }

    #[test]
    fn hide_keeps_the_total() {
        let p = parse(b"a;b;c 1\na;b 2\nb;d 3\n").unwrap();
        let h = apply(&p, &Transform::Hide(Pattern::plain("b"))).unwrap();
        assert_eq!(fold(&h), "a 2\na;c 1\nd 3\n");
        assert_eq!(h.total(), 6);
        h.validate().unwrap();
    }
}
