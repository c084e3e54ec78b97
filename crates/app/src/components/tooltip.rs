//! The tooltip of the hovered frame in a pane: name, kind, total and self (or both sides and the changes in a
//! diff), and its share of the zoom and of the whole profile.

use crate::render::per_graph::PerGraph;
use crate::render::{DiffData, FlameData};
use crate::state::load::LoadState;
use crate::state::pane::{Pane, PaneId};
use crate::state::view::ViewState;
use leptos::prelude::*;
use scorch_core::analysis::stats::{node_counts, NodeCounts};
use scorch_core::view::calltree::NodeId;
use std::sync::Arc;

thread_local! {
    /// The sample counts per node of the graph last hovered (held weakly), so a hover costs no pass over the
    /// samples.
    static COUNTS: PerGraph<(), Option<Arc<NodeCounts>>> = const { PerGraph::new() };
}

/// The sample counts behind `data`'s nodes, computed once per graph; `None` without sample counts (and in a diff).
pub(crate) fn counts_of(data: &Arc<FlameData>) -> Option<Arc<NodeCounts>> {
    if data.diff.is_some() {
        return None;
    }
    COUNTS.with(|c| {
        c.get_or(data, &(), || {
            node_counts(data.profile(), &data.view, &data.tree).map(Arc::new)
        })
    })
}

/// Tooltip rows of a diff node: both sides' self and total (value and share), and the changes.
pub(crate) fn diff_tooltip_rows(x: &DiffData, n: usize) -> Vec<(&'static str, &'static str, String)> {
    use scorch_core::analysis::diff::Diff;
    use scorch_core::model::units::format_value;
    let [bs, bt, ts, tt] = x.nodes.get(n).copied().unwrap_or_default();
    let side = |v: u64, sum: u64, unit: &scorch_core::Unit| {
        format!(
            "{} ({:.2} %)",
            format_value(v as f64, unit),
            Diff::share(v, sum) * 100.0
        )
    };
    let delta = |b: u64, t: u64| {
        if x.absolute {
            let d = t as f64 - b as f64;
            let rel = if b == 0 {
                "new".to_string()
            } else {
                format!("{:+.1} %", d / b as f64 * 100.0)
            };
            format!(
                "{}{} ({rel})",
                if d >= 0.0 { "+" } else { "−" },
                format_value(d.abs(), &x.target_unit)
            )
        } else {
            let (sb, st) = (Diff::share(b, x.base_sum), Diff::share(t, x.target_sum));
            let rel = if sb == 0.0 {
                if st == 0.0 {
                    "unchanged".to_string()
                } else {
                    "new in target".to_string()
                }
            } else {
                format!("{:+.1} % relative", (st - sb) / sb * 100.0)
            };
            format!("{:+.2} pp ({rel})", (st - sb) * 100.0)
        }
    };
    vec![
        (
            "base self",
            "tooltip-base-self",
            side(bs, x.base_sum, &x.base_unit),
        ),
        (
            "target self",
            "tooltip-target-self",
            side(ts, x.target_sum, &x.target_unit),
        ),
        ("Δ self", "tooltip-delta-self", delta(bs, ts)),
        (
            "base total",
            "tooltip-base-total",
            side(bt, x.base_sum, &x.base_unit),
        ),
        (
            "target total",
            "tooltip-target-total",
            side(tt, x.target_sum, &x.target_unit),
        ),
        ("Δ total", "tooltip-delta-total", delta(bt, tt)),
    ]
}

