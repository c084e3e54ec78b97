//! The call graph on the page (key `7`, `mode=graph`): a node per function, an edge per call, pruned as pprof
//! prunes, built and laid out by the view engine (`worker::graph`, always in the worker: the page only draws,
//! `render::graph`). Drag pans, the wheel zooms around the pointer; a click on a node selects its function (the
//! app's selection: the function table and the sandwich show it); *Focus* keeps only the samples through the
//! selected function (pprof's `-focus`, carried by links as `gf`). With the canvas focused, ↑/↓ go to the
//! heaviest caller/callee, ←/→ to the box beside, Enter selects, `f` focuses.

use super::graph_prune::GraphPruneControls;
use crate::render::canvas::{self, Redraw};
use crate::render::graph::{self, GraphData, GraphGeom, GraphLook};
use crate::state::load::LoadState;
use crate::state::search::SearchState;
use crate::state::ui::UiState;
use crate::state::view::ViewState;
use crate::state::Actions;
use crate::worker::build::{self as worker_build, Built, Channel};
use crate::worker::protocol::{GraphJob, Job};
use leptos::prelude::*;
use scorch_core::analysis::callgraph::focus_exact;
use std::sync::Arc;

/// The hovered node and the pointer (client px).
#[derive(Clone, Copy, PartialEq, Debug)]
struct GraphHover {
    i: usize,
    x: f64,
    y: f64,
}

/// A press on the canvas: where (canvas px), the pan then, and whether it moved since (then it is no click).
#[derive(Clone, Copy, PartialEq, Debug)]
struct Press {
    x: f64,
    y: f64,
    tx: f64,
    ty: f64,
    moved: bool,
}

