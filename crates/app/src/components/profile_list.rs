//! The profiles of a merged view (several files opened at once: `Actions::open_files`, `#series=`): each with
//! its total; a click shows only that profile (the label filter `profile=NAME`), "All profiles" resets; ticking
//! two opens the diff of those two (the first ticked is the base); and the series table — each function's self
//! share in each profile with a trend line, sorted by the latest change, the spread or the slope
//! (`scorch_core::analysis::series`, the numbers of `scorch series`); a click on a function opens its sandwich.

use crate::state::diff::DiffState;
use crate::state::load::LoadState;
use crate::state::view::{Mode, ViewState};
use crate::state::Actions;
use crate::worker::share::{only, profile_names, MAX_PROFILES};
use leptos::prelude::*;
use scorch_core::analysis::series::{latest, slope, spread, SeriesBuilder};
use scorch_core::import::many::{profile_times, PROFILE_LABEL};
use scorch_core::model::units::format_value;
use scorch_core::ViewOptions;
use std::sync::Arc;

/// Rows of the series table put into the page.
const SERIES_ROWS: usize = 25;
/// A profile of the merge: its name, its total in the view and its own time where it states one.
#[derive(Clone, PartialEq)]
struct Row {
    name: String,
    total: u64,
    time: Option<u64>,
}

/// The series' order: as the files were given, by name, or by each profile's own time.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    Files,
    Name,
    Time,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Sort {
    Latest,
    Spread,
    Slope,
}

