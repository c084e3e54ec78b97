//! The theme switch: auto, light, dark.

use crate::state::ui::{Theme, UiState};
use leptos::prelude::*;

#[component]
pub fn ThemeToggle() -> impl IntoView {
    let ui = expect_context::<UiState>();
    view! {
        <button data-testid="theme-toggle" title="Theme: follows the system (auto), light or dark (t)"
            data-theme=move || ui.theme.get().key() on:click=move |_| ui.cycle_theme()>
            {move || match ui.theme.get() { Theme::Light => "☀", Theme::Dark => "☾", Theme::Auto => "◐" }}
            <span class="ctl-label">{move || match ui.theme.get() { Theme::Light => " light", Theme::Dark => " dark", Theme::Auto => " auto" }}</span>
        </button>
    }
}
