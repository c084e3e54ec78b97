//! The explore bar: view mode, search (with its matches and pattern transforms), order, colours and legend; the
//! selected function's row with its transforms; the transform chips.

use super::legend::Legend;
use crate::render::ColorScheme;
use crate::state::diff::DiffState;
use crate::state::pane::Panes;
use crate::state::search::{selected_weights_soon, SearchState};
use crate::state::view::{Mode, ViewState};
use crate::state::Actions;
use crate::url::UrlKey;
use leptos::prelude::*;
use scorch_core::analysis::{search::Pattern, transforms::Transform};
use scorch_core::view::calltree::Order;
use scorch_core::view::Granularity;
use scorch_core::ViewOptions;
use wasm_bindgen::JsCast;

/// Search, view mode, order, colours, the selected function's actions and the transform chips.
#[component]
pub fn ExploreBar() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let view = expect_context::<ViewState>();
    let search = expect_context::<SearchState>();
    let diff = expect_context::<DiffState>();
    let main = expect_context::<Panes>().main;
    // Hot/cold colouring is offered where samples say on- or off-CPU (the wall-clock event's `cpu` label).
    // Granularity is offered where the profile says where its code lives (pprof, V8: `Profile::sites`).
    let load = expect_context::<crate::state::load::LoadState>();
    let has_sites = move || {
        load.loaded
            .with(|l| l.as_ref().is_some_and(|l| l.imported.profile.sites.is_some()))
    };
    let has_cpu_label = move || {
        main.data.with(|d| {
            d.as_ref().is_some_and(|d| {
                scorch_core::view::label_keys(d.profile())
                    .iter()
                    .any(|k| k == "cpu")
            })
        })
    };
    let search_error = move || {
        let q = search.pattern.get();
        (!q.text.is_empty()).then(|| q.compile().err()).flatten()
    };
    let set_search = move |f: &dyn Fn(&mut Pattern)| {
        search.pattern.update(|q| f(q));
        search.match_idx.set(None);
    };
    let matched_text = move || {
        search.matched(main).map(|m| {
            let (pct, count) = (m.percent(), m.count);
            let at = search
                .match_idx
                .get()
                .map(|i| format!(" · {}/{}", i + 1, count))
                .unwrap_or_else(|| format!(" · {count} frame{}", if count == 1 { "" } else { "s" }));
            (format!("{pct}"), format!("Matched: {pct:.2} %{at}"))
        })
    };
    let no_pattern = move || search.pattern.with(|q| q.text.is_empty()) || search_error().is_some();
    let pattern_tx = move |make: fn(Pattern) -> Transform| {
        let q = search.pattern.get_untracked();
        if !q.text.is_empty() && q.compile().is_ok() {
            actions.push_transform(make(q));
        }
    };
    let fn_tx = move |make: fn(String) -> Transform| {
        if let Some(f) = search.selected.get_untracked() {
            actions.push_transform(make(f));
        }
    };
    let in_diff = move || diff.active();
    let selected_info = move || {
        let f = search.selected.get()?;
        let data = main.data.get()?;
        search.weighed.track();
        // A large graph's are worked out a task later: "…" until then.
        let (total, own) = match selected_weights_soon(&data, &f, search.weighed) {
            Some((total, own)) => (data.describe(total), data.describe(own)),
            None => ("…".to_string(), "…".to_string()),
        };
        Some((f, total, own))
    };
    view! {
        <div class="explore" data-testid="explore">
            <div class="segmented" role="group" aria-label="view">
                {Mode::ALL.into_iter().map(|m| view! {
                    <button data-testid=format!("view-mode-{}", m.key())
                        class:active=move || view.mode.get() == m
                        prop:disabled=move || in_diff() && m != Mode::Flame
                        title=move || format!("{} (key {})", m.label(), Mode::ALL.iter().position(|x| *x == m).unwrap_or(0) + 1)
                        on:click=move |_| actions.set_mode(m)>{m.label()}</button>
                }).collect_view()}
            </div>
            <input data-testid="search" aria-label="search functions" class="search" type="text" placeholder="Search ( / )"
                prop:value=move || search.pattern.get().text
                on:input=move |ev| { let t = event_target_value(&ev); set_search(&|q| q.text = t.clone()); }
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if ev.key() == "Enter" { search.step_match(main, if ev.shift_key() { -1 } else { 1 }); }
                    if ev.key() == "Escape" {
                        if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) { let _ = el.blur(); }
                    }
                }/>
            <label class="control" title="Regular expression"><input type="checkbox" data-testid="search-regex"
                prop:checked=move || search.pattern.get().regex
                on:change=move |ev| { let on = event_target_checked(&ev); set_search(&|q| q.regex = on); }/>".*"</label>
            <label class="control" title="Match case"><input type="checkbox" data-testid="search-case"
                prop:checked=move || search.pattern.get().case_sensitive
                on:change=move |ev| { let on = event_target_checked(&ev); set_search(&|q| q.case_sensitive = on); }/>"Aa"</label>
            <button data-testid="search-prev" aria-label="previous match" title="Previous match (Shift+Enter, N)" on:click=move |_| search.step_match(main, -1)>"‹"</button>
            <button data-testid="search-next" aria-label="next match" title="Next match (Enter, n)" on:click=move |_| search.step_match(main, 1)>"›"</button>
            <span class="search-out">
                {move || matched_text().map(|(v, text)| view! { <span class="matched" data-testid="matched" data-value=v>{text}</span> })}
                {move || search_error().map(|e| view! { <span class="filter-error" data-testid="search-error">{e}</span> })}
            </span>
            // Always in place (disabled until the search has a valid pattern), so typing never moves the controls.
            <span class="search-tx" role="group" aria-label="transforms of the search's matches">
                <button data-testid="tx-hide" title="Remove matching frames; their callees join their callers"
                    prop:disabled=no_pattern on:click=move |_| pattern_tx(Transform::Hide)>"Hide"</button>
                <button data-testid="tx-ignore" title="Drop every sample whose stack has a match"
                    prop:disabled=no_pattern on:click=move |_| pattern_tx(Transform::Ignore)>"Ignore"</button>
                <button data-testid="tx-from" title="Drop the frames above the outermost match (samples without one are dropped)"
                    prop:disabled=no_pattern on:click=move |_| pattern_tx(Transform::ShowFrom)>"Show from"</button>
            </span>
        </div>
        // The selection row is always there, one line high, so selecting a function never moves the graph under
        // the mouse; it holds the flame graph's zoom path on its left, and a short hint while nothing is selected.
        <div class="context-row">
        <Show when=move || matches!(view.mode.get(), Mode::Flame | Mode::Inverted) || diff.active()>
            <super::breadcrumb::Breadcrumb/>
        </Show>
        {move || selected_info().is_none().then(|| view! {
            <div class="selection" data-testid="selection-empty">
                <span class="hint">"Click a frame to select its function"</span>
            </div>
        })}
        {move || selected_info().map(|(f, total, own)| view! {
            <div class="selection" data-testid="selection">
                <span class="sel-label">"Selected"</span>
                <span class="sel-name" data-testid="selected-name">{super::shown_name(&f)}</span>
                <span class="hint" data-testid="selected-total">{format!("total {total} · self {own}")}</span>
                <button data-testid="sel-sandwich" prop:disabled=in_diff title="Its callers and callees"
                    on:click=move |_| actions.set_mode(Mode::Sandwich)>"Sandwich"</button>
                <button data-testid="tx-focus" title="Keep only samples through it, re-rooted at its outermost call"
                    on:click=move |_| fn_tx(Transform::Focus)>"Focus"</button>
                <button data-testid="tx-merge" title="Remove it: its callees join its callers, its self time goes to them"
                    on:click=move |_| fn_tx(Transform::Merge)>"Merge"</button>
                <button data-testid="tx-rec" title="Collapse recursion (direct and indirect) into its outermost call"
                    on:click=move |_| fn_tx(Transform::CollapseRecursion)>"Collapse recursion"</button>
                <button data-testid="tx-drec" title="Collapse direct recursion only (f calling f)"
                    on:click=move |_| fn_tx(Transform::CollapseDirect)>"Direct recursion"</button>
                <button data-testid="sel-clear" aria-label="clear the selection" title="Clear the selection" on:click=move |_| actions.select(None)>"×"</button>
            </div>
        })}
        // The legend before the graph's options: its width changes with the scheme and the search, and takes its
        // room from the selection's, so the options never move.
        <Legend/>
        <span class="graph-options">
            <Show when=has_sites>
                <label class="control" title="What one box stands for, as pprof's -functions, -lines, -files, -addresses"><span class="ctl-label">"Granularity "</span>
                    <select data-testid="granularity-select" prop:value=move || view.options.get().granularity.name()
                        on:change=move |ev| actions.set_view(ViewOptions {
                            granularity: Granularity::parse(&event_target_value(&ev)).unwrap_or_default(),
                            ..view.options.get_untracked()
                        })>
                        {Granularity::ALL.map(|g| view! { <option value=g.name()>{g.name()}</option> }).collect_view()}
                    </select>
                </label>
            </Show>
            <label class="control"><span class="ctl-label">"Order "</span>
                <select data-testid="order-select" prop:value=move || view.order.get().key()
                    on:change=move |ev| {
                        actions.set_order(Order::from_key(&event_target_value(&ev)).unwrap_or(Order::Alphabetical));
                    }>
                    <option value=Order::Alphabetical.key()>"alphabetical"</option>
                    <option value=Order::Weight.key()>"left-heavy"</option>
                </select>
            </label>
            <label class="control" title=move || super::legend::scheme_title(view.scheme.get())><span class="ctl-label">"Colour by "</span>
                <select data-testid="color-select" prop:value=move || view.scheme.get().key()
                    on:change=move |ev| view.scheme.set(ColorScheme::from_key(&event_target_value(&ev)).unwrap_or_default())>
                    {move || ColorScheme::ALL.into_iter().filter(|&c| c != ColorScheme::OnOffCpu || has_cpu_label())
                        .map(|c| view! { <option value=c.key() selected=move || view.scheme.get() == c>{c.label()}</option> }).collect_view()}
                </select>
            </label>
            <super::orientation_toggle::OrientationToggle/>
        </span>
        </div>
        <Show when=move || search.transforms.with(|t| !t.is_empty())>
            <div class="chips" data-testid="transforms">
                <span class="sel-label">"Transforms"</span>
                {move || search.transforms.get().into_iter().enumerate().map(|(i, t)| view! {
                    <span class="chip" data-testid="transform-chip">
                        <span>{t.label()}</span>
                        <button data-testid="transform-remove" aria-label="remove this transform" title="Remove this transform" on:click=move |_| actions.remove_transform(i)>"×"</button>
                    </span>
                }).collect_view()}
                <span class="hint">"Ctrl+Z removes the last"</span>
            </div>
        </Show>
    }
}
