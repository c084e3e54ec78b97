//! Test and benchmark hooks, compiled only with the `testing` cargo feature (the browser tests' and the
//! benchmarks' build: `scripts/test.sh`, `bench/*.mjs`). The product build (`scripts/serve.sh`, the hosting
//! instructions) has none of them: no `window.__scorch…` functions, no paint-time arrays, no load throttle.
//!
//! - `window.__scorchFramePoint(name, pane?)`: the page point of a drawn frame (tests hover and click it);
//! - `window.__scorchTree(pane?)`: the pane's tree: its nodes, whether it is cut (`scorch_core::view::cut`) and
//!   its stand-ins that weigh something, the zoom's name and whether the zoom waits for a finer cut;
//! - `window.__scorchLoadThrottle = { ms, slice, trap }`: slows the import worker down, or makes it die;
//! - `window.__scorchWorkerMs`, `window.__scorchPrefetched`, `window.__scorchParseSlices`: what the worker said
//!   about the last load (its time, whether it read boot.js's prefetch, in how many slices it parsed);
//! - `window.__scorchBenchLoad(n)`, `__scorchBenchTree(n)`, `__scorchBenchHeatmap(rows)`,
//!   `__scorchPaintTimes()`, `__scorchOverlayTimes()`: the benchmarks' synthetic profiles and paint timings;
//! - `window.__scorchLastExport`: the name and bytes of the last file the Export menu offered;
//! - `window.__scorchLabels()`: the drawn labels with their box and text colours (the contrast test);
//! - `window.__scorchViewRequests()`: how many view requests are waiting for the view engine;
//! - `window.__scorchViewsPending()`: how many views are wanted and not shown yet — those requests, the main
//!   graph, the sandwich and the function table from the action that asked for them until they are shown, and
//!   the chart, call graph and source lines components' (`state::rebuild::views_waiting`); what the tests'
//!   `settle` waits on;
//! - `window.__scorchEngine()`: [engines started, profiles sent to them, whether one runs now, whether it holds
//!   a profile]; `window.__scorchEngineEnd()` ends it, as closing its profile does;
//! - `window.__scorchEngineJobs`: the engine's answers the page took, by job kind (`{ inverted: 1, … }`);
//! - `window.__scorchUnsendable = true`: a view request carries a symbol, which no `postMessage` can send;
//! - `window.__scorchEngineTrap = true`: the view engine traps on the next request, as out of memory;
//! - `window.__scorchSilentWorkers = ms`: every worker started from then on (views, spare import workers, the
//!   next load's parse workers) never says it is ready, and is given up on after `ms`;
//! - `window.__scorchCores = n`: loads cut their input as on `n` cores (two start no parse worker);
//! - the stack chart's: `chart.rs`;
//! - the call graph's: `graph.rs`.
//!
//! Product code never names this module: it reports to and asks [`crate::seams`], where [`install`] (called
//! once at start, from `main` through `scorch_app::install_test_hooks`, on the page and in every worker) puts
//! [`TestHooks`]. The seams that carry the upper layers' values type-erased are downcast here.

mod bench;
pub mod chart;
pub mod graph;

use crate::render::chart::ChartData;
use crate::render::ROW_H;
use crate::state::pane::{Pane, PaneId};
use crate::state::Actions;
use crate::worker::protocol::Open;
use js_sys::Reflect;
use leptos::prelude::*;
use scorch_core::view::calltree::NodeId;
use scorch_core::ViewOptions;
use std::any::Any;
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;

/// The hooks [`install`] puts into [`crate::seams`].
struct TestHooks;

/// Installs [`TestHooks`] into [`crate::seams`]: once at start, before anything reports to them.
pub fn install() {
    crate::seams::install(&TestHooks);
}

