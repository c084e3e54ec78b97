//! The call graph's pruning controls (in the graph's bar): pprof's `-nodecount`, `-nodefraction` and
//! `-edgefraction` (defaults 80, 0.005, 0.001), applied by *Apply* (or Enter, or leaving a field changed), carried
//! by links as `gn`, `gnf`, `gef` (`render::graph::GraphPrune`). *All* shows every node and edge (0, 0, 0); *Defaults*
//! goes back to pprof's. A value that is no count, or no fraction from 0 to 1, is put back as it was.

use crate::render::graph::GraphPrune;
use crate::state::view::ViewState;
use leptos::prelude::*;

#[component]
pub fn GraphPruneControls() -> impl IntoView {
    let view = expect_context::<ViewState>();
    let prune = view.graph_prune;
    let count_ref = NodeRef::<leptos::html::Input>::new();
    let nodes_ref = NodeRef::<leptos::html::Input>::new();
    let edges_ref = NodeRef::<leptos::html::Input>::new();
    // Reads the three fields; a field that does not parse keeps its value, and every field shows the result.
    let apply = move || {
        let now = prune.get_untracked();
        let text = |r: NodeRef<leptos::html::Input>| r.get_untracked().map(|e| e.value()).unwrap_or_default();
        let next = GraphPrune {
            node_count: text(count_ref).trim().parse().unwrap_or(now.node_count),
            node_fraction: GraphPrune::fraction(&text(nodes_ref)).unwrap_or(now.node_fraction),
            edge_fraction: GraphPrune::fraction(&text(edges_ref)).unwrap_or(now.edge_fraction),
        };
        if next != now {
            prune.set(next);
        }
        // Shows what was taken (a bad value is put back).
        let show = |r: NodeRef<leptos::html::Input>, v: String| {
            if let Some(e) = r.get_untracked() {
                e.set_value(&v);
            }
        };
        show(count_ref, next.node_count.to_string());
        show(nodes_ref, next.node_fraction.to_string());
        show(edges_ref, next.edge_fraction.to_string());
    };
    let set = move |p: GraphPrune| {
        prune.set(p);
    };
    let is_default = move || prune.get() == GraphPrune::default();
    let is_all = move || {
        prune.get()
            == GraphPrune {
                node_fraction: 0.0,
                edge_fraction: 0.0,
                node_count: 0,
            }
    };
    view! {
        // `novalidate`: a value out of range is put back by `apply`, not held by the browser's form check (which in
        // Firefox kept the form from being submitted at all).
        <form class="graph-prune" data-testid="graph-prune" novalidate=true
            on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); apply(); }>
            <label title="Keep at most this many nodes, by pprof's order (0: all; pprof's -nodecount)">"nodes "
                <input type="number" min="0" step="1" data-testid="graph-nodecount" node_ref=count_ref
                    prop:value=move || prune.get().node_count.to_string() on:change=move |_| apply()/>
            </label>
            <label title="Drop nodes whose cum is under this fraction of the total (pprof's -nodefraction)">"node cut "
                <input type="number" min="0" max="1" step="any" data-testid="graph-nodefraction" node_ref=nodes_ref
                    prop:value=move || prune.get().node_fraction.to_string() on:change=move |_| apply()/>
            </label>
            <label title="Drop edges whose weight is under this fraction of the total (pprof's -edgefraction)">"edge cut "
                <input type="number" min="0" max="1" step="any" data-testid="graph-edgefraction" node_ref=edges_ref
                    prop:value=move || prune.get().edge_fraction.to_string() on:change=move |_| apply()/>
            </label>
            <button type="submit" data-testid="graph-prune-apply">"Apply"</button>
            <button type="button" data-testid="graph-prune-all" disabled=is_all
                title="Every node and edge (0, 0, 0): a large graph takes a while to lay out"
                on:click=move |_| set(GraphPrune { node_fraction: 0.0, edge_fraction: 0.0, node_count: 0 })>"All"</button>
            <button type="button" data-testid="graph-prune-default" disabled=is_default
                title="pprof's defaults: 80 nodes, node cut 0.005, edge cut 0.001"
                on:click=move |_| set(GraphPrune::default())>"Defaults"</button>
        </form>
    }
}
