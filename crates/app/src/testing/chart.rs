//! The stack chart's hooks (`tests/e2e/chart.test.mjs`, `bench/chart-browser.mjs`):
//! - `window.__scorchChartStackAt(t_ns, lane?)`: the frame names (root first) the chart draws at time `t_ns` (a
//!   string or a number of ns on the profile's clock), read from its boxes — in lane `lane` when given;
//! - `window.__scorchChartLanes()`: the lanes (`{tid, header, depth, samples, title}`), empty without lanes;
//! - `window.__scorchChartPoint(t_ns, depth)`: the page point (CSS px) of time `t_ns` at row `depth` (−1: the
//!   ruler), or null outside the window;
//! - `window.__scorchChartTimes()`: the chart's paint durations (ms) since the last call;
//! - `window.__scorchBenchChart(n)`: opens a synthetic profile of n samples shaped for the chart (`bench.rs`),
//!   `window.__scorchChartBuildMs` then says how long building its chart took.

use super::{drain, set_global};
use crate::render::chart::{ChartData, ChartGeom, RULER_H};
use crate::render::ROW_H;
use crate::state::Actions;
use leptos::prelude::*;
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;

thread_local! {
    static CHART_TIMES: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

/// How long building the last chart took (`window.__scorchChartBuildMs`).
pub fn note_build(ms: f64) {
    set_global("__scorchChartBuildMs", &ms.into());
}

pub fn record_chart_paint(ms: f64) {
    super::push(&CHART_TIMES, ms);
}

fn ns(v: &JsValue) -> Option<u64> {
    v.as_string()
        .and_then(|s| s.trim().parse().ok())
        .or_else(|| v.as_f64().filter(|x| *x >= 0.0).map(|x| x as u64))
}

/// Installs the hooks for the chart on the page (its data, window, canvas and scroll).
pub fn install(
    data: RwSignal<Option<Arc<ChartData>>>,
    win: RwSignal<Option<(u64, u64)>>,
    canvas_ref: NodeRef<leptos::html::Canvas>,
    scroll_top: RwSignal<f64>,
) {
    let stack_at = Closure::<dyn Fn(JsValue, JsValue) -> JsValue>::new(move |t: JsValue, lane: JsValue| {
        let (Some(d), Some(t)) = (data.get_untracked(), ns(&t)) else {
            return JsValue::NULL;
        };
        let p = &d.loaded.imported.profile;
        let frames = match lane.as_f64() {
            Some(k) if k >= 0.0 => d.chart.lane_stack_at(k as usize, t),
            _ => d.chart.stack_at(t),
        };
        frames
            .into_iter()
            .map(|f| JsValue::from(p.frame_name(f)))
            .collect::<js_sys::Array>()
            .into()
    });
    let point = Closure::<dyn Fn(JsValue, f64) -> JsValue>::new(move |t: JsValue, depth: f64| {
        let (Some(d), Some(t), Some(canvas)) = (
            data.get_untracked(),
            ns(&t),
            canvas_ref.try_get_untracked().flatten(),
        ) else {
            return JsValue::NULL;
        };
        let (w0, w1) = d.window(win.get_untracked());
        let (width, _) = crate::render::canvas::css_size(&canvas);
        let g = ChartGeom {
            width,
            height: 0.0,
            w0,
            w1,
            scroll_top: scroll_top.get_untracked(),
        };
        if t < w0 || t > w1 {
            return JsValue::NULL;
        }
        let y = if depth < 0.0 {
            RULER_H / 2.0
        } else {
            g.row_y(depth as usize) + ROW_H / 2.0
        };
        let r = canvas.get_bounding_client_rect();
        js_sys::Array::of2(&(r.left() + g.x(t)).into(), &(r.top() + y).into()).into()
    });
    let times = Closure::<dyn Fn() -> js_sys::Array>::new(move || drain(&CHART_TIMES));
    let lanes = Closure::<dyn Fn() -> JsValue>::new(move || {
        let Some(d) = data.get_untracked() else {
            return JsValue::NULL;
        };
        let p = &d.loaded.imported.profile;
        d.chart
            .lanes
            .iter()
            .map(|l| {
                let o = js_sys::Object::new();
                let tid = p.threads.tid.get(l.thread as usize).copied().unwrap_or(0);
                let _ = js_sys::Reflect::set(&o, &"tid".into(), &tid.into());
                let _ = js_sys::Reflect::set(&o, &"header".into(), &(l.header as f64).into());
                let _ = js_sys::Reflect::set(&o, &"depth".into(), &(l.depth as f64).into());
                let _ = js_sys::Reflect::set(&o, &"samples".into(), &(l.samples as f64).into());
                let title = crate::render::chart::lane_title(p, l);
                let _ = js_sys::Reflect::set(&o, &"title".into(), &title.into());
                JsValue::from(o)
            })
            .collect::<js_sys::Array>()
            .into()
    });
    set_global("__scorchChartLanes", lanes.as_ref());
    lanes.forget();
    set_global("__scorchChartStackAt", stack_at.as_ref());
    set_global("__scorchChartPoint", point.as_ref());
    set_global("__scorchChartTimes", times.as_ref());
    stack_at.forget();
    point.forget();
    times.forget();
}

/// `__scorchBenchChart(n)`: opens the chart-shaped synthetic profile.
pub fn install_bench(a: Actions) {
    let load = Closure::<dyn Fn(f64)>::new(move |n: f64| {
        let seq = a.start_load(format!("synthetic chart of {n} samples"));
        let imported = super::bench::chart_walk(n as usize);
        a.finish_import(seq, format!("chart-{n}"), Ok(imported), false);
    });
    set_global("__scorchBenchChart", load.as_ref());
    load.forget();
}
