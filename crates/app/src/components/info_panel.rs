//! What the file says about itself.

use crate::state::load::LoadState;
use leptos::prelude::*;

/// How many warnings the panel lists with their text.
const SHOWN_WARNINGS: usize = 20;

/// What the file says about itself (pprof: sample types, period, duration, comments, drop_frames).
#[component]
pub fn InfoPanel() -> impl IntoView {
    let load = expect_context::<LoadState>();
    let open = RwSignal::new(false);
    let info = move || {
        load.loaded.with(|l| {
            l.as_ref()
                .map(|l| {
                    let meta = &l.imported.profile.meta;
                    let mut rows = meta.info.clone();
                    // The warnings, the first few with their text (input text: rendered as text only).
                    if meta.warnings.count > 0 {
                        rows.push(("warnings".into(), meta.warnings.count.to_string()));
                        for w in meta.warnings.first.iter().take(SHOWN_WARNINGS) {
                            rows.push((String::new(), w.to_string()));
                        }
                    }
                    rows
                })
                .unwrap_or_default()
        })
    };
    view! {
        <Show when=move || !info().is_empty()>
            // A disclosure (it opens in place and does not take the focus), not a dialog.
            <button data-testid="info-toggle" title="What the file says about itself"
                aria-controls="profile-info" aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|o| *o = !*o)>"Info"</button>
            <Show when=move || open.get()>
                <div class="info-panel" id="profile-info" data-testid="profile-info">
                    <table>
                        {move || info().into_iter().map(|(k, v)| view! { <tr><th>{k}</th><td>{v}</td></tr> }).collect_view()}
                    </table>
                </div>
            </Show>
        </Show>
    }
}
