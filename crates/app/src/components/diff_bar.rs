//! The differential view's legend, switches and movers table.

use crate::state::pane::Panes;
use crate::state::Actions;
use crate::url::UrlKey;
use leptos::prelude::*;
use scorch_core::analysis::compare::FactRow;
use scorch_core::analysis::diff::Widths;
use scorch_core::view::calltree::NodeId;

/// Both sides' facts as a table, a `≠` before each row that differs (as `scorch diff` prints them).
fn facts_table(rows: Vec<FactRow>) -> impl IntoView {
    view! {
        <table class="diff-facts" data-testid="diff-facts">
            <thead><tr><th></th><th></th><th>"base (before)"</th><th>"target (after)"</th></tr></thead>
            <tbody>
                {rows.into_iter().map(|r| {
                    let differs = r.differs;
                    view! {
                        <tr class:differs=differs data-fact=r.name data-differs=differs.to_string()>
                            <td class="mark">{if differs { "≠" } else { "" }}</td>
                            <th scope="row">{r.name}</th><td>{r.base}</td><td>{r.target}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// A diff refused because the sides' sample types or units differ: why, both sides' facts, and the way out.
#[component]
fn DiffRefused() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let refused = actions.diff.refused;
    move || {
        refused.get().map(|(why, rows)| {
            view! {
                <div class="diff-bar refused" role="alert" data-testid="diff-refused">
                    <div class="diff-refusal"><b>"Not diffed: "</b>{why}
                        ". Pick the same sample type on both sides, or diff them anyway (as "
                        <code>"scorch diff --allow-mismatch"</code>")."</div>
                    {facts_table(rows)}
                    <div class="diff-buttons">
                        <button data-testid="diff-anyway" on:click=move |_| actions.diff_anyway()>"Diff anyway"</button>
                        <button data-testid="diff-exit" on:click=move |_| actions.exit_diff()>"Exit diff"</button>
                    </div>
                </div>
            }
        })
    }
}

/// The differential view's legend, switches and movers table. The legend says the direction in words.
#[component]
pub fn DiffBar() -> impl IntoView {
    view! { <DiffRefused/> <DiffLegend/> }
}

#[component]
fn DiffLegend() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let colorblind = expect_context::<crate::state::diff::DiffState>().colorblind;
    let main = expect_context::<Panes>().main;
    let show_movers = RwSignal::new(false);
    let show_facts = RwSignal::new(false);
    let facts = move || {
        main.data
            .with(|d| d.as_ref().and_then(|d| d.diff.as_ref()).map(|x| x.facts.clone()))
            .unwrap_or_default()
    };
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
    let differ_names = move || {
        facts()
            .iter()
            .filter(|r| r.differs)
            .map(|r| r.name)
            .collect::<Vec<_>>()
            .join(",")
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
                rows.sort_by(|(a, _), (b, _)| {
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
            let legend = move || format!(
                "{}: {} in target (after) than in base (before); blue: {}; grey: unchanged. {}",
                if colorblind.get() { "Orange" } else { "Red" },
                if absolute { "more" } else { "larger share" },
                if absolute { "less" } else { "smaller share" },
                if absolute {
                    "Absolute values: the two runs are assumed comparable.".to_string()
                } else {
                    "Shares of each profile's own total (normalised).".to_string()
                }
            );
            view! {
                <div class="diff-bar" class:colorblind=move || colorblind.get() data-testid="diff-legend" data-base=battr data-target=tattr
                    data-widths=widths.key()
                    data-mode=if absolute { "absolute" } else { "normalised" }>
                    <div class="diff-sides">
                        <span class="swatch grew"></span><span class="swatch shrank"></span>
                        <span>"base (before): "<b>{bname}</b>" · "{btotal}</span>
                        <span>" → target (after): "<b>{tname}</b>" · "{ttotal}</span>
                    </div>
                    <div class="diff-facts-line" data-testid="diff-facts-line"
                        data-differs=differ_names>
                        {move || scorch_core::analysis::compare::facts_summary(&facts())}
                        " "
                        <button class="link-button" data-testid="diff-facts-toggle" aria-expanded=move || show_facts.get().to_string()
                            on:click=move |_| show_facts.update(|m| *m = !*m)>
                            {move || if show_facts.get() { "Hide sides" } else { "Both sides…" }}
                        </button>
                    </div>
                    <Show when=move || show_facts.get()>{move || facts_table(facts())}</Show>
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
                        <label class="control" title="Orange and blue instead of red and blue: told apart with any colour vision">
                            <input type="checkbox" data-testid="diff-colorblind" prop:checked=move || colorblind.get()
                                on:change=move |ev| colorblind.set(event_target_checked(&ev))/>" colour-blind safe"</label>
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
                                    <th title="The 95 % interval of the change in total share (Newcombe's hybrid score, from the samples behind both shares); greyed rows: it holds 0, the change is within sampling noise">"Δ total, 95 %"</th>
                                </tr></thead>
                                <tbody>
                                    {move || movers().into_iter().map(|(m, ci)| {
                                        let name = m.name.clone();
                                        let cls = if m.self_delta() > 0.0 { "grew" } else if m.self_delta() < 0.0 { "shrank" } else { "" };
                                        // Within noise: the change's 95 % interval holds 0.
                                        let noise = ci.is_some_and(|(lo, hi)| lo <= 0.0 && hi >= 0.0);
                                        let ci_text = ci.map(|(lo, hi)| format!("{:+.2} to {:+.2} pp", lo * 100.0, hi * 100.0)).unwrap_or_else(|| "-".into());
                                        view! {
                                            <tr data-testid="mover-row" class=cls class:noise=noise on:click=move |_| select(name.clone())>
                                                <td class="fn">{m.name.clone()}</td>
                                                <td>{format!("{:.2} %", m.base_self * 100.0)}</td>
                                                <td>{format!("{:.2} %", m.target_self * 100.0)}</td>
                                                <td>{format!("{:+.2} pp", m.self_delta())}</td>
                                                <td>{format!("{:.2} %", m.base_total * 100.0)}</td>
                                                <td>{format!("{:.2} %", m.target_total * 100.0)}</td>
                                                <td>{format!("{:+.2} pp", m.total_delta())}</td>
                                                <td data-testid="mover-ci">{ci_text}</td>
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
