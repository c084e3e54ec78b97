//! The marker track (issue #45): the profile's markers on its time axis (Chrome trace duration and instant events,
//! Gecko markers: `scorch_core::analysis::markers`, as `scorch markers` lists them), one lane per thread, under
//! the heatmap. Each marker is a button placed by its start and duration on the whole recording's time (hover:
//! its name, category, start, duration and fields); a click selects exactly its time range, as a heatmap drag
//! does, so the flame graph and every view follow. A search keeps the markers whose name has the text. Names
//! are text only (a `title` and the button's text). Placed through the CSSOM (`style:left`…): the page's CSP forbids
//! style attributes.

use crate::state::load::LoadState;
use crate::state::ui::UiState;
use crate::state::view::ViewState;
use crate::state::Actions;
use leptos::prelude::*;
use scorch_core::analysis::markers::{marker_list, MarkerList, MarkerRow};
use scorch_core::model::units::format_value;
use scorch_core::Unit;
use std::sync::Arc;

/// Lanes put into the page; the rest are counted.
const LANES: usize = 12;
/// Markers put into one lane (the longest first when there are more); the rest are counted.
const PER_LANE: usize = 400;
/// Rows of one lane for markers that overlap, and the height of one (CSS px).
const SUB_ROWS: usize = 6;
const ROW_PX: usize = 15;
/// The least share of the lane's width a marker takes when rows are assigned (about its drawn minimum of 3 px
/// on a lane some 1,000 px wide, with room for its name to start).
const MIN_SHARE: f64 = 0.008;

/// A marker's words: name, category, start after the origin, duration, fields.
fn describe(m: &MarkerRow) -> String {
    let ms = |ns: u64| format_value(ns as f64, &Unit::Nanoseconds);
    let mut s = format!("{} — {}", m.name, m.thread);
    if !m.category.is_empty() {
        s.push_str(&format!(" · {}", m.category));
    }
    s.push_str(&format!(" · at +{}", ms(m.offset_ns)));
    match m.duration_ns {
        Some(d) => s.push_str(&format!(" · {}", ms(d))),
        None => s.push_str(" · instant"),
    }
    for (k, v) in &m.fields {
        s.push_str(&format!("\n{k}: {v}"));
    }
    s
}

