//! Flame (root at the bottom) or icicle (root at the top).

use crate::render::Orientation;
use crate::state::view::ViewState;
use leptos::prelude::*;

#[component]
pub fn OrientationToggle() -> impl IntoView {
    let view = expect_context::<ViewState>();
    let set = move |o| view.orientation.set(o);
    view! {
        <div class="segmented" role="group" aria-label="orientation">
            <button data-testid="view-flame" class:active=move || view.orientation.get() == Orientation::Flame
                on:click=move |_| set(Orientation::Flame)>"Flame"</button>
            <button data-testid="view-icicle" class:active=move || view.orientation.get() == Orientation::Icicle
                on:click=move |_| set(Orientation::Icicle)>"Icicle"</button>
        </div>
    }
}
