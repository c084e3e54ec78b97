//! What both V8 formats share: the typed node list of a CPU profile (`nodes` with `callFrame`, linked by
//! `parent` or `children`), frame naming, and turning nodes, samples and time deltas into stacks and timed,
//! weighted samples.

use super::err;
use crate::model::{
    FrameId, FrameKind, FullSample, ImportError, ImportErrorKind, Location, ProfileBuilder, StackId, StrId,
    EMPTY_STACK, NO_STR,
};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Deserialize;

/// A time in the file's microseconds, held as integer nanoseconds (integers exactly; fractions rounded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Micros(pub i64);

impl<'de> Deserialize<'de> for Micros {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Micros;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a time in microseconds")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Micros, E> {
                v.checked_mul(1000)
                    .map(Micros)
                    .ok_or_else(|| E::custom(format!("the time {v} µs is out of range")))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Micros, E> {
                i64::try_from(v)
                    .ok()
                    .and_then(|v| v.checked_mul(1000))
                    .map(Micros)
                    .ok_or_else(|| E::custom(format!("the time {v} µs is out of range")))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Micros, E> {
                let ns = (v * 1000.0).round();
                if ns.is_finite() && ns.abs() < 9.0e18 {
                    Ok(Micros(ns as i64))
                } else {
                    Err(E::custom(format!("the time {v} µs is out of range")))
                }
            }
        }
        d.deserialize_any(V)
    }
}

fn minus_one() -> i64 {
    -1
}

/// `callFrame`: what code a node stands for.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq, Hash)]
pub(super) struct CallFrame {
    #[serde(default, rename = "functionName")]
    pub function_name: String,
    #[serde(default)]
    pub url: String,
    /// 0-based; -1 when unknown.
    #[serde(default = "minus_one", rename = "lineNumber")]
    pub line: i64,
    /// 0-based; -1 when unknown.
    #[serde(default = "minus_one", rename = "columnNumber")]
    pub column: i64,
}

/// One node of the profile's call tree.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Node {
    pub id: i64,
    #[serde(rename = "callFrame")]
    pub call_frame: CallFrame,
    /// The trace's chunks link a node to its parent…
    #[serde(default)]
    pub parent: Option<i64>,
    /// …a `.cpuprofile` links it to its children.
    #[serde(default)]
    pub children: Vec<i64>,
    /// How many of the node's own samples were on each source line (`.cpuprofile`; 1-based lines).
    #[serde(default, rename = "positionTicks")]
    pub position_ticks: Vec<PositionTick>,
}

/// One entry of `positionTicks`.
#[derive(Debug, Clone, Copy, Deserialize)]
pub(super) struct PositionTick {
    #[serde(default)]
    pub line: i64,
    #[serde(default)]
    pub ticks: u64,
}

/// One profile's content, as read: nodes, sampled node ids and time deltas, in the file's order.
#[derive(Debug, Default)]
pub(super) struct RawProfile {
    pub nodes: Vec<Node>,
    pub samples: Vec<i64>,
    pub deltas: Vec<Micros>,
    pub start: Option<Micros>,
    pub end: Option<Micros>,
    /// What errors write before a path inside the profile (`""` for a `.cpuprofile`; for a trace, which
    /// profile, as `profile "0x1" of pid 7 (traceEvents[12] on): `, its nodes counted over all its chunks).
    pub path: String,
    /// Where it starts in the input.
    pub offset: u64,
}

/// Names frames: a function's name, `(anonymous)` when empty; a name that stands for more than one location
/// among all the profiles' nodes gets its location, `NAME (URL:LINE)`, or `NAME (URL:LINE:COLUMN)` when lines
/// do not tell its locations apart (1-based, as editors count).
#[derive(Default)]
pub(super) struct Namer {
    /// Per name: its distinct locations (while adding).
    places: FxHashMap<String, FxHashSet<(String, i64, i64)>>,
    /// Per name with more than one location: whether it needs the column (two locations on one line).
    qualified: FxHashMap<String, bool>,
}

/// The name a call frame has before disambiguation.
fn base_name(cf: &CallFrame) -> String {
    let name = crate::import::safe_text(cf.function_name.trim());
    if name.is_empty() {
        "(anonymous)".to_string()
    } else {
        name
    }
}

impl Namer {
    pub(super) fn add(&mut self, cf: &CallFrame) {
        self.places
            .entry(base_name(cf))
            .or_default()
            .insert((cf.url.clone(), cf.line, cf.column));
    }

    /// Decides, once per name, how it is written (so naming costs O(nodes), however many locations a name has).
    pub(super) fn seal(&mut self) {
        for (name, places) in std::mem::take(&mut self.places) {
            if places.len() > 1 {
                let lines: FxHashSet<(&str, i64)> = places.iter().map(|(u, l, _)| (u.as_str(), *l)).collect();
                self.qualified.insert(name, lines.len() < places.len());
            }
        }
    }

