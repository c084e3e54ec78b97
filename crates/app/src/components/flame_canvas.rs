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

/// The tallest the scroll area's spacer is made, CSS px: browsers lay out no taller (Chromium ~33.5 M px, Firefox
/// ~17.9 M). A graph taller than this (a stack over 440,000 frames deep) scrolls in proportion; with the spacer as
/// tall as the graph, a 5,000,000-frame stack could not be scrolled to its root, and every paint walked down to
/// the rows millions of frames up that the area then showed (60–250 ms; docs/BENCHMARKS.md).
const MAX_SPACER: f64 = 8_000_000.0;

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
    let spacer_ref = NodeRef::<leptos::html::Div>::new();
    let is_main = pane.id == PaneId::Main;
    let page_orientation = move || view.orientation.get_untracked();
    let announcer = use_context::<super::announcer::Announcer>();
    // Whether the canvas has the keyboard focus (the focus ring is drawn only then).
    let has_focus = RwSignal::new(false);
    let colorblind = expect_context::<crate::state::diff::DiffState>().colorblind;

    let rows = move || pane.data.with(|d| d.as_ref().map_or(0, |d| d.depths));
    // The spacer is as tall as the graph up to `MAX_SPACER`, and at least as tall as the area (CSS px).
    let spacer_height = move |area: f64| (rows() as f64 * ROW_H).min(MAX_SPACER).max(area.floor());
    // Graph px per scroll px in an area `area` tall: 1 while the graph fits in the spacer; for a taller graph the
    // scroll range is spread over the graph's, so the scroll bar's ends are the graph's top and its root.
    let scale = move |area: f64| {
        let (graph, spacer) = (untrack(rows) as f64 * ROW_H, untrack(|| spacer_height(area)));
        if graph <= spacer {
            1.0
        } else {
            (graph - area).max(1.0) / (spacer - area).max(1.0)
        }
    };
    // The area's scroll position as the graph's (`pane.scroll_top`), and back.
    let graph_top = move |el: &web_sys::Element| {
        let area = f64::from(el.client_height());
        f64::from(el.scroll_top()) * scale(area)
    };
    let set_graph_top = move |el: &web_sys::Element, top: f64| {
        let area = f64::from(el.client_height());
        el.set_scroll_top((top / scale(area)).round() as i32);
    };
    // Reads the flame area's size into the pane; true when it changed.
    let measure = move || {
        let mut changed = false;
        if let Some(el) = scroll_ref.try_get_untracked().flatten() {
            let h = f64::from(el.client_height()).max(0.0);
            if (h - pane.height.get_untracked()).abs() > 0.5 {
                pane.height.set(h);
                changed = true;
                // The spacer follows the new height now, not when its reactive style next updates: a spacer
                // still as tall as the old area would give the area a scroll bar (where scroll bars take room)
                // and the width read below would be short by it.
                if let Some(spacer) = spacer_ref.try_get_untracked().flatten() {
                    let px = untrack(|| spacer_height(h));
                    let _ = web_sys::HtmlElement::style(&spacer).set_property("height", &format!("{px}px"));
                }
            }
            let w = f64::from(el.client_width()).max(100.0);
            if (w - pane.width.get_untracked()).abs() > 0.5 {
                pane.width.set(w);
                changed = true;
            }
        }
        changed
    };
    canvas::on_window_resize(move || {
        measure();
    });
    // Where a new profile's graph is to be scrolled before it is drawn (its root in view).
    let root_scroll = StoredValue::new(None::<Orientation>);
    let scroll_to_root = move || {
        let Some(o) = root_scroll.try_update_value(Option::take).flatten() else {
            return;
        };
        if let Some(el) = scroll_ref.try_get_untracked().flatten() {
            // From the graph's height, not the scroll area's: the spacer's reactive height may not have
            // followed the new data yet in this frame, and a position past the end would later be cut back
            // (another scroll, another paint).
            let bottom = (untrack(rows) as f64 * ROW_H - f64::from(el.client_height())).max(0.0);
            set_graph_top(
                &el,
                if o == Orientation::Flame {
                    bottom.ceil()
                } else {
                    0.0
                },
            );
        }
    };
    // Set when a paint found the area resized and drew at the new size: the redraw that the size change then
    // asks for would draw the same picture again, and is skipped.
    let painted_resize = StoredValue::new(false);
    crate::seams::install_frame_point(&(actions, pane, canvas_ref));
    if is_main {
        crate::seams::install_bench_hooks(&actions);
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
        let focus = pane.focus.get_untracked().filter(|_| has_focus.get_untracked());
        let focus = focus
            .zip(data.as_ref())
            .map(|(n, d)| (n, pane.geometry(d, page_orientation())));
        let focus = focus.as_ref().zip(data.as_ref()).map(|((n, g), d)| (&**d, *n, g));
        flame::paint_overlay(&overlay, target, focus, ui.is_dark(), canvas::css_size(&canvas));
    };
    // The canvas, the graph and its geometry as they are now.
    let ready = move || {
        let Some(Some(canvas)) = canvas_ref.try_get_untracked() else {
            return None;
        };
        let data = pane.data.get_untracked()?;
        // The size now, in this frame (panels mounted in the same task as the profile, such as the heatmap,
        // have moved the flame area since the redraw was asked for): the first picture is drawn once, at its size.
        if measure() {
            painted_resize.set_value(true);
        }
        scroll_to_root();
        // The real scroll position (content changes can move it without a scroll event).
        if let Some(top) = canvas
            .closest(".flame-scroll")
            .ok()
            .flatten()
            .map(|el| graph_top(&el))
        {
            pane.scroll_top.update_untracked(|v| *v = top);
        }
        let g = pane.geometry(&data, page_orientation());
        Some((canvas, data, g))
    };
    // A large graph's first picture: its rows placed in a task before the one that draws them (`flame::place`).
    let place = move || {
        if let Some((_, data, g)) = ready() {
            flame::place(&data, pane.current_zoom(), &g);
        }
    };
    let paint = move || {
        let Some((canvas, data, g)) = ready() else {
            return;
        };
        let look = Look {
            search: search.mask(&data),
            selected: search.selected_mask(&data),
            noted: noted_mask(&data, &view),
            scheme: view.scheme.get_untracked(),
            dark: ui.is_dark(),
            colorblind: colorblind.get_untracked(),
        };
        crate::state::timed("paint", || {
            flame::paint(&canvas, &data, pane.current_zoom(), &g, &look)
        });
    };

    // Everything that changes the picture schedules one redraw; hover only repaints the overlay.
    let redraw = Redraw::new();
    let hover_redraw = Redraw::new();
    Effect::new(move |_| {
        pane.hover.track();
        pane.focus.track();
        has_focus.track();
        hover_redraw.request(paint_overlay);
    });
    Effect::new(move |_| {
        pane.data.track();
        pane.zoom.track();
        search.pattern.track();
        search.selected.track();
        view.notes.track();
        view.scheme.track();
        ui.theme.track();
        colorblind.track();
        view.orientation.track();
        pane.width.track();
        pane.height.track();
        pane.scroll_top.track();
        // Not measured here: this runs while the page mounts and when a profile arrives, before the DOM of that
        // task is done, and reading the area's size then forces a layout of a page that is still changing (55 ms
        // of a 1 MB profile's start, docs/BENCHMARKS.md). The paint measures, in the frame, and the resize
        // observer measures once the browser has laid the page out.
        if painted_resize.try_update_value(std::mem::take) == Some(true) {
            return;
        }
        let both = move || {
            paint();
            paint_overlay();
        };
        if is_main && pane.data.with_untracked(Option::is_some) && crate::render::flame::take_first_picture()
        {
            // A cut tree is a large one (`scorch_core::view::cut::CUT_ABOVE`): placed, then drawn.
            if pane
                .data
                .with_untracked(|d| d.as_ref().is_some_and(|d| d.cut.is_some()))
            {
                let then = redraw.clone();
                redraw.request_soon(move || {
                    place();
                    then.request_soon(both);
                });
            } else {
                redraw.request_soon(both);
            }
        } else {
            redraw.request(both);
        }
    });

    // On a new profile in flame orientation, show the root (bottom) first: scrolled by the first paint (in the
    // frame, once the graph's spacer has its height), so that paint draws the rows in view and no scroll event
    // asks for a second one; or by a frame of its own if no paint comes first.
    Effect::new(move |_| {
        let tall = pane.data.with(|d| d.as_ref().map(|d| d.depths));
        let o = pane.orientation(view.orientation.get());
        if tall.is_some() {
            root_scroll.set_value(Some(o));
            request_animation_frame(scroll_to_root);
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
        // A stand-in for narrower frames (a cut graph, `scorch_core::view::cut`) zooms to its parent, where the
        // engine's finer cut draws them; it selects nothing.
        let elided = hit.is_some_and(|n| data.is_elided(n));
        let hit = hit.map(|n| {
            if elided {
                data.tree.parent(n).unwrap_or(NodeId::ROOT)
            } else {
                n
            }
        });
        match hit {
            Some(NodeId::ROOT) => pane.zoom.set(Vec::new()),
            Some(n) if n != pane.current_zoom() => pane.zoom.update(|z| z.push(n)),
            _ => {}
        }
        // A click in the main graph also selects the function (outlined everywhere, the sandwich's subject).
        if let (Some(n), true, false) = (hit, is_main, elided) {
            if n != NodeId::ROOT && data.kind_of(n) != Some(scorch_core::FrameKind::Process) {
                actions.select(Some(data.name_of(n).to_string()));
            }
        }
    };

    // The keyboard: arrows move the focus frame (`frame_keys`), Home goes to the root, Enter zooms to it, Space
    // selects its function. The focus frame is kept in view: a zoom it is outside of is undone, and the pane
    // scrolls to its row.
    let announce = move |n: NodeId| {
        if let (Some(a), Some(d)) = (announcer, pane.data.get_untracked()) {
            a.say(super::frame_keys::describe(&d, n));
        }
    };
    let reveal = move |n: NodeId| {
        let Some(data) = pane.data.get_untracked() else {
            return;
        };
        if !super::frame_keys::shown_in_zoom(&data, n, pane.current_zoom()) {
            pane.zoom.update(|z| {
                while z
                    .last()
                    .is_some_and(|&x| !super::frame_keys::shown_in_zoom(&data, n, x))
                {
                    z.pop();
                }
            });
        }
        let Some(el) = scroll_ref.try_get_untracked().flatten() else {
            return;
        };
        let g = pane.geometry(&data, page_orientation());
        let depth = data.tree.depth.get(n.idx()).copied().unwrap_or(0) as usize;
        let y = g.row_y(depth) + g.view_top;
        let (top, h) = (graph_top(&el), pane.height.get_untracked());
        if y < top {
            set_graph_top(&el, (y - ROW_H).max(0.0));
        } else if y + ROW_H > top + h {
            set_graph_top(&el, (y + 2.0 * ROW_H - h).max(0.0));
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let Some(data) = pane.data.get_untracked() else {
            return;
        };
        let cur = pane.focus.get_untracked().unwrap_or_else(|| pane.current_zoom());
        let key = ev.key();
        match key.as_str() {
            "Enter" => {
                ev.prevent_default();
                ev.stop_propagation();
                let to = if data.is_elided(cur) {
                    data.tree.parent(cur).unwrap_or(NodeId::ROOT)
                } else {
                    cur
                };
                match to {
                    NodeId::ROOT => pane.zoom.set(Vec::new()),
                    n if n != pane.current_zoom() => pane.zoom.update(|z| z.push(n)),
                    _ => {}
                }
                pane.focus.set(Some(cur));
            }
            " " => {
                ev.prevent_default();
                ev.stop_propagation();
                let selectable = cur != NodeId::ROOT
                    && !data.is_elided(cur)
                    && data.kind_of(cur) != Some(scorch_core::FrameKind::Process);
                if selectable {
                    let name = data.name_of(cur).to_string();
                    if let Some(a) = announcer {
                        a.say(format!("selected {}", super::shown_name(&name)));
                    }
                    actions.select(Some(name));
                }
            }
            _ => match super::frame_keys::target(&data, cur, &key, pane.orientation(page_orientation())) {
                None => {}
                Some(to) => {
                    ev.prevent_default();
                    ev.stop_propagation();
                    match to {
                        Ok(n) => {
                            pane.focus.set(Some(n));
                            reveal(n);
                            announce(n);
                        }
                        Err(why) => {
                            if let Some(a) = announcer {
                                a.say(why.to_string());
                            }
                        }
                    }
                }
            },
        }
    };
    // A click focuses the canvas too: that is no keyboard focus (no ring, no scrolling, nothing announced); the
    // browser's `:focus-visible` tells them apart.
    let on_focus = move |_| {
        has_focus.set(true);
        let keyboard = canvas_ref
            .try_get_untracked()
            .flatten()
            .is_none_or(|c| c.matches(":focus-visible").unwrap_or(true));
        if !keyboard {
            return;
        }
        let n = pane.focus.get_untracked().unwrap_or_else(|| pane.current_zoom());
        if pane.data.with_untracked(|d| d.is_some()) {
            pane.focus.set(Some(n));
            reveal(n);
            announce(n);
        }
    };
    let label = move || {
        let what = match pane.id {
            PaneId::Main => "Flame graph".to_string(),
            PaneId::Callers => "Callers of the selected function".to_string(),
            PaneId::Callees => "Callees of the selected function".to_string(),
        };
        format!("{what}: arrow keys move between frames, Home goes to the root, Enter zooms, Space selects the function")
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
    let depth_attr = move || pane.data.get().map(|d| d.depths).unwrap_or(0).to_string();
    let orientation_attr = move || pane.orientation(view.orientation.get()).key();
    view! {
        <div class="flame-scroll" node_ref=scroll_ref
            // A sandwich side is only as tall as its graph (up to 42 % of the window): no empty band above it.
            style:height=move || (!is_main).then(|| format!("min(42vh, {}px)", rows() as f64 * ROW_H + 2.0))
            on:scroll=move |_| {
                if let Some(el) = scroll_ref.try_get_untracked().flatten() {
                    // A scroll the last paint already drew (it reads the real position) asks for no redraw.
                    let top = graph_top(&el);
                    if top != pane.scroll_top.get_untracked() {
                        pane.scroll_top.set(top);
                    }
                }
            }>
            // The spacer is as tall as the graph (it gives the scroll bar); the canvas stays in view and draws
            // only the rows under it.
            <div class="flame-spacer" node_ref=spacer_ref style:height=move || {
                format!("{}px", spacer_height(pane.height.get()))
            }>
            <div class="canvas-stack">
            <canvas node_ref=canvas_ref data-testid=if is_main { "flame-canvas".to_string() } else { format!("{}-canvas", pane.id.name()) }
                data-row-height=ROW_H.to_string() data-depth=depth_attr data-zoom=zoom_attr
                data-shown=move || pane.shows.get().to_string()
                data-orientation=orientation_attr
                tabindex="0" role="application" aria-roledescription="flame graph" aria-label=label
                on:keydown=on_key on:focus=on_focus on:blur=move |_| has_focus.set(false)
                on:mousemove=on_move on:mouseleave=move |_| pane.hover.set(None) on:click=on_click></canvas>
            // The hover outline lives on its own canvas: moving the mouse repaints one rectangle, not the graph.
            <canvas node_ref=overlay_ref class="overlay" aria-hidden="true"></canvas>
            </div>
            </div>
        </div>
    }
}

/// The frames the view's notes are on, per frame id of `data` (`None` without such notes).
fn noted_mask(data: &crate::render::data::FlameData, view: &ViewState) -> Option<std::sync::Arc<Vec<bool>>> {
    let names = view.notes.with_untracked(|n| super::notes_panel::frame_notes(n));
    if names.is_empty() {
        return None;
    }
    // One mask for all of them, made once per set of names (a paint only looks it up).
    let names: std::collections::BTreeSet<String> = names.into_iter().map(|(name, _)| name).collect();
    let key = std::iter::once("notes")
        .chain(names.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("\n");
    Some(data.loaded.mask_with(&key, || {
        let p = &data.loaded.imported.profile;
        (0..p.frames.len())
            .map(|i| names.contains(p.frame_name(scorch_core::FrameId(i as u32))))
            .collect()
    }))
}
