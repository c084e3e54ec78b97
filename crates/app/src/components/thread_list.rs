//! The thread list (perf's comm / pid / tid): each thread's name, sample count and activity over the
//! recording, busiest first. Click shows only that thread, Ctrl/Cmd- or Shift-click adds or removes one; "All
//! threads" resets. The choice is `ViewOptions::threads`, so every view (flame graph, heatmap, table, sandwich)
//! and the link follow it. "Diff against…" makes the current slice the base of a slice diff.

use crate::state::diff::DiffState;
use crate::state::load::LoadState;
use crate::state::ui::UiState;
use crate::state::view::ViewState;
use crate::state::Actions;
use leptos::prelude::*;
use scorch_core::analysis::threads::{thread_list, ThreadList, BUCKETS};
use scorch_core::model::units::group_thousands;
use scorch_core::view::ThreadSet;
use std::sync::Arc;

/// Rows put into the page; the rest are counted (`tid=` in the filter box reaches them).
const SHOWN_ROWS: usize = 200;

/// The activity strip as a CSS gradient: one stop pair per bucket, its opacity the bucket's share of the
/// busiest bucket of any thread (so strips compare across threads).
fn strip(activity: &[u64], max: u64) -> String {
    if activity.is_empty() || max == 0 {
        return "none".to_string();
    }
    let n = activity.len() as f64;
    let stops: Vec<String> = activity
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            let a = if w == 0 {
                0.0
            } else {
                0.15 + 0.85 * w as f64 / max as f64
            };
            format!(
                "rgba(194, 65, 12, {a:.3}) {:.2}% {:.2}%",
                i as f64 * 100.0 / n,
                (i + 1) as f64 * 100.0 / n
            )
        })
        .collect();
    format!("linear-gradient(to right, {})", stops.join(", "))
}

#[component]
pub fn ThreadList() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let ui = expect_context::<UiState>();
    let diff = expect_context::<DiffState>();
    // One pass over the samples when the profile, event, weights or label filter change (not the choice).
    let key = Memo::new(move |_| {
        let loaded = load.loaded.with(|l| l.as_ref().map(|l| Arc::as_ptr(l) as usize));
        (loaded, view.options.with(|v| (v.event, v.weight, v.label)))
    });
    let list = Memo::new(move |_| {
        key.track();
        if !ui.threads.get() {
            return None;
        }
        let loaded = load.loaded.get_untracked()?;
        let v = view.options.get_untracked();
        let l = crate::state::timed("thread list", || {
            thread_list(&loaded.imported.profile, &v, BUCKETS)
        });
        (!l.rows.is_empty()).then(|| Arc::new(l))
    });
    let chosen = move || view.options.with(|v| v.threads.clone());
    let click = move |t: u32, ev: leptos::ev::MouseEvent| {
        let toggle = ev.ctrl_key() || ev.meta_key() || ev.shift_key();
        let next = match (toggle, chosen()) {
            (true, Some(set)) if set.contains(t) => {
                let rest: Vec<u32> = set.as_slice().iter().copied().filter(|&x| x != t).collect();
                (!rest.is_empty()).then(|| ThreadSet::new(rest))
            }
            (true, Some(set)) => Some(ThreadSet::new(set.as_slice().iter().copied().chain([t]))),
            _ => Some(ThreadSet::new([t])),
        };
        actions.choose_threads(next);
    };
    let rows = move |l: Arc<ThreadList>| {
        let max = l
            .rows
            .iter()
            .flat_map(|r| r.activity.iter().copied())
            .max()
            .unwrap_or(0);
        let all = l.samples.max(1);
        let more = l.rows.len().saturating_sub(SHOWN_ROWS);
        let items = l
            .rows
            .iter()
            .take(SHOWN_ROWS)
            .map(|r| {
                let t = r.thread;
                let pressed = move || chosen().is_some_and(|s| s.contains(t));
                let share = format!("{:.1} %", r.samples as f64 * 100.0 / all as f64);
                view! {
                    <button class="thread-row" data-testid="thread-row" data-tid=r.tid.to_string()
                        data-samples=r.samples.to_string() data-total=r.total.to_string()
                        class:chosen=pressed aria-pressed=move || pressed().to_string()
                        title="Click: only this thread · Ctrl/Cmd- or Shift-click: add or remove it"
                        on:click=move |ev| click(t, ev)>
                        <span class="thread-name">{super::shown_name(&r.name)}</span>
                        <span class="thread-count">{group_thousands(r.samples)}</span>
                        <span class="thread-share">{share}</span>
                        <span class="thread-strip" style:background-image=strip(&r.activity, max)></span>
                    </button>
                }
            })
            .collect_view();
        view! {
            {items}
            {(more > 0).then(|| view! {
                <div class="thread-more">{format!("and {} more threads (tid=N in the filter box)", group_thousands(more as u64))}</div>
            })}
        }
    };
    let summary = move || {
        let n = list.with(|l| l.as_ref().map_or(0, |l| l.rows.len()));
        match chosen() {
            Some(s) => format!("Threads · {} of {}", s.len(), group_thousands(n as u64)),
            None => format!("Threads · all {}", group_thousands(n as u64)),
        }
    };
    view! {
        <Show when=move || list.with(|l| l.is_some())>
            <section class="thread-list" data-testid="thread-list">
                <div class="thread-controls">
                    <span class="thread-title">{summary}</span>
                    <button data-testid="threads-all" disabled=move || chosen().is_none()
                        on:click=move |_| actions.choose_threads(None)>"All threads"</button>
                    <button data-testid="slice-diff" title="Keep this slice (threads and label filter) as the diff's base, then choose another to compare"
                        on:click=move |_| actions.diff_against_slice()>
                        {move || if diff.slice_a.with(|a| a.is_some()) { "Base set: choose another slice" } else { "Diff against…" }}
                    </button>
                    <span class="thread-hint">"click: one · Ctrl/Shift-click: several"</span>
                </div>
                <div class="thread-rows">{move || list.get().map(rows)}</div>
            </section>
        </Show>
    }
}
