//! The keyboard shortcuts panel.

use crate::state::ui::UiState;
use leptos::prelude::*;

/// The keyboard shortcuts, opened with `?`.
#[component]
pub fn Shortcuts() -> impl IntoView {
    let ui = expect_context::<UiState>();
    const KEYS: [(&str, &str); 15] = [
        ("/", "focus the search"),
        ("Enter / n", "next match (zooms to it)"),
        ("Shift+Enter / N", "previous match"),
        ("Esc", "zoom out one step; clear the time range"),
        ("r", "reset the zoom"),
        (
            "1 2 3 4 5",
            "flame graph, inverted, sandwich, functions, call tree",
        ),
        ("i", "flame ↔ icicle"),
        ("h", "alphabetical ↔ left-heavy"),
        ("t", "theme: auto, light, dark"),
        ("[ ]", "previous / next time range"),
        ("Ctrl+Z", "remove the last transform"),
        ("click", "zoom to a frame and select its function"),
        ("Ctrl+V", "open pasted folded stacks"),
        ("?", "this list"),
        (
            "← → ↑ ↓ * ⏎",
            "call tree: collapse, expand, move, expand the heaviest path, select",
        ),
    ];
    view! {
        <Show when=move || ui.help.get()>
            <div class="shortcuts" data-testid="shortcuts" role="dialog" aria-label="keyboard shortcuts">
                <table>
                    {KEYS.iter().map(|(k, what)| view! { <tr><th><kbd>{*k}</kbd></th><td>{*what}</td></tr> }).collect_view()}
                </table>
                <button on:click=move |_| ui.help.set(false)>"Close"</button>
            </div>
        </Show>
    }
}
