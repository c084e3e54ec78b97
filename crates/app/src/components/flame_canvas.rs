//! A flame pane on the page: the scroll area, the graph's canvas and the hover overlay, and the mouse.
//! Painting is `render::flame`'s; sizing and scheduling `render::canvas`'s.

use crate::render::canvas::{self, Redraw};
use crate::render::flame::{self, Look};
use crate::render::geometry::hit;
use crate::render::{Orientation, ROW_H};
use crate::state::pane::{Hover, Pane, PaneId, Panes};
use crate::state::search::SearchState;
use crate::state::ui::UiState;
use crate::state::view::ViewState;
use crate::state::Actions;
use crate::url::UrlKey;
use leptos::prelude::*;
use scorch_core::view::calltree::NodeId;

#[component]
pub fn FlameCanvas(pane: Pane) -> impl IntoView {
    let view = expect_context::<ViewState>();
    let search = expect_context::<SearchState>();
    let ui = expect_context::<UiState>();
    let main = expect_context::<Panes>().main;
    let actions = expect_context::<Actions>();
    let canvas_ref = NodeRef::<leptos::html::Canvas>::new();
    let overlay_ref = NodeRef::<leptos::html::Canvas>::new();
    let scroll_ref = NodeRef::<leptos::html::Div>::new();
    let is_main = pane.id == PaneId::Main;
    let page_orientation = move || view.orientation.get_untracked();

    let measure = move || {
        if let Some(el) = scroll_ref.try_get_untracked().flatten() {
            let w = f64::from(el.client_width()).max(100.0);
            if (w - pane.width.get_untracked()).abs() > 0.5 {
                pane.width.set(w);
            }
            let h = f64::from(el.client_height()).max(0.0);
            if (h - pane.height.get_untracked()).abs() > 0.5 {
                pane.height.set(h);
            }
        }
    };
    canvas::on_window_resize(measure);
    #[cfg(feature = "testing")]
    {
        crate::testing::install_frame_point(actions, pane, canvas_ref);
        if is_main {
            crate::testing::install_bench_hooks(actions);
        }
    }
    // The flame area also changes size when panels above it open or close: follow it, and keep the root in view.
    canvas::observe_size(scroll_ref, move || {
        measure();
        if pane.orientation(page_orientation()) == Orientation::Flame {
            if let Some(el) = scroll_ref.try_get_untracked().flatten() {
                el.set_scroll_top(el.scroll_height());
            }
        }
    });

    let paint_overlay = move || {
        let (Some(Some(canvas)), Some(Some(overlay))) =
            (canvas_ref.try_get_untracked(), overlay_ref.try_get_untracked())
        else {
            return;
        };
        let data = pane.data.get_untracked();
        let hover = pane.hover.get_untracked().zip(data.as_ref());
        let g = hover.map(|(_, d)| pane.geometry(d, page_orientation()));
        let target = hover.zip(g.as_ref()).map(|((h, d), g)| (&**d, h.node, g));
        flame::paint_overlay(&overlay, target, ui.is_dark(), canvas::css_size(&canvas));
    };
    let paint = move || {
        let Some(Some(canvas)) = canvas_ref.try_get_untracked() else {
            return;
        };
        let Some(data) = pane.data.get_untracked() else {
            return;
        };
        // The real scroll position (content changes can move it without a scroll event).
        if let Some(top) = canvas
            .closest(".flame-scroll")
            .ok()
            .flatten()
            .map(|el| f64::from(el.scroll_top()))
        {
            pane.scroll_top.update_untracked(|v| *v = top);
        }
        let g = pane.geometry(&data, page_orientation());
        let look = Look {
            search: search.mask(&data),
            selected: search.selected_mask(&data),
            scheme: view.scheme.get_untracked(),
            dark: ui.is_dark(),
        };
        crate::state::timed("paint", || {
            flame::paint(&canvas, &data, pane.current_zoom(), &g, &look)
        });
    };

    // Everything that changes the picture schedules one redraw; hover only repaints the overlay.
    let redraw = Redraw::default();
    let hover_redraw = Redraw::default();
    Effect::new(move |_| {
        pane.hover.track();
        hover_redraw.request(paint_overlay);
    });
    Effect::new(move |_| {
        pane.data.track();
        pane.zoom.track();
        search.pattern.track();
        search.selected.track();
        view.scheme.track();
        ui.theme.track();
        view.orientation.track();
        pane.width.track();
        pane.height.track();
        pane.scroll_top.track();
        measure();
        redraw.request(move || {
            paint();
            paint_overlay();
        });
    });

    // On a new profile in flame orientation, show the root (bottom) first.
    Effect::new(move |_| {
        let tall = pane.data.with(|d| d.as_ref().map(|d| d.layout.depth_count()));
        let o = pane.orientation(view.orientation.get());
        if let (Some(_), Some(el)) = (tall, scroll_ref.try_get_untracked().flatten()) {
            request_animation_frame(move || {
                el.set_scroll_top(if o == Orientation::Flame {
                    el.scroll_height()
                } else {
                    0
                });
            });
        }
    });

    // The node under a mouse event, with the graph it is in.
    let node_at = move |ev: &leptos::ev::MouseEvent| {
        let data = pane.data.get_untracked()?;
        let canvas = canvas_ref.try_get_untracked().flatten()?;
        let g = pane.geometry(&data, page_orientation());
        let rect = canvas.get_bounding_client_rect();
        let (px, py) = (
            f64::from(ev.client_x()) - rect.left(),
            f64::from(ev.client_y()) - rect.top(),
        );
        Some((hit(&data, pane.current_zoom(), &g, px, py), data))
    };
    let on_move = move |ev: leptos::ev::MouseEvent| {
        let Some((node, _)) = node_at(&ev) else { return };
        let next = node.map(|node| Hover {
            node,
            client_x: ev.client_x().into(),
            client_y: ev.client_y().into(),
        });
        if pane.hover.get_untracked() != next {
            pane.hover.set(next);
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some((hit, data)) = node_at(&ev) else { return };
        match hit {
            Some(NodeId::ROOT) => pane.zoom.set(Vec::new()),
            Some(n) if n != pane.current_zoom() => pane.zoom.update(|z| z.push(n)),
            _ => {}
        }
        // A click in the main graph also selects the function (outlined everywhere, the sandwich's subject).
        if let (Some(n), true) = (hit, is_main) {
            if n != NodeId::ROOT && data.kind_of(n) != Some(scorch_core::FrameKind::Process) {
                actions.select(Some(data.name_of(n).to_string()));
            }
        }
    };

    // The attributes tests read: the main graph's zoom path (its depth past the deepest a link names: the path
    // of a zoom into a recursion millions of frames deep is megabytes), this pane's depth and orientation.
    let zoom_attr = move || {
        main.data
            .get()
            .map(|d| {
                let z = main.current_zoom();
                match d.tree.depth.get(z.idx()) {
                    Some(&n) if n as usize > crate::state::link::MAX_ZOOM_DEPTH => format!("depth {n}"),
                    _ => d.path_string(z),
                }
            })
            .unwrap_or_default()
    };
    let depth_attr = move || {
        pane.data
            .get()
            .map(|d| d.layout.depth_count())
            .unwrap_or(0)
            .to_string()
    };
    let orientation_attr = move || pane.orientation(view.orientation.get()).key();
    let rows = move || {
        pane.data
            .with(|d| d.as_ref().map_or(0, |d| d.layout.depth_count()))
    };

    view! {
        <div class="flame-scroll" node_ref=scroll_ref
            // A sandwich side is only as tall as its graph (up to 42 % of the window): no empty band above it.
            style:height=move || (!is_main).then(|| format!("min(42vh, {}px)", rows() as f64 * ROW_H + 2.0))
            on:scroll=move |_| {
                if let Some(el) = scroll_ref.try_get_untracked().flatten() {
                    pane.scroll_top.set(f64::from(el.scroll_top()));
                }
            }>
            // The spacer is as tall as the graph (it gives the scroll bar); the canvas stays in view and draws
            // only the rows under it.
            <div class="flame-spacer" style:height=move || {
                format!("{}px", (rows() as f64 * ROW_H).max(pane.height.get().floor()))
            }>
            <div class="canvas-stack">
            <canvas node_ref=canvas_ref data-testid=if is_main { "flame-canvas".to_string() } else { format!("{}-canvas", pane.id.name()) }
                data-row-height=ROW_H.to_string() data-depth=depth_attr data-zoom=zoom_attr
                data-shown=move || pane.shows.get().to_string()
                data-orientation=orientation_attr
                on:mousemove=on_move on:mouseleave=move |_| pane.hover.set(None) on:click=on_click></canvas>
            // The hover outline lives on its own canvas: moving the mouse repaints one rectangle, not the graph.
            <canvas node_ref=overlay_ref class="overlay" aria-hidden="true"></canvas>
            </div>
            </div>
        </div>
    }
}
