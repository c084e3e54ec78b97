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
/// absorbed (the paint reads the state as it is when the frame comes). Tied to the owner it is made under (the
/// component's): when that is cleaned up (the component leaves the page), the frame asked for is cancelled and
/// later requests do nothing — a paint never runs against a component's disposed signals and canvases.
#[derive(Clone)]
pub struct Redraw {
    frame: Rc<Cell<Frame>>,
}

/// Where a [`Redraw`] is: nothing asked for, a frame asked for, or its owner gone.
#[derive(Clone, Copy)]
enum Frame {
    Idle,
    Asked(AnimationFrameRequestHandle),
    /// A paint asked for the next task ([`Redraw::request_soon`]).
    Soon,
    Closed,
}

impl Redraw {
    /// A redraw scheduler that stops when the current owner is cleaned up.
    pub fn new() -> Redraw {
        let frame = Rc::new(Cell::new(Frame::Idle));
        let on_close = send_wrapper::SendWrapper::new(frame.clone());
        on_cleanup(move || {
            if let Frame::Asked(handle) = on_close.replace(Frame::Closed) {
                handle.cancel();
            }
        });
        Redraw { frame }
    }

    pub fn request(&self, paint: impl FnOnce() + 'static) {
        self.ask(Box::new(paint), false);
    }

    /// Like [`request`](Self::request), but the paint runs in a task of its own as soon as the current one ends,
    /// not in the next animation frame: a new profile's first picture. In the frame, the paint (its canvas's
    /// sizing, which lays out the page just mounted, and the drawing) shared one task with the frame's own style,
    /// layout, paint and commit: 52–69 ms on the first picture of a 1 MB profile by link on 2 busy cores. What is
    /// drawn shows in the next frame all the same.
    pub fn request_soon(&self, paint: impl FnOnce() + 'static) {
        if !matches!(self.frame.get(), Frame::Idle) {
            return;
        }
        self.frame.set(Frame::Soon);
        let frame = self.frame.clone();
        leptos::task::spawn_local(async move {
            crate::worker::yield_now().await;
            // Closed meanwhile (the component left the page): nothing is painted.
            if !matches!(frame.get(), Frame::Soon) {
                return;
            }
            run(&frame, now(), paint);
        });
    }

    /// Asks for a frame that runs `paint`; a frame's second paint waits for the next frame when the one before it
    /// in that frame was long (`deferred`: it already waited once, and paints now).
    fn ask(&self, paint: Box<dyn FnOnce()>, deferred: bool) {
        if !deferred && !matches!(self.frame.get(), Frame::Idle) {
            return;
        }
        let frame = self.frame.clone();
        let me = self.clone();
        let asked = request_animation_frame_with_handle(move || {
            // Cancelled frames do not run; this is only in case a frame ran all the same.
            if !matches!(frame.get(), Frame::Asked(_)) {
                return;
            }
            let start = now();
            let (last_start, last_end) = LAST_PAINT.with(Cell::get);
            // The paints asked for one frame run back to back in one task: after a long one (the flame graph's
            // first), the next (the heatmap's) goes to the next frame, so that no frame is one task of both
            // (50–76 ms on the first picture of a 1 MB profile by link, on 2 busy cores).
            if !deferred && start - last_end < 1.0 && last_end - last_start > LONG_PAINT_MS {
                me.ask(paint, true);
                return;
            }
            run(&frame, start, paint);
        });
        if let Ok(handle) = asked {
            self.frame.set(Frame::Asked(handle));
        }
    }
}

/// Runs a paint asked for (from `start`): its [`Redraw`] is idle again, and [`LAST_PAINT`] says when it ran.
fn run(frame: &Cell<Frame>, start: f64, paint: impl FnOnce()) {
    frame.set(Frame::Idle);
    paint();
    LAST_PAINT.with(|l| l.set((start, now())));
}

/// A paint this long makes the next one asked for the same frame wait for the next frame ([`Redraw::ask`]).
const LONG_PAINT_MS: f64 = 12.0;

thread_local! {
    /// When the last paint began and ended (`performance.now()`).
    static LAST_PAINT: Cell<(f64, f64)> = const { Cell::new((f64::NEG_INFINITY, f64::NEG_INFINITY)) };
}

use crate::worker::now;

impl Default for Redraw {
    fn default() -> Redraw {
        Redraw::new()
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
