//! Search: what the search box holds ([`Pattern`]), compiled ([`Matcher`]), and the matched share of a tree
//! (flamegraph.pl's "Matched"), which counts a sample once however many matching frames its stack has, so it
//! never exceeds the shown total.

use crate::model::{FrameId, FrameKind, Profile, StrId, Strings, EMPTY_STACK, NO_PARENT};
use crate::view::{CallTree, ViewOptions, ROOT_FRAME};

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
                    contains_ignore_ascii_case(name.as_bytes(), n.as_bytes())
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
        let names = self.string_mask(&p.strings);
        // (A frame without a name is named "".)
        let nameless = self.is_match("");
        (0..p.frames.len())
            .map(|i| {
                let named = p.frames.name.get(i).and_then(|s| names.get(s.idx()).copied());
                p.frame_kind(FrameId(i as u32)) != FrameKind::Process && named.unwrap_or(nameless)
            })
            .collect()
    }

    /// Per string of `strings` (by [`StrId`]): does it match? The substrings and exact names are found in one pass
    /// over the strings' buffer ([`Strings::containing`]); a regular expression, or a needle or name of other
    /// than ASCII letters without case, is matched string by string as [`Matcher::is_match`] does.
    pub fn string_mask(&self, strings: &Strings) -> Vec<bool> {
        let each = || {
            (0..strings.len())
                .map(|i| self.is_match(strings.get(StrId(i as u32))))
                .collect()
        };
        let exact = |n: &str, whole: bool| {
            let finder = memchr::memmem::Finder::new(n.as_bytes());
            strings.containing(n.len(), whole, |buf, from| {
                buf.get(from..).and_then(|h| finder.find(h)).map(|i| from + i)
            })
        };
        match self {
            Matcher::Substring(n) => exact(n, false),
            Matcher::Exact(n) => exact(n, true),
            Matcher::SubstringNoCase(n) if n.is_ascii() => {
                let mut mask = strings.containing(n.len(), false, |buf, from| {
                    find_ignore_ascii_case(buf, from, n.as_bytes())
                });
                if !strings.is_ascii() {
                    // The names with other letters, found in the same kind of pass, are matched one by one.
                    let other = strings.containing(1, false, |buf, from| {
                        buf.get(from..)?
                            .iter()
                            .position(|b| !b.is_ascii())
                            .map(|i| from + i)
                    });
                    for (i, _) in other.iter().enumerate().filter(|(_, o)| **o) {
                        if let Some(m) = mask.get_mut(i) {
                            *m = self.is_match(strings.get(StrId(i as u32)));
                        }
                    }
                }
                mask
            }
            Matcher::SubstringNoCase(_) | Matcher::Regex(_) => each(),
        }
    }
}

/// Whether `hay` contains `needle`, ASCII letters of either case equal.
fn contains_ignore_ascii_case(hay: &[u8], needle: &[u8]) -> bool {
    find_ignore_ascii_case(hay, 0, needle).is_some()
}

/// Where `needle` first is in `hay` at or after `from`, ASCII letters of either case equal. The needle's first
/// byte is found by `memchr2` (either case), the rest compared there: a search of a million names compared a
/// window at every byte of each (54 ms of a task on the page).
fn find_ignore_ascii_case(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let Some((&first, rest)) = needle.split_first() else {
        return (from <= hay.len()).then_some(from);
    };
    let (lo, up) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
    let mut at = from;
    while let Some(i) = hay.get(at..).and_then(|h| memchr::memchr2(lo, up, h)) {
        let start = at + i;
        match hay.get(start + 1..start + 1 + rest.len()) {
            Some(w) if w.eq_ignore_ascii_case(rest) => return Some(start),
            Some(_) => at = start + 1,
            None => return None,
        }
    }
    None
}

/// The weight of the samples whose path has a match, each counted once (flamegraph.pl's "Matched"): the sum of
/// the totals of matching nodes that have no matching ancestor. `frame_mask` is per frame id.
pub fn matched_total(tree: &CallTree, frame_mask: &[bool]) -> u64 {
    matched_weights(tree, frame_mask).0
}

/// [`matched_total`] and the self weight of every matching node, summed: a function's total and self in a view,
/// in one pass over the tree.
pub fn matched_weights(tree: &CallTree, frame_mask: &[bool]) -> (u64, u64) {
    let mut walk = Weighing::of_tree(tree);
    loop {
        if let Some(w) = walk.step(Over::Tree(tree), frame_mask, usize::MAX) {
            return (w.sum, w.own);
        }
    }
}

