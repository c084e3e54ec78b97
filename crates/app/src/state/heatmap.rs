//! The heatmap of the loaded profile, its settings, and the time-range selection it drives.

use super::load::LoadState;
use super::view::ViewState;
use super::Actions;
use leptos::prelude::*;
use scorch_core::analysis::heatmap::Heatmap;
use scorch_core::ViewOptions;
use std::sync::Arc;

/// A heatmap cell: (column, row).
pub use crate::render::heatmap::Cell;

#[derive(Clone, Copy)]
pub struct HeatState {
    /// The heatmap of the loaded profile (None without timestamps).
    pub heat: RwSignal<Option<Arc<Heatmap>>>,
    pub rows: RwSignal<u32>,
    pub idle: RwSignal<bool>,
    pub sparse: RwSignal<bool>,
    /// Selected cells (first, last) in time order.
    pub sel: RwSignal<Option<(Cell, Cell)>>,
    /// First cell of a two-click selection.
    pub pending: RwSignal<Option<Cell>>,
    /// Range A of a range comparison: the next selection (B) is compared against it.
    pub range_a: RwSignal<Option<(u64, u64)>>,
}

impl Default for HeatState {
    fn default() -> HeatState {
        HeatState {
            heat: RwSignal::new(None),
            rows: RwSignal::new(crate::url::DEFAULT_ROWS),
            idle: RwSignal::new(true),
            sparse: RwSignal::new(false),
            sel: RwSignal::new(None),
            pending: RwSignal::new(None),
            range_a: RwSignal::new(None),
        }
    }
}

impl HeatState {
    pub fn options(&self) -> scorch_core::analysis::heatmap::HeatmapOptions {
        scorch_core::analysis::heatmap::HeatmapOptions {
            rows: self.rows.get_untracked(),
            idle_filter: self.idle.get_untracked(),
        }
    }
}

impl HeatState {
    /// Keeps the heatmap in step with the profile and the view: the grid is recomputed when the profile, the
    /// event, labels, rows or the idle filter change (not on selection).
    pub fn follow(&self, load: LoadState, view: ViewState) {
        let heat = *self;
        // Recompute the grid when the profile, the event, labels, rows or the idle filter change (not on selection).
        let key = Memo::new(move |_| {
            let loaded = load.loaded.with(|l| l.as_ref().map(|l| Arc::as_ptr(l) as usize));
            let v = view.options.with(|v| (v.event, v.label, v.weight));
            (loaded, v, heat.rows.get(), heat.idle.get())
        });
        Effect::new(move |_| {
            let (_, (event, label, _), rows, idle) = key.get();
            let Some(loaded) = load.loaded.get_untracked() else {
                return;
            };
            let p = &loaded.imported.profile;
            let v = ViewOptions {
                event,
                label,
                ..ViewOptions::default_for(p)
            };
            let opts = scorch_core::analysis::heatmap::HeatmapOptions {
                rows,
                idle_filter: idle,
            };
            let pre = load.prebuilt_heat.try_update_value(|p| p.take()).flatten();
            let h = match pre {
                Some((l, pv, po, h)) if Arc::ptr_eq(&l, &loaded) && pv == v && po == opts => h,
                _ => scorch_core::analysis::heatmap::heatmap(p, &v, &opts),
            };
            // Keep a selection that a link or the view already holds (it is a time range, not cells).
            let sel = match (&h, view.options.get_untracked().time_range) {
                (Some(h), Some((s, e))) => h.cell_of(s).zip(h.cell_of(e.saturating_sub(1))),
                _ => None,
            };
            heat.heat.set(h.map(Arc::new));
            super::mark("bench:heatmap-done");
            heat.sel.set(sel);
            heat.pending.set(None);
        });
    }
}

impl Actions {
    /// Selects cells a..b of the heatmap: the flame graph shows exactly the samples of that time range; with a
    /// range A set, the diff of this range (B) against A.
    pub fn select_cells(&self, a: Cell, b: Cell) {
        let Some(h) = self.heat.heat.get_untracked() else {
            return;
        };
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        self.heat.sel.set(Some((lo, hi)));
        self.heat.pending.set(None);
        let range = h.range(lo, hi);
        if self.heat.range_a.get_untracked().is_some() && self.diff.base.get_untracked().is_none() {
            self.diff.base.set(self.load.loaded.get_untracked());
        }
        self.view.options.update(|v| v.time_range = Some(range));
        self.rebuild();
    }

    pub fn clear_range(&self) {
        self.heat.sel.set(None);
        self.heat.pending.set(None);
        if self.heat.range_a.get_untracked().is_some() {
            self.heat.range_a.set(None);
            self.diff.base.set(None);
        }
        self.view.options.update(|v| v.time_range = None);
        self.rebuild();
    }

    /// Moves the selected range backward (-1) or forward (+1) by its own length.
    pub fn step_range(&self, dir: i64) {
        let (Some(h), Some((s, e))) = (
            self.heat.heat.get_untracked(),
            self.view.options.get_untracked().time_range,
        ) else {
            return;
        };
        let len = e - s;
        let (s2, e2) = if dir < 0 {
            (s.saturating_sub(len), e.saturating_sub(len))
        } else {
            (s.saturating_add(len), e.saturating_add(len))
        };
        if e2 <= h.origin_ns {
            return;
        }
        let first = h.cell_of(s2.max(h.origin_ns));
        let last = h.cell_of(e2 - 1);
        if let (Some(a), Some(b)) = (first, last) {
            self.heat.sel.set(Some((a, b)));
        }
        self.view.options.update(|v| v.time_range = Some((s2, e2)));
        self.rebuild();
    }
}
