//! The call graph of a view (pprof's graph view, `go tool pprof -dot`): one node per function, one edge per
//! caller → callee, pruned as pprof prunes ([docs/CALLGRAPH.md](../../../../../docs/CALLGRAPH.md)).
//!
//! - A function is its name, as in [`super::functions`]; the view's root frame (a process or a `--tagroot`
//!   label), when it has one, is a node too (pprof's `-tagroot` pseudo frames).
//! - *flat*: the weight of the samples whose leaf is the function; *cum*: of the samples whose path contains it,
//!   each sample **once** however often it recurs; an edge's *weight*: of the samples whose path has the
//!   caller directly above the callee, each sample once per edge; a function calling itself directly makes no
//!   edge (pprof's `newGraph`).
//! - Pruning (pprof's `newTrimmedGraph` for `-dot`): nodes whose cum is under `node_fraction` × the total are
//!   dropped and the graph rebuilt without them (a path over a dropped function gives a *residual* edge, and a
//!   sample whose leaf was dropped adds no flat); the nodes are sorted by pprof's entropy score, edges under
//!   `edge_fraction` × the total are cut, and the first nodes in that order are kept up to `node_count`
//!   (each node costs 1 plus its label tags, at most 4: [`tags`]); the graph is rebuilt with them, edges under
//!   the cut-off are dropped again and residual edges another path already explains are removed.
//!
//! Files: `build.rs` (one graph from the view's paths), `tags.rs` (pprof's nodelets, which count against
//! `node_count`), `layout.rs` (a layered drawing of the result).

mod build;
pub mod layout;
mod tags;

use crate::model::{Profile, StackId, NO_PARENT};
use crate::view::{keyed_weights, ViewOptions};
use build::{Graph, Paths};

/// What to prune and what to keep. `Default` is pprof's `-dot` defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphOptions {
    /// Drop nodes whose cum is under this fraction of the total. Default is 0.005.
    pub node_fraction: f64,
    /// Drop edges whose weight is under this fraction of the total. Default is 0.001.
    pub edge_fraction: f64,
    /// Keep at most this many nodes (counting their label tags, as pprof does); 0 keeps all. Default is 80.
    pub node_count: usize,
    /// Only the samples whose path has a function matching this regular expression (case-sensitive, like
    /// pprof's `-focus`). Default is none.
    pub focus: Option<String>,
}

impl Default for GraphOptions {
    fn default() -> Self {
        GraphOptions {
            node_fraction: 0.005,
            edge_fraction: 0.001,
            node_count: 80,
            focus: None,
        }
    }
}

impl GraphOptions {
    /// No pruning at all (pprof's `-nodefraction=0 -edgefraction=0 -nodecount=0`).
    pub fn all() -> Self {
        GraphOptions {
            node_fraction: 0.0,
            edge_fraction: 0.0,
            node_count: 0,
            focus: None,
        }
    }
}

/// A `focus` pattern matching exactly the function `name` (anchored, its regex characters escaped): what the
/// app's Focus on a node sets.
pub fn focus_exact(name: &str) -> String {
    format!("^{}$", regex_lite::escape(name))
}

/// One function.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GraphNode {
    pub name: String,
    /// The weight of the samples whose leaf it is (raw units: see the profile's decimals).
    pub flat: u64,
    /// The weight of the samples whose path contains it, each once.
    pub cum: u64,
}

/// One caller → callee pair (indices into [`CallGraph::nodes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GraphEdge {
    pub from: u32,
    pub to: u32,
    /// The weight of the samples whose path has `from` directly above `to` (over dropped functions when
    /// `residual`), each once.
    pub weight: u64,
    /// It stands for a path over one or more dropped functions (pprof draws it dotted).
    pub residual: bool,
    /// The callee was inlined into the caller on every path counted.
    pub inline: bool,
}

/// The graph of a view, and what pruning left out.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CallGraph {
    /// pprof's order (its entropy score, then name): the first is the node pprof calls `N1`.
    pub nodes: Vec<GraphNode>,
    /// Heaviest first, then by caller's and callee's name.
    pub edges: Vec<GraphEdge>,
    /// The weight of the view's samples (after `focus`): what percentages are of.
    pub total: u64,
    /// The sum of the shown nodes' flat.
    pub shown: u64,
    /// Nodes dropped for a cum under `node_cutoff`.
    pub dropped_nodes: usize,
    /// `total × node_fraction`, as pprof's legend states it ("cum <= X").
    pub node_cutoff: u64,
    /// Edges dropped for a weight under `edge_cutoff` in the last step (pprof's count).
    pub dropped_edges: usize,
    /// `total × edge_fraction`, as pprof's legend states it ("freq <= Y").
    pub edge_cutoff: u64,
    /// Nodes left after the cum cut-off, before `node_count` ("Showing top N nodes out of M").
    pub nodes_before_count: usize,
}