#[component]
pub fn MarkerTrack() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let ui = expect_context::<UiState>();
    let query = RwSignal::new(String::new());
    // Once per loaded profile: the list and the time axis (origin to the last sample or marker end).
    let list = Memo::new(move |_| {
        load.loaded.with(|l| {
            let p = &l.as_ref()?.imported.profile;
            if p.meta.markers.is_empty() {
                return None;
            }
            let list = marker_list(p);
            let last_sample = p.samples.time_ns.as_ref().and_then(|t| t.iter().max().copied());
            let last_marker = list
                .markers
                .iter()
                .map(|m| m.start_ns.saturating_add(m.duration_ns.unwrap_or(0)))
                .max();
            let end = last_sample.max(last_marker).unwrap_or(list.origin_ns);
            let end = end.max(list.origin_ns + 1);
            Some(Arc::new((list, end)))
        })
    });
    let lanes = move || {
        let Some(l) = list.get() else {
            return Vec::new();
        };
        let (MarkerList { origin_ns, markers }, end) = &*l;
        let span = (end - origin_ns) as f64;
        let q = query.get().to_lowercase();
        let mut by_thread: Vec<(String, Vec<&MarkerRow>)> = Vec::new();
        for m in markers
            .iter()
            .filter(|m| q.is_empty() || m.name.to_lowercase().contains(&q))
        {
            match by_thread.last_mut() {
                Some((t, v)) if *t == m.thread => v.push(m),
                _ => by_thread.push((m.thread.clone(), vec![m])),
            }
        }
        let selected = view.options.with(|v| v.time_range);
        by_thread
            .into_iter()
            .take(LANES)
            .map(|(thread, mut ms)| {
                let all = ms.len();
                if ms.len() > PER_LANE {
                    ms.sort_by_key(|m| std::cmp::Reverse(m.duration_ns.unwrap_or(0)));
                    ms.truncate(PER_LANE);
                }
                // Overlapping markers go to rows of their own (each at least MIN_SHARE of the lane wide, as
                // drawn), the first row with room; past SUB_ROWS they share the last.
                ms.sort_by_key(|m| m.start_ns);
                let min = (span * MIN_SHARE) as u64;
                let mut ends: Vec<u64> = Vec::new();
                let placed: Vec<(&MarkerRow, usize)> = ms
                    .into_iter()
                    .map(|m| {
                        let end = m.start_ns + m.duration_ns.unwrap_or(0).max(min);
                        let row = match ends.iter().position(|&e| e <= m.start_ns) {
                            Some(r) => r,
                            None if ends.len() < SUB_ROWS => {
                                ends.push(0);
                                ends.len() - 1
                            }
                            None => SUB_ROWS - 1,
                        };
                        if let Some(e) = ends.get_mut(row) {
                            *e = (*e).max(end);
                        }
                        (m, row)
                    })
                    .collect();
                let rows = ends.len().max(1);
                let buttons = placed
                    .into_iter()
                    .map(|(m, row)| {
                        let left = (m.start_ns - origin_ns) as f64 / span * 100.0;
                        let width = m.duration_ns.unwrap_or(0) as f64 / span * 100.0;
                        let range = (m.start_ns, m.start_ns + m.duration_ns.unwrap_or(0).max(1));
                        let on = selected == Some(range);
                        let label = describe(m);
                        view! {
                            <button class="marker" class:instant=m.duration_ns.is_none() class:on=on
                                data-testid="marker" data-name=m.name.clone() data-start=m.start_ns.to_string()
                                data-duration=m.duration_ns.map_or(String::new(), |d| d.to_string())
                                title=label.clone() aria-label=label
                                style:left=format!("{left:.4}%") style:width=format!("{width:.4}%")
                                style:top=format!("{}px", 1 + row * ROW_PX)
                                on:click=move |_| actions.select_time(Some(range), None)>
                                {m.name.clone()}
                            </button>
                        }
                    })
                    .collect_view();
                let more = all.saturating_sub(PER_LANE);
                view! {
                    <div class="marker-lane" data-testid="marker-lane" data-thread=thread.clone()>
                        <span class="marker-thread" title=thread.clone()>{thread.clone()}</span>
                        <div class="marker-row" style:height=format!("{}px", rows * ROW_PX + 2)>{buttons}</div>
                        {(more > 0).then(|| view! { <span class="hint">{format!("{more} shorter not drawn")}</span> })}
                    </div>
                }
            })
            .collect_view()
    };
    let count = move || {
        list.with(|l| {
            l.as_ref().map_or((0, 0), |l| {
                let lanes =
                    l.0.markers
                        .iter()
                        .map(|m| &m.thread)
                        .collect::<std::collections::BTreeSet<_>>();
                (l.0.markers.len(), lanes.len())
            })
        })
    };
    view! {
        <Show when=move || list.with(Option::is_some) && !ui.embed.get()>
            <section class="marker-track" aria-label="Markers" data-testid="marker-track">
                <div class="marker-controls">
                    <span class="thread-title">"Markers"</span>
                    <span class="hint" data-testid="marker-count">{move || {
                        let (n, t) = count();
                        let more = t.saturating_sub(LANES);
                        format!("{n} on {t} thread{}{}", if t == 1 { "" } else { "s" },
                            if more > 0 { format!(" ({more} not shown)") } else { String::new() })
                    }}</span>
                    <input type="search" class="marker-search" data-testid="marker-search" placeholder="Marker name"
                        aria-label="Search the markers by name" prop:value=move || query.get()
                        on:input=move |ev| query.set(event_target_value(&ev))/>
                    <span class="hint">"Click a marker to select its time range"</span>
                </div>
                <div class="marker-lanes">{lanes}</div>
            </section>
        </Show>
    }
}
