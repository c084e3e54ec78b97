//! The heatmap of the loaded profile, its settings, and the selection it drives: a time range, or a band (the
//! same offsets in every second of a span of seconds: a time range of whole seconds plus
//! `ViewOptions::offsets`).

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
    /// Selected cells (first, last) in time order; for a band, its lower-left and upper-right corners.
    pub sel: RwSignal<Option<(Cell, Cell)>>,
    /// The selection is a band (a rectangle of cells), not a time range.
    pub sel_band: RwSignal<bool>,
    /// Band mode: the next drag or two clicks select a band ("same offsets in every second"); Shift+drag
    /// selects a band either way.
    pub band_mode: RwSignal<bool>,
    /// First cell of a two-click selection.
    pub pending: RwSignal<Option<Cell>>,
    /// Range A of a range comparison: the next selection (B) is compared against it.
    pub range_a: RwSignal<Option<(u64, u64)>>,
    /// The offsets of range A when A is a band.
    pub band_a: RwSignal<Option<(u64, u64)>>,
}

impl Default for HeatState {
    fn default() -> HeatState {
        HeatState {
            heat: RwSignal::new(None),
            rows: RwSignal::new(crate::url::DEFAULT_ROWS),
            idle: RwSignal::new(true),
            sparse: RwSignal::new(false),
            sel: RwSignal::new(None),
            sel_band: RwSignal::new(false),
            band_mode: RwSignal::new(false),
            pending: RwSignal::new(None),
            range_a: RwSignal::new(None),
            band_a: RwSignal::new(None),
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
            let v = view
                .options
                .with(|v| (v.event, v.label, v.weight, v.threads.clone()));
            (loaded, v, heat.rows.get(), heat.idle.get())
        });
        Effect::new(move |_| {
            let (_, (event, label, _, threads), rows, idle) = key.get();
            let Some(loaded) = load.loaded.get_untracked() else {
                return;
            };
            let p = &loaded.imported.profile;
            let v = ViewOptions {
                event,
                label,
                threads,
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
            let o = view.options.get_untracked();
            let sel = h
                .as_ref()
                .and_then(|h| selection_cells(h, o.time_range, o.offsets));
            heat.heat.set(h.map(Arc::new));
            super::mark("bench:heatmap-done");
            heat.sel.set(sel);
            heat.sel_band.set(o.offsets.is_some());
            heat.pending.set(None);
        });
    }
}

/// The cells a selection covers on this grid: from the first to the last cell of a time range, or a band's
/// corners (a band with no range spans every column).
pub fn selection_cells(
    h: &Heatmap,
    range: Option<(u64, u64)>,
    offsets: Option<(u64, u64)>,
) -> Option<(Cell, Cell)> {
    match (range, offsets) {
        (Some((s, e)), None) => h.cell_of(s.max(h.origin_ns)).zip(h.cell_of(e.saturating_sub(1))),
        (r, Some(o)) => {
            let all = (h.origin_ns, h.cell_start(h.columns, 0));
            h.band_cells(r.unwrap_or(all), o)
        }
        (None, None) => None,
    }
}

/// A band's offsets as the user reads them: `200–300 ms`, `204.082–306.122 ms` (to the microsecond).
pub fn offsets_text((from, to): (u64, u64)) -> String {
    let ms = |ns: u64| {
        let us = (ns + 500) / 1000;
        let (whole, frac) = (us / 1000, us % 1000);
        if frac == 0 {
            whole.to_string()
        } else {
            format!("{whole}.{frac:03}").trim_end_matches('0').to_string()
        }
    };
    format!("{}–{} ms", ms(from), ms(to))
}

impl Actions {
    /// Shows a selection: the flame graph shows the samples of this time range, in this band when `offsets` is
    /// set (`None` for both: the whole profile); with a range A set, the diff of this selection (B) against A.
    pub fn select_time(&self, range: Option<(u64, u64)>, offsets: Option<(u64, u64)>) {
        let h = self.heat.heat.get_untracked();
        let sel = h.as_ref().and_then(|h| selection_cells(h, range, offsets));
        self.heat.sel.set(sel);
        self.heat.sel_band.set(offsets.is_some());
        self.heat.pending.set(None);
        if range.is_some()
            && self.heat.range_a.get_untracked().is_some()
            && self.diff.base.get_untracked().is_none()
        {
            self.diff.base.set(self.load.loaded.get_untracked());
        }
        self.view.options.update(|v| {
            v.time_range = range;
            v.offsets = offsets;
        });
        self.rebuild();
    }

    /// Selects the band from cell `a` to cell `b` (any two corners): the rows between them in every second
    /// between them.
    pub fn select_band(&self, a: Cell, b: Cell) {
        let Some(h) = self.heat.heat.get_untracked() else {
            return;
        };
        let (range, offsets) = h.band(a, b);
        self.select_time(Some(range), Some(offsets));
    }

    /// Band mode on or off; the current selection becomes the same cells as the other kind.
    pub fn set_band_mode(&self, on: bool) {
        self.heat.band_mode.set(on);
        if let Some((a, b)) = self.heat.sel.get_untracked() {
            if on != self.heat.sel_band.get_untracked() {
                if on {
                    self.select_band(a, b);
                } else {
                    self.select_cells(a, b);
                }
            }
        }
    }

    /// Selects cells a..b of the heatmap: the flame graph shows exactly the samples of that time range; with a
    /// range A set, the diff of this range (B) against A.
    pub fn select_cells(&self, a: Cell, b: Cell) {
        let Some(h) = self.heat.heat.get_untracked() else {
            return;
        };
        self.select_time(Some(h.range(a, b)), None);
    }

    pub fn clear_range(&self) {
        self.heat.sel.set(None);
        self.heat.sel_band.set(false);
        self.heat.pending.set(None);
        if self.heat.range_a.get_untracked().is_some() {
            self.heat.range_a.set(None);
            self.heat.band_a.set(None);
            self.diff.base.set(None);
        }
        self.view.options.update(|v| {
            v.time_range = None;
            v.offsets = None;
        });
        self.rebuild();
    }

    /// Moves the selected range backward (-1) or forward (+1) by its own length (a band: by its seconds, with
    /// the same offsets).
    pub fn step_range(&self, dir: i64) {
        let o = self.view.options.get_untracked();
        let (Some(h), Some((s, e))) = (self.heat.heat.get_untracked(), o.time_range) else {
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
        if let Some(cells) = selection_cells(&h, Some((s2, e2)), o.offsets) {
            self.heat.sel.set(Some(cells));
        }
        self.view.options.update(|v| v.time_range = Some((s2, e2)));
        self.rebuild();
    }
}
