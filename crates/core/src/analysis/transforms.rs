//! Transforms (focus, ignore, hide, merge, collapse recursion, show-from), as pprof and the Firefox Profiler
//! have them. The inverted tree and the sandwich (`sandwich.rs`) build on the same restacking.
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
//!   those are capped by [`super::sandwich::MAX_INVERTED_NODES`] and fail with a message rather than run away.

use super::search::{Matcher, Pattern};
use crate::model::{FrameId, Profile, StackId, StackTable, EMPTY_STACK, NO_PARENT};
use rustc_hash::FxHashMap;

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
    /// Move the stacks that reach no known entry point (see `health.rs`) under a synthetic
    /// `[truncated stack]` root, so their outermost frames stop masquerading as callers.
    GroupTruncated,
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
            Transform::GroupTruncated => "group truncated stacks".to_string(),
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
            Transform::GroupTruncated => "truncated:".to_string(),
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
            "truncated" if rest.is_empty() => Transform::GroupTruncated,
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
            Transform::GroupTruncated => Ok(Matcher::Exact(String::new())),
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
pub(super) const EMPTY: u32 = NO_PARENT;
pub(super) const GONE: u32 = u32::MAX - 1;

/// Interns (parent, frame) rows into a new stack table; parents always exist first, so it is topological.
///
/// A row is found among its parent's children, a list linked through the rows (`first`, `next`), while the
/// parent has at most [`LISTED`] of them; a parent with more has its children in a hash (`many`). A tree's rows
/// have few children each, and the rows just made are the ones looked at: a hash of every row missed the cache
/// on each look-up (50 ns each natively, 788,000 rows of folded 100 MB).
pub(super) struct Interner {
    table: StackTable,
    /// Per row: its first child ([`NONE`] for none), and the next child of its parent.
    first: Vec<u32>,
    next: Vec<u32>,
    /// Per row: its children, up to [`LISTED`] + 1.
    children: Vec<u8>,
    /// The same of the empty path (the roots).
    root_first: u32,
    root_children: u8,
    /// The children of parents with more than [`LISTED`] of them.
    many: FxHashMap<(u32, FrameId), u32>,
}

/// Children of a row found by walking its list; more are hashed.
const LISTED: u8 = 16;
/// No row.
const NONE: u32 = u32::MAX;

impl Default for Interner {
    fn default() -> Interner {
        Interner::with_capacity(0)
    }
}

impl Interner {
    /// Room for `n` rows (a transform's new table has at most as many rows as the one it rewrites).
    pub(super) fn with_capacity(n: usize) -> Interner {
        Interner {
            table: StackTable {
                parent: Vec::with_capacity(n),
                frame: Vec::with_capacity(n),
            },
            first: Vec::with_capacity(n),
            next: Vec::with_capacity(n),
            children: Vec::with_capacity(n),
            root_first: NONE,
            root_children: 0,
            many: FxHashMap::default(),
        }
    }

    pub(super) fn get(&mut self, parent: u32, frame: FrameId) -> u32 {
        let (head, count) = if parent == EMPTY {
            (self.root_first, self.root_children)
        } else {
            let k = parent as usize;
            (
                self.first.get(k).copied().unwrap_or(NONE),
                self.children.get(k).copied().unwrap_or(0),
            )
        };
        if count > LISTED {
            if let Some(&s) = self.many.get(&(parent, frame)) {
                return s;
            }
        } else {
            let mut c = head;
            while let Some(&f) = self.table.frame.get(c as usize) {
                if f == frame {
                    return c;
                }
                c = self.next.get(c as usize).copied().unwrap_or(NONE);
            }
        }
        let s = self.push(parent, frame, head);
        let count = count.saturating_add(1);
        if parent == EMPTY {
            self.root_first = s;
            self.root_children = count;
        } else {
            // The parent (pushed before `s`) has its slots: `push` grew the columns past it.
            let k = parent as usize;
            if let Some(x) = self.first.get_mut(k) {
                *x = s;
            }
            if let Some(x) = self.children.get_mut(k) {
                *x = count;
            }
        }
        if count == LISTED + 1 {
            // The list's rows go into the hash once; the list is no longer walked.
            let mut c = s;
            while let Some(&f) = self.table.frame.get(c as usize) {
                self.many.insert((parent, f), c);
                c = self.next.get(c as usize).copied().unwrap_or(NONE);
            }
        } else if count > LISTED + 1 {
            self.many.insert((parent, frame), s);
        }
        s
    }

