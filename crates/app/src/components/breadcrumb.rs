//! The zoom path of the main graph: a click goes back to a frame on it.

use crate::state::pane::Panes;
use leptos::prelude::*;
use scorch_core::view::calltree::NodeId;

#[component]
pub fn Breadcrumb() -> impl IntoView {
    let main = expect_context::<Panes>().main;
    let crumbs = move || {
        let data = main.data.get()?;
        let zoom = main.current_zoom();
        let mut items = vec![(NodeId::ROOT, "all".to_string())];
        items.extend(
            data.tree
                .path(zoom)
                .into_iter()
                .map(|n| (n, data.name_of(n).to_string())),
        );
        Some(items)
    };
    view! {
        <nav class="breadcrumb" data-testid="breadcrumb" aria-label="zoom path">
            {move || crumbs().unwrap_or_default().into_iter().enumerate().map(|(i, (n, name))| {
                view! {
                    {(i > 0).then(|| view! { <span class="sep">"›"</span> })}
                    <button class="crumb" on:click=move |_| {
                        if n == NodeId::ROOT { main.zoom.set(Vec::new()) } else { main.zoom.update(|z| z.push(n)) }
                    }>{name}</button>
                }
            }).collect_view()}
            <span class="hint">{move || (main.current_zoom() != NodeId::ROOT).then_some("Esc zooms back out")}</span>
        </nav>
    }
}