thread_local! {
    /// The graph last built, so switching views and back does not rebuild it.
    static CACHE: std::cell::RefCell<Option<Arc<GraphData>>> = const { std::cell::RefCell::new(None) };
    /// Bumped by every request: an answer for an older one is dropped.
    static GEN: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// Whether the paint's code was run once ahead (`graph::warm_up`).
    static WARM: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The call graph last drawn (the Export menu's SVG while the graph is shown).
pub fn drawn() -> Option<Arc<GraphData>> {
    CACHE.with(|c| c.borrow().clone())
}

fn same(
    d: &GraphData,
    loaded: &Arc<crate::render::Loaded>,
    view: &scorch_core::ViewOptions,
    job: &GraphJob,
) -> bool {
    Arc::ptr_eq(&d.loaded, loaded) && d.view == *view && d.job == *job
}

#[component]
pub fn CallGraphView() -> impl IntoView {
    let view = expect_context::<ViewState>();
    let load = expect_context::<LoadState>();
    let search = expect_context::<SearchState>();
    let ui = expect_context::<UiState>();
    let actions = expect_context::<Actions>();
    let canvas_ref = NodeRef::<leptos::html::Canvas>::new();
    let area_ref = NodeRef::<leptos::html::Div>::new();
    let data: RwSignal<Option<Arc<GraphData>>> = RwSignal::new(None);
    let building = RwSignal::new(false);
    let geom = RwSignal::new(GraphGeom {
        width: 800.0,
        height: 500.0,
        tx: 0.0,
        ty: 0.0,
        scale: 1.0,
    });
    let hover: RwSignal<Option<GraphHover>> = RwSignal::new(None);
    let cursor: RwSignal<Option<usize>> = RwSignal::new(None);
    let drag: RwSignal<Option<Press>> = RwSignal::new(None);
    // Edges on screen the last paint left out (zoomed out on a large graph).
    let edges_left = RwSignal::new(0usize);

    let show = move |d: Option<Arc<GraphData>>| {
        hover.set(None);
        cursor.set(None);
        if let Some(d) = &d {
            let g = geom.get_untracked();
            geom.set(GraphGeom::fit(g.width, g.height, d));
        }
        data.set(d);
    };
    // (Re)build when the shown profile, the view or the focus changes: always in the engine.
    Effect::new(move |_| {
        let shown = load.shown.get();
        let key = view.options.get();
        let prune = view.graph_prune.get();
        let job = GraphJob {
            node_fraction: prune.node_fraction,
            edge_fraction: prune.edge_fraction,
            node_count: prune.node_count,
            focus: view.graph_focus.get(),
        };
        let gen = GEN.with(|g| {
            g.set(g.get().wrapping_add(1));
            g.get()
        });
        let Some(shown) = shown else {
            return data.set(None);
        };
        if data.with_untracked(|d| d.as_ref().is_some_and(|d| same(d, &shown, &key, &job))) {
            return;
        }
        let cached = CACHE.with(|c| {
            c.borrow()
                .as_ref()
                .filter(|d| same(d, &shown, &key, &job))
                .cloned()
        });
        if let Some(d) = cached {
            return show(Some(d));
        }
        building.set(true);
        if !WARM.with(|w| w.replace(true)) {
            // While the engine lays the graph out, the page runs its paint once on a tiny graph, after the
            // request has gone, so the first real picture does not compile that code in its frame.
            leptos::task::spawn_local(async {
                crate::worker::yield_now().await;
                crate::worker::yield_now().await;
                graph::warm_up();
            });
        }
        let wanted = crate::state::rebuild::Wanted::asked();
        leptos::task::spawn_local(async move {
            let _wanted = wanted;
            // The request (and the profile, the first time the engine needs it) goes in a task of its own,
            // not in the one that switched the view and mounted this.
            crate::worker::yield_now().await;
            if GEN.with(|g| g.get()) != gen {
                return;
            }
            let r = worker_build::build(
                Channel::Graph,
                shown.key,
                &shown.imported,
                key.clone(),
                scorch_core::view::calltree::Order::default(),
                vec![Job::Graph(job.clone())],
            )
            .await;
            if GEN.with(|g| g.get()) != gen {
                return;
            }
            building.set(false);
            match r.map(|mut v| v.pop()) {
                Ok(Some(Ok(Built::Graph(g)))) => {
                    // Taking the worker's answer was a task of its own; the draw data is another.
                    crate::worker::yield_now().await;
                    if GEN.with(|g| g.get()) != gen {
                        return;
                    }
                    let d = Arc::new(crate::state::timed("graph data", || {
                        GraphData::new(shown, key, job, g)
                    }));
                    CACHE.with(|c| *c.borrow_mut() = Some(d.clone()));
                    show(Some(d));
                }
                Err(crate::worker::LoadError::Cancelled) => {}
                Ok(Some(Err(e))) => load
                    .error
                    .set(Some(format!("Could not build the call graph: {e}"))),
                Err(e) => load
                    .error
                    .set(Some(format!("Could not build the call graph: {e}"))),
                Ok(_) => {}
            }
        });
    });
    on_cleanup(|| {
        GEN.with(|g| g.set(g.get().wrapping_add(1)));
        worker_build::cancel(Channel::Graph);
    });

    let measure = move || {
        if let Some(el) = area_ref.try_get_untracked().flatten() {
            let (w, h) = (
                f64::from(el.client_width()).max(100.0),
                f64::from(el.client_height()).max(100.0),
            );
            let g = geom.get_untracked();
            if (w - g.width).abs() > 0.5 || (h - g.height).abs() > 0.5 {
                geom.set(GraphGeom {
                    width: w,
                    height: h,
                    ..g
                });
            }
        }
    };
    canvas::on_window_resize(measure);
    canvas::observe_size(area_ref, measure);

    let selected_index = move |d: &GraphData| {
        search
            .selected
            .with_untracked(|s| s.as_deref().and_then(|s| d.index_of(s)))
    };
    // The graph whose edges are drawn: a new graph's first picture is drawn without its edges, and setting
    // this asks for the next frame's picture with them (see `GraphLook::edges`).
    let edges_for = RwSignal::new(0usize);
    let paint = move || {
        // `try_`: `Redraw` cancels the frame of a graph that has left the page (a view switched within one
        // frame); a paint that came all the same would find its signals disposed, and paints nothing.
        let (Some(Some(canvas)), Some(d)) =
            (canvas_ref.try_get_untracked(), data.try_get_untracked().flatten())
        else {
            return;
        };
        let id = Arc::as_ptr(&d) as usize;
        let edges = edges_for.get_untracked() == id;
        let look = GraphLook {
            edges,
            scheme: view.scheme.get_untracked(),
            dark: ui.is_dark(),
            selected: selected_index(&d),
            cursor: cursor.get_untracked(),
            hover: hover.get_untracked().map(|h| h.i),
        };
        let left = crate::state::timed("graph paint", || {
            graph::paint(&canvas, &d, &geom.get_untracked(), &look)
        });
        if edges && edges_left.get_untracked() != left {
            edges_left.set(left);
        }
        if !edges {
            edges_for.set(id);
        }
    };
    let redraw = Redraw::new();
    Effect::new(move |_| {
        data.track();
        geom.track();
        hover.track();
        cursor.track();
        search.selected.track();
        view.scheme.track();
        ui.theme.track();
        edges_for.track();
        measure();
        redraw.request(paint);
    });
    crate::seams::install_graph(&(data, geom, canvas_ref));

    let local = move |ev: &leptos::ev::MouseEvent| {
        let canvas = canvas_ref.try_get_untracked().flatten()?;
        let r = canvas.get_bounding_client_rect();
        Some((
            f64::from(ev.client_x()) - r.left(),
            f64::from(ev.client_y()) - r.top(),
        ))
    };
    let node_at = move |x: f64, y: f64| {
        let d = data.get_untracked()?;
        let (lx, ly) = geom.get_untracked().to_layout(x, y);
        d.node_at(lx, ly)
    };
    let on_wheel = move |ev: leptos::ev::WheelEvent| {
        let Some((x, y)) = local(&ev) else { return };
        ev.prevent_default();
        let g = geom.get_untracked();
        let (dx, dy) = (ev.delta_x(), ev.delta_y());
        if ev.shift_key() || dx.abs() > dy.abs() {
            let d = if dx.abs() > dy.abs() { dx } else { dy };
            return geom.set(GraphGeom { tx: g.tx - d, ..g });
        }
        let scale = (g.scale * (-dy * 0.002).exp()).clamp(0.05, 4.0);
        let (lx, ly) = g.to_layout(x, y);
        geom.set(GraphGeom {
            scale,
            tx: x - lx * scale,
            ty: y - ly * scale,
            ..g
        });
    };
    let on_down = move |ev: leptos::ev::PointerEvent| {
        let Some((x, y)) = local(&ev) else { return };
        if let Some(c) = canvas_ref.try_get_untracked().flatten() {
            let _ = c.set_pointer_capture(ev.pointer_id());
        }
        let g = geom.get_untracked();
        drag.set(Some(Press {
            x,
            y,
            tx: g.tx,
            ty: g.ty,
            moved: false,
        }));
    };
    let on_move = move |ev: leptos::ev::PointerEvent| {
        let Some((x, y)) = local(&ev) else { return };
        if let Some(p) = drag.get_untracked() {
            if p.moved || (x - p.x).abs() + (y - p.y).abs() > 3.0 {
                drag.set(Some(Press { moved: true, ..p }));
                hover.set(None);
                let g = geom.get_untracked();
                return geom.set(GraphGeom {
                    tx: p.tx + x - p.x,
                    ty: p.ty + y - p.y,
                    ..g
                });
            }
        }
        let next = node_at(x, y).map(|i| GraphHover {
            i,
            x: ev.client_x().into(),
            y: ev.client_y().into(),
        });
        if hover.get_untracked() != next {
            hover.set(next);
        }
    };
    let select = move |i: usize| {
        if let Some(d) = data.get_untracked() {
            cursor.set(Some(i));
            actions.select(Some(d.name(i).to_string()));
        }
    };
    let on_up = move |ev: leptos::ev::PointerEvent| {
        let finished = drag.get_untracked();
        drag.set(None);
        if let (Some(Press { moved: false, .. }), Some((x, y))) = (finished, local(&ev)) {
            if let Some(i) = node_at(x, y) {
                select(i);
            }
        }
    };
    let focus_on = move |name: Option<String>| view.graph_focus.set(name.map(|n| focus_exact(&n)));
    let focus_target = move || {
        let d = data.get()?;
        let i = search
            .selected
            .with(|s| s.as_deref().and_then(|s| d.index_of(s)))
            .or(cursor.get())?;
        Some(d.name(i).to_string())
    };
    // Keeps node `i` on screen: centred when it is outside.
    let reveal = move |i: usize| {
        let Some(d) = data.get_untracked() else { return };
        let g = geom.get_untracked();
        let (x, y, w, h) = d.node_box(i);
        let (sx, sy) = g.to_screen(x, y);
        if sx < 0.0 || sy < 0.0 || sx + w * g.scale > g.width || sy + h * g.scale > g.height {
            geom.set(GraphGeom {
                tx: g.width / 2.0 - (x + w / 2.0) * g.scale,
                ty: g.height / 2.0 - (y + h / 2.0) * g.scale,
                ..g
            });
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let Some(d) = data.get_untracked() else { return };
        if d.count() == 0 {
            return;
        }
        let from = cursor.get_untracked().or_else(|| selected_index(&d));
        let to = match (ev.key().as_str(), from) {
            ("ArrowUp", Some(i)) => d.neighbours(i, true).first().copied(),
            ("ArrowDown", Some(i)) => d.neighbours(i, false).first().copied(),
            ("ArrowLeft", Some(i)) => d.beside(i, -1),
            ("ArrowRight", Some(i)) => d.beside(i, 1),
            ("ArrowUp" | "ArrowDown" | "ArrowLeft" | "ArrowRight", None) => Some(0),
            ("Enter", Some(i)) => {
                select(i);
                None
            }
            ("f", Some(i)) => {
                focus_on(Some(d.name(i).to_string()));
                None
            }
            _ => return,
        };
        ev.prevent_default();
        ev.stop_propagation();
        if let Some(i) = to {
            cursor.set(Some(i));
            reveal(i);
        }
    };

    let tooltip = move || {
        let h = hover.get()?;
        let d = data.get()?;
        let n = d.g.graph.nodes.get(h.i)?;
        let (callers, callees) = (d.neighbours(h.i, true).len(), d.neighbours(h.i, false).len());
        Some(view! {
            <div class="tooltip" data-testid="graph-tooltip" data-flat=n.flat.to_string() data-cum=n.cum.to_string()
                style:left=format!("{}px", h.x + 14.0) style:top=format!("{}px", h.y + 14.0)>
                <div class="tt-name">{n.name.clone()}</div>
                <div class="tt-row"><span>"flat"</span><span data-testid="graph-tooltip-flat">{d.describe(n.flat)}</span></div>
                <div class="tt-row"><span>"cum"</span><span data-testid="graph-tooltip-cum">{d.describe(n.cum)}</span></div>
                <div class="tt-row"><span>"callers · callees shown"</span><span>{format!("{callers} · {callees}")}</span></div>
            </div>
        })
    };
    let legend = move || data.get().map(|d| d.legend());
    let attr =
        move |f: fn(&GraphData) -> String| move || data.with(|d| d.as_deref().map(f).unwrap_or_default());

    view! {
        <div class="graph-bar">
            <span class="graph-legend" data-testid="graph-legend">{legend}</span>
            {move || view.graph_focus.get().map(|f| view! {
                <span class="chip" data-testid="graph-focus-chip" title="Only the samples through this function">
                    "focus " {f}
                    <button data-testid="graph-unfocus" title="Show the whole view again"
                        on:click=move |_| view.graph_focus.set(None)>"×"</button>
                </span>
            })}
            <button data-testid="graph-focus" disabled=move || focus_target().is_none()
                title="Keep only the selected function's callers and callees (pprof's -focus; key f)"
                on:click=move |_| focus_on(focus_target())>"Focus"</button>
            <GraphPruneControls/>
        </div>
        <Show when=move || building.get()>
            <div class="sandwich-empty" data-testid="graph-building">"Building the call graph…"</div>
        </Show>
        <div class="flame-scroll graph-area" node_ref=area_ref>
            <canvas node_ref=canvas_ref data-testid="graph-canvas" tabindex="0"
                aria-label="Call graph: drag pans, wheel zooms; arrows move along the calls, Enter selects, f focuses"
                data-nodes=attr(|d| d.count().to_string())
                data-edges=attr(|d| d.g.graph.edges.len().to_string())
                data-edges-left=move || edges_left.get().to_string()
                data-focus=attr(|d| d.job.focus.clone().unwrap_or_default())
                data-cursor=move || cursor.get().map(|i| i.to_string()).unwrap_or_default()
                on:wheel=on_wheel on:pointerdown=on_down on:pointermove=on_move on:pointerup=on_up
                on:pointerleave=move |_| hover.set(None) on:keydown=on_key></canvas>
        </div>
        {tooltip}
    }
}
