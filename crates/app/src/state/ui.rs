//! Page chrome: the theme and the shortcuts panel.

use leptos::prelude::*;

/// The colour theme: the system's, or chosen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Theme {
    Auto,
    Light,
    Dark,
}

impl Theme {
    /// The page's `data-theme` attribute.
    pub fn key(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    pub fn next(self) -> Theme {
        match self {
            Theme::Auto => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Auto,
        }
    }
}

#[derive(Clone, Copy)]
pub struct UiState {
    pub theme: RwSignal<Theme>,
    /// The keyboard shortcuts panel is open.
    pub help: RwSignal<bool>,
    /// The thread list is open.
    pub threads: RwSignal<bool>,
    /// Framed in another page (`embed=1`): no toolbar, driven by messages (`state::embed`).
    pub embed: RwSignal<bool>,
    /// The source view is open (`components::source_view`, key `s`).
    pub source: RwSignal<bool>,
    /// Counts the source view's next (+1) and previous (−1) hot-line steps (keys `j`, `k`).
    pub source_step: RwSignal<(u32, i8)>,
    /// Changes when source files are picked or dropped (`state::source`).
    pub source_files: RwSignal<u32>,
}

impl Default for UiState {
    fn default() -> UiState {
        UiState {
            theme: RwSignal::new(Theme::Auto),
            help: RwSignal::new(false),
            threads: RwSignal::new(false),
            embed: RwSignal::new(false),
            source: RwSignal::new(false),
            source_step: RwSignal::new((0, 0)),
            source_files: RwSignal::new(0),
        }
    }
}

impl UiState {
    /// Keeps the page's `data-theme` attribute in step (the style sheet follows the system unless chosen).
    pub fn follow_theme(&self) {
        let theme = self.theme;
        Effect::new(move |_| {
            let t = theme.get();
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element())
            {
                let _ = el.set_attribute("data-theme", t.key());
            }
        });
    }

    pub fn cycle_theme(&self) {
        self.theme.update(|t| *t = t.next());
    }

    /// Is the page dark now (chosen, or the system's setting)?
    pub fn is_dark(&self) -> bool {
        match self.theme.get_untracked() {
            Theme::Dark => true,
            Theme::Light => false,
            Theme::Auto => web_sys::window()
                .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
                .is_some_and(|m| m.matches()),
        }
    }
}