/// [`matched_weights`] of the call tree of `p` under `v` (its inverted tree's when `inverted`), from the
/// profile's stack table and samples instead of a tree: what a cut tree (`crate::view::cut`), which lacks the
/// nodes under its stand-ins, cannot say. A sample counts once in the first figure when its path has a match,
/// and in the second when its leaf frame matches (its root frame, in the inverted tree). O(stacks + samples).
pub fn matched_in_profile(p: &Profile, v: &ViewOptions, frame_mask: &[bool], inverted: bool) -> (u64, u64) {
    let mut walk = Weighing::of_profile(p, inverted);
    loop {
        if let Some(w) = walk.step(Over::Profile(p, v), frame_mask, usize::MAX) {
            return (w.sum, w.own);
        }
    }
}

/// What a [`Weighing`] found: [`matched_weights`]' two figures, and (over a tree) how many matching nodes have no
/// matching ancestor — the search's "N frames".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weighed {
    pub sum: u64,
    pub own: u64,
    /// Matching nodes without a matching ancestor; 0 over a profile ([`Over::Profile`]).
    pub tops: usize,
}

/// What a [`Weighing`] walks: a call tree ([`matched_weights`]) or a profile under a view
/// ([`matched_in_profile`]). The same one at every step.
#[derive(Clone, Copy)]
pub enum Over<'a> {
    Tree(&'a CallTree),
    Profile(&'a Profile, &'a ViewOptions),
}

/// [`matched_weights`] or [`matched_in_profile`] a piece at a time: each [`Weighing::step`] visits at most its
/// budget of nodes, stacks or samples, so that a page can spread the walk of a graph of millions of nodes over
/// short tasks (a 5,000,000-node one took 26–55 ms).
#[derive(Debug, Clone)]
pub struct Weighing {
    /// Per node (or stack): a match on its path.
    covered: Vec<bool>,
    /// Per stack ([`Over::Profile`] only): whether the frame that holds its self weight matches.
    own: Vec<bool>,
    inverted: bool,
    /// Where the walk is: nodes (or stacks) first, then samples ([`Over::Profile`]).
    next: usize,
    in_samples: bool,
    sum: u64,
    mine: u64,
    tops: usize,
}

impl Weighing {
    /// A walk of `tree`, to be stepped with [`Over::Tree`] of it.
    pub fn of_tree(tree: &CallTree) -> Weighing {
        Weighing {
            covered: vec![false; tree.len()],
            own: Vec::new(),
            inverted: false,
            next: 1,
            in_samples: false,
            sum: 0,
            mine: 0,
            tops: 0,
        }
    }

    /// A walk of `p`'s stacks and samples, to be stepped with [`Over::Profile`] of it.
    pub fn of_profile(p: &Profile, inverted: bool) -> Weighing {
        Weighing {
            covered: vec![false; p.stacks.len()],
            own: vec![false; p.stacks.len()],
            inverted,
            next: 0,
            in_samples: false,
            sum: 0,
            mine: 0,
            tops: 0,
        }
    }

    /// Visits at most `budget` more items; what it found once the walk is done.
    pub fn step(&mut self, over: Over, frame_mask: &[bool], budget: usize) -> Option<Weighed> {
        match over {
            Over::Tree(tree) => self.step_tree(tree, frame_mask, budget),
            Over::Profile(p, v) => self.step_profile(p, v, frame_mask, budget),
        }
    }

    fn done(&self) -> Weighed {
        Weighed {
            sum: self.sum,
            own: self.mine,
            tops: self.tops,
        }
    }

    fn step_tree(&mut self, tree: &CallTree, frame_mask: &[bool], budget: usize) -> Option<Weighed> {
        let is_match = |n: usize| {
            tree.frame
                .get(n)
                .is_some_and(|&f| f != ROOT_FRAME && frame_mask.get(f.idx()).copied().unwrap_or(false))
        };
        let end = tree.len().min(self.next.saturating_add(budget));
        for n in self.next..end {
            let par = tree.parent.get(n).copied().unwrap_or(0) as usize;
            let above = self.covered.get(par).copied().unwrap_or(false);
            let m = is_match(n);
            if m {
                self.mine = self.mine.saturating_add(tree.self_w.get(n).copied().unwrap_or(0));
                if !above {
                    self.sum = self.sum.saturating_add(tree.total.get(n).copied().unwrap_or(0));
                    self.tops += 1;
                }
            }
            if let Some(c) = self.covered.get_mut(n) {
                *c = above || m;
            }
        }
        self.next = end.max(self.next);
        (self.next >= tree.len()).then(|| self.done())
    }

