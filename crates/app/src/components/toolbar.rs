//! The toolbar, one row: open controls on the left; view controls, the Export menu, theme and the shortcuts button on
//! the right. (Labels of the selects show on wide screens only; each control keeps its accessible name.)

use super::export_menu::ExportMenu;
use super::open_controls::OpenControls;
use super::theme_toggle::ThemeToggle;
use super::view_controls::ViewControls;
use crate::state::ui::UiState;
use leptos::prelude::*;

/// `rest`: whether its right-hand part is mounted yet. The page's start mounts the toolbar in two tasks (each
/// part's first mount compiles its code: the whole toolbar was a task of 44 ms, over 50 on a busy machine).
#[component]
pub fn Toolbar(#[prop(into)] rest: Signal<bool>) -> impl IntoView {
    let ui = expect_context::<UiState>();
    let load = expect_context::<crate::state::load::LoadState>();
    view! {
        <header class="toolbar">
            <span class="brand">"scorch"</span>
            <OpenControls/>
            <span class="spacer"></span>
            <Show when=move || rest.get()>
                <ViewControls/>
                <Show when=move || load.loaded.with(|l| l.as_ref().is_some_and(|l| scorch_core::view::has_threads(&l.imported.profile)))>
                    <button data-testid="threads-toggle" title="The threads: samples and activity; choose some to show"
                        aria-pressed=move || ui.threads.get().to_string() on:click=move |_| ui.threads.update(|t| *t = !*t)>"Threads"</button>
                </Show>
                <ExportMenu/>
                <ThemeToggle/>
                <button data-testid="help-toggle" aria-label="keyboard shortcuts" title="Keyboard shortcuts (?)" on:click=move |_| ui.help.update(|h| *h = !*h)>"?"</button>
            </Show>
        </header>
    }
}