/// The call graph of view `v` of `p`, pruned by `o`. An error only for a `focus` that is not a regular
/// expression.
pub fn call_graph(p: &Profile, v: &ViewOptions, o: &GraphOptions) -> Result<CallGraph, String> {
    let focus = match o.focus.as_deref() {
        Some(f) => Some(focused_stacks(p, f)?),
        None => None,
    };
    let matches = |root: u32, s: StackId| match &focus {
        None => true,
        Some((frames, stacks)) => {
            frames.get(root as usize).copied().unwrap_or(false)
                || stacks.get(s.idx()).copied().unwrap_or(false)
        }
    };
    let mut total = 0u64;
    let mut rows: Vec<(u32, StackId, u64)> = keyed_weights(p, v)
        .into_iter()
        .filter(|&((root, s), w)| w != 0 && matches(root, s))
        .map(|((root, s), w)| {
            total = total.saturating_add(w);
            (root, s, w)
        })
        .collect();
    rows.sort_unstable();
    let paths = Paths::new(p, rows);
    let cut = |fraction: f64, of: u64| (of as f64 * fraction) as u64;

    // The whole graph: its flat sum is what the cut-offs are fractions of.
    let mut g = paths.graph(None);
    let graph_total = g
        .nodes
        .iter()
        .fold(0u64, |a, &f| a.saturating_add(at(&g.flat, f)));
    let node_cutoff = cut(o.node_fraction, graph_total);
    let edge_cutoff = cut(o.edge_fraction, graph_total);
    let mut dropped_nodes = 0;
    let mut kept: Option<Vec<bool>> = None;
    if node_cutoff > 0 {
        let mask = mark(
            paths.names.len(),
            g.nodes.iter().copied().filter(|&f| at(&g.cum, f) >= node_cutoff),
        );
        let n = mask.iter().filter(|&&k| k).count();
        if n != g.nodes.len() {
            dropped_nodes = g.nodes.len() - n;
            g = paths.graph(Some(&mask));
            kept = Some(mask);
        }
    }
    let nodes_before_count = g.nodes.len();
    let mut order = entropy_order(&g, &paths.names);
    if o.node_count > 0 {
        g.edges.retain(|e| e.weight >= edge_cutoff);
        let tag_counts = if p.samples.labels.is_some() {
            let tag_rows = tags::tag_rows(p, v, matches);
            tags::tag_counts(&paths, &tag_rows, kept.as_deref(), node_cutoff)
        } else {
            Vec::new()
        };
        let mut max = o.node_count;
        let mut count = 0usize;
        for (i, &f) in order.iter().enumerate() {
            count += 1 + tag_counts.get(f as usize).copied().unwrap_or(0).min(4);
            if count >= max {
                max = i + 1;
                break;
            }
        }
        if max < order.len() {
            let mask = mark(paths.names.len(), order.iter().copied().take(max));
            g = paths.graph(Some(&mask));
            order = entropy_order(&g, &paths.names);
        }
    }
    let before = g.edges.len();
    g.edges.retain(|e| e.weight >= edge_cutoff);
    let dropped_edges = before - g.edges.len();
    remove_redundant_edges(&mut g, &order, &paths.names);

    let mut index = vec![u32::MAX; paths.names.len()];
    for (i, &f) in order.iter().enumerate() {
        if let Some(x) = index.get_mut(f as usize) {
            *x = i as u32;
        }
    }
    let name = |f: u32| paths.names.get(f as usize).copied().unwrap_or("");
    let nodes: Vec<GraphNode> = order
        .iter()
        .map(|&f| GraphNode {
            name: name(f).to_string(),
            flat: at(&g.flat, f),
            cum: at(&g.cum, f),
        })
        .collect();
    sort_edges(&mut g.edges, &paths.names);
    let edges = g
        .edges
        .iter()
        .map(|e| GraphEdge {
            from: index.get(e.from as usize).copied().unwrap_or(u32::MAX),
            to: index.get(e.to as usize).copied().unwrap_or(u32::MAX),
            weight: e.weight,
            residual: e.residual,
            inline: e.inline,
        })
        .filter(|e| e.from != u32::MAX && e.to != u32::MAX)
        .collect();
    Ok(CallGraph {
        shown: nodes.iter().fold(0u64, |a, n| a.saturating_add(n.flat)),
        nodes,
        edges,
        total,
        dropped_nodes,
        node_cutoff: cut(o.node_fraction, total),
        dropped_edges,
        edge_cutoff: cut(o.edge_fraction, total),
        nodes_before_count,
    })
}

