//! The differential view's legend, switches and movers table.

use crate::state::pane::Panes;
use crate::state::Actions;
use crate::url::UrlKey;
use leptos::prelude::*;
use scorch_core::analysis::diff::Widths;
use scorch_core::view::calltree::NodeId;

/// The differential view's legend, switches and movers table. The legend says the direction in words.
#[component]
pub fn DiffBar() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let main = expect_context::<Panes>().main;
    let show_movers = RwSignal::new(false);
    let sort_by_total = RwSignal::new(false);
    let info = move || {
        main.data.with(|d| {
            d.as_ref().and_then(|d| d.diff.as_ref()).map(|x| {
                (
                    x.base_name.clone(),
                    x.target_name.clone(),
                    scorch_core::model::units::format_value(x.base_sum as f64, &x.base_unit),
                    scorch_core::model::units::format_value(x.target_sum as f64, &x.target_unit),
                    x.widths,
                    x.absolute,
                )
            })
        })
    };
    let swap = move |_| actions.swap_diff();
    let exit = move |_| actions.exit_diff();
    let toggle_widths = move |_| actions.toggle_diff_widths();
    let toggle_mode = move |_| actions.toggle_diff_absolute();
    let movers = move || {
        let by_total = sort_by_total.get();
        main.data.with(|d| {
            let mut rows = d
                .as_ref()
                .and_then(|d| d.diff.as_ref())
                .map(|x| x.movers.clone())
                .unwrap_or_default();
            if by_total {
                rows.sort_by(|a, b| {
                    b.total_delta()
                        .abs()
                        .total_cmp(&a.total_delta().abs())
                        .then_with(|| a.name.cmp(&b.name))
                });
            }
            rows.truncate(200);
            rows
        })
    };
    let select = move |name: String| {
        // Zoom to the widest frame of that function.
        let Some(d) = main.data.get_untracked() else {
            return;
        };
        let best = (1..d.tree.len())
            .filter(|&n| d.name_of(NodeId(n as u32)) == name && d.tree.total[n] > 0)
            .max_by_key(|&n| d.tree.total[n]);
        if let Some(n) = best {
            main.zoom.set(vec![NodeId(n as u32)]);
        }
    };
    move || {
        info().map(|(bname, tname, btotal, ttotal, widths, absolute)| {
            let (battr, tattr) = (bname.clone(), tname.clone());
            let legend = format!(
                "Red: {} in target (after) than in base (before); blue: {}; grey: unchanged. {}",
                if absolute { "more" } else { "larger share" },
                if absolute { "less" } else { "smaller share" },
                if absolute {
                    "Absolute values: the two runs are assumed comparable.".to_string()
                } else {
                    "Shares of each profile's own total (normalised).".to_string()
                }
            );
            view! {
                <div class="diff-bar" data-testid="diff-legend" data-base=battr data-target=tattr
                    data-widths=widths.key()
                    data-mode=if absolute { "absolute" } else { "normalised" }>
                    <div class="diff-sides">
                        <span class="swatch grew"></span><span class="swatch shrank"></span>
                        <span>"base (before): "<b>{bname}</b>" · "{btotal}</span>
                        <span>" → target (after): "<b>{tname}</b>" · "{ttotal}</span>
                    </div>
                    <div class="diff-legend-text">{legend}
                        " Widths from the "{if widths == Widths::Target { "target (after)" } else { "base (before)" }}". "
                        <span class="mark-new">"dashed red"</span>" = only in the target; "
                        <span class="mark-gone">"dashed blue"</span>" = only in the base."
                    </div>
                    <div class="diff-buttons">
                        <button data-testid="diff-swap" on:click=swap>"Swap base ⇄ target"</button>
                        <button data-testid="diff-widths" on:click=toggle_widths>
                            {if widths == Widths::Target { "Widths: target" } else { "Widths: base" }}
                        </button>
                        <button data-testid="diff-mode" on:click=toggle_mode>
                            {if absolute { "Absolute values" } else { "Normalised shares" }}
                        </button>
                        <button data-testid="movers-toggle" on:click=move |_| show_movers.update(|m| *m = !*m)>"Movers"</button>
                        <button data-testid="diff-exit" on:click=exit>"Exit diff"</button>
                    </div>
                    <Show when=move || show_movers.get()>
                        <div class="movers">
                            <table data-testid="movers-table">
                                <thead><tr>
                                    <th>"function"</th><th>"base self"</th><th>"target self"</th>
                                    <th class="sortable" on:click=move |_| sort_by_total.set(false)>"Δ self ▾"</th>
                                    <th>"base total"</th><th>"target total"</th>
                                    <th class="sortable" on:click=move |_| sort_by_total.set(true)>"Δ total ▾"</th>
                                </tr></thead>
                                <tbody>
                                    {move || movers().into_iter().map(|m| {
                                        let name = m.name.clone();
                                        let cls = if m.self_delta() > 0.0 { "grew" } else if m.self_delta() < 0.0 { "shrank" } else { "" };
                                        view! {
                                            <tr data-testid="mover-row" class=cls on:click=move |_| select(name.clone())>
                                                <td class="fn">{m.name.clone()}</td>
                                                <td>{format!("{:.2} %", m.base_self * 100.0)}</td>
                                                <td>{format!("{:.2} %", m.target_self * 100.0)}</td>
                                                <td>{format!("{:+.2} pp", m.self_delta())}</td>
                                                <td>{format!("{:.2} %", m.base_total * 100.0)}</td>
                                                <td>{format!("{:.2} %", m.target_total * 100.0)}</td>
                                                <td>{format!("{:+.2} pp", m.total_delta())}</td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                    </Show>
                </div>
            }
        })
    }
}