/// A type-erased value of a seam as the type it carries: one of another type is a bug here, said at once.
fn downcast<'a, T: 'static>(v: &'a dyn Any, seam: &str) -> &'a T {
    v.downcast_ref::<T>()
        .unwrap_or_else(|| panic!("seams::{seam}: not a {}", std::any::type_name::<T>()))
}

impl crate::seams::Hooks for TestHooks {
    fn clear_labels(&self) {
        clear_labels();
    }
    fn record_label(&self, x: f64, y: f64, w: f64, fill: [u8; 3], text: [u8; 3]) {
        record_label(x, y, w, fill, text);
    }
    fn record_paint(&self, ms: f64) {
        record_paint(ms);
    }
    fn record_overlay(&self, ms: f64) {
        record_overlay(ms);
    }
    fn record_chart_paint(&self, ms: f64) {
        chart::record_chart_paint(ms);
    }
    fn note_chart_build(&self, ms: f64) {
        chart::note_build(ms);
    }
    fn record_export(&self, name: &str, bytes: &[u8]) {
        record_export(name, bytes);
    }
    fn record_export_blob(&self, name: &str, blob: &web_sys::Blob) {
        let name = name.to_string();
        let reader = blob.array_buffer();
        leptos::task::spawn_local(async move {
            if let Ok(buf) = wasm_bindgen_futures::JsFuture::from(reader).await {
                record_export(&name, &js_sys::Uint8Array::new(&buf).to_vec());
            }
        });
    }
    fn install_frame_point(&self, parts: &dyn Any) {
        let &(actions, pane, canvas_ref) =
            downcast::<(Actions, Pane, NodeRef<leptos::html::Canvas>)>(parts, "install_frame_point");
        install_frame_point(actions, pane, canvas_ref);
    }
    fn install_bench_hooks(&self, actions: &dyn Any) {
        install_bench_hooks(*downcast::<Actions>(actions, "install_bench_hooks"));
    }
    fn install_chart(&self, parts: &dyn Any) {
        type Parts = (
            RwSignal<Option<Arc<ChartData>>>,
            RwSignal<Option<(u64, u64)>>,
            NodeRef<leptos::html::Canvas>,
            RwSignal<f64>,
        );
        let &(data, win, canvas_ref, scroll_top) = downcast::<Parts>(parts, "install_chart");
        chart::install(data, win, canvas_ref, scroll_top);
    }
    fn install_graph(&self, parts: &dyn Any) {
        type Parts = (
            RwSignal<Option<Arc<crate::render::graph::GraphData>>>,
            RwSignal<crate::render::graph::GraphGeom>,
            NodeRef<leptos::html::Canvas>,
        );
        let &(data, geom, canvas_ref) = downcast::<Parts>(parts, "install_graph");
        graph::install(data, geom, canvas_ref);
    }
    fn throttle_load(&self, open: &mut dyn Any) {
        match open.downcast_mut::<Open>() {
            Some(open) => throttle_load(open),
            None => panic!("seams::throttle_load: not a worker::protocol::Open"),
        }
    }
    fn silent_workers(&self) -> Option<f64> {
        silent_workers()
    }
    fn is_silent_worker(&self) -> bool {
        is_silent_worker()
    }
    fn silent_spare(&self) -> Option<f64> {
        silent_spare()
    }
    fn make_unsendable(&self, message: &JsValue) {
        make_unsendable(message);
    }
    fn engine_took(&self, message: &JsValue) {
        engine_took(message);
    }
    fn note_engine_job(&self, job: &str) {
        note_engine_job(job);
    }
    fn note_worker(&self, ms: f64, prefetched: bool, slices: u32, spare: bool) {
        note_worker(ms, prefetched, slices, spare);
    }
}

thread_local! {
    /// How long each paint took (ms), for the redraw benchmark (`__scorchPaintTimes`).
    static PAINT_TIMES: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
    /// The same for the hover overlay (`__scorchOverlayTimes`).
    static OVERLAY_TIMES: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
    /// The panes on the page with their canvases, for `__scorchFramePoint`.
    static PANES: RefCell<Vec<(Pane, NodeRef<leptos::html::Canvas>)>> = const { RefCell::new(Vec::new()) };
    /// The labels of the last flame paint: (x, y, width, the box's colour as shown, the text's colour).
    static LABELS: RefCell<Vec<DrawnLabel>> = const { RefCell::new(Vec::new()) };
}

type DrawnLabel = (f64, f64, f64, [u8; 3], [u8; 3]);

/// A paint starts: forget the last one's labels.
pub fn clear_labels() {
    LABELS.with(|l| l.borrow_mut().clear());
}

/// A label was drawn (at most 20,000 are kept: the canvas has far fewer rows × columns of room).
pub fn record_label(x: f64, y: f64, w: f64, fill: [u8; 3], text: [u8; 3]) {
    LABELS.with(|l| {
        let mut l = l.borrow_mut();
        if l.len() < 20_000 {
            l.push((x, y, w, fill, text));
        }
    });
}

/// `window.__scorchLabels()`: the labels of the last flame paint, `[{x, y, w, fill: [r,g,b], text: [r,g,b]}]`
/// in the canvas's CSS px (`fill` is what scorch believes the box looks like; the contrast test checks it
/// against the canvas's pixels).
fn install_labels_hook() {
    let hook = Closure::<dyn Fn() -> JsValue>::new(|| {
        let rgb = |c: [u8; 3]| -> JsValue {
            c.iter()
                .map(|&v| JsValue::from(v))
                .collect::<js_sys::Array>()
                .into()
        };
        LABELS.with(|l| {
            l.borrow()
                .iter()
                .map(|&(x, y, w, fill, text)| {
                    let o = js_sys::Object::new();
                    let _ = Reflect::set(&o, &"x".into(), &x.into());
                    let _ = Reflect::set(&o, &"y".into(), &y.into());
                    let _ = Reflect::set(&o, &"w".into(), &w.into());
                    let _ = Reflect::set(&o, &"fill".into(), &rgb(fill));
                    let _ = Reflect::set(&o, &"text".into(), &rgb(text));
                    JsValue::from(o)
                })
                .collect::<js_sys::Array>()
                .into()
        })
    });
    set_global("__scorchLabels", hook.as_ref());
    hook.forget();
}

fn push(times: &'static std::thread::LocalKey<RefCell<Vec<f64>>>, ms: f64) {
    times.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() < 10_000 {
            t.push(ms);
        }
    });
}

