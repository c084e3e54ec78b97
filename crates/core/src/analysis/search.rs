//! Search: what the search box holds ([`Pattern`]), compiled ([`Matcher`]), and the matched share of a tree
//! (flamegraph.pl's "Matched"), which counts a sample once however many matching frames its stack has, so it
//! never exceeds the shown total.

use crate::model::{FrameId, FrameKind, Profile};
use crate::view::{CallTree, ROOT_FRAME};

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
                p.frame_kind(f) != FrameKind::Process && self.is_match(p.frame_name(f))
            })
            .collect()
    }
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
