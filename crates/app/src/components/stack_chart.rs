//! The stack chart on the page: every selected sample's stack in time order (x = time, y = depth, root at the
//! top), under a time ruler. Wheel zooms around the pointer, Shift+wheel and dragging pan, the keyboard zooms
//! (+/−) and pans (←/→) when the chart has focus; a drag on the ruler selects that time range (the heatmap's
//! selection), and a heatmap selection zooms the chart to it; a click on a box selects its function. With two or
//! more threads chosen, each thread has a lane (a header row with its name, then its stacks). Painting is
//! `render::chart`'s.

use crate::render::canvas::{self, Redraw};
use crate::render::chart::{self, format_duration, ChartData, ChartGeom, ChartLook, RULER_H};
use crate::render::ROW_H;
use crate::state::load::LoadState;
use crate::state::search::SearchState;
use crate::state::ui::UiState;
use crate::state::view::ViewState;
use crate::state::Actions;
use crate::worker::build::{self as worker_build, Built, Channel};
use crate::worker::protocol::Job;
use leptos::prelude::*;
use scorch_core::view::StackChart;
use std::sync::Arc;

/// The hovered box: depth, index in its row, pointer position.
#[derive(Clone, Copy, PartialEq, Debug)]
struct ChartHover {
    depth: usize,
    i: usize,
    x: f64,
    y: f64,
}

/// A drag under way: panning the body (from this x and window), or selecting on the ruler (from this time).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Drag {
    Pan { x: f64, w: (u64, u64) },
    Ruler { from: u64, to: u64 },
}

thread_local! {
    /// The chart last built, with its key, so switching views and back does not rebuild it.
    static CACHE: std::cell::RefCell<Option<Arc<ChartData>>> = const { std::cell::RefCell::new(None) };
}

/// The cached chart of `loaded` under the view `key`.
fn cached(loaded: &Arc<crate::render::Loaded>, key: &scorch_core::ViewOptions) -> Option<Arc<ChartData>> {
    CACHE.with(|c| {
        c.borrow()
            .as_ref()
            .filter(|d| Arc::ptr_eq(&d.loaded, loaded) && d.view == *key)
            .cloned()
    })
}

use crate::worker::now;

/// Keeps a built chart (`None` without timestamps) as the cached one.
fn keep(
    loaded: &Arc<crate::render::Loaded>,
    key: scorch_core::ViewOptions,
    built: Option<StackChart>,
    t0: f64,
) -> Option<Arc<ChartData>> {
    crate::seams::note_chart_build(now() - t0);
    let d = Arc::new(ChartData::new(loaded.clone(), key, built?));
    CACHE.with(|c| *c.borrow_mut() = Some(d.clone()));
    Some(d)
}

/// The box under canvas point (`x`, `y`): its depth and index in its row.
fn box_at(d: &ChartData, g: &ChartGeom, x: f64, y: f64) -> Option<(usize, usize)> {
    let depth = g.depth_at(y)?;
    Some((depth, d.chart.row(depth)?.at(g.t(x))?))
}

