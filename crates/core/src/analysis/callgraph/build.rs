//! One pass that makes the graph of a view's paths (pprof's `newGraph`): per function its flat and cum, per
//! caller → callee pair its weight, each sample counting once per node and once per edge.
//!
//! The paths are the view's distinct (root frame, leaf stack) keys with their summed weight; each is walked
//! once, root first, through one reused buffer. "Seen in this path" is a generation number per node and per
//! edge, so nothing is cleared or allocated per path: the cost is O(distinct stacks × depth).

use crate::model::{FrameId, FrameKind, Profile, StackId, NO_PARENT};
use rustc_hash::FxHashMap;

/// A view's paths, prepared once and walked for each graph the pruning builds.
pub(super) struct Paths<'p> {
    pub p: &'p Profile,
    /// The function (index into `names`) of each frame: frames with the same name are one function.
    pub function_of: Vec<u32>,
    pub names: Vec<&'p str>,
    /// Distinct (root frame or `u32::MAX`, leaf stack) keys with a non-zero weight, sorted.
    pub rows: Vec<(u32, StackId, u64)>,
}

/// A graph over the functions of [`Paths`] (indices into `Paths::names`).
#[derive(Debug, Clone)]
pub(super) struct Graph {
    pub flat: Vec<u64>,
    pub cum: Vec<u64>,
    /// The functions with a non-zero flat or cum (pprof's `selectNodesForGraph`), in function order.
    pub nodes: Vec<u32>,
    pub edges: Vec<Edge>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Edge {
    pub from: u32,
    pub to: u32,
    pub weight: u64,
    /// It goes over one or more functions that were not kept.
    pub residual: bool,
    /// Every path it was counted on had the callee inlined into the caller.
    pub inline: bool,
}

/// What one walk of a path sees.
pub(super) struct Step {
    pub function: u32,
    pub inline: bool,
}

impl<'p> Paths<'p> {
    pub fn new(p: &'p Profile, rows: Vec<(u32, StackId, u64)>) -> Paths<'p> {
        let mut index: FxHashMap<&str, u32> = FxHashMap::default();
        let mut names: Vec<&str> = Vec::new();
        let function_of = (0..p.frames.len())
            .map(|i| {
                let name = p.frame_name(FrameId(i as u32));
                *index.entry(name).or_insert_with(|| {
                    names.push(name);
                    (names.len() - 1) as u32
                })
            })
            .collect();
        Paths {
            p,
            function_of,
            names,
            rows,
        }
    }

    /// The functions of path (`root`, `leaf`), root first, into `buf` (cleared first).
    pub fn walk(&self, root: u32, leaf: StackId, buf: &mut Vec<Step>) {
        buf.clear();
        let mut s = leaf.0;
        // Bounded by the table's length: a malformed parent chain cannot loop forever.
        let mut left = self.p.stacks.len();
        while s != NO_PARENT && left > 0 {
            left -= 1;
            let Some(&f) = self.p.stacks.frame.get(s as usize) else {
                break;
            };
            if let Some(&function) = self.function_of.get(f.idx()) {
                buf.push(Step {
                    function,
                    inline: self.p.frame_kind(f) == FrameKind::Inline,
                });
            }
            s = self.p.stacks.parent.get(s as usize).copied().unwrap_or(NO_PARENT);
        }
        if let Some(&function) = self.function_of.get(root as usize) {
            buf.push(Step {
                function,
                inline: false,
            });
        }
        buf.reverse();
    }

    /// The graph of every path, keeping only the functions `kept` marks (all when `None`): a sample adds its
    /// weight to the cum of each kept function on its path once, to the flat of its leaf function when that is
    /// kept, and to each caller → callee edge between consecutive kept functions once (none from a function to
    /// itself); an edge over dropped functions is residual.
    pub fn graph(&self, kept: Option<&[bool]>) -> Graph {
        let n = self.names.len();
        let mut flat = vec![0u64; n];
        let mut cum = vec![0u64; n];
        let mut node_gen = vec![0u32; n];
        let mut edge_index: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        let mut edges: Vec<Edge> = Vec::new();
        let mut edge_gen: Vec<u32> = Vec::new();
        let mut buf: Vec<Step> = Vec::new();
        let is_kept = |f: u32| kept.is_none_or(|k| k.get(f as usize).copied().unwrap_or(false));
        for (generation, &(root, leaf, w)) in self.rows.iter().enumerate() {
            let generation = generation as u32 + 1;
            self.walk(root, leaf, &mut buf);
            let mut parent: Option<u32> = None;
            let mut residual = false;
            for step in &buf {
                let f = step.function;
                if !is_kept(f) {
                    residual = true;
                    continue;
                }
                if let (Some(g), Some(c)) = (node_gen.get_mut(f as usize), cum.get_mut(f as usize)) {
                    if *g != generation {
                        *g = generation;
                        *c = c.saturating_add(w);
                    }
                }
                if let Some(from) = parent.filter(|&from| from != f) {
                    let e = *edge_index.entry((from, f)).or_insert_with(|| {
                        edges.push(Edge {
                            from,
                            to: f,
                            weight: 0,
                            residual: false,
                            inline: step.inline,
                        });
                        edge_gen.push(0);
                        (edges.len() - 1) as u32
                    });
                    if let (Some(g), Some(edge)) = (edge_gen.get_mut(e as usize), edges.get_mut(e as usize)) {
                        if *g != generation {
                            *g = generation;
                            edge.weight = edge.weight.saturating_add(w);
                            edge.residual |= residual;
                            edge.inline &= step.inline;
                        }
                    }
                }
                parent = Some(f);
                residual = false;
            }
            if let Some(leaf) = parent.filter(|_| !residual) {
                if let Some(x) = flat.get_mut(leaf as usize) {
                    *x = x.saturating_add(w);
                }
            }
        }
        let nodes = (0..n as u32)
            .filter(|&f| {
                flat.get(f as usize).copied().unwrap_or(0) != 0
                    || cum.get(f as usize).copied().unwrap_or(0) != 0
            })
            .collect();
        Graph {
            flat,
            cum,
            nodes,
            edges,
        }
    }
}
