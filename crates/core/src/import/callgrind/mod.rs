//! Callgrind's profile format (`valgrind --tool=callgrind`, `callgrind.out.PID`; cachegrind's files are its
//! subset), read line by line as it arrives: the call graph is kept (each function's self cost and each call's
//! inclusive cost, per event), never the lines.
//!
//! - Every column of `events:` (`Ir`, and `Dr`, `D1mr`, `Bc`, … with `--cache-sim`/`--branch-sim`) is an event
//!   of the profile, in its own unit; the first is the default (as `callgrind_annotate` sorts by it).
//! - A function is its object (`ob=`), file (`fl=`) and name (`fn=`), as KCachegrind has it: `fi=`/`fe=`
//!   (inlined code from another file) change the file of the lines that follow, not the function. A frame is
//!   the function's name; a name that two functions share gets its file, `name (file)`, and if that is still
//!   shared its object too. Recursion levels that callgrind names apart (`fib'2`) stay apart.
//! - Name compression: `(id) name` defines, `(id)` refers (one space for `ob`/`cob`, one for
//!   `fl`/`fi`/`fe`/`cfi`/`cfl`/`jfi`, one for `fn`/`cfn`/`jfn`); an undefined id is named as written, with a
//!   warning.
//! - A cost line is the `positions:` columns (absolute, hex, or `+N`/`-N`/`*` relative; skipped) then the
//!   costs, missing ones zero; after `calls=COUNT TARGET` the next cost line is the call's inclusive cost to
//!   the function of the last `cfn=` (in the file of `cfi=`/`cfl=` and object of `cob=` when given just before
//!   it, else the caller's current ones). `jump=`/`jcnd=` are skipped.
//! - Costs of every `part:` are added up. `totals:` (or `summary:`) is checked against the cost lines: a
//!   difference is a warning.
//! - The call graph becomes stacks as `import/graph.rs` says (a graph does not say which caller did which
//!   work below a shared callee: each gets the callee's average).

mod sniff;
#[cfg(test)]
mod tests;

pub use sniff::CallgrindFormat;

use crate::import::graph::{self, Budget, Graph};
use crate::import::lines::{trim_ascii, LinePos, LineSplitter};
use crate::model::{
    Format, FrameId, FrameKind, ImportError, ImportErrorKind, Profile, ProfileBuilder, Unit, WarningKind,
    Warnings,
};
use rustc_hash::FxHashMap;

/// Most event columns accepted (callgrind writes at most about twenty).
const MAX_EVENTS: usize = 256;

/// Options for the callgrind importer.
#[derive(Debug, Clone)]
pub struct CallgrindOptions {
    /// Longest accepted line in bytes. Default is 64 MiB.
    pub max_line: usize,
    /// How many warnings are kept with their text (all are counted). Default is `None`:
    /// [`crate::model::Warnings::KEEP`].
    pub keep_warnings: Option<usize>,
}

impl Default for CallgrindOptions {
    fn default() -> Self {
        CallgrindOptions {
            max_line: 64 << 20,
            keep_warnings: None,
        }
    }
}

fn err(kind: ImportErrorKind, pos: LinePos, msg: impl Into<String>) -> ImportError {
    ImportError::new(Some(Format::Callgrind), kind, pos.offset, Some(pos.line), msg)
}

/// The name spaces of name compression.
#[derive(Clone, Copy)]
enum Space {
    Object = 0,
    File = 1,
    Function = 2,
}

/// Reads a callgrind file fed in chunks; see the module doc.
pub struct CallgrindParser {
    lines: LineSplitter,
    st: State,
}