#[component]
pub fn Tooltip(pane: Pane) -> impl IntoView {
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let content = move || {
        let h = pane.hover.get()?;
        let data = pane.data.get()?;
        let n = h.node.idx();
        let kind = data
            .kind_of(h.node)
            .filter(|k| *k != scorch_core::FrameKind::User);
        let zoom = pane.current_zoom();
        // Inside a zoom, also the share of the zoomed frame (the visible width).
        let zoom_depth = data.tree.depth.get(zoom.idx()).copied().unwrap_or(0);
        let inside = zoom != NodeId::ROOT && data.tree.ancestor_at(h.node, zoom_depth) == Some(zoom);
        let in_zoom = inside.then(|| {
            format!(
                "{} of {}",
                data.share_of(data.tree.total[n], zoom),
                super::shown_name(data.name_of(zoom))
            )
        });
        let diff_rows = data.diff.as_ref().map(|x| diff_tooltip_rows(x, n));
        // The 95 % interval of the total share, from the samples behind it.
        let elided = data.elided_count(h.node);
        let interval = counts_of(&data).filter(|_| elided.is_none()).and_then(|c| {
            let i = c.interval(n)?;
            let k = c.total.get(n).copied()?;
            Some(format!(
                "{} ({} of {} samples)",
                i.describe(),
                scorch_core::model::units::group_thousands(k),
                scorch_core::model::units::group_thousands(c.n)
            ))
        });
        // When transforms, a range or a filter narrow the view, also the share of the whole profile.
        let shown_total = data.tree.total.first().copied().unwrap_or(0);
        let whole = load
            .whole_total(view.options.get_untracked())
            .filter(|&w| w != shown_total && data.diff.is_none() && pane.id == PaneId::Main)
            .map(|w| {
                scorch_core::model::units::format_percent(data.tree.total[n] as f64, w as f64)
                    + " of the whole profile"
            });
        // A stand-in of a cut graph (`scorch_core::view::cut`): how many frames, and how to see them.
        let name = match elided {
            Some(k) => format!(
                "{} narrower frames (click: zoom into their caller)",
                scorch_core::model::units::group_thousands(k as u64)
            ),
            None => data.name_of(h.node).to_string(),
        };
        Some((
            h,
            name,
            kind,
            data.describe(data.tree.total[n]),
            data.describe(data.tree.self_w[n]),
            in_zoom,
            diff_rows,
            whole,
            interval,
        ))
    };
    move || {
        content().map(|(h, name, kind, total, self_, in_zoom, diff_rows, whole, interval)| {
            let win = web_sys::window();
            let size = |v: Option<Result<wasm_bindgen::JsValue, _>>, d| v.and_then(|v| v.ok()).and_then(|v| v.as_f64()).unwrap_or(d);
            let w = size(win.as_ref().map(|w| w.inner_width()), 1200.0);
            let wh = size(win.as_ref().map(|w| w.inner_height()), 800.0);
            // Keep the tooltip on screen: flip left of the cursor near the right edge, above it near the bottom.
            let left = if h.client_x > w - 380.0 { h.client_x - 372.0 } else { h.client_x + 14.0 };
            let top = if h.client_y > wh - 130.0 { h.client_y - 110.0 } else { h.client_y + 14.0 };
            view! {
                <div class="tooltip" data-testid="tooltip" style:left=format!("{left}px")
                    style:top=format!("{top}px")>
                    <div class="tt-name">{super::shown_name(&name)}</div>
                    {kind.map(|k| view! { <div class="tt-kind">{k.name()}</div> })}
                    {match diff_rows {
                        Some(rows) => rows.into_iter().map(|(label, id, value)| view! {
                            <div class="tt-row"><span>{label}</span><span data-testid=id>{value}</span></div>
                        }).collect_view().into_any(),
                        None => view! {
                            <div class="tt-row"><span>"total"</span><span data-testid="tooltip-total">{total}</span></div>
                            <div class="tt-row"><span>"self"</span><span data-testid="tooltip-self">{self_}</span></div>
                            {interval.map(|i| view! {
                                <div class="tt-row"><span>"total share"</span><span data-testid="tooltip-interval">{i}</span></div>
                            })}
                        }.into_any(),
                    }}
                    {whole.map(|w| view! {
                        <div class="tt-row"><span>"whole"</span><span data-testid="tooltip-whole">{w}</span></div>
                    })}
                    {in_zoom.map(|z| view! {
                        <div class="tt-row"><span>"zoom"</span><span data-testid="tooltip-zoom">{z}</span></div>
                    })}
                </div>
            }
        })
    }
}
