//! The last error, dismissable.

use crate::state::load::LoadState;
use leptos::prelude::*;

#[component]
pub fn ErrorBanner() -> impl IntoView {
    let load = expect_context::<LoadState>();
    move || {
        load.error.get().map(|e| {
            view! {
                <div class="error" role="alert" data-testid="error">
                    <span>{e}</span>
                    <button class="dismiss" on:click=move |_| load.error.set(None) aria-label="dismiss">"×"</button>
                </div>
            }
        })
    }
}
