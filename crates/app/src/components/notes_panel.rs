//! Notes that travel with the view (`note=`, `scorch_core::view::notes`): the list in a small panel with what each
//! is on ([`NotesPanel`]), the way to add one to the whole view, the selected function or the selected time range
//! ([`NoteAdd`], in Copy link's panel), and the markers the heatmap shows on the noted ranges ([`NoteMarkers`]; the
//! function table pins its noted rows).
//! A note is text only: it goes into the page as a text node or an attribute, never as markup.

use crate::state::heatmap::HeatState;
use crate::state::load::LoadState;
use crate::state::search::SearchState;
use crate::state::view::ViewState;
use crate::state::Actions;
use leptos::prelude::*;
use scorch_core::view::notes::{Note, NoteTarget, MAX_NOTES, MAX_NOTE_CHARS};

/// `1.250 s`: nanoseconds after the heatmap's origin, as the heatmap's selection line reads them.
fn secs(ns: u64) -> String {
    format!("{:.3} s", ns as f64 / 1e9)
}

/// What a note is on, as the panel says it.
pub fn target_text(t: &NoteTarget) -> String {
    match t {
        NoteTarget::View => "the view".to_string(),
        NoteTarget::Frame(f) => format!("function {}", super::shown_name(f)),
        NoteTarget::Range { start, end, band } => match band {
            None => format!("range [{}, {})", secs(*start), secs(*end)),
            Some(b) => format!(
                "band {} in [{}, {})",
                crate::state::heatmap::offsets_text(*b),
                secs(*start),
                secs(*end)
            ),
        },
    }
}

/// The names of the functions that carry a note, with their notes' texts (for the function table's pins).
pub fn frame_notes(notes: &[Note]) -> Vec<(String, String)> {
    notes
        .iter()
        .filter_map(|n| match &n.target {
            NoteTarget::Frame(f) => Some((f.clone(), n.text.clone())),
            _ => None,
        })
        .collect()
}

/// The notes panel: the view's notes, shown while it has some (notes are added from Copy link's panel,
/// [`NoteAdd`]).
#[component]
pub fn NotesPanel() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let list = move || {
        view.notes
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, n)| {
                let (kind, target) = match &n.target {
                    NoteTarget::View => ("view", String::new()),
                    NoteTarget::Frame(f) => ("frame", super::shown_name(f)),
                    NoteTarget::Range { start, end, band } => (
                        "range",
                        match band {
                            Some((a, b)) => format!("{start}-{end}~{a}-{b}"),
                            None => format!("{start}-{end}"),
                        },
                    ),
                };
                let show = match &n.target {
                    NoteTarget::Frame(f) => {
                        let f = f.clone();
                        Some(view! {
                            <button title="Select this function" on:click=move |_| actions.select(Some(f.clone()))>"Show"</button>
                        })
                    }
                    _ => None,
                };
                view! {
                    <li data-testid="note" data-kind=kind data-target=target>
                        <span class="note-target" data-testid="note-target">{format!("On {}: ", target_text(&n.target))}</span>
                        <span class="note-text" data-testid="note-text">{n.text.clone()}</span>
                        {show}
                        <button aria-label="Remove this note" title="Remove this note"
                            on:click=move |_| view.notes.update(|v| { if i < v.len() { v.remove(i); } })>"×"</button>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <Show when=move || load.loaded.with(Option::is_some) && view.notes.with(|n| !n.is_empty())>
            <section class="notes-panel" aria-label="Notes" data-testid="notes-panel">
                <ul class="notes-list" data-testid="notes-list">{list}</ul>
            </section>
        </Show>
    }
}

