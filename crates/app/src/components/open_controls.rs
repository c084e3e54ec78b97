//! Opening profiles: file, paste, compare; the load under way with its progress and Cancel.

use crate::state::load::{progress_text, LoadState};
use crate::state::Actions;
use leptos::prelude::*;

/// A button that opens a file chooser and hands the chosen files on (one, unless `multiple`).
#[component]
pub fn FilePicker(
    label: &'static str,
    testid: &'static str,
    title: &'static str,
    #[prop(optional)] multiple: bool,
    on_files: Callback<Vec<web_sys::File>>,
) -> impl IntoView {
    view! {
        <label class="button" title=title>
            {label}
            <input type="file" data-testid=testid class="hidden-input" multiple=multiple
                on:change=move |ev| {
                    let input: web_sys::HtmlInputElement = event_target(&ev);
                    if let Some(files) = input.files() {
                        let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
                        if !files.is_empty() {
                            on_files.run(files);
                        }
                    }
                    input.set_value("");
                }/>
        </label>
    }
}

#[component]
pub fn OpenControls() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let load = expect_context::<LoadState>();
    let paste_open = RwSignal::new(false);
    let text_ref = NodeRef::<leptos::html::Textarea>::new();
    view! {
        <FilePicker label="Open…" testid="open-file" multiple=true
            title="Open a profile (perf script, pprof, folded, speedscope, Firefox Profiler, V8, bpftrace; gzip'd or not) — or drop a file anywhere on the page. Several files open merged (summed), each under a profile=FILE label."
            on_files=Callback::new(move |f| actions.open_files(f))/>
        <button data-testid="paste-toggle" title="Paste folded stacks as text" on:click=move |_| paste_open.update(|o| *o = !*o)>"Paste…"</button>
        <Show when=move || load.loaded.with(|l| l.is_some())>
            <FilePicker label="Compare…" testid="compare-file"
                title="Open a second profile and compare: the one open now is the base (before), the new one the target (after)"
                on_files=Callback::new(move |f: Vec<web_sys::File>| {
                    if let Some(f) = f.into_iter().next() {
                        actions.open_compare(f);
                    }
                })/>
        </Show>
        <Show when=move || paste_open.get()>
            <div class="paste-panel">
                <textarea node_ref=text_ref data-testid="paste-text" rows="8"
                    placeholder="Paste folded stacks here (frame;frame;frame COUNT per line)"></textarea>
                <button data-testid="paste-open" on:click=move |_| {
                    if let Some(t) = text_ref.get() {
                        actions.open_text("pasted text", &t.value());
                    }
                    paste_open.set(false);
                }>"Open"</button>
            </div>
        </Show>
        {move || load.busy.get().map(|b| view! {
            <span class="busy" data-testid="busy">
                <span class="busy-text">{b}</span>
                {move || load.progress.get().map(|p| {
                    let value = p.total.map(|t| (p.read / t.max(1.0)).clamp(0.0, 1.0));
                    view! {
                        <progress data-testid="progress" max="1" value=value.map(|v| v.to_string())
                            data-read=p.read data-samples=p.samples></progress>
                        <span class="progress-text" data-testid="progress-text">{progress_text(&p)}</span>
                    }
                })}
                <button data-testid="cancel" title="Stop loading (Esc)" on:click=move |_| actions.cancel_load()>"Cancel"</button>
            </span>
        })}
    }
}
