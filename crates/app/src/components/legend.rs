//! What the colours mean.

use crate::render::color::{HEALTH_COLORS, KIND_COLORS, MATCH_COLOR, SELF_COLORS};
use crate::render::ColorScheme;
use crate::state::diff::DiffState;
use crate::state::search::SearchState;
use crate::state::view::ViewState;
use leptos::prelude::*;

/// What a scheme's colours come from (the colour select's title).
pub fn scheme_title(s: ColorScheme) -> &'static str {
    match s {
        ColorScheme::Name => {
            "Colour by: hue from the function name (the same function, the same colour in every view)"
        }
        ColorScheme::Module => {
            "Colour by: hue from the module (namespace, package, class) read from the name"
        }
        ColorScheme::Kind => "Colour by: the frame's kind (user, kernel, JIT, inlined…)",
        ColorScheme::SelfTime => "Colour by: the frame's self share of its total",
        ColorScheme::Health => "Colour by: stack health (truncated, unknown, broken)",
        ColorScheme::OnOffCpu => "Colour by: on-CPU (orange) or off-CPU (blue) time",
    }
}

/// What the colours mean.
#[component]
pub fn Legend() -> impl IntoView {
    let view = expect_context::<ViewState>();
    let search = expect_context::<SearchState>();
    let diff = expect_context::<DiffState>();
    move || {
        let in_diff = diff.active();
        let body = if in_diff {
            view! { <span>"red grew, blue shrank (see the diff bar)"</span> }.into_any()
        } else {
            match view.scheme.get() {
                // Hues need no key: the colour select's title says what they come from.
                ColorScheme::Name | ColorScheme::Module => ().into_any(),
                ColorScheme::Kind => KIND_COLORS.iter().map(|(k, c)| view! {
                    <span class="swatch" style:background=*c></span><span>{k.name()}</span>
                }).collect_view().into_any(),
                ColorScheme::SelfTime => view! {
                    <span>"self share of the frame's total: "</span>
                    <span class="swatch" style:background=SELF_COLORS[0]></span><span>"0 %"</span>
                    <span class="swatch" style:background=SELF_COLORS[9]></span><span>"100 %"</span>
                }.into_any(),
                ColorScheme::Health => HEALTH_COLORS.iter().map(|(k, c)| view! {
                    <span class="swatch" style:background=*c></span><span>{k.label()}</span>
                }).collect_view().into_any(),
                ColorScheme::OnOffCpu => view! {
                    <span class="swatch" style:background="rgb(230,120,30)"></span><span>"on-CPU"</span>
                    <span class="swatch" style:background="rgb(65,140,225)"></span><span>"off-CPU (waiting)"</span>
                    <span>"· mixed in proportion (wall-clock: samples labelled cpu=on|off)"</span>
                }.into_any(),
            }
        };
        view! {
            <span class="legend" data-testid="legend">
                {body}
                {move || (!search.pattern.get().text.is_empty()).then(|| view! {
                    <span class="swatch" style:background=MATCH_COLOR></span><span>"match"</span>
                })}
            </span>
        }
    }
}