#[derive(Default)]
struct State {
    warnings: Warnings,
    events: Option<Vec<String>>,
    positions: usize,
    /// Interned names (objects, files, functions); id 0 is the empty name.
    names: Vec<String>,
    name_ids: FxHashMap<String, u32>,
    compressed: [FxHashMap<u64, u32>; 3],
    ob: u32,
    fl: u32,
    file: u32,
    func: Option<u32>,
    cob: Option<u32>,
    cfi: Option<u32>,
    callee: Option<u32>,
    /// After `calls=`: the next cost line is the call's (`Some(false)`: a call to skip).
    call: Option<bool>,
    funcs: FxHashMap<(u32, u32, u32), u32>,
    func_keys: Vec<(u32, u32, u32)>,
    self_cost: FxHashMap<(u32, u16), u64>,
    edges: FxHashMap<(u32, u32), u32>,
    edge_pairs: Vec<(u32, u32)>,
    edge_cost: FxHashMap<(u32, u16), u64>,
    calls: u64,
    totals: Option<(Vec<u64>, &'static str)>,
    cost_lines: u64,
    cmd: Option<String>,
    creator: Option<String>,
}

impl CallgrindParser {
    pub fn new(opts: &CallgrindOptions) -> Self {
        let mut st = State {
            positions: 1,
            ..State::default()
        };
        st.intern("");
        if let Some(k) = opts.keep_warnings {
            st.warnings = Warnings::keeping(k);
        }
        CallgrindParser {
            lines: LineSplitter::new(Format::Callgrind, opts.max_line),
            st,
        }
    }

    /// Cost lines read so far (for progress).
    pub fn samples(&self) -> usize {
        self.st.cost_lines as usize
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        let st = &mut self.st;
        self.lines.feed(chunk, |line, pos| st.line(line, pos))
    }

    pub fn finish(mut self) -> Result<Profile, ImportError> {
        let st = &mut self.st;
        self.lines.finish(|line, pos| st.line(line, pos))?;
        let end = self.lines.position();
        self.st.build(end)
    }
}

impl State {
    fn intern(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.name_ids.get(s) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(s.to_string());
        self.name_ids.insert(s.to_string(), i);
        i
    }

    fn name(&self, i: u32) -> &str {
        self.names.get(i as usize).map_or("", String::as_str)
    }

    fn warn(&mut self, kind: WarningKind, pos: LinePos, msg: impl Into<String>) {
        self.warnings.push(kind, pos.line, pos.offset, msg);
    }

