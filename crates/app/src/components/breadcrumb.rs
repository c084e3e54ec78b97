//! The zoom path of the main graph: a click goes back to a frame on it.

use crate::state::pane::Panes;
use leptos::prelude::*;
use scorch_core::model::units::group_thousands;
use scorch_core::view::calltree::NodeId;

/// The most frames the path shows: a zoom millions of frames deep shows its first and last frames and how
/// many lie between (one button per frame would hang the page).
const CRUMBS: usize = 40;

#[component]
pub fn Breadcrumb() -> impl IntoView {
    let main = expect_context::<Panes>().main;
    let crumbs = move || {
        let data = main.data.get()?;
        let zoom = main.current_zoom();
        let mut items = vec![(Some(NodeId::ROOT), "all".to_string())];
        let path = data.tree.path(zoom);
        let (head, tail) = if path.len() > CRUMBS {
            (CRUMBS / 4, CRUMBS - CRUMBS / 4)
        } else {
            (path.len(), 0)
        };
        let crumb = |n: NodeId| (Some(n), super::shown_name(data.name_of(n)));
        items.extend(path.iter().take(head).copied().map(crumb));
        if tail > 0 {
            let between = (path.len() - head - tail) as u64;
            items.push((None, format!("… {} frames …", group_thousands(between))));
            items.extend(path.iter().skip(path.len() - tail).copied().map(crumb));
        }
        Some(items)
    };
    view! {
        <nav class="breadcrumb" data-testid="breadcrumb" aria-label="zoom path">
            {move || crumbs().unwrap_or_default().into_iter().enumerate().map(|(i, (n, name))| {
                view! {
                    {(i > 0).then(|| view! { <span class="sep">"›"</span> })}
                    {match n {
                        Some(n) => view! {
                            <button class="crumb" on:click=move |_| {
                                if n == NodeId::ROOT { main.zoom.set(Vec::new()) } else { main.zoom.update(|z| z.push(n)) }
                            }>{name}</button>
                        }.into_any(),
                        None => view! { <span class="hint">{name}</span> }.into_any(),
                    }}
                }
            }).collect_view()}
            <span class="hint">{move || (main.current_zoom() != NodeId::ROOT).then_some("Esc zooms back out")}</span>
        </nav>
    }
}
