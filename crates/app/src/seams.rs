//! Test seams: the ground floor where product code reports what the test and benchmark hooks need (paint
//! times, drawn labels, exported files, what the import worker said) and asks what they set (the load
//! throttle, silent workers). It depends on no other module of this crate, so every layer may call it.
//!
//! Nothing is installed in the product build (`scripts/serve.sh`): each call is then a no-op (one thread-local
//! read and a call of an empty default method) and each question has the product's answer. The `testing`
//! module (the `testing` feature: the browser tests' and the benchmarks' build) installs its [`Hooks`] once at
//! start, before anything else runs: both binaries' `main` call `scorch_app::install_test_hooks`, the page's
//! (`main.rs`) and the engine's in every worker (`engine.rs`).
//!
//! A few hooks need the upper layers' values (the app's actions, a pane, a chart's signals, the import
//! request): a seam cannot name those types without depending upward, so they pass here type-erased
//! (`&dyn Any`) and `testing`, which may name them, downcasts them. Each such seam says what it carries.

use std::any::Any;
use std::cell::Cell;
use wasm_bindgen::JsValue;

/// What the test hooks do with the product's reports. Every method has the product's behaviour by default:
/// nothing, or the answer without a test setting.
pub trait Hooks {
    /// A flame paint starts: forget the last one's labels.
    fn clear_labels(&self) {}
    /// A flame label was drawn at (`x`, `y`), `w` wide, on a box shown as `fill`, in colour `text`.
    fn record_label(&self, _x: f64, _y: f64, _w: f64, _fill: [u8; 3], _text: [u8; 3]) {}
    /// A flame paint took `ms`.
    fn record_paint(&self, _ms: f64) {}
    /// A hover overlay paint took `ms`.
    fn record_overlay(&self, _ms: f64) {}
    /// A stack chart paint took `ms`.
    fn record_chart_paint(&self, _ms: f64) {}
    /// Building the last stack chart took `ms`.
    fn note_chart_build(&self, _ms: f64) {}
    /// The Export menu offered the file `name` with these bytes.
    fn record_export(&self, _name: &str, _bytes: &[u8]) {}
    /// The Export menu offered the file `name` as this blob (the PNG: its bytes are read only if recorded).
    fn record_export_blob(&self, _name: &str, _blob: &web_sys::Blob) {}
    /// A flame canvas is on the page: `parts` is its `(state::Actions, state::pane::Pane,
    /// NodeRef<leptos::html::Canvas>)`.
    fn install_frame_point(&self, _parts: &dyn Any) {}
    /// The main flame canvas is on the page: `actions` is the app's `state::Actions`.
    fn install_bench_hooks(&self, _actions: &dyn Any) {}
    /// The stack chart is on the page: `parts` is its `(RwSignal<Option<Arc<render::chart::ChartData>>>,
    /// RwSignal<Option<(u64, u64)>>, NodeRef<leptos::html::Canvas>, RwSignal<f64>)` (data, window, canvas,
    /// scroll).
    fn install_chart(&self, _parts: &dyn Any) {}
    /// The call graph is on the page: `parts` is its `(RwSignal<Option<Arc<render::graph::GraphData>>>,
    /// RwSignal<render::graph::GraphGeom>, NodeRef<leptos::html::Canvas>)` (data, pan and zoom, canvas).
    fn install_graph(&self, _parts: &dyn Any) {}
    /// An import request (`open`: a `worker::protocol::Open`) is about to be sent: the hooks may throttle it.
    fn throttle_load(&self, _open: &mut dyn Any) {}
    /// The ms after which a worker that has not said it is ready is given up on, when a test set it.
    fn silent_workers(&self) -> Option<f64> {
        None
    }
    /// This worker was started silent ([`SILENT`]): it must never say it is ready.
    fn is_silent_worker(&self) -> bool {
        false
    }
    /// A view request is about to be posted: the hooks may make it unsendable, or mark it so that the engine
    /// traps on it ([`Hooks::engine_took`]).
    fn make_unsendable(&self, _message: &JsValue) {}
    /// The view engine took a request (`message`, as posted): the hooks may make it trap, as running out of
    /// memory does in wasm.
    fn engine_took(&self, _message: &JsValue) {}
    /// The page took the view engine's answer to a job of kind `job` (`worker::protocol::Job::name`).
    fn note_engine_job(&self, _job: &str) {}
    /// The import worker's answer: how long it took, whether it read boot.js's prefetch, in how many slices,
    /// whether the page's spare parse worker was one of its parse workers.
    fn note_worker(&self, _ms: f64, _prefetched: bool, _slices: u32, _spare: bool) {}
    /// A spare parse worker is about to start: the ms after which the import worker gives up on it, when a test
    /// asked for it to be silent (it is then started [`SILENT`]).
    fn silent_spare(&self) -> Option<f64> {
        None
    }
}