    /// A call frame's name (after [`Namer::seal`]).
    pub(super) fn name(&self, cf: &CallFrame) -> String {
        let base = base_name(cf);
        let Some(&with_column) = self.qualified.get(&base) else {
            return base;
        };
        let mut loc = crate::import::safe_text(cf.url.trim());
        if cf.line >= 0 {
            if !loc.is_empty() {
                loc.push(':');
            }
            loc.push_str(&(cf.line + 1).to_string());
            if with_column && cf.column >= 0 {
                loc.push_str(&format!(":{}", cf.column + 1));
            }
        }
        if loc.is_empty() {
            base
        } else {
            format!("{base} ({loc})")
        }
    }
}

/// Node id → index, the stack of each node (`None` for the `(root)` node), and its place among the
/// locations.
type Stacks = (FxHashMap<i64, usize>, Vec<Option<StackId>>, Vec<Option<NodeSite>>);

/// A node among the locations: its frame and file, its location stack (the function's own place: `url`,
/// `lineNumber`, `columnNumber`, 1-based) and its parent's.
#[derive(Debug, Clone, Copy)]
pub(super) struct NodeSite {
    frame: FrameId,
    file: StrId,
    stack: StackId,
    parent: Option<StackId>,
}

/// A profile's nodes as stacks: the stack of each node (`None` for the `(root)` node).
pub(super) fn stacks(b: &mut ProfileBuilder, namer: &Namer, p: &RawProfile) -> Result<Stacks, ImportError> {
    let n = p.nodes.len();
    let at = |i: usize| format!("{}nodes[{i}]", p.path);
    let mut index: FxHashMap<i64, usize> = FxHashMap::default();
    for (i, node) in p.nodes.iter().enumerate() {
        if index.insert(node.id, i).is_some() {
            return Err(err(
                ImportErrorKind::Malformed,
                p.offset,
                format!("{}: node id {} appears twice", at(i), node.id),
            ));
        }
    }
    let mut parent: Vec<Option<usize>> = vec![None; n];
    for (i, node) in p.nodes.iter().enumerate() {
        if let Some(pid) = node.parent {
            let Some(&pi) = index.get(&pid) else {
                return Err(err(
                    ImportErrorKind::Malformed,
                    p.offset,
                    format!("{}.parent: node {pid} does not exist", at(i)),
                ));
            };
            if let Some(slot) = parent.get_mut(i) {
                *slot = Some(pi);
            }
        }
    }
    for (i, node) in p.nodes.iter().enumerate() {
        for (j, c) in node.children.iter().enumerate() {
            let Some(&ci) = index.get(c) else {
                return Err(err(
                    ImportErrorKind::Malformed,
                    p.offset,
                    format!("{}.children[{j}]: node {c} does not exist", at(i)),
                ));
            };
            match parent.get_mut(ci) {
                Some(slot @ None) => *slot = Some(i),
                Some(Some(other)) if *other == i => {}
                _ => {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        p.offset,
                        format!("{}.children[{j}]: node {c} already has another parent", at(i)),
                    ))
                }
            }
        }
    }
    // Each node's stack, walking up to a node already done: every node is visited once, so a chain a million
    // deep costs a million steps, and reaching a node of the current walk again is a cycle.
    const TODO: u8 = 0;
    const WALKING: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![TODO; n];
    let mut stack: Vec<Option<StackId>> = vec![None; n];
    let mut sites: Vec<Option<NodeSite>> = vec![None; n];
    let mut frames: FxHashMap<&CallFrame, FrameId> = FxHashMap::default();
    let mut walk: Vec<usize> = Vec::new();
    for start in 0..n {
        let mut cur = start;
        walk.clear();
        loop {
            match state.get(cur).copied() {
                Some(TODO) => {
                    if let Some(s) = state.get_mut(cur) {
                        *s = WALKING;
                    }
                    walk.push(cur);
                    match parent.get(cur).copied().flatten() {
                        Some(p) => cur = p,
                        None => break,
                    }
                }
                Some(WALKING) => {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        p.offset,
                        format!("{}: its chain of parents is a cycle", at(start)),
                    ))
                }
                _ => break,
            }
        }
        for &i in walk.iter().rev() {
            let Some(node) = p.nodes.get(i) else { continue };
            let up = parent.get(i).copied().flatten();
            let above = up.and_then(|u| stack.get(u).copied().flatten());
            let s = if up.is_none() && node.call_frame.function_name == "(root)" {
                None
            } else {
                let f = match frames.get(&node.call_frame) {
                    Some(&f) => f,
                    None => {
                        let f = b.frame(&namer.name(&node.call_frame), FrameKind::User);
                        frames.insert(&node.call_frame, f);
                        f
                    }
                };
                let cf = &node.call_frame;
                let url = crate::import::safe_text(cf.url.trim());
                let file = if url.is_empty() { NO_STR } else { b.intern(&url) };
                let one_based = |x: i64| u32::try_from(x.saturating_add(1)).unwrap_or(0);
                let loc = b.location(Location {
                    file,
                    line: one_based(cf.line),
                    column: one_based(cf.column),
                    ..Location::of(f)
                });
                let parent = up.and_then(|u| sites.get(u).copied().flatten()).map(|s| s.stack);
                if let Some(x) = sites.get_mut(i) {
                    *x = Some(NodeSite {
                        frame: f,
                        file,
                        stack: b.site_stack(parent, loc),
                        parent,
                    });
                }
                Some(b.stack(above, f))
            };
            if let Some(x) = stack.get_mut(i) {
                *x = s;
            }
            if let Some(x) = state.get_mut(i) {
                *x = DONE;
            }
        }
    }
    Ok((index, stack, sites))
}

