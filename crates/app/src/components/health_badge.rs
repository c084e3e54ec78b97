//! The stack-health badge in the status line: shown when a share of the view passes the core's threshold
//! (`55.0 % of samples in truncated stacks — why?`), it opens a panel with the numbers, the cause and the fix in
//! plain words, and buttons that colour the broken stacks or group them under `[truncated stack]`.

use crate::render::ColorScheme;
use crate::state::pane::Panes;
use crate::state::search::SearchState;
use crate::state::view::ViewState;
use crate::state::Actions;
use leptos::prelude::*;
use scorch_core::analysis::health::StackHealth;
use scorch_core::analysis::transforms::Transform;
use scorch_core::model::units::format_percent;

#[component]
pub fn HealthBadge() -> impl IntoView {
    let main = expect_context::<Panes>().main;
    let view = expect_context::<ViewState>();
    let search = expect_context::<SearchState>();
    let actions = expect_context::<Actions>();
    let load = expect_context::<crate::state::load::LoadState>();
    let open = RwSignal::new(false);
    // One pass over the samples and one over the stack table, when the view changes (not per attribute).
    // Kept per profile and view: a mode switch gives the pane new data, not a new view.
    let figure = std::sync::Arc::new(crate::state::ViewFigure::new());
    let health = Memo::new(move |_| {
        main.data.with(|d| {
            let d = d.as_ref().filter(|d| d.diff.is_none())?;
            // Until the view engine's come (a large profile's first view), none.
            load.figures_came.track();
            if !d.loaded.figures_ready(&d.view) {
                return None;
            }
            Some(figure.get("stack health", d, || d.loaded.stack_health(&d.view)))
        })
    });
    let badge = move || health.get().and_then(|h| h.badge().map(|b| (h, b)));
    let grouped = move || {
        search
            .transforms
            .with(|ts| ts.contains(&Transform::GroupTruncated))
    };
    let pct = |x: f64| format_percent(x, 100.0);
    let panel = move |h: StackHealth| {
        let advice = h
            .advice()
            .into_iter()
            .map(|a| view! { <p><strong>{a.title}</strong>" — "{a.text}</p> })
            .collect_view();
        view! {
            <div class="health-panel" data-testid="health-panel" role="dialog">
                <p class="health-figures">
                    {format!(
                        "{} in stacks that reach no entry point (_start, start_thread, runtime.goexit…) · {} in stacks \
                         with an unnamed frame · depth median {}, p99 {}, max {}",
                        pct(h.broken_percent()),
                        pct(h.unsymbolized_percent()),
                        h.depth.median,
                        h.depth.p99,
                        h.depth.max
                    )}
                </p>
                {advice}
                <div class="health-buttons">
                    <button data-testid="health-color" on:click=move |_| view.scheme.set(ColorScheme::Health)>
                        "Colour by stack health"</button>
                    <button data-testid="health-group" disabled=grouped
                        on:click=move |_| actions.push_transform(Transform::GroupTruncated)>
                        "Group truncated stacks under [truncated stack]"</button>
                    <button data-testid="health-close" on:click=move |_| open.set(false)>"Close"</button>
                </div>
            </div>
        }
    };
    move || {
        badge().map(|(h, text)| {
            view! {
                <span class="health">
                    <button class="health-badge" data-testid="health-badge"
                        data-broken=h.broken_percent().to_string()
                        data-unsymbolized=h.unsymbolized_percent().to_string()
                        aria-expanded=move || open.get().to_string()
                        on:click=move |_| open.update(|o| *o = !*o)>{text}</button>
                    {move || open.get().then(|| panel(h.clone()))}
                </span>
            }
        })
    }
}
