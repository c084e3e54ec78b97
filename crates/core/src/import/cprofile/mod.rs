//! Python's cProfile/profile output as `pstats` saves it (`python -m cProfile -o FILE`,
//! `Profile.dump_stats`, `Stats.dump_stats`): one marshalled dict `{(file, line, name): (cc, nc, tt, ct,
//! callers)}` where `callers` is `{(file, line, name): (nc, cc, tt, ct)}` (cProfile) or `{…: nc}` (the pure
//! Python `profile` module). Held whole (capped by `max_bytes`) and read at the end: marshal is not a stream.
//!
//! - A function is its key; its frame is its name, builtins (file `~`) as pstats prints them (`{built-in
//!   method builtins.len}` for `<built-in method builtins.len>`), and a name two functions share gets its
//!   place, `name (file:line)`.
//! - Event `time` (the default; nanoseconds): self = `tt` (tottime), each caller → callee edge the callee's
//!   `ct` (cumtime) from that caller; a graph, not stacks, expanded by `import/graph.rs` as callgrind's is.
//! - Events `calls` and `primitive calls`: `nc` and `cc` per function, each on a one-frame stack (a count of
//!   calls does not split over the paths that lead to a function).
//!
//! Files: `marshal.rs` (the object reader), `sniff.rs`.

mod marshal;
mod sniff;
#[cfg(test)]
mod tests;

pub use sniff::CprofileFormat;

use crate::import::graph::{self, Budget, Graph};
use crate::model::{
    Format, FrameId, FrameKind, FullSample, ImportError, ImportErrorKind, Profile, ProfileBuilder, Unit,
    WarningKind, Warnings,
};
use marshal::{Reader, Val};
use rustc_hash::FxHashMap;
use std::rc::Rc;

const F: Format = Format::Cprofile;

/// Options for the cProfile importer.
#[derive(Debug, Clone)]
pub struct CprofileOptions {
    /// Largest file (held whole to read), in bytes. Default is 1 GiB.
    pub max_bytes: usize,
}

impl Default for CprofileOptions {
    fn default() -> Self {
        CprofileOptions { max_bytes: 1 << 30 }
    }
}

fn err(kind: ImportErrorKind, offset: u64, msg: impl Into<String>) -> ImportError {
    ImportError::new(Some(F), kind, offset, None, msg)
}

/// Collects the file, then reads it at [`CprofileParser::finish`].
pub struct CprofileParser {
    buf: Vec<u8>,
    max: usize,
}

/// A function's key: file, line, name.
type Key = (Rc<str>, i64, Rc<str>);

/// One function's numbers as read.
struct Stat {
    cc: u64,
    nc: u64,
    tt: u64,
    callers: Vec<(Key, u64)>,
}