/// `window.__scorchLastExport = { name, bytes }`: the last file the Export menu offered (bytes a Uint8Array).
pub fn record_export(name: &str, bytes: &[u8]) {
    let o = js_sys::Object::new();
    let _ = Reflect::set(&o, &"name".into(), &name.into());
    let _ = Reflect::set(&o, &"bytes".into(), &js_sys::Uint8Array::from(bytes).into());
    set_global("__scorchLastExport", &o);
}

pub fn record_paint(ms: f64) {
    push(&PAINT_TIMES, ms);
}

pub fn record_overlay(ms: f64) {
    push(&OVERLAY_TIMES, ms);
}

fn drain(times: &'static std::thread::LocalKey<RefCell<Vec<f64>>>) -> js_sys::Array {
    times.with(|t| t.borrow_mut().drain(..).map(JsValue::from).collect())
}

fn set_global(name: &str, value: &JsValue) {
    if let Some(w) = web_sys::window() {
        let _ = Reflect::set(&w, &name.into(), value);
    }
}

/// `window.__scorchLoadThrottle = { ms, slice, trap }` slows the worker down so a test can watch progress;
/// `trap`: after that many slices the worker traps as an allocation failure does. The load's parse workers are
/// silent while `window.__scorchSilentWorkers` is set; `window.__scorchCores` sets the cores the load assumes.
pub fn throttle_load(open: &mut Open) {
    open.throttle.silent_ms = silent_workers().unwrap_or(0.0) as u32;
    let Some(w) = web_sys::window() else { return };
    // `window.__scorchCores = n`: loads cut their input as on n cores (two-core machines start no parse worker).
    open.throttle.cores = Reflect::get(&w, &"__scorchCores".into())
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0) as u32;
    // `window.__scorchStuckWorker = true`: the next load's import worker blocks where it starts its parse
    // workers (cleared here: the retry, read whole, starts none anyway).
    if Reflect::get(&w, &"__scorchStuckWorker".into()).is_ok_and(|v| v.is_truthy()) {
        open.throttle.stuck = true;
        let _ = Reflect::set(&w, &"__scorchStuckWorker".into(), &JsValue::FALSE);
    }
    let Ok(t) = Reflect::get(&w, &"__scorchLoadThrottle".into()) else {
        return;
    };
    if t.is_undefined() || t.is_null() {
        return;
    }
    let num = |k: &str| Reflect::get(&t, &k.into()).ok().and_then(|v| v.as_f64());
    open.throttle.ms = num("ms").unwrap_or(0.0) as u32;
    open.slice_bytes = num("slice").map_or(open.slice_bytes, |s| s.max(1.0) as u32);
    open.throttle.trap_after = num("trap").unwrap_or(0.0) as u32;
}