fn at(v: &[u64], f: u32) -> u64 {
    v.get(f as usize).copied().unwrap_or(0)
}

fn mark(n: usize, fs: impl Iterator<Item = u32>) -> Vec<bool> {
    let mut mask = vec![false; n];
    for f in fs {
        if let Some(x) = mask.get_mut(f as usize) {
            *x = true;
        }
    }
    mask
}

/// Which frames match `focus`, and which stacks have a matching frame on their path (one pass over the
/// topological stack table).
fn focused_stacks(p: &Profile, focus: &str) -> Result<(Vec<bool>, Vec<bool>), String> {
    let rx = regex_lite::Regex::new(focus)
        .map_err(|e| format!("focus {focus:?} is not a regular expression: {e}"))?;
    let frames: Vec<bool> = (0..p.frames.len())
        .map(|i| rx.is_match(p.frame_name(crate::model::FrameId(i as u32))))
        .collect();
    let mut stacks = vec![false; p.stacks.len()];
    for i in 0..p.stacks.len() {
        let here = p
            .stacks
            .frame
            .get(i)
            .and_then(|f| frames.get(f.idx()))
            .copied()
            .unwrap_or(false);
        let parent = p.stacks.parent.get(i).copied().unwrap_or(NO_PARENT);
        let above = parent != NO_PARENT
            && (parent as usize) < i
            && stacks.get(parent as usize).copied().unwrap_or(false);
        if let Some(x) = stacks.get_mut(i) {
            *x = here || above;
        }
    }
    Ok((frames, stacks))
}

/// The graph's nodes in pprof's `EntropyOrder`: by the magnitude of `entropyScore` (descending), then name,
/// then flat (descending).
fn entropy_order(g: &Graph, names: &[&str]) -> Vec<u32> {
    let n = names.len();
    let mut ins: Vec<Vec<u64>> = vec![Vec::new(); n];
    let mut outs: Vec<Vec<u64>> = vec![Vec::new(); n];
    for e in &g.edges {
        if let Some(x) = ins.get_mut(e.to as usize) {
            x.push(e.weight);
        }
        if let Some(x) = outs.get_mut(e.from as usize) {
            x.push(e.weight);
        }
    }
    let none: Vec<u64> = Vec::new();
    let mut scored: Vec<(i64, &str, u64, u32)> = g
        .nodes
        .iter()
        .map(|&f| {
            let flat = at(&g.flat, f);
            let cum = at(&g.cum, f);
            let i = ins.get(f as usize).unwrap_or(&none);
            let o = outs.get(f as usize).unwrap_or(&none);
            let mut score = 0f64;
            score += if i.is_empty() { 1.0 } else { edge_entropy(i, 0) };
            score += if o.is_empty() { 1.0 } else { edge_entropy(o, flat) };
            let s = ((score * cum as f64) as i64).saturating_add(flat as i64);
            (s, names.get(f as usize).copied().unwrap_or(""), flat, f)
        })
        .collect();
    scored.sort_by(|a, b| {
        b.0.unsigned_abs()
            .cmp(&a.0.unsigned_abs())
            .then(a.1.cmp(b.1))
            .then(b.2.cmp(&a.2))
            .then(a.3.cmp(&b.3))
    });
    scored.into_iter().map(|x| x.3).collect()
}

/// pprof's `edgeEntropyScore`: the entropy of the split of a node's weight over its edges (and its own flat).
fn edge_entropy(weights: &[u64], own: u64) -> f64 {
    let total = weights.iter().fold(own, |a, &w| a.saturating_add(w));
    let mut score = 0f64;
    if total != 0 {
        for &w in weights {
            let frac = w as f64 / total as f64;
            score += -frac * go_log2(frac);
        }
        if own > 0 {
            let frac = own as f64 / total as f64;
            score += -frac * go_log2(frac);
        }
    }
    score
}

/// Go's `math.Log2` (frexp, then its own `Log` of the fraction), so scores truncate to the same integers.
fn go_log2(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() {
        return x.log2();
    }
    let (frac, exp) = frexp(x);
    if frac == 0.5 {
        return f64::from(exp - 1);
    }
    go_log(frac) * std::f64::consts::LOG2_E + f64::from(exp)
}

/// `x = frac × 2^exp`, `frac` in [0.5, 1), for finite `x > 0`.
fn frexp(x: f64) -> (f64, i32) {
    let (mut x, mut exp) = (x, 0i32);
    if x < f64::MIN_POSITIVE {
        x *= (1u64 << 52) as f64;
        exp = -52;
    }
    let bits = x.to_bits();
    exp += ((bits >> 52) & 0x7ff) as i32 - 1022;
    let frac = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (frac, exp)
}

