//! The call graph's hook (`tests/e2e/callgraph.test.mjs`): `window.__scorchGraph()` is the graph on the page,
//! `null` before one is built — `{ total, focus, dropped_nodes, dropped_edges, edges, nodes }`, each node
//! `{ name, flat, cum, x, y, visible }` (weights as decimal strings, exact; `x`, `y` the page point (CSS px) of
//! its box's centre, `visible` whether that point is on the canvas).

use super::set_global;
use crate::render::graph::{GraphData, GraphGeom};
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;

pub fn install(
    data: RwSignal<Option<Arc<GraphData>>>,
    geom: RwSignal<GraphGeom>,
    canvas_ref: NodeRef<leptos::html::Canvas>,
) {
    let graph = Closure::<dyn Fn() -> JsValue>::new(move || {
        let (Some(d), Some(Some(canvas))) = (data.get_untracked(), canvas_ref.try_get_untracked()) else {
            return JsValue::NULL;
        };
        let g = geom.get_untracked();
        let r = canvas.get_bounding_client_rect();
        let set = |o: &js_sys::Object, k: &str, v: JsValue| {
            let _ = js_sys::Reflect::set(o, &k.into(), &v);
        };
        let nodes: js_sys::Array =
            d.g.graph
                .nodes
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    let (x, y, w, h) = d.node_box(i);
                    let (sx, sy) = g.to_screen(x + w / 2.0, y + h / 2.0);
                    let o = js_sys::Object::new();
                    set(&o, "name", n.name.as_str().into());
                    set(&o, "flat", n.flat.to_string().into());
                    set(&o, "cum", n.cum.to_string().into());
                    set(&o, "x", (r.left() + sx).into());
                    set(&o, "y", (r.top() + sy).into());
                    let on = sx >= 0.0 && sy >= 0.0 && sx <= g.width && sy <= g.height;
                    set(&o, "visible", on.into());
                    JsValue::from(o)
                })
                .collect();
        let gr = &d.g.graph;
        let o = js_sys::Object::new();
        set(&o, "total", gr.total.to_string().into());
        set(
            &o,
            "focus",
            d.job.focus.clone().map_or(JsValue::NULL, JsValue::from),
        );
        set(&o, "dropped_nodes", (gr.dropped_nodes as f64).into());
        set(&o, "dropped_edges", (gr.dropped_edges as f64).into());
        set(&o, "edges", (gr.edges.len() as f64).into());
        set(&o, "nodes", nodes.into());
        o.into()
    });
    set_global("__scorchGraph", graph.as_ref());
    graph.forget();
}

/// `window.__scorchBenchGraphLayout(n, m)`: lays out a call-graph-like graph of `n` nodes and `m` edges (the
/// core's `layout_benchmark` shape: 60 levels, a tree of calls one level down, more one to three levels down,
/// one in twenty back up; seed 7) with the engine's box sizes, in this wasm, and returns
/// `{ ms, ranks, points, crossings }`.
pub fn install_bench() {
    let bench = Closure::<dyn Fn(f64, f64) -> JsValue>::new(move |n: f64, m: f64| {
        use scorch_core::analysis::callgraph::layout::{layout, LayoutOptions};
        let (n, m) = (n.max(1.0) as usize, m.max(0.0) as usize);
        let edges = levelled_graph(n, m, 60, 7);
        let widths: Vec<f64> = (0..n)
            .map(|i| crate::worker::graph::box_width(10 + i % 30))
            .collect();
        let heights = vec![crate::worker::graph::box_height(); n];
        let perf = web_sys::window().and_then(|w| w.performance());
        let t0 = perf.as_ref().map_or(0.0, |p| p.now());
        let l = layout(n, &edges, &widths, &heights, &LayoutOptions::default());
        let ms = perf.as_ref().map_or(0.0, |p| p.now()) - t0;
        let o = js_sys::Object::new();
        let set = |k: &str, v: f64| {
            let _ = js_sys::Reflect::set(&o, &k.into(), &v.into());
        };
        set("ms", ms);
        set("ranks", l.rank.iter().max().map_or(0.0, |&r| f64::from(r) + 1.0));
        set("points", l.px.len() as f64);
        set("crossings", l.crossings as f64);
        o.into()
    });
    set_global("__scorchBenchGraphLayout", bench.as_ref());
    bench.forget();
}

/// The core's `layout_benchmark` graph (`callgraph/layout.rs`, test-only there): `n` nodes on `levels` levels.
fn levelled_graph(n: usize, m: usize, levels: usize, seed: u64) -> Vec<(u32, u32)> {
    let mut x = seed | 1;
    let mut next = |k: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % k.max(1)
    };
    let per = n.div_ceil(levels);
    let level_start = |l: usize| (l * per).min(n);
    let pick = |l: usize, r: u64| {
        let (a, b) = (level_start(l), level_start(l + 1));
        (a + (r as usize) % (b - a).max(1)).min(n - 1) as u32
    };
    let mut edges = Vec::with_capacity(m);
    for v in per..n {
        let l = v / per;
        edges.push((pick(l - 1, next(per as u64)), v as u32));
    }
    while edges.len() < m {
        let a = next(n as u64) as usize;
        let l = a / per;
        let (a, b) = if next(20) == 0 && l > 0 {
            (a as u32, pick(next(l as u64) as usize, next(per as u64)))
        } else {
            let down = (l + 1 + next(3) as usize).min(levels - 1);
            (a as u32, pick(down, next(per as u64)))
        };
        if a != b {
            edges.push((a, b));
        }
    }
    edges
}