/// `window.__scorchSilentWorkers`: ms after which a worker that has not said it is ready is given up on;
/// `None` (the default) when unset, and in a worker.
pub fn silent_workers() -> Option<f64> {
    positive_global("__scorchSilentWorkers")
}

/// The page's global `name` when it is a positive number; `None` otherwise, and in a worker.
fn positive_global(name: &str) -> Option<f64> {
    let w = web_sys::window()?;
    Reflect::get(&w, &name.into())
        .ok()?
        .as_f64()
        .filter(|ms| *ms > 0.0)
}

/// This worker was started silent: it must never say it is ready.
pub fn is_silent_worker() -> bool {
    Reflect::get(&js_sys::global(), &"name".into())
        .ok()
        .and_then(|n| n.as_string())
        .is_some_and(|n| n == crate::seams::SILENT)
}

/// `window.__scorchUnsendable`: the message gets a symbol beside its data, so posting it fails (a
/// `DataCloneError`, as an out-of-memory clone would) — the tests of what the page does then.
pub fn make_unsendable(message: &JsValue) {
    let Some(w) = web_sys::window() else { return };
    if Reflect::get(&w, &"__scorchUnsendable".into())
        .ok()
        .and_then(|v| v.as_bool())
        == Some(true)
    {
        let _ = Reflect::set(message, &"unsendable".into(), &js_sys::Symbol::for_("scorch"));
    }
    mark_trap(message);
}

/// `window.__scorchEngineTrap = true`: the view requests posted from then on carry `trap`, and the engine that
/// takes one traps, as running out of memory does in wasm — the tests of what the page says when the engine dies.
fn mark_trap(message: &JsValue) {
    let Some(w) = web_sys::window() else { return };
    if Reflect::get(&w, &"__scorchEngineTrap".into()).is_ok_and(|v| v.is_truthy()) {
        let _ = Reflect::set(message, &"trap".into(), &JsValue::TRUE);
    }
}

/// In the engine: a request marked by [`mark_trap`] traps.
pub fn engine_took(message: &JsValue) {
    if Reflect::get(message, &"trap".into()).is_ok_and(|v| v.is_truthy()) {
        std::process::abort();
    }
}

/// Counts the engine's answers the page took, by job kind: `window.__scorchEngineJobs`, e.g.
/// `{ inverted: 2, functions: 1 }` (the tests that every view of a small profile comes from the engine).
pub fn note_engine_job(job: &str) {
    let Some(w) = web_sys::window() else { return };
    let jobs = Reflect::get(&w, &"__scorchEngineJobs".into())
        .ok()
        .filter(|v| v.is_object())
        .unwrap_or_else(|| {
            let o: JsValue = js_sys::Object::new().into();
            let _ = Reflect::set(&w, &"__scorchEngineJobs".into(), &o);
            o
        });
    let n = Reflect::get(&jobs, &job.into())
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    let _ = Reflect::set(&jobs, &job.into(), &(n + 1.0).into());
}

/// Records how long the import worker took (`window.__scorchWorkerMs`, read by `bench/load-browser.mjs`) and
/// whether it read the response boot.js started for the link (`window.__scorchPrefetched`, read by the tests),
/// in how many slices it parsed it (`window.__scorchParseSlices`: 1, or one per parse worker), and whether the
/// page's spare parse worker was one of them (`window.__scorchParseSpare`).
pub fn note_worker(ms: f64, prefetched: bool, slices: u32, spare: bool) {
    set_global("__scorchWorkerMs", &ms.into());
    set_global("__scorchPrefetched", &prefetched.into());
    set_global("__scorchParseSlices", &slices.into());
    set_global("__scorchParseSpare", &spare.into());
}

/// `window.__scorchSilentSpare = ms`: the spare parse worker the page starts next is silent (it never says it is
/// ready), and its import worker gives up on it after `ms`.
pub fn silent_spare() -> Option<f64> {
    positive_global("__scorchSilentSpare")
}

