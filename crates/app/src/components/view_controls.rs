//! The view controls: event (or pprof sample type), weight, label filter and root selectors, shown when the
//! profile has them; the info panel and the copy-link button beside them.

use super::copy_link::CopyLink;
use super::info_panel::InfoPanel;
use crate::state::load::LoadState;
use crate::state::view::ViewState;
use crate::state::Actions;
use crate::url::{is_label_root, label_root_key, root_from_key, root_key, UrlKey};
use leptos::prelude::*;
use scorch_core::model::units::group_thousands;
use scorch_core::model::DeclaredUnit;
use scorch_core::{RootMode, ViewOptions, WeightMode};

/// Event (or pprof sample type), weight, label filter and root selectors, shown when the profile has them.
#[component]
pub fn ViewControls() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let diff = expect_context::<crate::state::diff::DiffState>();
    let with_profile = move |f: &dyn Fn(&scorch_core::Profile) -> Vec<(String, String)>| {
        load.loaded
            .with(|l| l.as_ref().map(|l| f(&l.imported.profile)).unwrap_or_default())
    };
    let events = move || {
        with_profile(&|p| {
            p.events
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    (
                        i.to_string(),
                        format!("{} ({} samples)", e.name, group_thousands(e.samples)),
                    )
                })
                .collect()
        })
    };
    let label_keys = move || {
        with_profile(&|p| {
            scorch_core::view::label_keys(p)
                .into_iter()
                .map(|k| (label_root_key(&k), k))
                .collect()
        })
    };
    let has_threads = move || {
        load.loaded
            .with(|l| l.as_ref().is_some_and(|l| !l.imported.profile.threads.is_empty()))
    };
    let is_pprof = move || {
        load.loaded.with(|l| {
            l.as_ref()
                .is_some_and(|l| l.imported.profile.meta.format == scorch_core::Format::Pprof)
        })
    };
    let format = move || {
        load.loaded
            .with(|l| l.as_ref().map(|l| l.imported.profile.meta.format))
    };
    // V8 profiles have no events, but each sample weighs its time or 1, as perf's period or count; so do
    // speedscope's samples (time, bytes or counts).
    let is_v8 = move || {
        matches!(
            format(),
            Some(
                scorch_core::Format::V8CpuProfile
                    | scorch_core::Format::ChromeTrace
                    | scorch_core::Format::Speedscope
            )
        )
    };
    // bpftrace's maps are events, but a block is no sample: its COUNT is the only weight worth showing.
    let is_bpftrace = move || format() == Some(scorch_core::Format::Bpftrace);
    // Folded counts whose file does not say what they are: the user declares their unit.
    let declarable = move || {
        load.loaded.with(|l| {
            l.as_ref()
                .is_some_and(|l| scorch_core::view::takes_declared_unit(&l.imported.profile))
        })
    };
    let on_unit = move |ev: leptos::ev::Event| {
        let declared = DeclaredUnit::parse(&event_target_value(&ev)).filter(|&d| d != DeclaredUnit::Samples);
        actions.set_view(ViewOptions {
            declared,
            ..view.options.get_untracked()
        });
    };
    let root_value = move || {
        let root = view.options.get().root;
        match root {
            RootMode::Label(_) => load.with_profile(|p| root_key(root, p)).unwrap_or_default(),
            r => r.name().to_string(),
        }
    };
    let on_event = move |ev: leptos::ev::Event| {
        let i: u16 = event_target_value(&ev).parse().unwrap_or(0);
        actions.set_view(ViewOptions {
            event: Some(i),
            ..view.options.get_untracked()
        });
    };
    let on_weight = move |ev: leptos::ev::Event| {
        let weight = WeightMode::from_key(&event_target_value(&ev)).unwrap_or(WeightMode::Weight);
        actions.set_view(ViewOptions {
            weight,
            ..view.options.get_untracked()
        });
    };
    let on_root = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        let found = load
            .loaded
            .get_untracked()
            .and_then(|l| root_from_key(&value, &l.imported.profile));
        let root = match found {
            Some(root) => root,
            // A label key the profile does not have changes nothing.
            None if is_label_root(&value) => return,
            None => RootMode::default(),
        };
        actions.set_view(ViewOptions {
            root,
            ..view.options.get_untracked()
        });
    };
    let filter_error = RwSignal::new(None::<String>);
    let on_filter = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() != "Enter" {
            return;
        }
        let text = event_target_value(&ev);
        filter_error.set(actions.set_label_filter(&text).err());
    };
    let options = |items: Vec<(String, String)>| {
        items
            .into_iter()
            .map(|(value, label)| view! { <option value=value>{label}</option> })
            .collect_view()
    };
    view! {
        <Show when=move || !events().is_empty()>
            <label class="control"><span class="ctl-label">{move || if is_pprof() { "Sample type " } else { "Event " }}</span>
                <select data-testid="event-select" on:change=on_event
                    prop:value=move || view.options.get().event.unwrap_or(0).to_string()>
                    {move || options(events())}
                </select>
            </label>
        </Show>
        <Show when=move || (!events().is_empty() && !is_pprof() && !is_bpftrace()) || is_v8()>
            <label class="control"><span class="ctl-label">"Weight "</span>
                <select data-testid="weight-select" on:change=on_weight
                    prop:value=move || view.options.get().weight.key()>
                    <option value=WeightMode::Weight.key()>{move || match format() {
                        Some(scorch_core::Format::Speedscope) => "weight",
                        _ if is_v8() => "time",
                        _ => "period",
                    }}</option>
                    <option value=WeightMode::Count.key()>"sample count"</option>
                </select>
            </label>
        </Show>
        <Show when=declarable>
            <label class="control" title="The file does not say what its counts are: declare their unit">"Unit "
                <select data-testid="unit-select" on:change=on_unit
                    prop:value=move || view.options.get().declared.map_or("samples", |d| d.short())>
                    {DeclaredUnit::ALL
                        .iter()
                        .map(|d| view! { <option value=d.short()>{d.label()}</option> })
                        .collect_view()}
                </select>
            </label>
        </Show>
        <Show when=move || !label_keys().is_empty() || has_threads()>
            <label class="control"><span class="ctl-label">{move || if label_keys().is_empty() { "Filter " } else { "Labels " }}</span>
                <input data-testid="label-filter" class="label-filter" type="text" placeholder="key=value ⏎"
                    title="Keep samples with this label: key=value, or key=LO:HI for numbers (units like 4kb, 10ms); perf's threads: comm=NAME, pid=N, tid=N (several: tid=12,13); empty shows all"
                    prop:value=move || view.label_text.get() on:keydown=on_filter/>
            </label>
            {move || filter_error.get().map(|e| view! { <span class="filter-error" data-testid="label-filter-error">{e}</span> })}
            <Show when=move || view.options.with(|v| v.label.is_some() || v.threads.is_some()) && !diff.slice_a.with(|a| a.is_some())>
                <button data-testid="label-slice-diff" title="Keep this slice (label filter and threads) as the diff's base, then choose another to compare"
                    on:click=move |_| actions.diff_against_slice()>"Diff against…"</button>
            </Show>
        </Show>
        <Show when=move || has_threads() || !label_keys().is_empty()>
            <label class="control"><span class="ctl-label">"Root "</span>
                <select data-testid="root-select" on:change=on_root prop:value=root_value>
                    {move || {
                        let mut items = Vec::new();
                        if has_threads() {
                            items.push((RootMode::Comm.name().to_string(), "process".to_string()));
                            items.push((RootMode::Pid.name().to_string(), "process-pid".to_string()));
                            items.push((RootMode::Tid.name().to_string(), "process-pid/tid".to_string()));
                        }
                        items.push((RootMode::None.name().to_string(), "none".to_string()));
                        items.extend(label_keys().into_iter().map(|(v, k)| (v, format!("label {k}"))));
                        options(items)
                    }}
                </select>
            </label>
        </Show>
        <InfoPanel/>
        <CopyLink/>
    }
}