/// Go's `math.log` (FreeBSD's `e_log.c`), for finite `x > 0`.
#[allow(clippy::excessive_precision)]
fn go_log(x: f64) -> f64 {
    const LN2_HI: f64 = 6.93147180369123816490e-01;
    const LN2_LO: f64 = 1.90821492927058770002e-10;
    const L1: f64 = 6.666666666666735130e-01;
    const L2: f64 = 3.999999999940941908e-01;
    const L3: f64 = 2.857142874366239149e-01;
    const L4: f64 = 2.222219843214978396e-01;
    const L5: f64 = 1.818357216161805012e-01;
    const L6: f64 = 1.531383769920937332e-01;
    const L7: f64 = 1.479819860511658591e-01;
    let (mut f1, mut ki) = frexp(x);
    if f1 < std::f64::consts::SQRT_2 / 2.0 {
        f1 *= 2.0;
        ki -= 1;
    }
    let f = f1 - 1.0;
    let k = f64::from(ki);
    let s = f / (2.0 + f);
    let s2 = s * s;
    let s4 = s2 * s2;
    let t1 = s2 * (L1 + s4 * (L3 + s4 * (L5 + s4 * L7)));
    let t2 = s4 * (L2 + s4 * (L4 + s4 * L6));
    let r = t1 + t2;
    let hfsq = 0.5 * f * f;
    k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f)
}

/// pprof's `edgeList` order: heaviest first, then the caller's name, then the callee's.
fn sort_edges(edges: &mut [build::Edge], names: &[&str]) {
    let name = |f: u32| names.get(f as usize).copied().unwrap_or("");
    edges.sort_by(|a, b| {
        b.weight
            .cmp(&a.weight)
            .then_with(|| name(a.from).cmp(name(b.from)))
            .then_with(|| name(a.to).cmp(name(b.to)))
    });
}

/// At most this many edge visits for [`remove_redundant_edges`]'s searches; past it the remaining residual
/// edges stay (a graph that large has not been pruned to a readable size anyway).
const REDUNDANT_BUDGET: u64 = 50_000_000;

/// pprof's `RemoveRedundantEdges`: from the last node in `order` up, a node's residual in-edges, lightest
/// first and stopping at its first non-residual one, are removed when another path already leads from the
/// edge's caller to the node.
fn remove_redundant_edges(g: &mut Graph, order: &[u32], names: &[&str]) {
    let n = names.len();
    sort_edges(&mut g.edges, names);
    let mut alive = vec![true; g.edges.len()];
    let mut ins: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, e) in g.edges.iter().enumerate() {
        if let Some(x) = ins.get_mut(e.to as usize) {
            x.push(i as u32);
        }
    }
    let mut budget = REDUNDANT_BUDGET;
    let mut seen = vec![0u32; n];
    let mut generation = 0u32;
    let mut queue: Vec<u32> = Vec::new();
    for &node in order.iter().rev() {
        let Some(in_edges) = ins.get(node as usize) else {
            continue;
        };
        for &e in in_edges.iter().rev() {
            if !alive.get(e as usize).copied().unwrap_or(false) {
                continue;
            }
            let Some(edge) = g.edges.get(e as usize).copied() else {
                continue;
            };
            if !edge.residual {
                break;
            }
            // Breadth-first over in-edges from the callee: is the caller reached another way?
            generation += 1;
            queue.clear();
            queue.push(edge.to);
            if let Some(s) = seen.get_mut(edge.to as usize) {
                *s = generation;
            }
            let mut head = 0;
            let mut redundant = false;
            'search: while let Some(&at_node) = queue.get(head) {
                head += 1;
                for &ie in ins.get(at_node as usize).map(Vec::as_slice).unwrap_or(&[]) {
                    if budget == 0 {
                        return;
                    }
                    budget -= 1;
                    if ie == e || !alive.get(ie as usize).copied().unwrap_or(false) {
                        continue;
                    }
                    let Some(src) = g.edges.get(ie as usize).map(|x| x.from) else {
                        continue;
                    };
                    if seen.get(src as usize).copied() == Some(generation) {
                        continue;
                    }
                    if src == edge.from {
                        redundant = true;
                        break 'search;
                    }
                    if let Some(s) = seen.get_mut(src as usize) {
                        *s = generation;
                    }
                    queue.push(src);
                }
            }
            if redundant {
                if let Some(a) = alive.get_mut(e as usize) {
                    *a = false;
                }
            }
        }
    }
    let mut i = 0;
    g.edges.retain(|_| {
        i += 1;
        alive.get(i - 1).copied().unwrap_or(true)
    });
}

#[cfg(test)]
mod tests;