/// `window.__scorchFramePoint(name, pane?)` gives the page (CSS px) centre of the widest drawn frame with that
/// name in a pane (`main`, `callers`, `callees`; default `main`), or null.
pub fn install_frame_point(a: Actions, pane: Pane, canvas_ref: NodeRef<leptos::html::Canvas>) {
    PANES.with(|p| {
        let mut p = p.borrow_mut();
        p.retain(|(x, _)| x.id != pane.id);
        p.push((pane, canvas_ref));
    });
    let hook = Closure::<dyn Fn(String, Option<String>) -> JsValue>::new(
        move |name: String, which: Option<String>| {
            let which = which.unwrap_or_else(|| PaneId::Main.name().to_string());
            let Some((pane, canvas_ref)) =
                PANES.with(|p| p.borrow().iter().find(|(x, _)| x.id.name() == which).copied())
            else {
                return JsValue::NULL;
            };
            let (Some(data), Some(canvas)) = (
                pane.data.get_untracked(),
                canvas_ref.try_get_untracked().flatten(),
            ) else {
                return JsValue::NULL;
            };
            let g = pane.geometry(&data, a.view.orientation.get_untracked());
            // Every node's place at once (the page keeps no layout; one node's costs a walk of its path).
            let l = scorch_core::FlameLayout::new(&data.tree);
            let best = (1..data.tree.len())
                .filter(|&n| data.name_of(NodeId(n as u32)) == name)
                .filter_map(|n| {
                    let (x0, x1) = (g.px(l.x0[n]).max(0.0), g.px(l.x1[n]).min(g.width));
                    (x1 - x0 >= 1.0).then_some((n, x0, x1))
                })
                .max_by(|a, b| (a.2 - a.1).total_cmp(&(b.2 - b.1)));
            let Some((n, x0, x1)) = best else {
                return JsValue::NULL;
            };
            let rect = canvas.get_bounding_client_rect();
            let y = g.row_y(data.tree.depth[n] as usize) + ROW_H / 2.0;
            js_sys::Array::of2(&(rect.left() + (x0 + x1) / 2.0).into(), &(rect.top() + y).into()).into()
        },
    );
    set_global("__scorchFramePoint", hook.as_ref());
    hook.forget();
    let tree = Closure::<dyn Fn(Option<String>) -> JsValue>::new(move |which: Option<String>| {
        let which = which.unwrap_or_else(|| PaneId::Main.name().to_string());
        let Some(pane) = PANES.with(|p| p.borrow().iter().find(|(x, _)| x.id.name() == which).map(|x| x.0))
        else {
            return JsValue::NULL;
        };
        let Some(data) = pane.data.get_untracked() else {
            return JsValue::NULL;
        };
        let zoom = pane.current_zoom();
        let standins = (0..data.tree.len())
            .filter(|&n| data.is_elided(NodeId(n as u32)) && data.tree.total[n] > 0)
            .count();
        let o = js_sys::Object::new();
        let set = |k: &str, v: JsValue| {
            let _ = Reflect::set(&o, &k.into(), &v);
        };
        set("nodes", (data.tree.len() as f64).into());
        set("cut", data.cut.is_some().into());
        set("standins", (standins as f64).into());
        set("zoom", data.name_of(zoom).into());
        set("zoomFiner", data.finer_for(zoom).is_some().into());
        o.into()
    });
    set_global("__scorchTree", tree.as_ref());
    tree.forget();
}

