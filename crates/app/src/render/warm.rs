//! The page's warm-up while its first profile is on the way: the code that takes the import worker's answer
//! and paints the first flame graph and heatmap, run once on a tiny profile drawn on a canvas that is never
//! shown. V8 compiles a wasm function when it is first called, on the main thread: without this, the real
//! answer's task and the first picture's frame compiled it (26 ms of a 58 ms task, and a 67 ms frame, on a
//! loaded machine). Each step is a task of its own; nothing here touches the page's state.

use super::canvas;
use super::data::{FlameData, Loaded};
use super::draw::{self, Paint};
use super::geometry::Geometry;
use super::Orientation;
use crate::worker::protocol::Job;
use crate::worker::yield_now;
use scorch_core::view::calltree::{NodeId, Order};
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// Runs the warm-up; `skip` is asked between steps (a profile already came: its own tasks compiled the code).
pub async fn warm_up(skip: impl Fn() -> bool) {
    let Some(done) = crate::worker::take_tiny(Order::Alphabetical).await else {
        return;
    };
    if skip() {
        return;
    }
    yield_now().await;
    let loaded = Arc::new(Loaded::new(String::new(), done.imported).with_first_figures(done.figures));
    let view = scorch_core::ViewOptions::default_for(&loaded.imported.profile);
    let Some(flame) = done.flame else {
        return;
    };
    let data = FlameData::from_flame(
        loaded.clone(),
        view.clone(),
        flame,
        Job::Plain,
        Default::default(),
    );
    let heat = scorch_core::analysis::heatmap::heatmap(&loaded.imported.profile, &view, &Default::default());
    if skip() {
        return;
    }
    yield_now().await;
    let Some(canvas) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|doc| doc.create_element("canvas").ok())
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
    else {
        return;
    };
    for dark in [false, true] {
        if dark {
            yield_now().await;
        }
        let g = Geometry::new(&data, NodeId(0), 320.0, 120.0, 0.0, Orientation::Flame);
        if let Some(surface) = canvas::prepare(&canvas, g.width, g.view_h) {
            let paint = Paint {
                search: None,
                selected: None,
                noted: None,
                scheme: Default::default(),
                dark,
                colorblind: false,
            };
            draw::draw(&surface.ctx, &data, NodeId(0), &paint, &g, surface.dpr);
        }
        if let Some(h) = &heat {
            super::heatmap::paint(&canvas, h, None, false, None, false, &[], dark);
        }
    }
    // Nothing is kept: the canvas and the tiny profile go here.
    canvas.set_width(0);
    canvas.set_height(0);
}
