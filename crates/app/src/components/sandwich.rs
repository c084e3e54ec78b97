//! The sandwich: the selected function's callers and callees around it, with the function table.

use super::flame_canvas::FlameCanvas;
use super::function_table::FunctionTable;
use crate::state::pane::Panes;
use crate::state::search::SearchState;
use leptos::prelude::*;

/// The selected function's callers (above, growing up from it) and callees (below), with the function table.
#[component]
pub fn Sandwich() -> impl IntoView {
    let search = expect_context::<SearchState>();
    let panes = expect_context::<Panes>();
    let name = move || search.selected.get();
    view! {
        <div class="sandwich" data-testid="sandwich">
            <FunctionTable compact=true/>
            {move || match name() {
                None => view! { <p class="hint sandwich-empty">"Select a function (in the table, or click a frame in the flame graph) to see its callers and callees."</p> }.into_any(),
                Some(f) => view! {
                    <div class="sandwich-title">"Callers of "<b>{super::shown_name(&f)}</b>" (the function at the bottom, its callers above)"</div>
                    <FlameCanvas pane=panes.callers/>
                    <div class="sandwich-title">"Callees of "<b>{super::shown_name(&f)}</b>" (the function at the top, what it calls below)"</div>
                    <FlameCanvas pane=panes.callees/>
                }.into_any(),
            }}
        </div>
    }
}
