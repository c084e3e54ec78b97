//! The cost of each source line of a function, as `go tool pprof -list REGEX` prints it: for every function
//! whose name matches, and every file its lines are in, each line's flat (the weight of samples whose leaf is
//! that line of that function) and cum (the weight of samples whose stack passes through that line of that
//! function, each sample once however often it recurs). Lines are the nodes of the profile at
//! [`Granularity::Lines`] (inlined lines their own, as pprof has them), so the numbers are those of
//! `scorch top --granularity lines`.
//!
//! A routine's own flat and cum are the sums over its lines, as pprof's header prints them: the cum sum counts
//! a sample once per line of the function it passes through (a recursion through two lines, twice).

use super::functions::by_function;
use super::top::signed_per_stack;
use crate::model::{FrameId, Profile, NO_STR};
use crate::view::granularity::{granular, Granularity};
use crate::view::ViewOptions;
use std::collections::BTreeMap;

/// One line's cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineCost {
    pub line: u32,
    pub flat: i128,
    pub cum: i128,
}

/// A function's lines in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Routine {
    pub function: String,
    pub file: String,
    /// Sums over `lines` (see the module's note on cum).
    pub flat: i128,
    pub cum: i128,
    /// Lines with samples, in increasing order.
    pub lines: Vec<LineCost>,
}

/// Lines pprof shows around the lines with samples.
pub const MARGIN: u32 = 5;

impl Routine {
    /// The lines a listing with source text shows: from [`MARGIN`] lines before the first line with samples to
    /// [`MARGIN`] after the last (from line 1 at the earliest), as pprof's `-list` does.
    pub fn span(&self) -> (u32, u32) {
        let lo = self.lines.first().map_or(1, |l| l.line);
        let hi = self.lines.last().map_or(1, |l| l.line);
        (lo.saturating_sub(MARGIN).max(1), hi.saturating_add(MARGIN))
    }

    /// The cost of line `n` (zero when no sample is on it).
    pub fn at(&self, n: u32) -> LineCost {
        match self.lines.binary_search_by_key(&n, |l| l.line) {
            Ok(i) => self.lines.get(i).copied().unwrap_or(LineCost {
                line: n,
                flat: 0,
                cum: 0,
            }),
            Err(_) => LineCost {
                line: n,
                flat: 0,
                cum: 0,
            },
        }
    }
}

/// A node's function, and its file and line when it has them.
type Place = (String, Option<(String, u32)>);

/// What [`list`] found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Listing {
    /// The view's signed total.
    pub total: i128,
    /// By function name, then file name.
    pub routines: Vec<Routine>,
    /// Matching functions with samples but no line in any file (pprof: "No source information for").
    pub no_source: Vec<String>,
}

/// The lines of every function with samples in view `v` whose name `matches` says yes to.
pub fn list(p: &Profile, v: &ViewOptions, matches: impl Fn(&str) -> bool) -> Listing {
    let Some(g) = granular(p, Granularity::Lines) else {
        // No locations: the matching functions have no lines.
        let (per_stack, total) = signed_per_stack(p, v);
        let mut no_source: Vec<String> = by_function(p, &per_stack)
            .into_iter()
            .filter(|f| (f.self_w != 0 || f.total_w != 0) && matches(f.name))
            .map(|f| f.name.to_string())
            .collect();
        no_source.sort();
        no_source.dedup();
        return Listing {
            total,
            routines: Vec::new(),
            no_source,
        };
    };
    let q = &g.profile;
    let sites = p.sites.as_deref();
    // Each node name's (function, file, line); names without a location are functions without lines.
    let mut place: BTreeMap<&str, Place> = BTreeMap::new();
    for (i, &node) in g.node.iter().enumerate() {
        let name = q.frame_name(FrameId(i as u32));
        let loc = sites.and_then(|s| s.get(node as usize));
        let entry = match loc {
            Some(l) if node != u32::MAX => {
                let file = (l.file != NO_STR).then(|| p.strings.get(l.file).to_string());
                (
                    p.frame_name(l.frame).to_string(),
                    file.filter(|f| !f.is_empty()).map(|f| (f, l.line)),
                )
            }
            _ => (name.to_string(), None),
        };
        place.entry(name).or_insert(entry);
    }
    let (per_stack, total) = signed_per_stack(q, v);
    let mut by_routine: BTreeMap<(String, String), BTreeMap<u32, (i128, i128)>> = BTreeMap::new();
    let mut seen: BTreeMap<String, bool> = BTreeMap::new();
    for f in by_function(q, &per_stack) {
        if f.self_w == 0 && f.total_w == 0 {
            continue;
        }
        let Some((function, at)) = place.get(f.name) else {
            continue;
        };
        if !matches(function) {
            continue;
        }
        let has = seen.entry(function.clone()).or_insert(false);
        if let Some((file, line)) = at {
            *has = true;
            let cost = by_routine
                .entry((function.clone(), file.clone()))
                .or_default()
                .entry(*line)
                .or_insert((0, 0));
            cost.0 += f.self_w;
            cost.1 += f.total_w;
        }
    }
    let routines = by_routine
        .into_iter()
        .map(|((function, file), lines)| {
            let lines: Vec<LineCost> = lines
                .into_iter()
                .map(|(line, (flat, cum))| LineCost { line, flat, cum })
                .collect();
            Routine {
                function,
                file,
                flat: lines.iter().map(|l| l.flat).sum(),
                cum: lines.iter().map(|l| l.cum).sum(),
                lines,
            }
        })
        .collect();
    Listing {
        total,
        routines,
        no_source: seen.into_iter().filter(|(_, has)| !has).map(|(f, _)| f).collect(),
    }
}

/// The relative paths under a source folder where `file` (a path from the profile) may be, most specific
/// first: the path itself made relative, then each shorter suffix of it (pprof's `-source_path` search), so
/// that `scorchlines/main.go` is found as `DIR/scorchlines/main.go` or `DIR/main.go`. Components that are
/// empty, `.` or `..` are left out (a profile cannot point outside the folder).
pub fn source_candidates(file: &str) -> Vec<String> {
    let parts: Vec<&str> = file
        .split(['/', '\\'])
        .filter(|c| !c.is_empty() && *c != "." && *c != "..")
        .collect();
    (0..parts.len())
        .filter_map(|i| parts.get(i..))
        .map(|rest| rest.join("/"))
        .collect()
}

/// A source line as plain text: control characters other than tab written as `\xNN`, at most `max` bytes
/// (cut at a character boundary, with `…`).
pub fn safe_line(bytes: &[u8], max: usize) -> String {
    let s = String::from_utf8_lossy(bytes);
    let s = s.trim_end_matches(['\n', '\r']);
    let mut out = String::with_capacity(s.len().min(max) + 4);
    for c in s.chars() {
        if out.len() >= max {
            out.push('…');
            break;
        }
        if c != '\t' && (c.is_control()) {
            out.push_str(&format!("\\x{:02x}", c as u32 & 0xff));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_suffixes_inside_the_folder() {
        assert_eq!(source_candidates("/a/b/c.go"), ["a/b/c.go", "b/c.go", "c.go"]);
        assert_eq!(source_candidates("../../etc/passwd"), ["etc/passwd", "passwd"]);
        assert!(source_candidates("").is_empty());
    }

    #[test]
    fn lines_are_text() {
        assert_eq!(safe_line(b"\tx <b>\x1b[1m\n", 100), "\tx <b>\\x1b[1m");
        assert_eq!(safe_line(b"abcdef", 3), "abc…");
    }
}
