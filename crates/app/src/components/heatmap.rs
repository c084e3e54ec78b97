//! The heatmap panel: FlameScope's subsecond-offset heatmap with its controls; painting is
//! `render::heatmap`'s, the grid and the selection `state::heatmap`'s.

use crate::render;
use crate::render::canvas::Redraw;
use crate::render::heatmap::Cell;
use crate::state::diff::DiffState;
use crate::state::heatmap::HeatState;
use crate::state::load::LoadState;
use crate::state::view::ViewState;
use crate::state::Actions;
use leptos::prelude::*;

/// FlameScope's subsecond-offset heatmap: one column per second, rows for the offset within the second (row 0 at
/// the bottom), colour from the background to red at the largest cell. Press on a cell and release on another
/// (or click twice) to select a time range; the flame graph below shows exactly its samples. Shift+drag, or
/// either gesture with "band" on, selects a band instead: the rows between the two cells in every second between
/// them (FlameScope's "horizontal band": a once-per-second job without what runs between its runs).
#[component]
pub fn HeatmapPanel() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let heat = expect_context::<HeatState>();
    let ui = expect_context::<crate::state::ui::UiState>();
    let diff = expect_context::<DiffState>();
    let canvas_ref = NodeRef::<leptos::html::Canvas>::new();
    let drag_from = RwSignal::new(None::<Cell>);
    let hover_text = RwSignal::new(String::new());
    let has_times = move || {
        load.loaded
            .with(|l| l.as_ref().map(|l| l.imported.profile.samples.time_ns.is_some()))
    };
    let file_diff = move || {
        diff.base.with(|b| b.is_some())
            && heat.range_a.with(|a| a.is_none())
            && diff.slice_a.with(|a| a.is_none())
    };

    // Columns (seconds) in which the recorder lost events (perf `PERF_RECORD_LOST`).
    let lost_columns = move |h: &scorch_core::analysis::heatmap::Heatmap| -> Vec<(u32, u64)> {
        load.loaded.with_untracked(|l| {
            l.as_ref()
                .and_then(|l| l.imported.profile.meta.lost.as_ref())
                .map(|lost| scorch_core::analysis::lost::lost_columns(lost, h.origin_ns, h.columns))
                .unwrap_or_default()
        })
    };
    let cell_at = move |ev: &leptos::ev::MouseEvent| -> Option<Cell> {
        let h = heat.heat.get_untracked()?;
        let canvas = canvas_ref.get_untracked()?;
        render::heatmap::cell_at(&h, &canvas, f64::from(ev.client_x()), f64::from(ev.client_y()))
    };

    // Collapsed (the header row only): remembered in this browser.
    let collapsed = RwSignal::new(stored_collapsed());
    // Cells follow the page's width: a resize redraws.
    let resized = RwSignal::new(0u32);
    crate::render::canvas::on_window_resize(move || resized.update(|n| *n = n.wrapping_add(1)));
    // The chart's size, set with the panel: the layout below it does not move when it is first painted.
    let chart = Memo::new(move |_| {
        resized.track();
        heat.heat.with(|h| h.as_deref().map(render::heatmap::chart_size))
    });
    let chart_px = move |axis: usize| {
        chart
            .get()
            .map(|(w, h)| format!("{}px", if axis == 0 { w } else { h }))
    };
    // Draw when the grid, the selection or the sparse switch change (once per frame).
    let redraw = Redraw::new();
    Effect::new(move |_| {
        resized.track();
        collapsed.track();
        heat.heat.track();
        heat.sel.track();
        heat.sel_band.track();
        heat.pending.track();
        heat.sparse.track();
        ui.theme.track();
        if canvas_ref.get().is_none() {
            return;
        }
        redraw.request(move || {
            let (Some(h), Some(Some(canvas))) = (heat.heat.get_untracked(), canvas_ref.try_get_untracked())
            else {
                return;
            };
            let lost = lost_columns(&h);
            render::heatmap::paint(
                &canvas,
                &h,
                heat.sel.get_untracked(),
                heat.sel_band.get_untracked(),
                heat.pending.get_untracked(),
                heat.sparse.get_untracked(),
                &lost,
                ui.is_dark(),
            );
        });
    });

    let on_down = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        drag_from.set(cell_at(&ev));
    };
    let on_up = move |ev: leptos::ev::MouseEvent| {
        let (Some(from), Some(to)) = (drag_from.get_untracked(), cell_at(&ev)) else {
            return;
        };
        drag_from.set(None);
        let band = ev.shift_key() || heat.band_mode.get_untracked();
        let select = move |a, b| {
            if band {
                actions.select_band(a, b)
            } else {
                actions.select_cells(a, b)
            }
        };
        if from != to {
            select(from, to);
        } else if let Some(first) = heat.pending.get_untracked() {
            select(first, to);
        } else {
            heat.pending.set(Some(to));
        }
    };
    let cell_text = move |cell: Option<Cell>| -> String {
        match (cell, heat.heat.get_untracked()) {
            (Some((c, r)), Some(h)) => {
                let ms = |r: u32| f64::from(r) * 1000.0 / f64::from(h.rows);
                let n = h.count(c, r);
                let lost = lost_columns(&h)
                    .iter()
                    .find(|x| x.0 == c)
                    .map(|x| format!(" · {} events lost in this second", x.1))
                    .unwrap_or_default();
                format!(
                    "second {c} · {:.0}–{:.0} ms · {n} sample{}{lost}",
                    ms(r),
                    ms(r + 1),
                    if n == 1 { "" } else { "s" }
                )
            }
            _ => String::new(),
        }
    };
    let on_move = move |ev: leptos::ev::MouseEvent| hover_text.set(cell_text(cell_at(&ev)));

    // The keyboard: arrows move a cell cursor (shown as the first cell of a two-click selection), Shift+arrows
    // extend a range from where Shift was first held, Enter selects it exactly as a drag between the same two
    // cells does (a band with "band" on), Esc (the page's) clears. The cursor's readout is announced.
    let anchor = RwSignal::new(None::<Cell>);
    let keyed = RwSignal::new(false);
    let announcer = use_context::<super::announcer::Announcer>();
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let Some(h) = heat.heat.get_untracked() else {
            return;
        };
        if h.columns == 0 || h.rows == 0 || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        // The cursor starts at the selection's first cell, or the first cell.
        let cur = heat
            .pending
            .get_untracked()
            .or_else(|| heat.sel.get_untracked().map(|(a, _)| a))
            .unwrap_or((0, 0));
        let (c, r) = cur;
        let next = match ev.key().as_str() {
            "ArrowLeft" => (c.saturating_sub(1), r),
            "ArrowRight" => ((c + 1).min(h.columns - 1), r),
            // Row 0 (offset 0 ms) is at the bottom.
            "ArrowUp" => (c, (r + 1).min(h.rows - 1)),
            "ArrowDown" => (c, r.saturating_sub(1)),
            "Home" => (0, r),
            "End" => (h.columns - 1, r),
            "Enter" => {
                ev.prevent_default();
                ev.stop_propagation();
                let from = anchor.get_untracked().unwrap_or(cur);
                if heat.band_mode.get_untracked() {
                    actions.select_band(from, cur);
                } else {
                    actions.select_cells(from, cur);
                }
                anchor.set(None);
                heat.pending.set(Some(cur));
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        ev.stop_propagation();
        keyed.set(true);
        if ev.shift_key() {
            if anchor.get_untracked().is_none() {
                anchor.set(Some(cur));
            }
        } else {
            anchor.set(None);
        }
        heat.pending.set(Some(next));
        let mut text = cell_text(Some(next));
        if let Some((ac, ar)) = anchor.get_untracked() {
            text = format!("{text} · range from second {ac}, row {ar}: Enter selects");
        }
        hover_text.set(text.clone());
        if let Some(a) = announcer {
            a.say(text);
        }
    };
    // Leaving the heatmap drops a keyboard cursor (a mouse click after it would otherwise take it as the first
    // of two clicks).
    let on_blur = move |_| {
        if anchor.get_untracked().is_some() || keyed.get_untracked() {
            heat.pending.set(None);
        }
        anchor.set(None);
        keyed.set(false);
    };
    let offsets_attr = move |end: bool| {
        view.options
            .get()
            .offsets
            .map(|(s, e)| if end { e } else { s }.to_string())
            .unwrap_or_default()
    };
    let range_attr = move |end: bool| {
        view.options
            .get()
            .time_range
            .map(|(s, e)| if end { e } else { s }.to_string())
            .unwrap_or_default()
    };
    let selection_text = move || {
        let h = heat.heat.get()?;
        let o = view.options.get();
        let (s, e) = o.time_range?;
        let rel = |t: u64| (t.saturating_sub(h.origin_ns)) as f64 / 1e9;
        Some(match o.offsets {
            Some(off) => format!(
                "band: {} of each second in [{:.0} s, {:.0} s)",
                crate::state::heatmap::offsets_text(off),
                rel(s),
                rel(e)
            ),
            None => format!(
                "selected [{:.3} s, {:.3} s) after the first second",
                rel(s),
                rel(e)
            ),
        })
    };
    let rows_changed = move |ev: leptos::ev::Event| {
        if let Ok(r) = event_target_value(&ev).parse() {
            heat.rows.set(r);
            actions.clear_range();
        }
    };

    view! {
        <Show when=move || has_times() == Some(false) && !file_diff()>
            <div class="heatmap-unavailable" data-testid="heatmap-unavailable">
                "Heatmap unavailable: this profile has no timestamps (folded stacks and most pprof files carry none; "
                "perf script does)."
            </div>
        </Show>
        <Show when=move || has_times() == Some(true) && !file_diff()>
            <section class="heatmap" aria-label="subsecond heatmap">
                <div class="heatmap-controls">
                    <button class="heatmap-title" data-testid="heatmap-collapse" aria-expanded=move || (!collapsed.get()).to_string()
                        title="Columns: seconds · rows: offset within the second (0 ms at the bottom) · drag or click twice to select; Shift+drag: a band. Click to fold the heatmap away or back."
                        on:click=move |_| {
                            let c = !collapsed.get_untracked();
                            collapsed.set(c);
                            store_collapsed(c);
                        }>{move || if collapsed.get() { "▸ Heatmap" } else { "▾ Heatmap" }}</button>
                    <label class="control">"Rows "
                        <select data-testid="heatmap-rows" on:change=rows_changed prop:value=move || heat.rows.get().to_string()>
                            {scorch_core::analysis::heatmap::ROW_CHOICES.iter().map(|r| view! { <option value=r.to_string()>{r.to_string()}</option> }).collect_view()}
                        </select>
                    </label>
                    <label class="control"><input type="checkbox" data-testid="heatmap-idle" prop:checked=move || heat.idle.get()
                        on:change=move |ev| heat.idle.set(event_target_checked(&ev))/>" hide idle"</label>
                    <label class="control"><input type="checkbox" data-testid="heatmap-sparse" prop:checked=move || heat.sparse.get()
                        on:change=move |ev| heat.sparse.set(event_target_checked(&ev))/>" 1–3 sample cells"</label>
                    <label class="control" title="Select the same offsets in every second (a band) instead of a time range; Shift+drag does it once">
                        <input type="checkbox" data-testid="heatmap-band" prop:checked=move || heat.band_mode.get()
                            on:change=move |ev| actions.set_band_mode(event_target_checked(&ev))/>" band"</label>
                    <button data-testid="heatmap-prev" aria-label="previous range" title="Previous range of the same length ([)" on:click=move |_| actions.step_range(-1)>"◀"</button>
                    <button data-testid="heatmap-next" aria-label="next range" title="Next range of the same length (])" on:click=move |_| actions.step_range(1)>"▶"</button>
                    <button data-testid="heatmap-set-a" title="Keep this range as A; the next selection (B) is compared against it"
                        on:click=move |_| {
                            let o = view.options.get_untracked();
                            if let Some(r) = o.time_range {
                                heat.range_a.set(Some(r));
                                heat.band_a.set(o.offsets);
                            }
                        }>{move || if heat.range_a.with(|a| a.is_some()) { "A set: select B" } else { "Compare: set A" }}</button>
                    <button data-testid="heatmap-clear" on:click=move |_| actions.clear_range()>"Whole profile"</button>
                    <span class="heatmap-legend">
                        "0"<span class="legend-ramp"></span>{move || heat.heat.get().map(|h| format!("{} sample{}", h.max, if h.max == 1 { "" } else { "s" })).unwrap_or_default()}
                    </span>
                </div>
                <div class="heatmap-scroll" style:display=move || collapsed.get().then_some("none")>
                    <canvas node_ref=canvas_ref data-testid="heatmap-canvas"
                        style:width=move || chart_px(0) style:height=move || chart_px(1)
                        data-range-start-ns=move || range_attr(false) data-range-end-ns=move || range_attr(true)
                        data-offsets-from-ns=move || offsets_attr(false) data-offsets-to-ns=move || offsets_attr(true)
                        data-origin-ns=move || heat.heat.get().map(|h| h.origin_ns.to_string()).unwrap_or_default()
                        data-rows=move || heat.heat.get().map(|h| h.rows.to_string()).unwrap_or_default()
                        data-columns=move || heat.heat.get().map(|h| h.columns.to_string()).unwrap_or_default()
                        data-max=move || heat.heat.get().map(|h| h.max.to_string()).unwrap_or_default()
                        tabindex="0" role="application" aria-roledescription="heatmap"
                        aria-label="Subsecond heatmap: arrow keys move a cell cursor, Shift+arrows extend a range, Enter selects it"
                        on:keydown=on_key on:blur=on_blur
                        on:mousedown=on_down on:mouseup=on_up on:mousemove=on_move
                        on:mouseleave=move |_| hover_text.set(String::new())></canvas>
                    <super::notes_panel::NoteMarkers/>
                </div>
                <div class="heatmap-status" style:display=move || collapsed.get().then_some("none")>
                    <span data-testid="heatmap-hover">{move || hover_text.get()}</span>
                    <span data-testid="heatmap-selection" aria-live="polite">{move || selection_text().unwrap_or_default()}</span>
                    {move || heat.heat.get().and_then(|h| h.note()).map(|n| view! {
                        <span class="heatmap-note" data-testid="heatmap-note">{format!("Note: {n}.")}</span>
                    })}
                </div>
            </section>
        </Show>
    }
}

const COLLAPSED_KEY: &str = "scorch.heatmap.collapsed";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Whether the user folded the heatmap away in this browser.
fn stored_collapsed() -> bool {
    storage()
        .and_then(|s| s.get_item(COLLAPSED_KEY).ok().flatten())
        .is_some_and(|v| v == "1")
}

fn store_collapsed(c: bool) {
    if let Some(s) = storage() {
        let _ = if c {
            s.set_item(COLLAPSED_KEY, "1")
        } else {
            s.remove_item(COLLAPSED_KEY)
        };
    }
}