/// Benchmark hooks (bench/heatmap-browser.mjs, bench/redraw-browser.mjs): `__scorchBenchLoad(n)` opens a
/// synthetic profile of n timestamped samples; `__scorchBenchHeatmap(rows)` times one heatmap computation (ms);
/// `__scorchBenchTree(n)` opens a synthetic tree of about n nodes; `__scorchPaintTimes()` and
/// `__scorchOverlayTimes()` return (and clear) the paint durations since the last call.
pub fn install_bench_hooks(a: Actions) {
    install_labels_hook();
    let load = Closure::<dyn Fn(f64)>::new(move |n: f64| {
        let seq = a.start_load(format!("synthetic {n} samples"));
        let imported = bench::synthetic(n as usize, 60);
        a.finish_import(seq, format!("synthetic-{n}"), Ok(imported), false);
    });
    let time_heatmap = Closure::<dyn Fn(f64) -> f64>::new(move |rows: f64| {
        let Some(loaded) = a.load.loaded.get_untracked() else {
            return -1.0;
        };
        let p = &loaded.imported.profile;
        let perf = web_sys::window().and_then(|w| w.performance());
        let t0 = perf.as_ref().map_or(0.0, |p| p.now());
        let o = scorch_core::analysis::heatmap::HeatmapOptions {
            rows: rows as u32,
            idle_filter: true,
        };
        let h = scorch_core::analysis::heatmap::heatmap(p, &ViewOptions::default_for(p), &o);
        let t1 = perf.as_ref().map_or(0.0, |p| p.now());
        if h.is_none() {
            return -1.0;
        }
        t1 - t0
    });
    // A promise of the tree's node count, once shown (a large tree is built in a worker).
    let load_tree = Closure::<dyn Fn(f64) -> js_sys::Promise>::new(move |n: f64| {
        let seq = a.start_load(format!("synthetic tree of {n} nodes"));
        let imported = bench::tree(n as usize);
        let shows = a.panes.main.shows.get_untracked();
        a.finish_import(seq, format!("tree-{n}"), Ok(imported), false);
        wasm_bindgen_futures::future_to_promise(async move {
            while crate::worker::build::running() > 0 || a.panes.main.shows.get_untracked() == shows {
                crate::worker::yield_now().await;
                let pause = js_sys::Promise::new(&mut |resolve, _| {
                    if let Some(w) = web_sys::window() {
                        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 50);
                    }
                });
                let _ = wasm_bindgen_futures::JsFuture::from(pause).await;
            }
            let len = a
                .panes
                .main
                .data
                .get_untracked()
                .map_or(0.0, |d| d.tree.len() as f64);
            Ok(JsValue::from(len))
        })
    });
    // How many views are being built in workers (`worker::build`).
    let view_requests = Closure::<dyn Fn() -> f64>::new(|| crate::worker::build::running() as f64);
    set_global("__scorchViewRequests", view_requests.as_ref());
    view_requests.forget();
    // Views wanted and not shown yet: the requests under way, the main graph, the sandwich and the function table
    // from the moment the action that changed the view asked for them until their answer is shown (or fails, or
    // is given up), and the components' views (`state::rebuild::Wanted`) — `settle` in tests/e2e/harness.mjs
    // waits for none.
    let pending = Closure::<dyn Fn() -> f64>::new(|| {
        (crate::worker::build::running() + crate::state::rebuild::views_waiting()) as f64
    });
    set_global("__scorchViewsPending", pending.as_ref());
    pending.forget();
    // The view engine (`worker::build`): [engines started, profiles sent to them, whether one runs now, whether
    // it holds a profile].
    let engine = Closure::<dyn Fn() -> js_sys::Array>::new(|| {
        let (started, sent, alive, holds) = crate::worker::build::engine_stats();
        js_sys::Array::of4(&started.into(), &sent.into(), &alive.into(), &holds.into())
    });
    set_global("__scorchEngine", engine.as_ref());
    engine.forget();
    // Ends the view engine, as closing its profile does (the tests that need the next request to start one).
    let end_engine = Closure::<dyn Fn()>::new(crate::worker::build::release);
    set_global("__scorchEngineEnd", end_engine.as_ref());
    end_engine.forget();
    let overlay_times = Closure::<dyn Fn() -> js_sys::Array>::new(move || drain(&OVERLAY_TIMES));
    let paint_times = Closure::<dyn Fn() -> js_sys::Array>::new(move || drain(&PAINT_TIMES));
    set_global("__scorchBenchTree", load_tree.as_ref());
    set_global("__scorchPaintTimes", paint_times.as_ref());
    set_global("__scorchOverlayTimes", overlay_times.as_ref());
    set_global("__scorchBenchLoad", load.as_ref());
    set_global("__scorchBenchHeatmap", time_heatmap.as_ref());
    chart::install_bench(a);
    load.forget();
    load_tree.forget();
    paint_times.forget();
    overlay_times.forget();
    time_heatmap.forget();
}
