//! The call graph as the engine builds it ([`Job::Graph`](super::protocol::Job::Graph)): the core's graph of the
//! view, pruned and focused as pprof does (`scorch_core::analysis::callgraph`), its layered layout
//! (`callgraph::layout`), and per node a frame of that name to colour it by — and how it travels: the layout as
//! typed arrays (`graph_f64`, `graph_u32`), the graph itself (names, flat, cum, edges and their weights, what
//! pruning dropped) as one postcard buffer (`graph`). The page only draws it (`render::graph`).

use super::payload::{typed, u32s};
use super::protocol::GraphJob;
use js_sys::{Array, Reflect, Uint8Array};
use scorch_core::analysis::callgraph::layout::{layout, Layout, LayoutOptions};
use scorch_core::analysis::callgraph::{call_graph, CallGraph, GraphOptions};
use scorch_core::{Profile, ViewOptions};
use wasm_bindgen::JsValue;

/// The average advance of one glyph of the label font the canvas draws node labels in (12 px monospace,
/// `render::draw`'s `FONT`), CSS px: box widths are estimated as characters × this in the worker, which has no
/// canvas to measure with (the page may measure and correct it later).
pub const GLYPH_W: f64 = 7.3;
/// A label line's height, CSS px.
pub const LINE_H: f64 = 15.0;
/// Padding inside a box, CSS px.
pub const PAD: f64 = 6.0;
/// A name longer than this is cut (with `..`) in its box.
pub const MAX_CHARS: usize = 36;
/// Room for the numbers lines (`flat 123.45 ms (12.34 %)`).
const NUMBER_CHARS: usize = 25;
/// Lines in a box: name, flat, cum.
pub const LINES: usize = 3;

/// A call graph laid out: the core's graph, its drawing and each node's frame.
#[derive(Debug, Clone)]
pub struct GraphView {
    pub graph: CallGraph,
    pub layout: Layout,
    /// Per node, the first frame with its name (the flame graph's colour for it), or `u32::MAX` for a root that
    /// is no frame (a process or a label).
    pub frames: Vec<u32>,
    /// Milliseconds spent building the graph and laying it out, where it was done (the engine's worker, or the
    /// page without one): what the layout benchmark reports.
    pub build_ms: f64,
    pub layout_ms: f64,
}

use super::now;

/// The graph of `view` of `p` for `job`, laid out. An error only for a focus that is no regular expression.
pub fn compute(p: &Profile, view: &ViewOptions, job: &GraphJob) -> Result<GraphView, String> {
    let o = GraphOptions {
        node_fraction: job.node_fraction,
        edge_fraction: job.edge_fraction,
        node_count: job.node_count as usize,
        focus: job.focus.clone(),
    };
    let t0 = now();
    let graph = call_graph(p, view, &o)?;
    let t1 = now();
    let widths: Vec<f64> = graph
        .nodes
        .iter()
        .map(|n| box_width(n.name.chars().count()))
        .collect();
    let heights = vec![box_height(); graph.nodes.len()];
    let edges: Vec<(u32, u32)> = graph.edges.iter().map(|e| (e.from, e.to)).collect();
    let options = LayoutOptions {
        node_gap: 20.0,
        rank_gap: 56.0,
        ..LayoutOptions::default()
    };
    let layout = layout(graph.nodes.len(), &edges, &widths, &heights, &options);
    let t2 = now();
    // One pass over the frames: the first frame of each node's name.
    let mut by_name: std::collections::HashMap<&str, u32> =
        graph.nodes.iter().map(|n| (n.name.as_str(), u32::MAX)).collect();
    for i in 0..p.frames.len() {
        if let Some(f) = by_name.get_mut(p.frame_name(scorch_core::FrameId(i as u32))) {
            if *f == u32::MAX {
                *f = i as u32;
            }
        }
    }
    let frames = graph
        .nodes
        .iter()
        .map(|n| by_name.get(n.name.as_str()).copied().unwrap_or(u32::MAX))
        .collect();
    Ok(GraphView {
        graph,
        layout,
        frames,
        build_ms: t1 - t0,
        layout_ms: t2 - t1,
    })
}