thread_local! {
    /// Bumped by every chart request: a worker's answer for an older one is dropped.
    static GEN: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

#[component]
pub fn StackChartView() -> impl IntoView {
    let view = expect_context::<ViewState>();
    let load = expect_context::<LoadState>();
    let search = expect_context::<SearchState>();
    let ui = expect_context::<UiState>();
    let actions = expect_context::<Actions>();
    let canvas_ref = NodeRef::<leptos::html::Canvas>::new();
    let scroll_ref = NodeRef::<leptos::html::Div>::new();
    let data: RwSignal<Option<Arc<ChartData>>> = RwSignal::new(None);
    let untimed = RwSignal::new(false);
    let building = RwSignal::new(false);
    let width = RwSignal::new(800.0f64);
    let height = RwSignal::new(400.0f64);
    let scroll_top = RwSignal::new(0.0f64);
    let hover: RwSignal<Option<ChartHover>> = RwSignal::new(None);
    let drag: RwSignal<Option<Drag>> = RwSignal::new(None);
    let win = view.chart_window;

    // (Re)build when the shown profile or the view (its time range and band aside) changes: by the view engine
    // whatever the profile's size (building takes about 70 ms per million samples), the chart shown so far
    // staying.
    Effect::new(move |_| {
        let shown = load.shown.get();
        let key = view.options.with(ChartData::key);
        let gen = GEN.with(|g| {
            g.set(g.get().wrapping_add(1));
            g.get()
        });
        let Some(shown) = shown else {
            data.set(None);
            return;
        };
        if data.with_untracked(|d| {
            d.as_ref()
                .is_some_and(|d| Arc::ptr_eq(&d.loaded, &shown) && d.view == key)
        }) {
            return;
        }
        if let Some(d) = cached(&shown, &key) {
            untimed.set(false);
            hover.set(None);
            return data.set(Some(d));
        }
        let t0 = now();
        building.set(true);
        let wanted = crate::state::rebuild::Wanted::asked();
        leptos::task::spawn_local(async move {
            let _wanted = wanted;
            let r = worker_build::build(
                Channel::Chart,
                shown.key,
                &shown.imported,
                key.clone(),
                scorch_core::view::calltree::Order::default(),
                vec![Job::Chart],
            )
            .await;
            if GEN.with(|g| g.get()) != gen {
                return;
            }
            building.set(false);
            match r.map(|mut v| v.pop()) {
                Ok(Some(Ok(Built::Chart(c)))) => {
                    let d = keep(&shown, key, c, t0);
                    untimed.set(d.is_none());
                    hover.set(None);
                    data.set(d);
                }
                Err(crate::worker::LoadError::Cancelled) => {}
                Ok(Some(Err(e))) => load
                    .error
                    .set(Some(format!("Could not build the stack chart: {e}"))),
                Err(e) => load
                    .error
                    .set(Some(format!("Could not build the stack chart: {e}"))),
                Ok(_) => {}
            }
        });
    });
    on_cleanup(|| {
        GEN.with(|g| g.set(g.get().wrapping_add(1)));
        worker_build::cancel(Channel::Chart);
    });
    // A heatmap range zooms the chart to it (and clearing it shows the whole chart); the first run keeps a window
    // a link gave.
    Effect::new(move |prev: Option<Option<(u64, u64)>>| {
        let range = view.options.with(|o| o.time_range);
        match prev {
            Some(p) if p != range => win.set(range),
            None if win.get_untracked().is_none() && range.is_some() => win.set(range),
            _ => {}
        }
        range
    });

    let measure = move || {
        if let Some(el) = scroll_ref.try_get_untracked().flatten() {
            let w = f64::from(el.client_width()).max(100.0);
            if (w - width.get_untracked()).abs() > 0.5 {
                width.set(w);
            }
            let h = f64::from(el.client_height()).max(RULER_H + ROW_H);
            if (h - height.get_untracked()).abs() > 0.5 {
                height.set(h);
            }
        }
    };
    canvas::on_window_resize(measure);
    canvas::observe_size(scroll_ref, measure);

    let geom = move |d: &ChartData| {
        let (w0, w1) = d.window(win.get_untracked());
        ChartGeom {
            width: width.get_untracked(),
            height: height.get_untracked(),
            w0,
            w1,
            scroll_top: scroll_top.get_untracked(),
        }
    };
    let paint = move || {
        // `try_`: `Redraw` cancels the frame of a chart that has left the page (a view switched within one
        // frame); a paint that came all the same would find its signals disposed, and paints nothing.
        let (Some(Some(canvas)), Some(d)) =
            (canvas_ref.try_get_untracked(), data.try_get_untracked().flatten())
        else {
            return;
        };
        let g = geom(&d);
        let look = ChartLook {
            search: search.mask_of(&d.loaded),
            scheme: view.scheme.get_untracked(),
            dark: ui.is_dark(),
            range: view.options.with_untracked(|o| o.time_range),
            dragging: match drag.get_untracked() {
                Some(Drag::Ruler { from, to }) => Some((from.min(to), from.max(to))),
                _ => None,
            },
        };
        chart::paint(&canvas, &d, &g, &look);
    };
    let redraw = Redraw::new();
    Effect::new(move |_| {
        data.track();
        win.track();
        width.track();
        height.track();
        scroll_top.track();
        drag.track();
        search.pattern.track();
        view.scheme.track();
        view.options.track();
        ui.theme.track();
        measure();
        redraw.request(paint);
    });
    crate::seams::install_chart(&(data, win, canvas_ref, scroll_top));

    // Pointer position in canvas CSS px.
    let local = move |ev: &leptos::ev::MouseEvent| {
        let canvas = canvas_ref.try_get_untracked().flatten()?;
        let r = canvas.get_bounding_client_rect();
        Some((
            f64::from(ev.client_x()) - r.left(),
            f64::from(ev.client_y()) - r.top(),
        ))
    };
    let set_window = move |d: &ChartData, a: f64, b: f64| {
        // Kept inside the chart, at least 1 µs (or the whole chart when shorter) wide.
        let (s, e) = (
            d.chart.start_ns as f64,
            d.chart.end_ns.max(d.chart.start_ns + 1) as f64,
        );
        let min = 1_000.0f64.min(e - s);
        let w = (b - a).clamp(min, e - s);
        let a = a.clamp(s, e - w);
        let next = (a.round() as u64, (a + w).round() as u64);
        let whole = (d.chart.start_ns, d.chart.end_ns);
        win.set(if next == whole { None } else { Some(next) });
    };
    let zoom_at = move |factor: f64, x: f64| {
        let Some(d) = data.get_untracked() else { return };
        let g = geom(&d);
        let (w0, w1) = (g.w0 as f64, g.w1 as f64);
        let at = w0 + (x / g.width.max(1.0)).clamp(0.0, 1.0) * (w1 - w0);
        set_window(&d, at - (at - w0) * factor, at + (w1 - at) * factor);
    };
    let pan_by = move |frac: f64| {
        let Some(d) = data.get_untracked() else { return };
        let g = geom(&d);
        let (w0, w1) = (g.w0 as f64, g.w1 as f64);
        let dx = (w1 - w0) * frac;
        set_window(&d, w0 + dx, w1 + dx);
    };
    let on_wheel = move |ev: leptos::ev::WheelEvent| {
        let Some((x, _)) = local(&ev) else { return };
        ev.prevent_default();
        let (dx, dy) = (ev.delta_x(), ev.delta_y());
        if ev.shift_key() || dx.abs() > dy.abs() {
            let d = if dx.abs() > dy.abs() { dx } else { dy };
            pan_by(d / width.get_untracked().max(1.0));
        } else {
            zoom_at((dy * 0.002).exp(), x);
        }
    };
    let on_down = move |ev: leptos::ev::PointerEvent| {
        let Some((x, y)) = local(&ev) else { return };
        let Some(d) = data.get_untracked() else { return };
        let g = geom(&d);
        if let Some(c) = canvas_ref.try_get_untracked().flatten() {
            let _ = c.set_pointer_capture(ev.pointer_id());
        }
        hover.set(None);
        drag.set(Some(if y < RULER_H {
            let t = g.t(x);
            Drag::Ruler { from: t, to: t }
        } else {
            Drag::Pan { x, w: (g.w0, g.w1) }
        }));
    };
    let on_move = move |ev: leptos::ev::PointerEvent| {
        let Some((x, y)) = local(&ev) else { return };
        let Some(d) = data.get_untracked() else { return };
        match drag.get_untracked() {
            Some(Drag::Pan { x: x0, w: (a, b) }) => {
                let span = (b - a) as f64;
                let dt = (x - x0) / width.get_untracked().max(1.0) * span;
                set_window(&d, a as f64 - dt, b as f64 - dt);
            }
            Some(Drag::Ruler { from, .. }) => {
                let to = geom(&d).t(x);
                drag.set(Some(Drag::Ruler { from, to }));
            }
            None => {
                let next = box_at(&d, &geom(&d), x, y).map(|(depth, i)| ChartHover {
                    depth,
                    i,
                    x: ev.client_x().into(),
                    y: ev.client_y().into(),
                });
                if hover.get_untracked() != next {
                    hover.set(next);
                }
            }
        }
    };
    let on_up = move |ev: leptos::ev::PointerEvent| {
        let finished = drag.get_untracked();
        drag.set(None);
        // A click (a press and release without panning) on a box selects its function, as in the flame graph.
        if let (Some(Drag::Pan { x: x0, .. }), Some(d), Some((x, y))) =
            (finished, data.get_untracked(), local(&ev))
        {
            if (x - x0).abs() < 3.0 {
                let f = box_at(&d, &geom(&d), x, y)
                    .and_then(|(depth, i)| d.chart.row(depth)?.frame.get(i).copied());
                if let Some(f) = f {
                    actions.select(Some(d.loaded.imported.profile.frame_name(f).to_string()));
                }
            }
        }
        if let (Some(Drag::Ruler { from, .. }), Some(d), Some((x, _))) =
            (finished, data.get_untracked(), local(&ev))
        {
            let to = geom(&d).t(x);
            let (a, b) = (from.min(to), from.max(to));
            // A click (no drag) on the ruler selects nothing.
            let g = geom(&d);
            if g.x(b) - g.x(a) >= 3.0 {
                actions.select_time(Some((a, b)), None);
            }
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let w = width.get_untracked();
        let handled = match ev.key().as_str() {
            "+" | "=" => {
                zoom_at(0.8, w / 2.0);
                true
            }
            "-" | "_" => {
                zoom_at(1.25, w / 2.0);
                true
            }
            "ArrowLeft" => {
                pan_by(-0.1);
                true
            }
            "ArrowRight" => {
                pan_by(0.1);
                true
            }
            "0" => {
                win.set(None);
                true
            }
            _ => false,
        };
        if handled {
            ev.prevent_default();
            ev.stop_propagation();
        }
    };

    let tooltip = move || {
        let h = hover.get()?;
        let d = data.get()?;
        let row = d.chart.row(h.depth)?;
        let (s, e, f, own) = (
            *row.start.get(h.i)?,
            *row.end.get(h.i)?,
            *row.frame.get(h.i)?,
            *row.self_ns.get(h.i)?,
        );
        let name = d.loaded.imported.profile.frame_name(f).to_string();
        let start = format_duration(s.saturating_sub(d.chart.start_ns));
        let lane = d
            .chart
            .lane_of_row(h.depth)
            .map(|l| chart::lane_title(&d.loaded.imported.profile, l));
        Some(view! {
            <div class="tooltip" data-testid="chart-tooltip"
                style:left=format!("{}px", h.x + 14.0) style:top=format!("{}px", h.y + 14.0)>
                <div class="tt-name">{name}</div>
                {lane.map(|l| view! { <div data-testid="chart-tooltip-lane">{l}</div> })}
                <div>"start " {start} " after the first sample"</div>
                <div>"duration " {format_duration(e - s)}</div>
                <div>"self " {format_duration(own)}</div>
            </div>
        })
    };
    let rows = move || data.with(|d| d.as_ref().map_or(0, |d| d.chart.depth_count()));
    let attr = move |end: bool| {
        data.with(|d| {
            d.as_ref()
                .map(|d| {
                    let (a, b) = d.window(win.get());
                    if end { b } else { a }.to_string()
                })
                .unwrap_or_default()
        })
    };
    let start_attr = move || {
        data.with(|d| {
            d.as_ref()
                .map(|d| d.chart.start_ns.to_string())
                .unwrap_or_default()
        })
    };
    let boxes_attr = move || data.with(|d| d.as_ref().map_or(0, |d| d.chart.box_count()).to_string());

    view! {
        <Show when=move || building.get()>
            <div class="sandwich-empty" data-testid="chart-building">"Building the stack chart…"</div>
        </Show>
        <Show when=move || untimed.get()>
            <div class="sandwich-empty" data-testid="chart-untimed">
                "This profile has no timestamps: there is no stack chart (the flame graph and the table show it)."
            </div>
        </Show>
        <div class="flame-scroll chart-scroll" node_ref=scroll_ref
            style:display=move || untimed.get().then_some("none")
            on:scroll=move |_| {
                if let Some(el) = scroll_ref.try_get_untracked().flatten() {
                    scroll_top.set(f64::from(el.scroll_top()));
                }
            }>
            <div class="flame-spacer" style:height=move || {
                format!("{}px", (RULER_H + rows() as f64 * ROW_H).max(height.get().floor()))
            }>
            <div class="canvas-stack">
            <canvas node_ref=canvas_ref data-testid="chart-canvas" tabindex="0"
                aria-label="Stack chart: wheel or +/− zooms, drag or arrows pan, drag the ruler to select a time range"
                data-row-height=ROW_H.to_string() data-ruler-height=RULER_H.to_string()
                data-depth=move || rows().to_string() data-boxes=boxes_attr data-start-ns=start_attr
                data-window-start-ns=move || attr(false) data-window-end-ns=move || attr(true)
                on:wheel=on_wheel on:pointerdown=on_down on:pointermove=on_move on:pointerup=on_up
                on:pointerleave=move |_| hover.set(None) on:keydown=on_key></canvas>
            </div>
            </div>
        </div>
        {tooltip}
    }
}
