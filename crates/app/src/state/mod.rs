//! The app's state, in slices: each a small `Copy` struct of signals, provided as its own context, so a
//! component asks only for what it reads (`expect_context::<HeatState>()`).
//!
//! - [`load::LoadState`]: the open profile, where it came from, the load under way, errors;
//! - [`view::ViewState`]: view options, orientation, view mode, order, colours, the function table;
//! - [`search::SearchState`]: the search, the selected function and the transforms;
//! - [`heatmap::HeatState`]: the heatmap, its settings and the time-range selection;
//! - [`diff::DiffState`]: the diff base and its switches (a slice diff's base filter: `slice.rs`);
//! - [`ui::UiState`]: theme and the shortcuts panel;
//! - [`pane::Panes`]: the flame panes (main, and the sandwich's callers and callees), each its own data and zoom
//!   (a zoom into a cut graph asks the engine for a finer cut: [`refine`]).
//!
//! What changes several slices at once (opening a profile, rebuilding the view, applying a link) is an
//! operation on [`Actions`], which holds the slices; components that only read never need it.
//! Dependencies: state → render (data types), worker (loading), url (links); never → components.

pub mod diff;
pub mod embed;
pub mod heatmap;
pub mod link;
pub mod load;
pub mod open;
pub mod pane;
pub mod rebuild;
pub mod refine;
pub mod search;
pub mod slice;
pub mod source;
pub mod ui;
pub mod view;

use leptos::prelude::*;

/// The slices together, for operations that span them.
#[derive(Clone, Copy)]
pub struct Actions {
    pub load: load::LoadState,
    pub view: view::ViewState,
    pub search: search::SearchState,
    pub heat: heatmap::HeatState,
    pub diff: diff::DiffState,
    pub ui: ui::UiState,
    pub panes: pane::Panes,
}

impl Actions {
    /// Creates every slice and provides each (and the whole) as a context.
    pub fn provide() -> Actions {
        let a = Actions {
            load: load::LoadState::default(),
            view: view::ViewState::default(),
            search: search::SearchState::default(),
            heat: heatmap::HeatState::default(),
            diff: diff::DiffState::default(),
            ui: ui::UiState::default(),
            panes: pane::Panes::default(),
        };
        provide_context(a.load);
        provide_context(a.view);
        provide_context(a.search);
        provide_context(a.heat);
        provide_context(a.diff);
        provide_context(a.ui);
        provide_context(a.panes);
        provide_context(a);
        for pane in pane::PaneId::ALL {
            refine::follow_zooms(a.panes.get(pane));
        }
        a
    }
}

/// A User Timing mark (`bench:…`): outside benchmarks read them; they are part of the product.
pub fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// [`mark`] at the end of the current task: a zero-delay timeout queued now runs once this task is done (and
/// the frame it drew, if one was due) — how a benchmark harness times a drawing task.
pub fn mark_after_task(name: &'static str) {
    crate::worker::after(0.0, move || mark(name));
}

/// Keeps `old` (what a new profile replaced: its data, its graphs) until the page has been idle a moment, then
/// drops it. Dropped where it was replaced, a 1 MB profile's columns and trees were freed in the task that takes
/// the next one, ahead of its first picture (folded 1 MB from a file, Chromium profile).
pub fn drop_later(old: Box<dyn std::any::Any>) {
    thread_local! {
        static LATER: std::cell::RefCell<Vec<Box<dyn std::any::Any>>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let first = LATER.with(|l| {
        let mut l = l.borrow_mut();
        l.push(old);
        l.len() == 1
    });
    if first {
        crate::worker::after(500.0, || {
            crate::worker::when_idle(1000.0, || {
                let old = LATER.with(|l| std::mem::take(&mut *l.borrow_mut()));
                drop(old);
            })
        });
    }
}

/// Runs `f`; in test builds (the `testing` feature) logs how long it took when that was 10 ms or more
/// (`scorch-phase NAME MS at START`), so a benchmark (`SCORCH_PHASES=1 node bench/hostile-browser.mjs`) can tell
/// which call a long task was.
pub fn timed<T>(name: &str, f: impl FnOnce() -> T) -> T {
    #[cfg(feature = "testing")]
    {
        let now = || {
            web_sys::window()
                .and_then(|w| w.performance())
                .map_or(0.0, |p| p.now())
        };
        let t0 = now();
        let r = f();
        let t1 = now();
        if t1 - t0 >= 10.0 {
            web_sys::console::log_1(&format!("scorch-phase {name} {:.1} at {t0:.0}", t1 - t0).into());
        }
        r
    }
    #[cfg(not(feature = "testing"))]
    {
        let _ = name;
        f()
    }
}

/// A figure computed from one view of one loaded profile (stack health, coverage, the sample count), kept while
/// that profile and view stay: switching the view mode or coming back to a kept graph gives the pane new data
/// but must not walk a 5,000,000-row stack table again. The profile is held weakly (its allocation, not its
/// columns), so a new profile can never be mistaken for the old one.
pub struct ViewFigure<T> {
    last: std::sync::Mutex<Option<ViewFigureKey<T>>>,
}

type ViewFigureKey<T> = (
    std::sync::Weak<crate::render::data::Loaded>,
    scorch_core::ViewOptions,
    T,
);

impl<T: Clone> ViewFigure<T> {
    pub fn new() -> Self {
        ViewFigure {
            last: std::sync::Mutex::new(None),
        }
    }

    /// The figure for `data`'s profile and view: the kept one, or `f()` (timed as `name`).
    pub fn get(&self, name: &str, data: &crate::render::data::FlameData, f: impl FnOnce() -> T) -> T {
        let Ok(mut last) = self.last.lock() else {
            return timed(name, f);
        };
        let me = std::sync::Arc::downgrade(&data.loaded);
        if let Some((_, _, x)) = last
            .as_ref()
            .filter(|(p, v, _)| std::sync::Weak::ptr_eq(p, &me) && *v == data.view)
        {
            return x.clone();
        }
        let x = timed(name, f);
        *last = Some((me, data.view.clone(), x.clone()));
        x
    }
}

impl<T: Clone> Default for ViewFigure<T> {
    fn default() -> Self {
        Self::new()
    }
}