    fn step_profile(
        &mut self,
        p: &Profile,
        v: &ViewOptions,
        frame_mask: &[bool],
        budget: usize,
    ) -> Option<Weighed> {
        let hit = |s: usize| {
            p.stacks
                .frame
                .get(s)
                .is_some_and(|f| frame_mask.get(f.idx()).copied().unwrap_or(false))
        };
        if !self.in_samples {
            // Per stack: a match on its path; whether the frame that holds its self weight (leaf, or root) does.
            let n = p.stacks.len();
            let end = n.min(self.next.saturating_add(budget));
            for s in self.next..end {
                let up = p.stacks.parent.get(s).copied().unwrap_or(NO_PARENT);
                let (above, root) = if up == NO_PARENT {
                    (false, hit(s))
                } else {
                    let u = up as usize;
                    (
                        self.covered.get(u).copied().unwrap_or(false),
                        self.own.get(u).copied().unwrap_or(false),
                    )
                };
                let m = hit(s);
                if let Some(x) = self.covered.get_mut(s) {
                    *x = above || m;
                }
                if let Some(x) = self.own.get_mut(s) {
                    *x = if self.inverted { root } else { m };
                }
            }
            if end < n {
                self.next = end;
                return None;
            }
            self.in_samples = true;
            self.next = 0;
            return None;
        }
        let end = p.samples.len().min(self.next.saturating_add(budget));
        for i in self.next..end {
            let Some(w) = v.weigh(p, i) else { continue };
            let s = p.samples.stack.get(i).copied().unwrap_or(EMPTY_STACK);
            if self.covered.get(s.idx()).copied().unwrap_or(false) {
                self.sum = self.sum.saturating_add(w);
            }
            if self.own.get(s.idx()).copied().unwrap_or(false) {
                self.mine = self.mine.saturating_add(w);
            }
        }
        self.next = end;
        (end >= p.samples.len()).then(|| self.done())
    }
}

#[cfg(test)]
mod tests {
    use super::contains_ignore_ascii_case;

