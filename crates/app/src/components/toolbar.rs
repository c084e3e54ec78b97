//! The toolbar: open controls on the left; view controls, orientation, theme and the shortcuts button on the
//! right.

use super::open_controls::OpenControls;
use super::orientation_toggle::OrientationToggle;
use super::theme_toggle::ThemeToggle;
use super::view_controls::ViewControls;
use crate::state::ui::UiState;
use leptos::prelude::*;

#[component]
pub fn Toolbar() -> impl IntoView {
    let ui = expect_context::<UiState>();
    view! {
        <header class="toolbar">
            <span class="brand">"scorch"</span>
            <OpenControls/>
            <span class="spacer"></span>
            <ViewControls/>
            <OrientationToggle/>
            <ThemeToggle/>
            <button data-testid="help-toggle" aria-label="keyboard shortcuts" title="Keyboard shortcuts (?)" on:click=move |_| ui.help.update(|h| *h = !*h)>"?"</button>
        </header>
    }
}
