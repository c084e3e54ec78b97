//! The screen reader's voice: one `aria-live="polite"` region that announces the keyboard's frame in a graph,
//! and changes of view, zoom and search matches.

use crate::state::pane::Panes;
use crate::state::search::SearchState;
use crate::state::view::ViewState;
use leptos::prelude::*;
use scorch_core::view::calltree::NodeId;

/// The text the live region holds; [`Announcer::say`] replaces it.
#[derive(Clone, Copy)]
pub struct Announcer {
    text: RwSignal<String>,
}

impl Announcer {
    /// Provides the announcer to the page's components.
    pub fn provide() -> Announcer {
        let a = Announcer {
            text: RwSignal::new(String::new()),
        };
        provide_context(a);
        a
    }

    /// Announces `s`. Saying the same twice changes the text anyway (a trailing no-break space comes and goes),
    /// so a screen reader reads it again.
    pub fn say(&self, s: String) {
        self.text.update(|t| {
            let again = t.trim_end_matches('\u{a0}') == s && !t.ends_with('\u{a0}');
            *t = if again { s + "\u{a0}" } else { s };
        });
    }
}

/// The live region (visually hidden), and the page-wide announcements: view, zoom, search matches.
#[component]
pub fn LiveRegion() -> impl IntoView {
    let a = expect_context::<Announcer>();
    let view = expect_context::<ViewState>();
    let search = expect_context::<SearchState>();
    let main = expect_context::<Panes>().main;
    // Only a change is announced (a new profile sets the mode again to the same value).
    Effect::new(move |prev: Option<crate::state::view::Mode>| {
        let mode = view.mode.get();
        if prev.is_some_and(|p| p != mode) {
            a.say(format!("{} view", mode.label()));
        }
        mode
    });
    Effect::new(move |prev: Option<usize>| {
        let depth = main.zoom.with(|z| z.len());
        if prev.is_some_and(|p| p != depth) {
            let z = main.current_zoom();
            let text = main.data.with_untracked(|d| {
                d.as_ref()
                    .filter(|_| z != NodeId::ROOT)
                    .map(|d| format!("zoomed to {}", super::shown_name(d.name_of(z))))
            });
            a.say(text.unwrap_or_else(|| "zoom reset: the whole profile".to_string()));
        }
        depth
    });
    Effect::new(move |prev: Option<Option<String>>| {
        let text = search.matched(main).map(|m| {
            let (pct, count) = (m.percent(), m.count);
            let frames = if count == 1 {
                "frame matches"
            } else {
                "frames match"
            };
            format!("{count} {frames}, {pct:.1} % of the total")
        });
        if prev.is_some() && text != prev.clone().flatten() {
            if let Some(t) = &text {
                a.say(t.clone());
            }
        }
        text
    });
    view! {
        <div class="sr-only" aria-live="polite" aria-atomic="true" data-testid="announcer">{move || a.text.get()}</div>
    }
}