/// A box's width for a name of `chars` characters (cut at [`MAX_CHARS`]).
pub fn box_width(chars: usize) -> f64 {
    chars.clamp(NUMBER_CHARS, MAX_CHARS) as f64 * GLYPH_W + 2.0 * PAD
}

/// Every box's height: [`LINES`] lines and padding.
pub fn box_height() -> f64 {
    LINES as f64 * LINE_H + 2.0 * PAD
}

/// Sets the graph's columns on `msg` (`graph`, `graph_f64`, `graph_u32`), their buffers added to `transfer`.
pub(super) fn put(msg: &js_sys::Object, g: GraphView, transfer: &Array) -> Result<(), String> {
    let bytes =
        postcard::to_allocvec(&g.graph).map_err(|e| format!("could not encode the call graph: {e}"))?;
    let buf = Uint8Array::from(bytes.as_slice()).buffer();
    transfer.push(&buf);
    let l = g.layout;
    let f64s = vec![
        l.x,
        l.y,
        l.w,
        l.h,
        l.px,
        l.py,
        vec![l.width, l.height, g.build_ms, g.layout_ms],
    ];
    let reversed = l.reversed.iter().map(|&r| u32::from(r)).collect();
    let u32s_ = vec![l.rank, l.edge_start, reversed, g.frames];
    let set = |k: &str, v: &JsValue| {
        let _ = Reflect::set(msg, &k.into(), v);
    };
    set("graph", &buf);
    set(
        "graph_f64",
        &typed(f64s, transfer, |v| {
            js_sys::Float64Array::from(v.as_slice()).into()
        }),
    );
    set("graph_u32", &typed(u32s_, transfer, u32s));
    Ok(())
}

/// The graph and its layout's columns as [`put`] sent them, checked to fit together.
pub(super) fn fit(graph: CallGraph, mut f: Vec<Vec<f64>>, mut u: Vec<Vec<u32>>) -> Result<GraphView, String> {
    let bad = || "the call graph built in the worker did not fit together".to_string();
    if f.len() != 7 || u.len() != 4 {
        return Err(bad());
    }
    let size = f.pop().unwrap_or_default();
    let (py, px, h, w, y, x) = (
        f.pop().unwrap_or_default(),
        f.pop().unwrap_or_default(),
        f.pop().unwrap_or_default(),
        f.pop().unwrap_or_default(),
        f.pop().unwrap_or_default(),
        f.pop().unwrap_or_default(),
    );
    let frames = u.pop().unwrap_or_default();
    let reversed = u.pop().unwrap_or_default().into_iter().map(|r| r != 0).collect();
    let (edge_start, rank) = (u.pop().unwrap_or_default(), u.pop().unwrap_or_default());
    let n = graph.nodes.len();
    let e = graph.edges.len();
    let fits = [x.len(), y.len(), w.len(), h.len(), rank.len(), frames.len()]
        .iter()
        .all(|&l| l == n)
        && edge_start.len() == e + 1
        && px.len() == py.len()
        && edge_start.iter().all(|&s| s as usize <= px.len())
        && size.len() == 4;
    if !fits {
        return Err(bad());
    }
    let layout = Layout {
        x,
        y,
        w,
        h,
        rank,
        edge_start,
        px,
        py,
        reversed,
        crossings: 0,
        width: size.first().copied().unwrap_or(0.0),
        height: size.get(1).copied().unwrap_or(0.0),
    };
    Ok(GraphView {
        graph,
        layout,
        frames,
        build_ms: size.get(2).copied().unwrap_or(0.0),
        layout_ms: size.get(3).copied().unwrap_or(0.0),
    })
}
