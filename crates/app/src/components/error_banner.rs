//! The last error, dismissable; and what a link's notes left out or cut (`view::notes`' messages).

use crate::state::load::LoadState;
use crate::state::view::ViewState;
use leptos::prelude::*;

#[component]
pub fn ErrorBanner() -> impl IntoView {
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let notes = move || {
        let m = view.note_messages.get();
        (!m.is_empty()).then(|| {
            view! {
                <div class="error" role="alert" data-testid="note-messages">
                    <span>{format!("Notes in the link: {}.", m.join("; "))}</span>
                    <button class="dismiss" on:click=move |_| view.note_messages.set(Vec::new()) aria-label="dismiss">"×"</button>
                </div>
            }
        })
    };
    let error = move || {
        load.error.get().map(|e| {
            view! {
                <div class="error" role="alert" data-testid="error">
                    <span>{e}</span>
                    <button class="dismiss" on:click=move |_| load.error.set(None) aria-label="dismiss">"×"</button>
                </div>
            }
        })
    };
    view! { {error} {notes} }
}
