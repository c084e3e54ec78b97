//! The call graph's hook (`tests/e2e/callgraph.test.mjs`): `window.__scorchGraph()` is the graph on the page,
//! `null` before one is built — `{ total, focus, node_count, node_fraction, edge_fraction, dropped_nodes,
//! dropped_edges, edges, nodes }` (the pruning it was built with, what it dropped), each node
//! `{ name, flat, cum, x, y, visible }` (weights as decimal strings, exact; `x`, `y` the page point (CSS px) of
//! its box's centre, `visible` whether that point is on the canvas). `window.__scorchGraphInfo()` is the cheap
//! part, for a graph of thousands of nodes: `{ nodes, edges, build_ms, layout_ms, scale }` (counts; the
//! milliseconds the graph's build and its layout took where they ran, the engine's worker or the page; the
//! drawing's scale), `null` before a graph is built.

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
        set(&o, "node_count", d.job.node_count.into());
        set(&o, "node_fraction", d.job.node_fraction.into());
        set(&o, "edge_fraction", d.job.edge_fraction.into());
        set(&o, "dropped_nodes", (gr.dropped_nodes as f64).into());
        set(&o, "dropped_edges", (gr.dropped_edges as f64).into());
        set(&o, "edges", (gr.edges.len() as f64).into());
        set(&o, "nodes", nodes.into());
        o.into()
    });
    set_global("__scorchGraph", graph.as_ref());
    graph.forget();
    let info = Closure::<dyn Fn() -> JsValue>::new(move || {
        let Some(d) = data.get_untracked() else {
            return JsValue::NULL;
        };
        let o = js_sys::Object::new();
        let set = |k: &str, v: f64| {
            let _ = js_sys::Reflect::set(&o, &k.into(), &v.into());
        };
        set("nodes", d.count() as f64);
        set("edges", d.g.graph.edges.len() as f64);
        set("build_ms", d.g.build_ms);
        set("layout_ms", d.g.layout_ms);
        set("scale", geom.get_untracked().scale);
        o.into()
    });
    set_global("__scorchGraphInfo", info.as_ref());
    info.forget();
}