    /// Numbers below `n`, the same run from the same seed (xorshift).
    fn xorshift(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        }
    }

    /// Against the plain definition (both sides lower-cased, then `contains`), on strings of a few letters where
    /// near misses are many.
    #[test]
    fn ascii_case_insensitive_contains_is_contains_of_the_lower_cased() {
        let alphabet = ['a', 'A', 'b', 'B', '_', '1'];
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let mut word =
                |max: usize| -> String { (0..next(max)).map(|_| alphabet[next(alphabet.len())]).collect() };
            let (hay, needle) = (word(12), word(4));
            let plain = hay.to_ascii_lowercase().contains(&needle.to_ascii_lowercase());
            assert_eq!(
                contains_ignore_ascii_case(hay.as_bytes(), needle.as_bytes()),
                plain,
                "{hay:?} {needle:?}"
            );
        }
    }

    /// The one pass over the strings' buffer against each string matched on its own (`is_match`, the plain
    /// definition): strings of a few letters back to back, where candidates cross from one into the next, empty
    /// strings, and names of other letters (the Kelvin sign lower-cases to an ASCII `k`).
    #[test]
    fn string_mask_is_each_string_matched() {
        use super::{Matcher, Pattern, StrId, Strings};
        let alphabet = ["a", "A", "b", "B", "k", "_", "\u{212a}", "é"];
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for round in 0..2_000 {
            // Every other round ASCII only (the buffer's fast path without the fallback).
            let letters = if round % 2 == 0 { 6 } else { alphabet.len() };
            let mut word =
                |max: usize| -> String { (0..next(max)).map(|_| alphabet[next(letters)]).collect() };
            let mut strings = Strings::default();
            for _ in 0..1 + round % 7 {
                strings.push(&word(6));
            }
            let needle = word(4);
            for m in [
                Pattern::plain(&needle).compile().unwrap(),
                Pattern {
                    text: needle.clone(),
                    regex: false,
                    case_sensitive: true,
                }
                .compile()
                .unwrap(),
                Matcher::Exact(needle.clone()),
            ] {
                let each: Vec<bool> = (0..strings.len())
                    .map(|i| m.is_match(strings.get(StrId(i as u32))))
                    .collect();
                assert_eq!(
                    m.string_mask(&strings),
                    each,
                    "{m:?} in {:?}",
                    (0..strings.len())
                        .map(|i| strings.get(StrId(i as u32)))
                        .collect::<Vec<_>>()
                );
            }
        }
    }

    use super::*;
    use crate::import::folded::parse;
    use crate::view::calltree::Order;

    #[test]
    fn a_function_weighed_once_where_it_nests() {
        // By hand: every sample but b's passes through a — total 2 + 4 + 1 = 7, the inner a of a;b;a not counted
        // again; self 2 (the inner a) + 1. b: a;b;a, a;b and b — total 2 + 4 + 3 = 9; self 4 + 3.
        let p = parse(b"a;b;a 2\na;b 4\na 1\nb 3\n").unwrap();
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        let of = |name: &str| matched_weights(&t, &Matcher::Exact(name.into()).frame_mask(&p));
        assert_eq!(of("a"), (7, 3));
        assert_eq!(of("b"), (9, 7));
        assert_eq!(matched_total(&t, &Matcher::Exact("b".into()).frame_mask(&p)), 9);
        assert_eq!(of("c"), (0, 0));
    }
    #[test]
    fn matched_in_profile_is_what_the_trees_say() {
        use crate::view::calltree::Order;
        let p = crate::import::folded::parse(b"main;a;b 3\nmain;a 2\nmain;c;a 6\nother;b 1\nb;main 4\nb 2\n")
            .unwrap();
        let v = ViewOptions::default_for(&p);
        let inv = crate::analysis::sandwich::invert(&p).unwrap();
        for q in ["a", "b", "main", "c", "zzz"] {
            let mask = Pattern::plain(q).compile().unwrap().frame_mask(&p);
            let plain = CallTree::build(&p, &v, Order::Alphabetical);
            assert_eq!(
                matched_in_profile(&p, &v, &mask, false),
                matched_weights(&plain, &mask),
                "{q}"
            );
            let inverted = CallTree::build(&inv, &ViewOptions::default_for(&inv), Order::Alphabetical);
            let imask = Pattern::plain(q).compile().unwrap().frame_mask(&inv);
            assert_eq!(
                matched_in_profile(&p, &v, &mask, true),
                matched_weights(&inverted, &imask),
                "{q}"
            );
        }
    }

    /// A walk in steps of a few items says what the walk in one says, over a tree and over a profile, for every
    /// budget from 1 up (a step that ends between the stacks and the samples among them).
    #[test]
    fn a_weighing_in_steps_is_the_weighing_in_one() {
        use crate::view::calltree::Order;
        let p = crate::import::folded::parse(b"main;a;b 3\nmain;a 2\nmain;c;a 6\nother;b 1\nb;main 4\nb 2\n")
            .unwrap();
        let v = ViewOptions::default_for(&p);
        let t = CallTree::build(&p, &v, Order::Alphabetical);
        for q in ["a", "b", "main", "zzz"] {
            let mask = Pattern::plain(q).compile().unwrap().frame_mask(&p);
            for budget in 1..12 {
                let mut w = Weighing::of_tree(&t);
                let mut steps = 0;
                let got = loop {
                    steps += 1;
                    if let Some(x) = w.step(Over::Tree(&t), &mask, budget) {
                        break x;
                    }
                };
                assert_eq!((got.sum, got.own), matched_weights(&t, &mask), "{q} {budget}");
                // The tops: counted by hand, a matching node none of whose ancestors match.
                let tops = (1..t.len())
                    .filter(|&n| {
                        let hit = |n: usize| t.frame[n] != ROOT_FRAME && mask[t.frame[n].idx()];
                        let mut up = t.parent[n] as usize;
                        let mut clear = true;
                        while up != 0 && up != NO_PARENT as usize {
                            clear &= !hit(up);
                            up = t.parent[up] as usize;
                        }
                        hit(n) && clear
                    })
                    .count();
                assert_eq!(got.tops, tops, "{q} {budget}");
                assert!(steps >= (t.len() - 1) / budget, "{q} {budget}: {steps} steps");
                for inverted in [false, true] {
                    let mut w = Weighing::of_profile(&p, inverted);
                    let got = loop {
                        if let Some(x) = w.step(Over::Profile(&p, &v), &mask, budget) {
                            break x;
                        }
                    };
                    assert_eq!(
                        (got.sum, got.own),
                        matched_in_profile(&p, &v, &mask, inverted),
                        "{q} {budget} {inverted}"
                    );
                }
            }
        }
    }
}