impl CprofileParser {
    pub fn new(opts: &CprofileOptions) -> Self {
        CprofileParser {
            buf: Vec::new(),
            max: opts.max_bytes,
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        if self.buf.len().saturating_add(chunk.len()) > self.max {
            return Err(err(
                ImportErrorKind::LimitExceeded,
                self.max as u64,
                format!("the file is larger than the limit of {} bytes", self.max),
            ));
        }
        self.buf.extend_from_slice(chunk);
        Ok(())
    }

    pub fn finish(self) -> Result<Profile, ImportError> {
        let mut r = Reader::new(&self.buf);
        let top = r
            .read(0)
            .map_err(|e| err(ImportErrorKind::Malformed, e.offset, e.message))?;
        if r.position() < self.buf.len() {
            return Err(err(
                ImportErrorKind::Malformed,
                r.position() as u64,
                "bytes after the stats dict",
            ));
        }
        let offsets = std::mem::take(&mut r.entry_offsets);
        drop(r);
        let Val::Dict(entries) = top else {
            return Err(err(
                ImportErrorKind::Malformed,
                0,
                "the file holds no dict: not pstats",
            ));
        };
        read_stats(&entries, &offsets, self.buf.len())
    }
}

/// A `(file, line, name)` key.
fn key(v: &Val) -> Option<Key> {
    let Val::Tuple(t) = v else { return None };
    match &t[..] {
        [Val::Str(f), Val::Int(l), Val::Str(n)] => Some((f.clone(), *l, n.clone())),
        _ => None,
    }
}

/// A count (an int of at least 0).
fn count(v: &Val) -> Option<u64> {
    match v {
        Val::Int(x) => u64::try_from(*x).ok(),
        _ => None,
    }
}

/// Seconds (a float, or an int from a custom timer) as whole nanoseconds, rounded half to even as Python's
/// `round` does; `None` for a negative or non-finite time, or one past 2^64 ns.
fn nanos(v: &Val) -> Option<Option<u64>> {
    let s = match v {
        Val::Float(x) => *x,
        Val::Int(x) => *x as f64,
        _ => return None,
    };
    let ns = (s * 1e9).round_ties_even();
    Some((0.0..1.8e19).contains(&ns).then_some(ns as u64))
}

/// The stats dict's entries (each starting at `offsets[i]`) as a profile.
fn read_stats(entries: &[(Val, Val)], offsets: &[usize], input: usize) -> Result<Profile, ImportError> {
    let mut warnings = Warnings::default();
    let mut bad_time = 0u64;
    let mut time = |v: &Val, at: u64, what: &dyn Fn() -> String| -> Result<u64, ImportError> {
        match nanos(v) {
            Some(Some(ns)) => Ok(ns),
            Some(None) => {
                bad_time += 1;
                Ok(0)
            }
            None => Err(err(
                ImportErrorKind::Malformed,
                at,
                format!("{}: not a time", what()),
            )),
        }
    };
    // Callers lists that references share are walked once per use: cap the walk by the input's size.
    let mut budget = 16 * input as u64 + 1_000_000;
    let mut index: FxHashMap<Key, u32> = FxHashMap::default();
    let mut keys: Vec<Key> = Vec::new();
    let mut stats: Vec<Option<Stat>> = Vec::new();
    let mut intern = |k: Key, keys: &mut Vec<Key>, stats: &mut Vec<Option<Stat>>| -> u32 {
        *index.entry(k.clone()).or_insert_with(|| {
            keys.push(k);
            stats.push(None);
            (keys.len() - 1) as u32
        })
    };
    for (i, (k, v)) in entries.iter().enumerate() {
        let off = offsets.get(i).copied().unwrap_or(0) as u64;
        let at = || format!("entry {i}");
        let Some(k) = key(k) else {
            return Err(err(
                ImportErrorKind::Malformed,
                off,
                format!("{}: its key is not (file, line, name)", at()),
            ));
        };
        let name = || format!("entry {i} ({}:{}({}))", k.0, k.1, k.2);
        let Val::Tuple(t) = v else {
            return Err(err(
                ImportErrorKind::Malformed,
                off,
                format!("{}: not a tuple", name()),
            ));
        };
        let [cc, nc, tt, _ct, callers] = &t[..] else {
            return Err(err(
                ImportErrorKind::Malformed,
                off,
                format!("{}: {} numbers, not (cc, nc, tt, ct, callers)", name(), t.len()),
            ));
        };
        let (Some(cc), Some(nc)) = (count(cc), count(nc)) else {
            return Err(err(
                ImportErrorKind::Malformed,
                off,
                format!("{}: a call count is not a whole number", name()),
            ));
        };
        let tt = time(tt, off, &name)?;
        let Val::Dict(callers) = callers else {
            return Err(err(
                ImportErrorKind::Malformed,
                off,
                format!("{}: its callers are not a dict", name()),
            ));
        };
        budget = budget.checked_sub(callers.len() as u64 + 1).ok_or_else(|| {
            err(
                ImportErrorKind::LimitExceeded,
                off,
                format!(
                    "{}: the callers lists, shared by reference, add up to more than the input allows",
                    name()
                ),
            )
        })?;
        let mut list = Vec::with_capacity(callers.len());
        for (ck, cv) in callers.iter() {
            let Some(ck) = key(ck) else {
                return Err(err(
                    ImportErrorKind::Malformed,
                    off,
                    format!("{}: a caller is not (file, line, name)", name()),
                ));
            };
            // cProfile: (nc, cc, tt, ct); profile: nc alone (no time per edge).
            let four = match cv {
                Val::Tuple(x) => match &x[..] {
                    [_, _, _, ct] => Some(ct),
                    _ => None,
                },
                _ => None,
            };
            let ct = match (four, cv) {
                (Some(ct), _) => time(ct, off, &name)?,
                (None, Val::Int(_)) => 0,
                _ => {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        off,
                        format!("{}: a caller's numbers are not (nc, cc, tt, ct)", name()),
                    ))
                }
            };
            list.push((ck, ct));
        }
        let id = intern(k, &mut keys, &mut stats);
        if let Some(slot) = stats.get_mut(id as usize) {
            // A key twice: the last wins, as in the dict Python reads.
            *slot = Some(Stat {
                cc,
                nc,
                tt,
                callers: list,
            });
        }
    }
    if bad_time > 0 {
        warnings.push(
            WarningKind::BadCount,
            0,
            0,
            format!("{bad_time} times are negative, not finite or past 2^64 ns; taken as 0"),
        );
    }
    if keys.is_empty() {
        return Err(err(ImportErrorKind::NoValidRecords, 0, "the stats dict is empty"));
    }
    // Edges: each caller (a function too, even if it has no entry of its own) to its callee.
    let mut edges: Vec<(u32, u32, u64)> = Vec::new();
    let mut seen: FxHashMap<(u32, u32), usize> = FxHashMap::default();
    let n_entries = stats.len();
    let mut calls = 0u64;
    for callee in 0..n_entries {
        let list = stats
            .get_mut(callee)
            .and_then(Option::as_mut)
            .map(|s| std::mem::take(&mut s.callers));
        for (ck, ct) in list.unwrap_or_default() {
            let caller = intern(ck, &mut keys, &mut stats);
            let next = edges.len();
            let e = *seen.entry((caller, callee as u32)).or_insert(next);
            if e == next {
                edges.push((caller, callee as u32, ct));
            } else if let Some(x) = edges.get_mut(e) {
                x.2 = x.2.saturating_add(ct);
            }
        }
    }
    let mut b = ProfileBuilder::new(F);
    let frames: Vec<FrameId> = frame_names(&keys)
        .iter()
        .map(|n| b.frame(n, FrameKind::User))
        .collect();
    let n = keys.len();
    let stat = |i: usize| stats.get(i).and_then(Option::as_ref);
    let self_time: Vec<u64> = (0..n).map(|i| stat(i).map_or(0, |s| s.tt)).collect();
    let time_event = b.event("time", Unit::Nanoseconds);
    let mut budget = Budget::default();
    // The roots are the functions nobody called (cProfile: where profiling began, `exec` under `-m cProfile`).
    let mut roots = vec![true; n];
    for &(_, callee, _) in &edges {
        if let Some(r) = roots.get_mut(callee as usize) {
            *r = false;
        }
    }
    let g = Graph {
        self_cost: &self_time,
        edges: &edges,
        roots: Some(&roots),
    };
    let done = graph::expand(&g, &mut b, &frames, Some(time_event), &mut budget, F)?;
    for (name, pick) in [("calls", 0usize), ("primitive calls", 1)] {
        let e = b.event(name, Unit::Other("calls".to_string()));
        for (i, &frame) in frames.iter().enumerate() {
            let c = stat(i).map_or(0, |s| if pick == 0 { s.nc } else { s.cc });
            if pick == 0 {
                calls = calls.saturating_add(c);
            }
            if c > 0 {
                let stack = b.stack(None, frame);
                b.push_full_sample(
                    FullSample {
                        stack,
                        weight: c,
                        time_ns: None,
                        thread: None,
                        event: Some(e),
                        cpu: None,
                        labels: None,
                    },
                    0,
                )?;
            }
        }
    }
    if done.cut > 0 {
        warnings.push(
            WarningKind::GraphCut,
            0,
            0,
            format!(
                "the call graph has more paths than scorch expands: {} functions get one path each, through `{}` (their costs are exact)",
                done.cut,
                graph::CUT_FRAME
            ),
        );
    }
    b.set_default_event(time_event);
    b.add_info("functions", n_entries.to_string());
    b.add_info(
        "call graph",
        format!(
            "{} caller-callee pairs, {calls} calls; stacks expanded from the graph (each caller gets a callee's average split)",
            edges.len()
        ),
    );
    if done.back_edges > 0 {
        b.add_info(
            "recursion",
            format!(
                "{} calls close a cycle and are not expanded (their time stays with the callee's self)",
                done.back_edges
            ),
        );
    }
    Ok(b.build(Unit::Nanoseconds, 0, n_entries as u64, warnings))
}

/// Each function's frame name: its name, with `(file:line)` when another function has the same name.
fn frame_names(keys: &[Key]) -> Vec<String> {
    let mut by_name: FxHashMap<&str, u32> = FxHashMap::default();
    for (_, _, name) in keys {
        *by_name.entry(name).or_default() += 1;
    }
    keys.iter()
        .map(|(file, line, name)| {
            let shown = match name.strip_prefix('<').and_then(|n| n.strip_suffix('>')) {
                Some(inner) if &**file == "~" && *line == 0 => format!("{{{inner}}}"),
                _ => name.to_string(),
            };
            if by_name.get(&**name).copied().unwrap_or(0) <= 1 {
                safe(&shown)
            } else {
                format!("{} ({}:{line})", safe(&shown), safe(file))
            }
        })
        .collect()
}

/// Control characters as `\xNN` ([`crate::import::safe_text`]); an empty name as `(empty)`.
fn safe(s: &str) -> String {
    let out = crate::import::safe_text(s);
    if out.is_empty() {
        "(empty)".to_string()
    } else {
        out
    }
}