    fn line(&mut self, raw: &[u8], pos: LinePos) -> Result<(), ImportError> {
        let line = trim_ascii(raw);
        if line.is_empty() || line.first() == Some(&b'#') {
            return Ok(());
        }
        let text = match std::str::from_utf8(line) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => {
                self.warn(WarningKind::InvalidUtf8, pos, "invalid UTF-8 (shown as U+FFFD)");
                String::from_utf8_lossy(line)
            }
        };
        let key_end = text
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(text.len());
        let (key, rest) = text.split_at(key_end);
        match rest.chars().next() {
            Some('=') if !key.is_empty() => self.spec(key, rest.get(1..).unwrap_or_default(), pos),
            Some(':') if !key.is_empty() && key.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                self.header(key, rest.get(1..).unwrap_or_default().trim(), pos)
            }
            _ => self.cost(&text, pos),
        }
    }

    // events: Ir Dr Dw
    // positions: instr line
    // totals: 340310
    fn header(&mut self, key: &str, value: &str, pos: LinePos) -> Result<(), ImportError> {
        match key {
            "events" => {
                let names: Vec<String> = value.split_ascii_whitespace().map(str::to_string).collect();
                if names.is_empty() {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        pos,
                        "an `events:` line names no event",
                    ));
                }
                if names.len() > MAX_EVENTS {
                    return Err(err(
                        ImportErrorKind::LimitExceeded,
                        pos,
                        format!("{} events: more than the limit of {MAX_EVENTS}", names.len()),
                    ));
                }
                match &self.events {
                    Some(old) if *old != names => {
                        return Err(err(
                            ImportErrorKind::Malformed,
                            pos,
                            format!(
                                "a part names other events ({}) than the first ({})",
                                names.join(" "),
                                old.join(" ")
                            ),
                        ))
                    }
                    _ => self.events = Some(names),
                }
            }
            "positions" => self.positions = value.split_ascii_whitespace().count().min(3),
            "totals" | "summary" => {
                let Some(costs) = self.costs(value.split_ascii_whitespace(), pos) else {
                    return Ok(());
                };
                let kind = if key == "totals" { "totals" } else { "summary" };
                match &mut self.totals {
                    // `totals:` wins over `summary:`; each part's are added up.
                    Some((sum, k)) if *k == kind => {
                        for (s, c) in sum.iter_mut().zip(costs) {
                            *s = s.saturating_add(c);
                        }
                    }
                    Some((_, "totals")) => {}
                    _ => self.totals = Some((costs, kind)),
                }
            }
            "cmd" => self.cmd = Some(value.to_string()),
            "creator" => self.creator = Some(value.to_string()),
            // version, pid, thread, part, desc, event (long names and derived events): nothing to keep.
            _ => {}
        }
        Ok(())
    }

    /// A name after `spec=`: `(id) name` defines, `(id)` refers, anything else is the name itself.
    fn compressed(&mut self, space: Space, value: &str, pos: LinePos) -> u32 {
        let value = value.trim();
        let id = value
            .strip_prefix('(')
            .and_then(|r| r.split_once(')'))
            .and_then(|(id, rest)| Some((id.parse::<u64>().ok()?, rest.trim())));
        let map = space as usize;
        match id {
            Some((id, "")) => match self.compressed.get(map).and_then(|m| m.get(&id)) {
                Some(&i) => i,
                None => {
                    self.warn(
                        WarningKind::UnreadableLine,
                        pos,
                        format!("name id ({id}) is used before it is defined; it is named as written"),
                    );
                    self.intern(value)
                }
            },
            Some((id, name)) => {
                let i = self.intern(name);
                if let Some(m) = self.compressed.get_mut(map) {
                    m.insert(id, i);
                }
                i
            }
            None => self.intern(value),
        }
    }

    fn function(&mut self, key: (u32, u32, u32)) -> u32 {
        if let Some(&i) = self.funcs.get(&key) {
            return i;
        }
        let i = self.func_keys.len() as u32;
        self.func_keys.push(key);
        self.funcs.insert(key, i);
        i
    }

    // fl=(3) /usr/src/prog.c
    // fn=(12) main
    // cfn=(14) start
    // calls=3 0x401136
    fn spec(&mut self, key: &str, value: &str, pos: LinePos) -> Result<(), ImportError> {
        match key {
            "ob" => self.ob = self.compressed(Space::Object, value, pos),
            "fl" => {
                self.fl = self.compressed(Space::File, value, pos);
                self.file = self.fl;
            }
            "fi" | "fe" => self.file = self.compressed(Space::File, value, pos),
            "fn" => {
                let name = self.compressed(Space::Function, value, pos);
                self.func = Some(self.function((self.ob, self.fl, name)));
                (self.callee, self.cob, self.cfi, self.call) = (None, None, None, None);
            }
            "cob" => self.cob = Some(self.compressed(Space::Object, value, pos)),
            "cfi" | "cfl" => self.cfi = Some(self.compressed(Space::File, value, pos)),
            "cfn" => {
                let name = self.compressed(Space::Function, value, pos);
                let (ob, file) = (
                    self.cob.take().unwrap_or(self.ob),
                    self.cfi.take().unwrap_or(self.file),
                );
                self.callee = Some(self.function((ob, file, name)));
            }
            "jfi" => {
                self.compressed(Space::File, value, pos);
            }
            "jfn" => {
                self.compressed(Space::Function, value, pos);
            }
            "calls" => {
                let count = value
                    .split_ascii_whitespace()
                    .next()
                    .and_then(|c| c.parse::<u64>().ok());
                let ok = self.func.is_some() && self.callee.is_some() && count.is_some();
                if !ok {
                    self.warn(
                        WarningKind::UnreadableLine,
                        pos,
                        "a `calls=` line without a count, a function (`fn=`) or a callee (`cfn=`): the call is skipped",
                    );
                } else {
                    self.calls = self.calls.saturating_add(count.unwrap_or(0));
                }
                self.call = Some(ok);
            }
            "jump" | "jcnd" => {}
            _ => self.warn(
                WarningKind::UnreadableLine,
                pos,
                format!("`{key}=` is not a callgrind specification; skipped"),
            ),
        }
        Ok(())
    }

    /// Cost numbers: decimal, at most one per event; `None` (with a warning) when one cannot be read.
    fn costs<'a>(&mut self, tokens: impl Iterator<Item = &'a str>, pos: LinePos) -> Option<Vec<u64>> {
        let n = self.events.as_ref().map_or(0, Vec::len);
        let mut out = Vec::with_capacity(n);
        for t in tokens {
            match t.parse::<u64>() {
                Ok(v) if out.len() < n => out.push(v),
                Ok(_) => {
                    self.warn(
                        WarningKind::BadCount,
                        pos,
                        format!("more costs than the {n} events; line skipped"),
                    );
                    return None;
                }
                Err(_) => {
                    self.warn(
                        WarningKind::BadCount,
                        pos,
                        format!("`{t}` is not a cost (a whole number below 2^64); line skipped"),
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    // 16 20
    // +3 * 5
    // 0x80001234 90 1
    fn cost(&mut self, text: &str, pos: LinePos) -> Result<(), ImportError> {
        if self.events.is_none() {
            return Err(err(
                ImportErrorKind::Malformed,
                pos,
                "a cost line comes before the `events:` line that names its columns",
            ));
        }
        let call = self.call.take();
        let mut tokens = text.split_ascii_whitespace();
        for _ in 0..self.positions {
            let ok = tokens.next().is_some_and(|t| {
                let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
                t == "*"
                    || (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                    || t.strip_prefix("0x")
                        .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
            });
            if !ok {
                self.warn(
                    WarningKind::UnreadableLine,
                    pos,
                    "not a cost line (its position is unreadable); skipped",
                );
                return Ok(());
            }
        }
        let Some(costs) = self.costs(tokens, pos) else {
            return Ok(());
        };
        let Some(func) = self.func else {
            self.warn(
                WarningKind::UnreadableLine,
                pos,
                "a cost line before any `fn=`; skipped",
            );
            return Ok(());
        };
        self.cost_lines += 1;
        match (call, self.callee) {
            (Some(false), _) => {}
            (Some(true), Some(callee)) => {
                let next = self.edge_pairs.len() as u32;
                let e = *self.edges.entry((func, callee)).or_insert(next);
                if e == next {
                    self.edge_pairs.push((func, callee));
                }
                if !add(&mut self.edge_cost, e, &costs) {
                    self.warn(
                        WarningKind::Overflow,
                        pos,
                        "a call's cost passes 2^64-1; kept at 2^64-1",
                    );
                }
            }
            _ => {
                if !add(&mut self.self_cost, func, &costs) {
                    self.warn(
                        WarningKind::Overflow,
                        pos,
                        "a function's cost passes 2^64-1; kept at 2^64-1",
                    );
                }
            }
        }
        Ok(())
    }

    /// The display name of every function (see the module doc).
    fn frame_names(&self) -> Vec<String> {
        let mut by_name: FxHashMap<&str, u32> = FxHashMap::default();
        let mut by_file: FxHashMap<(&str, &str), u32> = FxHashMap::default();
        for &(ob, fl, f) in &self.func_keys {
            *by_name.entry(self.name(f)).or_default() += 1;
            *by_file.entry((self.name(f), self.name(fl))).or_default() += 1;
            let _ = ob;
        }
        self.func_keys
            .iter()
            .map(|&(ob, fl, f)| {
                let (n, file, obj) = (self.name(f), self.name(fl), self.name(ob));
                let n = if n.is_empty() { "???" } else { n };
                if by_name.get(n).copied().unwrap_or(0) <= 1 {
                    n.to_string()
                } else if by_file.get(&(n, file)).copied().unwrap_or(0) <= 1 {
                    format!("{n} ({file})")
                } else {
                    format!("{n} ({file}; {obj})")
                }
            })
            .collect()
    }

    fn build(mut self, end: LinePos) -> Result<Profile, ImportError> {
        let Some(events) = self.events.take() else {
            return Err(err(
                ImportErrorKind::Malformed,
                end,
                "no `events:` line: not a callgrind profile",
            ));
        };
        if self.cost_lines == 0 {
            return Err(err(ImportErrorKind::NoValidRecords, end, "no cost lines"));
        }
        let mut b = ProfileBuilder::new(Format::Callgrind);
        let frames: Vec<FrameId> = self
            .frame_names()
            .iter()
            .map(|n| b.frame(n, FrameKind::User))
            .collect();
        let n = self.func_keys.len();
        let mut self_by_event = vec![vec![0u64; 0]; events.len()];
        for (&(f, e), &c) in &self.self_cost {
            if let Some(v) = self_by_event.get_mut(e as usize) {
                if v.is_empty() {
                    v.resize(n, 0);
                }
                if let Some(x) = v.get_mut(f as usize) {
                    *x = c;
                }
            }
        }
        // Per event, its calls in the order they came.
        let mut costs: Vec<(u16, u32, u64)> =
            self.edge_cost.iter().map(|(&(e, ev), &w)| (ev, e, w)).collect();
        costs.sort_unstable();
        let mut edges_by_event: Vec<Vec<(u32, u32, u64)>> = vec![Vec::new(); events.len()];
        for (ev, e, w) in costs {
            if let (Some(list), Some(&(a, c))) = (
                edges_by_event.get_mut(ev as usize),
                self.edge_pairs.get(e as usize),
            ) {
                list.push((a, c, w));
            }
        }
        let mut budget = Budget::default();
        let mut done = graph::Expanded::default();
        for (ev, name) in events.iter().enumerate() {
            let id = b.event(name, Unit::Other(name.clone()));
            let mut selfs = std::mem::take(self_by_event.get_mut(ev).unwrap_or(&mut Vec::new()));
            // No self cost in an event: nothing to expand (its calls' costs are the callees' self costs).
            if !selfs.is_empty() {
                selfs.resize(n, 0);
                let g = Graph {
                    self_cost: &selfs,
                    edges: edges_by_event.get(ev).map_or(&[], Vec::as_slice),
                    roots: None,
                };
                let d = graph::expand(&g, &mut b, &frames, Some(id), &mut budget, Format::Callgrind)?;
                if ev == 0 {
                    done = d;
                } else {
                    done.cut += d.cut;
                }
            }
            if let Some((totals, kind)) = &self.totals {
                let sum: u128 = selfs.iter().map(|&x| u128::from(x)).sum();
                let stated = u128::from(totals.get(ev).copied().unwrap_or(0));
                if (*kind == "totals" && sum != stated) || (*kind == "summary" && sum > stated) {
                    self.warnings.push(
                        WarningKind::Inconsistent,
                        0,
                        0,
                        format!("the file's `{kind}:` says {stated} {name}, its cost lines add up to {sum}"),
                    );
                }
            }
        }
        if done.cut > 0 {
            self.warnings.push(
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
        b.set_default_event(0);
        if let Some(cmd) = self.cmd.take() {
            b.add_info("command", cmd);
        }
        if let Some(c) = self.creator.take() {
            b.add_info("creator", c);
        }
        b.add_info("functions", n.to_string());
        b.add_info(
            "call graph",
            format!(
                "{} caller-callee pairs, {} calls; stacks expanded from the graph (each caller gets a callee's average split)",
                self.edge_pairs.len(),
                self.calls
            ),
        );
        if done.back_edges > 0 {
            b.add_info(
                "recursion",
                format!(
                    "{} calls close a cycle and are not expanded (their cost stays with the callee's self)",
                    done.back_edges
                ),
            );
        }
        let unit = Unit::Other(events.first().cloned().unwrap_or_default());
        Ok(b.build(unit, 0, self.cost_lines, self.warnings))
    }
}

/// Adds a line's costs to `(id, event)` entries (zeros are not stored); false when a sum passed 2^64-1.
fn add(map: &mut FxHashMap<(u32, u16), u64>, id: u32, costs: &[u64]) -> bool {
    let mut ok = true;
    for (e, &c) in costs.iter().enumerate() {
        if c > 0 {
            let x = map.entry((id, e as u16)).or_default();
            ok &= x.checked_add(c).is_some();
            *x = x.saturating_add(c);
        }
    }
    ok
}
