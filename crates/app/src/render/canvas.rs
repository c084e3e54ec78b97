//! The device-pixel canvas primitive every chart uses: a canvas sized in CSS px with a backing store in device
//! px, a 2D context scaled so charts draw in CSS px, one requestAnimationFrame per burst of redraw requests, and
//! size observation. Charts only paint.

use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The device-pixel ratio (at least 1).
pub fn dpr() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0)
}

/// A canvas ready to paint: its 2D context (scaled to CSS px) and the device-pixel ratio.
pub struct Surface {
    pub ctx: CanvasRenderingContext2d,
    pub dpr: f64,
}

/// Sizes `canvas` to `width × height` CSS px (backing store in device px; left alone when already that size, so
/// an unchanged canvas is not cleared) and returns its context, scaled so drawing uses CSS px.
pub fn prepare(canvas: &HtmlCanvasElement, width: f64, height: f64) -> Option<Surface> {
    let dpr = dpr();
    let (dw, dh) = ((width * dpr).round() as u32, (height * dpr).round() as u32);
    if canvas.width() != dw || canvas.height() != dh {
        canvas.set_width(dw);
        canvas.set_height(dh);
    }
    let style = web_sys::HtmlElement::style(canvas);
    let _ = style.set_property("width", &format!("{width}px"));
    let _ = style.set_property("height", &format!("{height}px"));
    let ctx = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())?;
    let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    Some(Surface { ctx, dpr })
}

/// Coalesces redraw requests: the first request schedules one animation frame, later ones before it runs are
/// absorbed (the paint reads the state as it is when the frame comes).
#[derive(Clone, Default)]
pub struct Redraw {
    pending: Rc<Cell<bool>>,
}

impl Redraw {
    pub fn request(&self, paint: impl FnOnce() + 'static) {
        if self.pending.replace(true) {
            return;
        }
        let pending = self.pending.clone();
        request_animation_frame(move || {
            pending.set(false);
            paint();
        });
    }
}

/// Calls `f` when the window resizes, until the owner is cleaned up.
pub fn on_window_resize(f: impl Fn() + 'static) {
    let handle = window_event_listener(leptos::ev::resize, move |_| f());
    on_cleanup(move || handle.remove());
}

/// Calls `on_resize` whenever the element behind `el` changes size (panels above it open or close), from when
/// it is mounted until its owner is cleaned up.
pub fn observe_size(el: NodeRef<leptos::html::Div>, on_resize: impl Fn() + Clone + 'static) {
    let on_resize = send_wrapper::SendWrapper::new(on_resize);
    Effect::new(move |observed: Option<bool>| {
        if observed == Some(true) {
            return true;
        }
        let Some(el) = el.get() else { return false };
        let f = (*on_resize).clone();
        let callback = wasm_bindgen::closure::Closure::<dyn Fn()>::new(f);
        if let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            observer.observe(&el);
            // An element that leaves the page (view switches) stops being observed; its closure must not run after.
            let observer = send_wrapper::SendWrapper::new(observer);
            on_cleanup(move || observer.disconnect());
        }
        callback.forget();
        true
    });
}

/// A canvas's size in CSS px, as [`prepare`] last set it (0 × 0 before).
pub fn css_size(canvas: &HtmlCanvasElement) -> (f64, f64) {
    let style = web_sys::HtmlElement::style(canvas);
    let px = |prop: &str| {
        style
            .get_property_value(prop)
            .ok()
            .and_then(|v| v.trim_end_matches("px").parse().ok())
            .unwrap_or(0.0)
    };
    (px("width"), px("height"))
}
