//! The differential view: its base and switches.

use super::Actions;
use crate::render::Loaded;
use leptos::prelude::*;
use scorch_core::analysis::compare::FactRow;
use scorch_core::analysis::diff::Widths;
use scorch_core::ViewOptions;
use std::sync::Arc;

#[derive(Clone, Copy)]
pub struct DiffState {
    /// When set, the view is differential: `base` (before) → the loaded profile (after).
    pub base: RwSignal<Option<Arc<Loaded>>>,
    pub widths: RwSignal<Widths>,
    pub absolute: RwSignal<bool>,
    /// A two-count (difffolded) file is its own base and target: (base event, target event).
    pub events: RwSignal<Option<(u16, u16)>>,
    /// Set when the sides' sample types or units differ: why, and both sides' facts. The diff is not drawn
    /// until the user says "Diff anyway" (`allow_mismatch`), as `scorch diff --allow-mismatch`.
    pub refused: RwSignal<Option<(String, Vec<FactRow>)>>,
    pub allow_mismatch: RwSignal<bool>,
    /// A slice diff: the base is the open profile under this filter text (`""`: all samples), the target the
    /// view's own label filter and thread choice (`slice.rs`).
    pub slice_a: RwSignal<Option<String>>,
    /// The colour-blind-safe palette: orange grew, blue shrank (`render::color::colorblind_safe`), drawn only.
    pub colorblind: RwSignal<bool>,
}

impl Default for DiffState {
    fn default() -> DiffState {
        DiffState {
            base: RwSignal::new(None),
            widths: RwSignal::new(Widths::Target),
            absolute: RwSignal::new(false),
            events: RwSignal::new(None),
            refused: RwSignal::new(None),
            allow_mismatch: RwSignal::new(false),
            slice_a: RwSignal::new(None),
            colorblind: RwSignal::new(false),
        }
    }
}

impl DiffState {
    pub fn active(&self) -> bool {
        self.base.with(|b| b.is_some())
    }
}

impl Actions {
    /// Swaps base and target: the two counts, the two slices, the two ranges (or bands), or the two profiles.
    pub fn swap_diff(&self) {
        let (diff, heat, view) = (self.diff, self.heat, self.view);
        if let Some((be, te)) = diff.events.get_untracked() {
            diff.events.set(Some((te, be)));
            self.rebuild();
            return;
        }
        if let Some(a) = diff.slice_a.get_untracked() {
            self.swap_slices(a);
            return;
        }
        let v = view.options.get_untracked();
        if let (Some(a), Some(b)) = (heat.range_a.get_untracked(), v.time_range) {
            let a_offsets = heat.band_a.get_untracked();
            heat.range_a.set(Some(b));
            heat.band_a.set(v.offsets);
            self.select_time(Some(a), a_offsets);
            return;
        }
        let (b, t) = (diff.base.get_untracked(), self.load.loaded.get_untracked());
        if let (Some(b), Some(t)) = (b, t) {
            view.options.set(ViewOptions::default_for(&b.imported.profile));
            diff.base.set(Some(t));
            self.load.loaded.set(Some(b));
            self.rebuild();
        }
    }

    /// Back to the target alone (the second counts of a two-count file).
    pub fn exit_diff(&self) {
        self.heat.range_a.set(None);
        self.heat.band_a.set(None);
        self.diff.slice_a.set(None);
        if let Some((_, te)) = self.diff.events.get_untracked() {
            self.view.options.update(|v| v.event = Some(te));
            self.diff.events.set(None);
        }
        self.diff.base.set(None);
        self.diff.refused.set(None);
        self.diff.allow_mismatch.set(false);
        self.rebuild();
    }

    /// Draws a refused diff anyway (sample types or units differ).
    pub fn diff_anyway(&self) {
        self.diff.allow_mismatch.set(true);
        self.rebuild();
    }

    pub fn toggle_diff_widths(&self) {
        self.diff.widths.update(|w| {
            *w = if *w == Widths::Target {
                Widths::Base
            } else {
                Widths::Target
            }
        });
        self.rebuild();
    }

    pub fn toggle_diff_absolute(&self) {
        self.diff.absolute.update(|a| *a = !*a);
        self.rebuild();
    }
}