#[component]
pub fn ProfileList() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let ticks = RwSignal::new(Vec::<String>::new());
    let sort = RwSignal::new(Sort::Slope);
    // The ticks follow the diff: a slice diff of two profiles (also one opened from a link) shows both
    // ticked, base first; leaving the diff clears them.
    let diff = expect_context::<DiffState>();
    Effect::new(move |_| {
        let a = diff.slice_a.get();
        let b = view.label_text.get();
        let prefix = format!("{PROFILE_LABEL}=");
        match (
            a.as_deref().and_then(|t| t.strip_prefix(&prefix)),
            b.strip_prefix(&prefix),
        ) {
            (Some(a), Some(b)) if a != b => ticks.set(vec![a.to_string(), b.to_string()]),
            _ if a.is_none() && ticks.with_untracked(|t| t.len() >= 2) => ticks.set(Vec::new()),
            _ => {}
        }
    });
    let order = RwSignal::new(Order::Files);
    // The mean-per-profile switch as set (the view's divisor is 1 while one profile is shown).
    let mean = RwSignal::new(false);
    // A view that shows the mean (a link's `mean=`) sets the switch.
    Effect::new(move |_| {
        if view.options.with(|v| v.mean_of > 1) {
            mean.set(true);
        }
    });
    // The profiles and their totals, when the open profile is a merge (one pass per profile).
    let key = Memo::new(move |_| {
        let loaded = load.loaded.with(|l| l.as_ref().map(|l| Arc::as_ptr(l) as usize));
        (loaded, view.options.with(|v| (v.event, v.weight)))
    });
    let profiles = Memo::new(move |_| {
        // `get`, not `track`: a memo is pulled up to date only when read.
        let _ = key.get();
        let loaded = load.loaded.get_untracked()?;
        let p = &loaded.imported.profile;
        let (names, of_set) = profile_names(p);
        if names.len() < 2 || names.len() > MAX_PROFILES {
            return None;
        }
        // Each profile's total in one pass over the samples (the view without its label filter).
        let v = ViewOptions {
            label: None,
            ..view.options.get_untracked()
        };
        let labels = p.samples.labels.as_ref()?;
        let mut totals = vec![0u64; names.len()];
        for (i, &set) in labels.iter().enumerate() {
            let k = of_set.get(set as usize).copied().flatten();
            if let (Some(t), Some(w)) = (k.and_then(|k| totals.get_mut(k)), v.weigh(p, i)) {
                *t = t.saturating_add(w);
            }
        }
        let times = profile_times(p);
        let mut rows: Vec<Row> = names
            .into_iter()
            .zip(totals)
            .map(|(name, total)| {
                let time = times.iter().find(|t| t.0 == name).map(|t| t.1);
                Row { name, total, time }
            })
            .collect();
        match order.get() {
            Order::Files => {}
            Order::Name => rows.sort_by(|a, b| a.name.cmp(&b.name)),
            // Where every profile states one (else file order; the option is then disabled).
            Order::Time if rows.iter().all(|r| r.time.is_some()) => rows.sort_by_key(|r| r.time),
            Order::Time => {}
        }
        Some(Arc::new(rows))
    });
    let series = Memo::new(move |_| {
        let rows = profiles.get()?;
        let loaded = load.loaded.get_untracked()?;
        let p = &loaded.imported.profile;
        let v = view.options.get_untracked();
        let mut b = SeriesBuilder::new();
        for r in rows.iter() {
            if let Some(w) = only(p, &v, &r.name) {
                b.push(&r.name, p, &w);
            }
        }
        Some(Arc::new(b.finish()))
    });
    let shown = move || {
        view.label_text
            .with(|t| t.strip_prefix(&format!("{PROFILE_LABEL}=")).map(str::to_string))
    };
    // The mean per profile divides by the number of profiles shown: all of them, or one under a profile filter.
    let mean_of = move |on: bool, filter: &str| match profiles.with_untracked(|p| p.as_ref().map(|p| p.len()))
    {
        Some(n) if on && !filter.starts_with(&format!("{PROFILE_LABEL}=")) => n as u32,
        _ => 0,
    };
    let set_filter = move |text: String| {
        let on = view.options.with_untracked(|v| v.mean_of > 1) || mean.get_untracked();
        let _ = actions.set_label_filter(&text);
        actions.set_view(ViewOptions {
            mean_of: mean_of(on, &text),
            ..view.options.get_untracked()
        });
    };
    let set_mean = move |on: bool| {
        mean.set(on);
        actions.set_view(ViewOptions {
            mean_of: mean_of(on, &view.label_text.get_untracked()),
            ..view.options.get_untracked()
        });
    };
    let tick = move |name: String, on: bool| {
        ticks.update(|t| {
            t.retain(|x| x != &name);
            if on {
                t.push(name.clone());
            }
        });
        let t = ticks.get_untracked();
        if let [a, b] = t.as_slice() {
            // The first ticked is the base: it becomes the slice diff's base, the second the view's filter.
            set_filter(format!("{PROFILE_LABEL}={a}"));
            actions.diff_against_slice();
            set_filter(format!("{PROFILE_LABEL}={b}"));
        }
    };
    let rows = move || {
        let rows = profiles.get()?;
        let all = rows.iter().map(|r| r.total).sum::<u64>().max(1);
        // Each profile's own total, in the view's unit (not divided by the mean: it is one profile's).
        let (unit, decimals) = {
            let loaded = load.loaded.get_untracked()?;
            let p = &loaded.imported.profile;
            (view.options.with_untracked(|v| v.unit(p)), p.meta.decimals)
        };
        let fmt = move |raw: u64| format_value(raw as f64 / 10f64.powi(decimals as i32), &unit);
        Some(
            rows.iter()
                .map(|r| {
                    let (n, total) = (r.name.clone(), r.total);
                    let name = n.clone();
                    let pressed = {
                        let n = n.clone();
                        move || shown().as_deref() == Some(n.as_str())
                    };
                    let ticked = {
                        let n = n.clone();
                        move || ticks.with(|t| t.contains(&n))
                    };
                    let share = format!("{:.1} %", total as f64 * 100.0 / all as f64);
                    let n2 = n.clone();
                    let n3 = n.clone();
                    view! {
                        <div class="profile-row">
                            <input type="checkbox" data-testid="profile-tick" data-name=n.clone()
                                aria-label=format!("compare {n}") prop:checked=ticked
                                on:change=move |ev| tick(n2.clone(), event_target_checked(&ev))/>
                            <button class="thread-row" data-testid="profile-row" data-name=n.clone()
                                data-total=total.to_string() aria-pressed={
                                    let pressed = pressed.clone();
                                    move || pressed().to_string()
                                }
                                class:chosen=pressed title="Show only this profile"
                                on:click=move |_| set_filter(format!("{PROFILE_LABEL}={n3}"))>
                                <span class="thread-name">{super::shown_name(&name)}</span>
                                <span class="thread-count">{fmt(total)}</span>
                                <span class="thread-share">{share}</span>
                            </button>
                        </div>
                    }
                })
                .collect_view(),
        )
    };
    let table = move || {
        let s = series.get()?;
        let mut rows: Vec<_> = s
            .rows
            .iter()
            .map(|r| {
                let key = match sort.get() {
                    Sort::Latest => latest(&r.self_share).abs(),
                    Sort::Spread => spread(&r.self_share),
                    Sort::Slope => slope(&r.self_share).abs(),
                };
                (key, r)
            })
            .collect();
        rows.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.name.cmp(&b.1.name)));
        let body = rows
            .into_iter()
            .take(SERIES_ROWS)
            .map(|(_, r)| {
                let max = r.self_share.iter().copied().fold(0.0f64, f64::max).max(1e-12);
                let n = r.self_share.len().max(2) - 1;
                let points: String = r
                    .self_share
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| format!("{:.1},{:.1} ", i as f64 * 80.0 / n as f64, 18.0 - x / max * 16.0))
                    .collect();
                let shares: Vec<String> = r.self_share.iter().map(|x| format!("{:.1}", x * 100.0)).collect();
                let name = r.name.clone();
                view! {
                    <tr data-testid="series-row" data-name=r.name.clone() data-self=shares.join(",")
                        on:click=move |_| {
                            actions.select(Some(name.clone()));
                            actions.set_mode(Mode::Sandwich);
                        }>
                        <td class="series-name">{super::shown_name(&r.name)}</td>
                        <td class="num">{shares.join(" → ")}</td>
                        <td><svg width="82" height="20" aria-hidden="true"><polyline points=points fill="none" stroke="currentColor" stroke-width="1.5"/></svg></td>
                    </tr>
                }
            })
            .collect_view();
        Some(view! {
            <table class="series-table" data-testid="series-table">
                <thead><tr><th>"Function"</th><th>"self % per profile"</th><th>"trend"</th></tr></thead>
                <tbody>{body}</tbody>
            </table>
        })
    };
    view! {
        <Show when=move || profiles.with(|p| p.is_some())>
            <section class="thread-list profile-list" data-testid="profile-list">
                <div class="thread-controls">
                    <span class="thread-title">{move || format!("Profiles · {}", profiles.with(|p| p.as_ref().map_or(0, |p| p.len())))}</span>
                    <button data-testid="profiles-all" disabled=move || shown().is_none()
                        on:click=move |_| { ticks.set(Vec::new()); set_filter(String::new()) }>"All profiles"</button>
                    <label class="control">"Sort by "
                        <select data-testid="series-sort" on:change=move |ev| sort.set(match event_target_value(&ev).as_str() {
                            "latest" => Sort::Latest,
                            "spread" => Sort::Spread,
                            _ => Sort::Slope,
                        })>
                            <option value="slope">"slope"</option>
                            <option value="latest">"latest change"</option>
                            <option value="spread">"spread"</option>
                        </select>
                    </label>
                    <label class="control">"Order "
                        <select data-testid="profiles-order" on:change=move |ev| order.set(match event_target_value(&ev).as_str() {
                            "name" => Order::Name,
                            "time" => Order::Time,
                            _ => Order::Files,
                        })>
                            <option value="files">"as opened"</option>
                            <option value="name">"by name"</option>
                            <option value="time" disabled=move || !profiles.with(|p| p.as_ref().is_some_and(|p| p.iter().all(|r| r.time.is_some())))
                                title="each profile's own time: pprof's time_nanos, else its first sample's timestamp">"by time"</option>
                        </select>
                    </label>
                    <label class="control" title="Show values as the mean per profile (the sum divided by the number of profiles shown); shares are the same">
                        <input type="checkbox" data-testid="profiles-mean" prop:checked=move || mean.get()
                            on:change=move |ev| set_mean(event_target_checked(&ev))/>
                        "mean per profile"
                    </label>
                    <span class="thread-hint">"click: only that profile · tick two: their diff (first ticked = base)"</span>
                </div>
                <div class="profile-body">
                    <div class="thread-rows">{rows}</div>
                    {table}
                </div>
            </section>
        </Show>
    }
}