/// Adding a note (in Copy link's panel: a note says why the view is shared): a text field and a button per
/// target — the whole view (also Enter in the field), the selected function, the selected time range (with its
/// band). `added` runs after a note is added (the link is made again).
#[component]
pub fn NoteAdd(added: Callback<()>) -> impl IntoView {
    let view = expect_context::<ViewState>();
    let search = expect_context::<SearchState>();
    let heat = expect_context::<HeatState>();
    let text = RwSignal::new(String::new());
    let said = RwSignal::new(String::new());
    let range_now = move || -> Option<NoteTarget> {
        let h = heat.heat.get()?;
        let o = view.options.get();
        let (s, e) = o.time_range?;
        let (start, end) = (s.saturating_sub(h.origin_ns), e.saturating_sub(h.origin_ns));
        (start < end).then_some(NoteTarget::Range {
            start,
            end,
            band: o.offsets,
        })
    };
    let add = move |target: Option<NoteTarget>| {
        let t = text.get_untracked();
        let Some(target) = target else { return };
        if t.trim().is_empty() {
            said.set("Write the note first.".into());
            return;
        }
        if view.notes.with_untracked(Vec::len) >= MAX_NOTES {
            said.set(format!("A view carries at most {MAX_NOTES} notes."));
            return;
        }
        let text_cut: String = t.chars().take(MAX_NOTE_CHARS).collect();
        let where_ = target_text(&target);
        view.notes.update(|n| {
            n.push(Note {
                target,
                text: text_cut,
            })
        });
        text.set(String::new());
        said.set(format!("Note added on {where_}."));
        added.run(());
    };
    view! {
        <div class="note-add" role="group" aria-label="Add a note">
            <label for="note-input">"Note"</label>
            <input id="note-input" data-testid="note-input" type="text" maxlength=MAX_NOTE_CHARS.to_string()
                placeholder="say what this view shows (plain text)"
                prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))
                on:keydown=move |ev| if ev.key() == "Enter" { add(Some(NoteTarget::View)) }/>
            <button data-testid="note-add-view" title="Add the note to the whole view (Enter in the field)"
                on:click=move |_| add(Some(NoteTarget::View))>"on the view"</button>
            <button data-testid="note-add-frame" title="Add the note to the selected function"
                prop:disabled=move || search.selected.with(Option::is_none)
                on:click=move |_| add(search.selected.get_untracked().map(NoteTarget::Frame))>"on the function"</button>
            <button data-testid="note-add-range" title="Add the note to the heatmap's selected time range"
                prop:disabled=move || range_now().is_none()
                on:click=move |_| add(range_now())>"on the range"</button>
            <span role="status" data-testid="note-said">{move || said.get()}</span>
        </div>
    }
}

/// The heatmap's markers on noted ranges: a box over the noted cells (the columns of a range; a band's rows too),
/// drawn over the chart without taking its clicks, titled with the note's text.
#[component]
pub fn NoteMarkers() -> impl IntoView {
    let view = expect_context::<ViewState>();
    let heat = expect_context::<HeatState>();
    let resized = RwSignal::new(0u32);
    crate::render::canvas::on_window_resize(move || resized.update(|n| *n = n.wrapping_add(1)));
    let markers = move || {
        resized.track();
        let Some(h) = heat.heat.get() else {
            return Vec::new();
        };
        let (cw, ch) = crate::render::heatmap::cell_size(&h);
        view.notes
            .get()
            .into_iter()
            .filter_map(|n| {
                let NoteTarget::Range { start, end, band } = n.target else {
                    return None;
                };
                let abs = (h.origin_ns + start, h.origin_ns + end);
                let ((c1, r1), (c2, r2)) = crate::state::heatmap::selection_cells(&h, Some(abs), band)?;
                let (left, cols) = (c1.min(c2), c1.abs_diff(c2) + 1);
                let (top, rows) = match band {
                    Some(_) => (h.rows - 1 - r1.max(r2), r1.abs_diff(r2) + 1),
                    None => (0, h.rows),
                };
                let label = format!("Note on {}: {}", target_text(&n.target), n.text);
                Some(view! {
                    <div class="note-marker" data-testid="note-marker" role="img" aria-label=label.clone() title=label
                        data-start-ns=start.to_string() data-end-ns=end.to_string()
                        data-first-column=left.to_string() data-columns=cols.to_string()
                        style:left=format!("{}px", f64::from(left) * cw)
                        style:width=format!("{}px", f64::from(cols) * cw)
                        style:top=format!("{}px", f64::from(top) * ch)
                        style:height=format!("{}px", f64::from(rows) * ch)>
                        <span class="note-pin" aria-hidden="true">"✎"</span>
                    </div>
                })
            })
            .collect::<Vec<_>>()
    };
    view! { {markers} }
}