    /// A new row, first in its parent's list (whose head was `head`). The lists' columns grow only here: rows
    /// pushed by [`Interner::fresh`] are in no list, and a column's missing tail reads as no child.
    fn push(&mut self, parent: u32, frame: FrameId, head: u32) -> u32 {
        let s = self.fresh(parent, frame);
        let at = s as usize;
        if self.next.len() < at {
            self.first.resize(at, NONE);
            self.children.resize(at, 0);
            self.next.resize(at, NONE);
        }
        self.first.push(NONE);
        self.children.push(0);
        self.next.push(head);
        s
    }

    /// A row known to be new (see [`Shared`]): pushed without a look-up, and never looked up later.
    fn fresh(&mut self, parent: u32, frame: FrameId) -> u32 {
        self.table.parent.push(parent);
        self.table.frame.push(frame);
        (self.table.frame.len() - 1) as u32
    }

    fn frame(&self, s: u32) -> Option<FrameId> {
        self.table.frame.get(s as usize).copied()
    }
}

pub(super) fn finish(p: &Profile, new: Vec<u32>, interner: Interner, empty_kept: bool) -> Profile {
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

/// Which rows of a hide or merge need the interner's look-up. Such a transform maps a row that is hit to its
/// parent's new row, so the children of a hit row are *lifted*: they join the children of their nearest ancestor
/// that is not hit (their *owner*; the empty path above the roots counts as one). Two rows can only meet where
/// a lifted row has the frame of a child of its owner, or of another row lifted to the same owner, and then under
/// the new row they share. So a row needs a look-up when it is lifted, when its parent's new row is *shared* (has
/// more than one source), or when a lifted row of its parent has its frame; its own new row is then shared. Every
/// other row's (parent, frame) is new: it is pushed without a look-up (`Interner::fresh`), and no later row looks
/// it up. (A stack table has each (parent, frame) once, as the interners that build it make it.) Most rows of a
/// merge of one function need none: the look-ups were 83 of a 114 ms task on the page (folded 100 MB,
/// 700,000-odd rows).
struct Shared {
    /// Per row: one of its children is hit (it owns lifted rows).
    absorbs: Vec<bool>,
    /// The (owner, frame) of every lifted row; the owner [`ABOVE_ROOTS`] for the empty path.
    lifted: rustc_hash::FxHashSet<(u32, FrameId)>,
    /// Per row: its new row is shared (filled as the rows are visited).
    shared: Vec<bool>,
    /// Per row: it is hit (filled as the rows are visited).
    hit: Vec<bool>,
}

/// The owner of rows lifted to the empty path (see [`Shared`]).
const ABOVE_ROOTS: u32 = u32::MAX;

impl Shared {
    fn new(p: &Profile, hit: impl Fn(FrameId) -> bool) -> Shared {
        let n = p.stacks.len();
        let mut absorbs = vec![false; n];
        let mut lifted = rustc_hash::FxHashSet::default();
        // Per row that is hit: its owner.
        let mut owner: Vec<u32> = vec![ABOVE_ROOTS; n];
        for (i, (&parent, &f)) in p.stacks.parent.iter().zip(&p.stacks.frame).enumerate() {
            let parent_owner = owner.get(parent as usize).copied();
            let parent_hit =
                parent != NO_PARENT && p.stacks.frame.get(parent as usize).is_some_and(|&pf| hit(pf));
            if hit(f) {
                let o = if parent == NO_PARENT {
                    ABOVE_ROOTS
                } else if parent_hit {
                    parent_owner.unwrap_or(ABOVE_ROOTS)
                } else {
                    parent
                };
                if let Some(x) = owner.get_mut(i) {
                    *x = o;
                }
                if let Some(x) = absorbs.get_mut(parent as usize) {
                    *x = true;
                }
            } else if parent_hit {
                lifted.insert((parent_owner.unwrap_or(ABOVE_ROOTS), f));
            }
        }
        Shared {
            absorbs,
            lifted,
            shared: Vec::with_capacity(n),
            hit: Vec::with_capacity(n),
        }
    }

    /// Whether row `i` (visited in order), of parent `parent` and frame `f`, needs a look-up; records whether
    /// its new row is shared.
    fn visit(&mut self, parent: u32, f: FrameId, hit: bool) -> bool {
        let root = parent == NO_PARENT;
        let (parent_hit, parent_shared) = if root {
            (false, false)
        } else {
            let k = parent as usize;
            (
                self.hit.get(k).copied().unwrap_or(true),
                self.shared.get(k).copied().unwrap_or(true),
            )
        };
        let owns = root || self.absorbs.get(parent as usize).copied().unwrap_or(true);
        let owner = if root { ABOVE_ROOTS } else { parent };
        let look = !hit && (parent_hit || parent_shared || (owns && self.lifted.contains(&(owner, f))));
        self.hit.push(hit);
        // A hit row's new row is its parent's: shared as that is. Its children are lifted, and look up anyway.
        self.shared.push(if hit { parent_shared } else { look });
        look
    }
}

/// Applies one transform.
pub fn apply(p: &Profile, t: &Transform) -> Result<Profile, String> {
    if *t == Transform::GroupTruncated {
        return Ok(group_truncated(p));
    }
    let mask = t.matcher()?.frame_mask(p);
    let hit = |f: FrameId| mask.get(f.idx()).copied().unwrap_or(false);
    let n = p.stacks.len();
    let mut new: Vec<u32> = Vec::with_capacity(n);
    let mut it = Interner::with_capacity(n);
    // For indirect recursion: the new stack of the outermost call of the function on the path, if any.
    let mut outer: Vec<u32> = Vec::new();
    let mut shared = matches!(t, Transform::Hide(_) | Transform::Merge(_)).then(|| Shared::new(p, hit));
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
            // Handled by `group_truncated` before this loop; kept as the identity.
            Transform::GroupTruncated => it.get(pnew, f),
            // A row is dropped or kept as it was, under its kept parent: each new row has one source, so each
            // (parent, frame) is new (see `Shared`).
            Transform::Ignore(_) => {
                if pnew == GONE || hit(f) {
                    GONE
                } else {
                    it.fresh(pnew, f)
                }
            }
            Transform::Hide(_) | Transform::Merge(_) => {
                let look = shared.as_mut().is_none_or(|s| s.visit(parent, f, hit(f)));
                if hit(f) {
                    pnew
                } else if look {
                    it.get(pnew, f)
                } else {
                    it.fresh(pnew, f)
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

/// Puts every stack that reaches no entry point under one `[truncated stack]`
/// root frame, added to the profile's frames. A stack is judged by its leaf row (a path cut short above an
/// entry point further down is whole), so a row may appear twice: as it was, and under the root. Two passes
/// over the stack table; the total is kept exactly.
fn group_truncated(p: &Profile) -> Profile {
    use super::health::{truncated_rows, TRUNCATED_ROOT};
    let kind = crate::model::FrameKind::User;
    let cut = truncated_rows(p);
    let n = p.stacks.len();
    if !cut.iter().any(|&c| c) {
        return p.clone();
    }
    // Which rows are needed as they were (`plain`) and under the root (`moved`): a row's own stack, or an
    // ancestor of one.
    let mut plain: Vec<bool> = (0..n).map(|i| !cut.get(i).copied().unwrap_or(true)).collect();
    let mut moved: Vec<bool> = (0..n).map(|i| cut.get(i).copied().unwrap_or(true)).collect();
    for i in (0..n).rev() {
        let parent = p.stacks.parent.get(i).copied().unwrap_or(NO_PARENT) as usize;
        let (pl, mv) = (
            plain.get(i).copied().unwrap_or(false),
            moved.get(i).copied().unwrap_or(false),
        );
        if let Some(x) = plain.get_mut(parent) {
            *x |= pl;
        }
        if let Some(x) = moved.get_mut(parent) {
            *x |= mv;
        }
    }
    let root = p
        .find_frame(TRUNCATED_ROOT, kind)
        .unwrap_or(FrameId(p.frames.len() as u32));
    let mut it = Interner::with_capacity(n);
    let top = it.get(EMPTY, root);
    let (mut as_was, mut under) = (vec![GONE; n], vec![GONE; n]);
    for i in 0..n {
        let parent = p.stacks.parent.get(i).copied().unwrap_or(NO_PARENT);
        let f = p.stacks.frame.get(i).copied().unwrap_or(FrameId(0));
        let (pw, pu) = if parent == NO_PARENT {
            (EMPTY, top)
        } else {
            (
                as_was.get(parent as usize).copied().unwrap_or(GONE),
                under.get(parent as usize).copied().unwrap_or(GONE),
            )
        };
        if plain.get(i).copied().unwrap_or(false) && pw != GONE {
            if let Some(x) = as_was.get_mut(i) {
                *x = it.get(pw, f);
            }
        }
        if moved.get(i).copied().unwrap_or(false) && pu != GONE {
            if let Some(x) = under.get_mut(i) {
                *x = it.get(pu, f);
            }
        }
    }
    let mut out = p.restack(it.table, |s| {
        let col = if cut.get(s.idx()).copied().unwrap_or(true) {
            &under
        } else {
            &as_was
        };
        match col.get(s.idx()).copied().unwrap_or(GONE) {
            GONE => None,
            x => Some(StackId(x)),
        }
    });
    out.add_frame(TRUNCATED_ROOT, kind);
    out
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

/// What a view shows of `p`: `p` at granularity `g` (`view::granularity::at`), then after `ts` in order, as the
/// CLI and the app's engine make it; `None` when that is `p` itself (functions, or a profile without locations,
/// and no transform).
pub fn derive(
    p: &Profile,
    g: crate::view::granularity::Granularity,
    ts: &[Transform],
) -> Result<Option<Profile>, String> {
    use std::borrow::Cow;
    let at = crate::view::granularity::at(p, g);
    Ok(match (apply_all(&at, ts)?, at) {
        (Some(x), _) => Some(x),
        (None, Cow::Owned(x)) => Some(x),
        (None, Cow::Borrowed(_)) => None,
    })
}

/// Whether [`derive`] would make a profile other than `p` (without making it).
pub fn derives(p: &Profile, g: crate::view::granularity::Granularity, ts: &[Transform]) -> bool {
    !ts.is_empty() || (p.sites.is_some() && g != crate::view::granularity::Granularity::Functions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::to_folded_view;
    use crate::import::folded::parse;
    use crate::view::ViewOptions;

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
    fn derive_is_granularity_then_transforms_and_none_for_the_profile_itself() {
        use crate::view::granularity::Granularity;
        let p = parse(b"a;b;c 1\na;b 2\nb;d 3\n").unwrap();
        // Folded stacks keep no locations: at lines they are themselves.
        assert!(!derives(&p, Granularity::Lines, &[]));
        assert!(derive(&p, Granularity::Lines, &[]).unwrap().is_none());
        let ts = [Transform::Merge("b".into())];
        assert!(derives(&p, Granularity::Functions, &ts));
        let d = derive(&p, Granularity::Functions, &ts).unwrap().unwrap();
        assert_eq!(fold(&d), "a 2\na;c 1\nd 3\n");
        assert!(derive(
            &p,
            Granularity::Functions,
            &[Transform::Ignore(Pattern::regex("("))]
        )
        .is_err());
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
