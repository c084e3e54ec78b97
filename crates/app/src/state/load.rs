//! The open profile, where it came from, and the load under way.

use crate::render::{FlameData, Loaded};
use crate::url::{Source, UrlState};
use crate::worker::protocol::Progress;
use leptos::prelude::*;
use leptos::reactive::owner::LocalStorage;
use scorch_core::analysis::heatmap::{Heatmap, HeatmapOptions};
use scorch_core::view::calltree::Order;
use scorch_core::{ViewOptions, WeightMode};
use std::sync::Arc;

/// A heatmap built during a load: (profile, view, options, heatmap).
pub type PrebuiltHeat = (Arc<Loaded>, ViewOptions, HeatmapOptions, Option<Heatmap>);

#[derive(Clone, Copy)]
pub struct LoadState {
    /// The parsed profile; kept while the view changes.
    pub loaded: RwSignal<Option<Arc<Loaded>>>,
    /// The loaded profile after the transforms (what the function table and the sandwich read).
    pub shown: RwSignal<Option<Arc<Loaded>>>,
    /// Where the open profile came from (nothing for a local file or pasted text). `next_source` is what the
    /// load under way will become.
    pub source: RwSignal<Source>,
    pub next_source: RwSignal<Source>,
    /// A link's view state, applied once the profile it names has loaded.
    pub pending: RwSignal<Option<UrlState>>,
    pub error: RwSignal<Option<String>>,
    /// What is being loaded ("Loading x…"), while a load is under way.
    pub busy: RwSignal<Option<String>>,
    /// The import worker's last progress report for the load under way.
    pub progress: RwSignal<Option<Progress>>,
    /// Incremented per load; a finished load that is not the latest is dropped.
    pub seq: RwSignal<u64>,
    /// Profiles opened so far (the status line's `data-loads`, so tests can wait for a reload of the same file).
    pub loads: RwSignal<u64>,
    /// The `seq` of the demo's load (opened by the page itself, not asked for): it makes no `bench:import-done`
    /// or `bench:rendered` mark, so a benchmark that hands over a file while the demo opens times that file by
    /// its own marks.
    pub demo_seq: StoredValue<u64>,
    /// The plain flame graph of the shown profile last built (for a freshly loaded profile, over several
    /// tasks): a rebuild for the same profile, view and order takes it instead of building it again in one
    /// long task. At most one is kept.
    pub prebuilt: StoredValue<Option<(Arc<FlameData>, Order)>, LocalStorage>,
    /// The same for the heatmap.
    pub prebuilt_heat: StoredValue<Option<PrebuiltHeat>, LocalStorage>,
    /// Bumped when the view engine's figures of a view came (`Loaded::await_figures`): the status line asks
    /// again.
    pub figures_came: RwSignal<u64>,
}

impl Default for LoadState {
    fn default() -> LoadState {
        LoadState {
            loaded: RwSignal::new(None),
            shown: RwSignal::new(None),
            source: RwSignal::new(Source::None),
            next_source: RwSignal::new(Source::None),
            pending: RwSignal::new(None),
            error: RwSignal::new(None),
            busy: RwSignal::new(None),
            progress: RwSignal::new(None),
            seq: RwSignal::new(0),
            loads: RwSignal::new(0),
            demo_seq: StoredValue::new(0),
            prebuilt: StoredValue::new_local(None),
            prebuilt_heat: StoredValue::new_local(None),
            figures_came: RwSignal::new(0),
        }
    }
}

impl LoadState {
    pub fn has_profile(&self) -> bool {
        self.loaded.with(|l| l.is_some())
    }

    /// The whole profile's total for the view's event and weight (before transforms, ranges and filters).
    pub fn whole_total(&self, v: ViewOptions) -> Option<u64> {
        let l = self.loaded.get_untracked()?;
        let p = &l.imported.profile;
        let e = v.event.and_then(|e| p.events.get(e as usize));
        Some(match (v.weight, e) {
            (WeightMode::Count, Some(e)) => e.samples,
            (WeightMode::Count, None) => p.samples.len() as u64,
            (WeightMode::Weight, Some(e)) => e.total,
            (WeightMode::Weight, None) => p.total(),
        })
    }

    /// Reads the open profile, if any.
    pub fn with_profile<T>(&self, f: impl FnOnce(&scorch_core::Profile) -> T) -> Option<T> {
        self.loaded.with(|l| l.as_ref().map(|l| f(&l.imported.profile)))
    }
}

/// "120.4 MB of 400.1 MB · 58,120 samples".
pub fn progress_text(p: &Progress) -> String {
    let mb = |b: f64| format!("{:.1} MB", b / 1e6);
    let mut s = match p.total {
        Some(t) => format!("{} of {}", mb(p.read), mb(t)),
        None => format!("{} read", mb(p.read)),
    };
    if p.samples > 0.0 {
        s.push_str(&format!(
            " · {} samples",
            scorch_core::model::units::group_thousands(p.samples as u64)
        ));
    }
    s
}
