//! The clock of the page or the worker this runs in: one `now` for every timing (paints, builds, loads).

/// Native builds (the app's unit tests): no clock.
#[cfg(not(target_arch = "wasm32"))]
pub fn now() -> f64 {
    0.0
}

/// `performance.now()` of the page or the worker this runs in (0 where there is none).
#[cfg(target_arch = "wasm32")]
pub fn now() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| wasm_bindgen::JsCast::dyn_into::<web_sys::Performance>(p).ok())
        .map_or(0.0, |p| p.now())
}