/// The product's hooks: none.
struct Product;

impl Hooks for Product {}

thread_local! {
    static HOOKS: Cell<&'static dyn Hooks> = const { Cell::new(&Product) };
}

/// Installs the test hooks (the `testing` module, once at start).
pub fn install(hooks: &'static dyn Hooks) {
    HOOKS.with(|h| h.set(hooks));
}

fn hooks() -> &'static dyn Hooks {
    HOOKS.with(Cell::get)
}

/// The name a silent worker is started with ([`silent_workers`]).
pub const SILENT: &str = "silent";

/// See [`Hooks::clear_labels`].
pub fn clear_labels() {
    hooks().clear_labels();
}

/// See [`Hooks::record_label`].
pub fn record_label(x: f64, y: f64, w: f64, fill: [u8; 3], text: [u8; 3]) {
    hooks().record_label(x, y, w, fill, text);
}

/// See [`Hooks::record_paint`].
pub fn record_paint(ms: f64) {
    hooks().record_paint(ms);
}

/// See [`Hooks::record_overlay`].
pub fn record_overlay(ms: f64) {
    hooks().record_overlay(ms);
}

/// See [`Hooks::record_chart_paint`].
pub fn record_chart_paint(ms: f64) {
    hooks().record_chart_paint(ms);
}

/// See [`Hooks::note_chart_build`].
pub fn note_chart_build(ms: f64) {
    hooks().note_chart_build(ms);
}

/// See [`Hooks::record_export`].
pub fn record_export(name: &str, bytes: &[u8]) {
    hooks().record_export(name, bytes);
}

/// See [`Hooks::record_export_blob`].
pub fn record_export_blob(name: &str, blob: &web_sys::Blob) {
    hooks().record_export_blob(name, blob);
}

/// See [`Hooks::install_frame_point`].
pub fn install_frame_point(parts: &dyn Any) {
    hooks().install_frame_point(parts);
}

/// See [`Hooks::install_bench_hooks`].
pub fn install_bench_hooks(actions: &dyn Any) {
    hooks().install_bench_hooks(actions);
}

/// See [`Hooks::install_chart`].
pub fn install_chart(parts: &dyn Any) {
    hooks().install_chart(parts);
}

/// See [`Hooks::install_graph`].
pub fn install_graph(parts: &dyn Any) {
    hooks().install_graph(parts);
}

/// See [`Hooks::throttle_load`].
pub fn throttle_load(open: &mut dyn Any) {
    hooks().throttle_load(open);
}

/// See [`Hooks::silent_workers`].
pub fn silent_workers() -> Option<f64> {
    hooks().silent_workers()
}

/// See [`Hooks::is_silent_worker`].
pub fn is_silent_worker() -> bool {
    hooks().is_silent_worker()
}

/// See [`Hooks::make_unsendable`].
pub fn make_unsendable(message: &JsValue) {
    hooks().make_unsendable(message);
}

/// See [`Hooks::engine_took`].
pub fn engine_took(message: &JsValue) {
    hooks().engine_took(message);
}

/// See [`Hooks::note_engine_job`].
pub fn note_engine_job(job: &str) {
    hooks().note_engine_job(job);
}

/// See [`Hooks::note_worker`].
pub fn note_worker(ms: f64, prefetched: bool, slices: u32, spare: bool) {
    hooks().note_worker(ms, prefetched, slices, spare);
}

/// See [`Hooks::silent_spare`].
pub fn silent_spare() -> Option<f64> {
    hooks().silent_spare()
}
