//! The flame chart's paint: the graph on its canvas, the hover outline on the overlay stacked on it. The
//! component (`components::flame_canvas`) decides when; this only paints.

use super::canvas;
use super::color::ColorScheme;
use super::data::FlameData;
use super::draw::{self, Paint};
use super::geometry::Geometry;
use scorch_core::view::calltree::NodeId;
use std::sync::Arc;
use web_sys::HtmlCanvasElement;

/// What the picture depends on besides the data and geometry.
pub struct Look {
    /// Search matches per frame id.
    pub search: Option<Arc<Vec<bool>>>,
    /// The selected function per frame id.
    pub selected: Option<Arc<Vec<bool>>>,
    /// Frames a note is on, per frame id: their boxes get a pin.
    pub noted: Option<Arc<Vec<bool>>>,
    pub scheme: ColorScheme,
    pub dark: bool,
    pub colorblind: bool,
}

thread_local! {
    /// A profile was just opened: the next paint marks `bench:rendered`.
    static RENDER_MARK_PENDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// A profile was just opened: the main graph's next paint is its first picture.
    static FIRST_PICTURE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A profile was just opened (the demo too): the main graph paints it in a task of its own
/// ([`canvas::Redraw::request_soon`]).
pub fn opened() {
    FIRST_PICTURE.with(|p| p.set(true));
}

/// Whether the main graph's next paint is a new profile's first picture; asking takes the answer.
pub fn take_first_picture() -> bool {
    FIRST_PICTURE.with(|p| p.replace(false))
}

thread_local! {
    /// Woken after a flame graph's next paint ([`after_next_paint`]).
    static AFTER_PAINT: std::cell::RefCell<Vec<js_sys::Function>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Settles in the task after a flame graph's next paint (the first picture, after a load), or after `limit_ms`
/// if none comes (another view is shown): work that can wait for the first picture (a large profile's figures,
/// computed by the view engine on the other core) does not compete with it for the machine (on 2 cores, the
/// picture's raster and compositing). A waiter settled by its limit stays listed until the next paint: one per
/// load at most.
pub async fn after_next_paint(limit_ms: f64) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let late = resolve.clone();
        crate::worker::after(limit_ms, move || {
            let _ = late.call0(&wasm_bindgen::JsValue::NULL);
        });
        AFTER_PAINT.with(|w| w.borrow_mut().push(resolve));
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

/// Wakes [`after_next_paint`]'s waiters in the next task (not in this one: the paint's task ends first).
fn wake_after_paint() {
    let waiting = AFTER_PAINT.with(|w| std::mem::take(&mut *w.borrow_mut()));
    if waiting.is_empty() {
        return;
    }
    crate::worker::after(0.0, move || {
        for f in waiting {
            let _ = f.call0(&wasm_bindgen::JsValue::NULL);
        }
    });
}

/// The next paint is the first of a newly opened profile.
pub fn mark_next_paint() {
    RENDER_MARK_PENDING.with(|p| p.set(true));
}

use crate::worker::now;

/// `bench:paint` after every paint; only the latest is kept, so a long session does not grow the timing buffer.
fn mark_paint() {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        p.clear_marks_with_mark_name("bench:paint");
    }
    crate::state::mark("bench:paint");
}

/// Sizes the canvas for the device-pixel ratio and draws the graph.
pub fn paint(canvas: &HtmlCanvasElement, data: &FlameData, zoom: NodeId, g: &Geometry, look: &Look) {
    let t0 = now();
    let Some(surface) = canvas::prepare(canvas, g.width, g.view_h) else {
        return;
    };
    let paint = Paint {
        search: look.search.as_deref().map(|v| v.as_slice()),
        selected: look.selected.as_deref().map(|v| v.as_slice()),
        noted: look.noted.as_deref().map(|v| v.as_slice()),
        scheme: look.scheme,
        dark: look.dark,
        colorblind: look.colorblind,
    };
    draw::draw(&surface.ctx, data, zoom, &paint, g, surface.dpr);
    crate::seams::record_paint(now() - t0);
    if RENDER_MARK_PENDING.with(|p| p.replace(false)) {
        // At the end of this drawing task, not here: the heatmap may still be drawn in it, and a benchmark that
        // cannot tell the task's draw calls apart (`bench:import-done` is seen only after the task) reads this.
        crate::state::mark_after_task("bench:rendered");
    }
    mark_paint();
    wake_after_paint();
}

/// Places the graph's rows on screen for the paint that comes next ([`draw::place_ahead`]).
pub fn place(data: &FlameData, zoom: NodeId, g: &Geometry) {
    crate::state::timed("place", || draw::place_ahead(data, zoom, g));
}

/// Draws the hover outline and the keyboard's focus ring on the overlay canvas (sized like the graph's canvas, stacked on it).
pub fn paint_overlay(
    overlay: &HtmlCanvasElement,
    hover: Option<(&FlameData, NodeId, &Geometry)>,
    focus: Option<(&FlameData, NodeId, &Geometry)>,
    dark: bool,
    size: (f64, f64),
) {
    let t0 = now();
    if hover.is_none() && focus.is_none() {
        // Nothing to outline. Until the first outline the overlay has no backing store (a zero size), rather
        // than a second canvas of the graph's size allocated, cleared and composited for nothing: in the first
        // picture's frame that was part of a 62–72 ms task (docs/BENCHMARKS.md). The overlay lets the mouse
        // through. One already the graph's size is cleared and kept: freed whenever the mouse crossed a gap, it
        // was allocated again at the next frame hovered.
        let dpr = canvas::dpr();
        let (dw, dh) = ((size.0 * dpr).round() as u32, (size.1 * dpr).round() as u32);
        if (overlay.width(), overlay.height()) == (dw, dh) {
            if let Some(surface) = canvas::prepare(overlay, size.0, size.1) {
                surface.ctx.clear_rect(0.0, 0.0, f64::from(dw), f64::from(dh));
            }
        } else if overlay.width() != 0 || overlay.height() != 0 {
            overlay.set_width(0);
            overlay.set_height(0);
        }
        return;
    }
    let Some(surface) = canvas::prepare(overlay, size.0, size.1) else {
        return;
    };
    surface
        .ctx
        .clear_rect(0.0, 0.0, f64::from(overlay.width()), f64::from(overlay.height()));
    if let Some((data, node, g)) = hover {
        draw::draw_hover(&surface.ctx, data, node, g, dark);
    }
    if let Some((data, node, g)) = focus {
        draw::draw_focus(&surface.ctx, data, node, g, dark);
    }
    crate::seams::record_overlay(now() - t0);
    mark_paint();
}
