//! The status line: what is open (format, records, event, total, lost events), or the diff's two sides; a badge
//! when the shares rest on few samples.

use super::health_badge::HealthBadge;
use crate::state::load::LoadState;
use crate::state::pane::Panes;
use leptos::prelude::*;
use scorch_core::model::units::group_thousands;

#[component]
pub fn StatusLine() -> impl IntoView {
    let load = expect_context::<LoadState>();
    let main = expect_context::<Panes>().main;
    // How much of the recording's duration the view's samples account for (one pass over the samples: a memo,
    // not once per attribute).
    // Both kept per profile and view (`ViewFigure`): a mode switch gives the pane new data, not a new view.
    let coverage = std::sync::Arc::new(crate::state::ViewFigure::new());
    let duration = Memo::new(move |_| {
        main.data.with(|d| {
            let d = d.as_ref().filter(|d| d.diff.is_none())?;
            let p = d.profile();
            load.figures_came.track();
            if !d.loaded.figures_ready(&d.view) {
                return None;
            }
            coverage.get("coverage", d, || {
                let c = d.loaded.figures(&d.view).coverage?;
                Some(format!(" · duration {}", c.describe(&d.unit, p.meta.decimals)))
            })
        })
    });
    // How many samples the shares rest on, for the few-samples badge (one pass: a memo).
    let samples = std::sync::Arc::new(crate::state::ViewFigure::new());
    let few = Memo::new(move |_| {
        main.data.with(|d| {
            let d = d.as_ref().filter(|d| d.diff.is_none())?;
            load.figures_came.track();
            if !d.loaded.figures_ready(&d.view) {
                return None;
            }
            samples.get("sample count", d, || {
                let n = d.loaded.figures(&d.view).samples?;
                scorch_core::analysis::stats::few_samples_notice(n)
            })
        })
    });
    let lost = move || {
        main.data.with(|d| {
            let d = d.as_ref().filter(|d| d.diff.is_none())?;
            let p = d.profile();
            p.meta.lost.as_ref().map(|l| (l.events, l.records))
        })
    };
    let info = move || {
        main.data.get().map(|d| {
            if let Some(x) = &d.diff {
                let text = format!(
                    "diff · base (before) {} · {} → target (after) {} · {} · {}",
                    x.base_name,
                    scorch_core::model::units::format_value(x.base_sum as f64, &x.base_unit),
                    x.target_name,
                    scorch_core::model::units::format_value(x.target_sum as f64, &x.target_unit),
                    if x.absolute {
                        "absolute values"
                    } else {
                        "normalised shares"
                    },
                );
                return (
                    "diff",
                    x.target_sum.to_string(),
                    x.base_sum.to_string(),
                    text,
                    String::new(),
                    d.unit.name().to_string(),
                    "0".to_string(),
                );
            }
            let p = d.profile();
            let shown = scorch_core::Weight {
                raw: d.tree.total.first().copied().unwrap_or(0),
                decimals: p.meta.decimals,
            };
            let event = d
                .view
                .event
                .and_then(|e| p.events.get(e as usize))
                .map(|e| e.name.clone())
                .unwrap_or_default();
            let lost = p.meta.lost.as_ref().map_or(String::new(), |l| {
                format!(
                    " · lost {} events ({}, {} chunks)",
                    group_thousands(l.events),
                    scorch_core::model::units::format_percent(
                        l.events as f64,
                        p.meta.records.saturating_add(l.events) as f64
                    ),
                    group_thousands(l.records)
                )
            });
            let text = format!(
                "{} · {}{} · {} {}{lost}{} · total {}{}{}",
                d.name(),
                p.meta.format,
                if d.loaded.imported.gzip { " (gzip)" } else { "" },
                group_thousands(p.meta.records),
                p.record_noun(),
                if event.is_empty() {
                    String::new()
                } else if p.meta.format == scorch_core::Format::Pprof {
                    format!(" · sample type {event}")
                } else {
                    format!(" · event {event}")
                },
                if d.view.mean_of > 1 {
                    format!(
                        "{} per profile (the mean of {}; their sum {})",
                        scorch_core::model::units::format_value(d.view.shown(shown.as_f64()), &d.unit),
                        d.view.mean_of,
                        scorch_core::model::units::format_value(shown.as_f64(), &d.unit)
                    )
                } else {
                    scorch_core::model::units::format_value(shown.as_f64(), &d.unit)
                },
                duration.get().unwrap_or_default(),
                // Warnings about input lines are skipped lines; others (line 0: unmatched sched_switch
                // switch-outs, …) are warnings, listed in the Info panel.
                match (
                    p.meta.warnings.count,
                    p.meta.warnings.first.iter().all(|w| w.line > 0)
                ) {
                    (0, _) => String::new(),
                    (1, true) => " · 1 line skipped".to_string(),
                    (n, true) => format!(" · {} lines skipped", group_thousands(n)),
                    (1, false) => " · 1 warning (see Info)".to_string(),
                    (n, false) => format!(" · {} warnings (see Info)", group_thousands(n)),
                }
            );
            (
                p.meta.format.name(),
                shown.to_string(),
                String::new(),
                text,
                event,
                d.unit.name().to_string(),
                p.meta.records.to_string(),
            )
        })
    };
    // A profile scrubbed before it was shared (`# scorch-scrubbed:` in its link or file; the core's fact
    // `scrubbed`): the receiver is told, so nobody takes it for the original.
    let scrubbed = move || {
        main.data.with(|d| {
            let d = d.as_ref().filter(|d| d.diff.is_none())?;
            d.profile()
                .meta
                .info
                .iter()
                .find(|(k, _)| k == scorch_core::model::SCRUBBED_INFO)
                .map(|(_, r)| r.replace(',', ", "))
        })
    };
    view! {
        <footer class="status" data-testid="status" data-loads=move || load.loads.get().to_string()
            data-format=move || info().map(|i| i.0).unwrap_or("")
            data-samples=move || info().map(|i| i.6).unwrap_or_default()
            data-total=move || info().map(|i| i.1).unwrap_or_default()
            data-base-total=move || info().map(|i| i.2).unwrap_or_default()
            data-event=move || info().map(|i| i.4).unwrap_or_default()
            data-unit=move || info().map(|i| i.5).unwrap_or_default()
            data-lost=move || lost().map(|l| l.0.to_string()).unwrap_or_default()
            data-lost-chunks=move || lost().map(|l| l.1.to_string()).unwrap_or_default()>
            <span class="status-text">{move || info().map(|i| i.3).unwrap_or_else(|| "No profile open".to_string())}</span>
            {move || few.get().map(|t| view! {
                <span class="badge few-samples" data-testid="few-samples"
                    title="95 % Wilson interval of a 50 % share at this sample count: a share can be this far off by chance">
                    {t}
                </span>
            })}
            {move || scrubbed().map(|r| view! {
                <span class="badge scrubbed" data-testid="scrubbed-badge" data-rules=r.clone() tabindex="0"
                    title=format!("This profile was scrubbed before it was shared ({r}): names, facts or samples \
                        the rules cover were removed or rewritten, so it is not the original recording")>
                    {format!("scrubbed: {r}")}
                </span>
            })}
            <HealthBadge/>
        </footer>
    }
}
