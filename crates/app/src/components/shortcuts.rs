//! The keyboard shortcuts panel.

use crate::state::ui::UiState;
use leptos::prelude::*;

/// The keyboard shortcuts, opened with `?`.
#[component]
pub fn Shortcuts() -> impl IntoView {
    let ui = expect_context::<UiState>();
    const KEYS: &[(&str, &str)] = &[
        ("/", "focus the search"),
        ("Enter / n", "next match (zooms to it)"),
        ("Shift+Enter / N", "previous match"),
        ("Esc", "zoom out one step; clear the time range"),
        ("r", "reset the zoom"),
        (
            "1 2 3 4 5 6 7",
            "flame graph, inverted, sandwich, functions, call tree, stack chart, call graph",
        ),
        (
            "↑ ↓ ← → Enter f",
            "call graph (focused): to a caller / callee / box beside, select, focus on it",
        ),
        ("wheel, drag", "call graph: zoom, pan"),
        ("+ − ← → 0", "stack chart (focused): zoom, pan, whole profile"),
        ("i", "flame ↔ icicle"),
        ("h", "alphabetical ↔ left-heavy"),
        ("t", "theme: auto, light, dark"),
        ("e", "export menu: SVG, PNG, folded, pprof"),
        (
            "s",
            "source view of the selected function: its lines with self and total",
        ),
        ("j k", "source view: next / previous line with samples"),
        ("[ ]", "previous / next time range"),
        ("Ctrl+Z", "remove the last transform"),
        ("click", "zoom to a frame and select its function"),
        (
            "Tab",
            "focus the graph (then the keys below move its focus frame)",
        ),
        ("← →", "graph: previous / next frame beside it (same caller)"),
        (
            "↑ ↓",
            "graph: the callee / caller as drawn (flame: ↑ callee; icicle: ↓ callee)",
        ),
        ("Home", "graph: the root"),
        (
            "Enter / Space",
            "graph: zoom to the focus frame / select its function",
        ),
        ("Ctrl+V", "open pasted folded stacks"),
        ("?", "this list"),
        (
            "← → ↑ ↓ * ⏎",
            "call tree: collapse, expand, move, expand the heaviest path, select",
        ),
    ];
    // A modal dialog: opening it moves the focus to its Close button, Tab stays inside, closing it (Esc, `?`,
    // Close) gives the focus back to where it was.
    let close_ref = NodeRef::<leptos::html::Button>::new();
    let opener = StoredValue::new_local(None::<web_sys::HtmlElement>);
    Effect::new(move |prev: Option<bool>| {
        let open = ui.help.get();
        if open && prev != Some(true) {
            use wasm_bindgen::JsCast;
            let active = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element())
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
            opener.set_value(active);
            request_animation_frame(move || {
                if let Some(b) = close_ref.try_get_untracked().flatten() {
                    let _ = b.focus();
                }
            });
        } else if !open && prev == Some(true) {
            if let Some(el) = opener.get_value() {
                let _ = el.focus();
            }
        }
        open
    });
    let trap = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Tab" {
            ev.prevent_default();
            if let Some(b) = close_ref.try_get_untracked().flatten() {
                let _ = b.focus();
            }
        }
    };
    view! {
        <Show when=move || ui.help.get()>
            <div class="shortcuts" data-testid="shortcuts" role="dialog" aria-modal="true" aria-label="keyboard shortcuts"
                on:keydown=trap>
                <table>
                    {KEYS.iter().map(|(k, what)| view! { <tr><th><kbd>{*k}</kbd></th><td>{*what}</td></tr> }).collect_view()}
                </table>
                <button node_ref=close_ref data-testid="shortcuts-close" on:click=move |_| ui.help.set(false)>"Close"</button>
            </div>
        </Show>
    }
}