/// Adds a profile's samples: sample `i` is at `start + Σ deltas[..=i]` and weighs the time to the next sample
/// (the last one: to `end`, when the file has it), in nanoseconds; a sample followed by a negative delta (time
/// going back) weighs 0, and `back` counts those deltas.
pub(super) fn add_samples(
    b: &mut ProfileBuilder,
    namer: &Namer,
    p: &RawProfile,
    thread: Option<u32>,
    back: &mut u64,
) -> Result<u64, ImportError> {
    let (index, stack, sites) = stacks(b, namer, p)?;
    // Each node's `positionTicks` left to give out: its samples, in the file's order, take the lines of its
    // ticks in the file's order (the file has per-line counts, not which sample was on which line), then the
    // function's own place once the ticks are spent.
    let mut ticks: Vec<(usize, u64)> = vec![(0, 0); p.nodes.len()];
    let pre = &p.path;
    if p.samples.len() != p.deltas.len() {
        return Err(err(
            ImportErrorKind::Malformed,
            p.offset,
            format!(
                "{pre}samples has {} entries but {pre}timeDeltas has {}",
                p.samples.len(),
                p.deltas.len()
            ),
        ));
    }
    // Times first (exact, checked), then each sample with the gap to the next.
    let mut times: Vec<u64> = Vec::with_capacity(p.samples.len());
    let mut t = i128::from(p.start.unwrap_or_default().0);
    for (i, d) in p.deltas.iter().enumerate() {
        t += i128::from(d.0);
        if d.0 < 0 {
            *back += 1;
        }
        let Ok(ns) = u64::try_from(t) else {
            return Err(err(
                ImportErrorKind::Overflow,
                p.offset,
                format!("{pre}timeDeltas[{i}]: the time of sample {i} is out of range ({t} ns)"),
            ));
        };
        times.push(ns);
    }
    let end = p.end.and_then(|e| u64::try_from(e.0).ok());
    for (i, id) in p.samples.iter().enumerate() {
        let Some(&ni) = index.get(id) else {
            return Err(err(
                ImportErrorKind::Malformed,
                p.offset,
                format!("{pre}samples[{i}]: node {id} does not exist"),
            ));
        };
        let s = stack.get(ni).copied().flatten().unwrap_or(EMPTY_STACK);
        let site =
            sites
                .get(ni)
                .copied()
                .flatten()
                .map(|ns| match next_tick_line(&p.nodes, &mut ticks, ni) {
                    Some(line) => {
                        let loc = b.location(Location {
                            file: ns.file,
                            line,
                            ..Location::of(ns.frame)
                        });
                        b.site_stack(ns.parent, loc)
                    }
                    None => ns.stack,
                });
        let now = times.get(i).copied().unwrap_or(0);
        let next = times.get(i + 1).copied().or(end).unwrap_or(now);
        b.push_full_sample(
            FullSample {
                stack: s,
                weight: next.saturating_sub(now),
                time_ns: Some(now),
                thread,
                event: None,
                cpu: None,
                labels: None,
            },
            p.offset,
        )?;
        if let Some(site) = site {
            b.set_sample_site(site);
        }
    }
    Ok(p.samples.len() as u64)
}

/// The line of node `ni`'s next sample by its `positionTicks` (`cursor[ni]`: the entry reached and the ticks
/// of it given out), or `None` when they are spent (or name no line).
fn next_tick_line(nodes: &[Node], cursor: &mut [(usize, u64)], ni: usize) -> Option<u32> {
    let ticks = &nodes.get(ni)?.position_ticks;
    let (at, used) = cursor.get_mut(ni)?;
    loop {
        let t = ticks.get(*at)?;
        if *used < t.ticks {
            *used += 1;
            return u32::try_from(t.line).ok().filter(|&l| l > 0);
        }
        *at += 1;
        *used = 0;
    }
}
