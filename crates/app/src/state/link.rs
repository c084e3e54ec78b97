//! The address bar and the view: a link's state applied to the open profile, the view written back as a link
//! (`crate::url::UrlState` does the spelling).

use super::Actions;
use crate::url::{root_from_key, root_key, Source, UrlState};
use leptos::prelude::*;
use scorch_core::view::calltree::NodeId;
use scorch_core::{ViewOptions, WeightMode};
use std::sync::Arc;

/// The demo profile opened when the page has no `#url=`.
const DEMO_URL: &str = "www/demo/service.perf.gz";

fn current_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The deepest zoom a link carries (its path of names goes into the fragment).
pub const MAX_ZOOM_DEPTH: usize = 1_000;

impl Actions {
    /// Applies the view state of a link to the open profile(s).
    pub fn apply_link(&self, s: &UrlState) {
        let Some(loaded) = self.load.loaded.get_untracked() else {
            return;
        };
        let p = &loaded.imported.profile;
        let shown = || {
            (
                self.view.options.get_untracked(),
                self.view.mode.get_untracked(),
                self.view.order.get_untracked(),
                self.search.transforms.get_untracked(),
                self.diff.base.get_untracked().map(|b| Arc::as_ptr(&b)),
                self.diff.widths.get_untracked(),
                self.diff.absolute.get_untracked(),
            )
        };
        let before = shown();
        self.view.orientation.set(s.orientation);
        let mut v = ViewOptions::default_for(p);
        // By the core's rule, as the CLI's `--event`: the exact name, or a name without perf's modifiers when one
        // event has it (a link written before modifiers were kept names `cycles` for `cycles:u`).
        if let Some(i) = s
            .event
            .as_ref()
            .and_then(|name| scorch_core::import::event::find_event(p, name).ok())
        {
            v.event = Some(i);
        }
        if s.weight == WeightMode::Count {
            v.weight = WeightMode::Count;
        }
        v.granularity = s.granularity;
        v.declared = s.unit;
        v.mean_of = s.mean_of;
        if let Some(root) = s.root.as_deref().and_then(|r| root_from_key(r, p)) {
            v.root = root;
        }
        if let Some(tf) = &s.label_filter {
            if let Ok(filter) = scorch_core::view::SampleFilter::parse(p, tf) {
                filter.apply(&mut v);
                self.view.label_text.set(tf.clone());
            }
        }
        // Tids this profile does not have are ignored; none left: all threads.
        let threads = super::slice::threads_of_tids(p, &s.threads);
        if !threads.is_empty() {
            v.threads = Some(threads);
        }
        self.diff.slice_a.set(s.base_filter.clone());
        if s.base_filter.is_some() {
            self.diff.base.set(Some(loaded.clone()));
        }
        self.heat.rows.set(s.rows);
        self.heat.idle.set(s.idle);
        self.diff.widths.set(s.widths);
        self.diff.absolute.set(s.absolute);
        let opts = scorch_core::analysis::heatmap::HeatmapOptions {
            rows: s.rows,
            idle_filter: s.idle,
        };
        let ranges =
            s.range.is_some() || s.range_a.is_some() || s.offsets.is_some() || s.chart_window.is_some();
        let h = ranges
            .then(|| {
                scorch_core::analysis::heatmap::heatmap(
                    p,
                    &ViewOptions {
                        time_range: None,
                        ..v.clone()
                    },
                    &opts,
                )
            })
            .flatten();
        if let Some(h) = &h {
            v.time_range = s.range.map(|(s, e)| (h.origin_ns + s, h.origin_ns + e));
            v.offsets = s.offsets;
            let cells = crate::state::heatmap::selection_cells(h, v.time_range, v.offsets);
            self.heat.sel.set(cells);
            self.heat.sel_band.set(v.offsets.is_some());
        } else {
            self.heat.sel.set(None);
            self.heat.sel_band.set(false);
        }
        // The stack chart's window, on the same clock as the ranges (the chart keeps a window given before it
        // is first drawn).
        self.view.chart_window.set(
            h.as_ref()
                .zip(s.chart_window)
                .map(|(h, (a, b))| (h.origin_ns + a, h.origin_ns + b)),
        );
        let offsets_a = s.offsets_a;
        if let (Some(h), Some((s, e))) = (&h, s.range_a) {
            self.heat.range_a.set(Some((h.origin_ns + s, h.origin_ns + e)));
            self.heat.band_a.set(offsets_a);
            self.diff.base.set(Some(loaded.clone()));
        }
        self.search.pattern.set(s.search.clone());
        self.search.transforms.set(s.transforms.clone());
        self.view.mode.set(s.mode);
        self.view.graph_focus.set(s.graph_focus.clone());
        self.view.graph_prune.set(s.graph_prune);
        self.search.selected.set(s.selected.clone());
        self.view.order.set(s.order);
        self.view.scheme.set(s.scheme);
        self.view.notes.set(s.notes.clone());
        self.view.note_messages.set(s.note_messages.clone());
        self.view.options.set(v);
        let main = self.panes.main;
        // A link that only names the profile (`#url=…`) changes nothing shown: no second build.
        if shown() != before || main.data.with_untracked(|d| d.is_none()) {
            self.rebuild();
        } else {
            main.zoom.set(Vec::new());
        }
        // The view engine may still be building the graph the link asks for: its zoom waits for it.
        self.zoom_to_path(s.zoom.clone());
    }

    /// The view state (and source) as a link.
    pub fn link_state(&self) -> UrlState {
        let mut s = UrlState {
            source: self.load.source.get_untracked(),
            embed: self.ui.embed.get_untracked(),
            ..UrlState::default()
        };
        let Some(loaded) = self.load.loaded.get_untracked() else {
            return s;
        };
        let p = &loaded.imported.profile;
        let v = self.view.options.get_untracked();
        let default = ViewOptions::default_for(p);
        s.orientation = self.view.orientation.get_untracked();
        let main = self.panes.main;
        if let Some(data) = main.data.get_untracked() {
            let z = main.current_zoom();
            // A zoom deeper than a link can name (a recursion millions of frames deep) stays out of it; Copy
            // link says so.
            let deep = data
                .tree
                .depth
                .get(z.idx())
                .is_some_and(|&d| d as usize > MAX_ZOOM_DEPTH);
            if z != NodeId::ROOT && !deep {
                s.zoom = data
                    .tree
                    .path(z)
                    .iter()
                    .map(|&n| data.name_of(n).to_string())
                    .collect();
            }
        }
        if v.event != default.event {
            s.event = v
                .event
                .and_then(|e| p.events.get(e as usize))
                .map(|e| e.name.clone());
        }
        s.weight = v.weight;
        s.granularity = v.granularity;
        s.unit = v.declared.filter(|_| scorch_core::view::takes_declared_unit(p));
        s.mean_of = v.mean_of;
        if v.root != default.root {
            s.root = Some(root_key(v.root, p));
        }
        let tf = self.view.label_text.get_untracked();
        if v.label.is_some() && !tf.is_empty() {
            s.label_filter = Some(tf);
        }
        if let Some(set) = &v.threads {
            s.threads = super::slice::tids_of(p, set);
        }
        s.base_filter = self.diff.slice_a.get_untracked();
        s.rows = self.heat.rows.get_untracked();
        s.idle = self.heat.idle.get_untracked();
        if let Some(h) = self.heat.heat.get_untracked() {
            let rel = |(s, e): (u64, u64)| (s.saturating_sub(h.origin_ns), e.saturating_sub(h.origin_ns));
            s.range = v.time_range.map(rel);
            s.range_a = self.heat.range_a.get_untracked().map(rel);
            // Only a window of its own: the one a heatmap range gave is the range's.
            s.chart_window = self
                .view
                .chart_window
                .get_untracked()
                .filter(|w| Some(*w) != v.time_range)
                .map(rel);
            s.offsets = v.offsets;
            s.offsets_a = self
                .heat
                .range_a
                .get_untracked()
                .and(self.heat.band_a.get_untracked());
        }
        s.search = self.search.pattern.get_untracked();
        s.transforms = self.search.transforms.get_untracked();
        s.mode = self.view.mode.get_untracked();
        s.graph_focus = self.view.graph_focus.get_untracked();
        s.graph_prune = self.view.graph_prune.get_untracked();
        s.selected = self.search.selected.get_untracked();
        s.order = self.view.order.get_untracked();
        s.scheme = self.view.scheme.get_untracked();
        s.notes = self.view.notes.get_untracked();
        if self.diff.base.get_untracked().is_some() {
            s.widths = self.diff.widths.get_untracked();
            s.absolute = self.diff.absolute.get_untracked();
        }
        s
    }

    /// Opens what the address bar's fragment names (`p`, `base`+`target`, `url`; else the demo on start) and
    /// applies its view state; when it names what is already open (Back/Forward), only the view state is applied.
    pub fn open_from_fragment(&self, on_start: bool) {
        let s = UrlState::parse(&current_hash());
        if on_start {
            self.ui.embed.set(s.embed);
            // A one-file HTML export (`scorch_core::export::html`) carries its profile in the page.
            if let Some(file) = inline_profile() {
                self.load.pending.set(Some(s));
                self.open_file(file);
                return;
            }
        }
        if !on_start && s.source != Source::None && s.source == self.load.source.get_untracked() {
            self.apply_link(&s);
            return;
        }
        if !on_start && s.source == Source::None {
            if self.load.loaded.get_untracked().is_some() {
                self.apply_link(&s);
            }
            return;
        }
        self.load.pending.set(Some(s.clone()));
        match s.source {
            Source::Embedded { profile, base } => self.open_embedded(profile, base),
            Source::Pair { base, target } => self.open_pair(base, target),
            Source::Series(urls) => self.open_series(urls),
            Source::Carried(list) => self.open_carried(list),
            Source::Url(u) => self.open_url(u),
            // Framed: the host sends the profile (`state::embed`), no demo; the link's view applies to it.
            Source::None if s.embed => {}
            // Read on the page: the worker boot.js started is kept for the user's own first file.
            Source::None => self.open_url_as(DEMO_URL.to_string(), true),
        }
    }

    /// Keeps the address bar's fragment in step with the view: a new history entry when the zoom or the time
    /// range changes (so Back/Forward move between them), a replaced one for everything else (no entry per hover).
    pub fn sync_fragment(&self) {
        let a = *self;
        Effect::new(move |_| {
            a.panes.main.data.track();
            a.panes.main.zoom.track();
            a.view.orientation.track();
            a.view.options.track();
            a.heat.rows.track();
            a.heat.idle.track();
            a.heat.range_a.track();
            a.heat.band_a.track();
            a.diff.slice_a.track();
            a.diff.widths.track();
            a.diff.absolute.track();
            a.load.source.track();
            a.heat.heat.track();
            a.view.label_text.track();
            a.search.pattern.track();
            a.search.transforms.track();
            a.view.mode.track();
            a.view.chart_window.track();
            a.view.graph_focus.track();
            a.view.graph_prune.track();
            a.search.selected.track();
            a.view.order.track();
            a.view.scheme.track();
            a.view.notes.track();
            if a.load.pending.get_untracked().is_some() || a.load.loaded.get_untracked().is_none() {
                return; // a link's state is still to be applied
            }
            write_fragment(a.link_state());
        });
    }
}

thread_local! {
    /// The view's state waiting to be written to the address bar, and whether a step is among the changes it
    /// stands for ([`write_fragment`]).
    static TO_WRITE: std::cell::RefCell<Option<(UrlState, bool)>> = const { std::cell::RefCell::new(None) };
}

/// Writes `s` to the address bar in a task of its own, with every change made before it runs: the history entry
/// a new profile makes (pushState, 2–16 ms in Chromium profiles) waited in the task that took the profile, ahead of
/// its first picture. A step (a zoom, a time range) makes a new entry; anything else replaces the current one.
fn write_fragment(s: UrlState) {
    let step = s.is_step_from(&UrlState::parse(&current_hash()));
    let first = TO_WRITE.with(|t| {
        let mut t = t.borrow_mut();
        let first = t.is_none();
        let step = step || t.as_ref().is_some_and(|(_, was)| *was);
        *t = Some((s, step));
        first
    });
    if first {
        // After the next frame: a new profile's first picture is drawn first.
        request_animation_frame(|| {
            crate::worker::after(0.0, || {
                if let Some((s, step)) = TO_WRITE.with(|t| t.borrow_mut().take()) {
                    write_now(&s, step);
                }
            })
        });
    }
}

fn write_now(s: &UrlState, step: bool) {
    let Some(w) = web_sys::window() else { return };
    if *s == UrlState::parse(&current_hash()) {
        return;
    }
    let url = match s.render() {
        Some(f) => f,
        None => {
            let loc = w.location();
            format!(
                "{}{}",
                loc.pathname().unwrap_or_default(),
                loc.search().unwrap_or_default()
            )
        }
    };
    if let Ok(h) = w.history() {
        let _ = if step {
            h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        } else {
            h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        };
    }
}

/// The profile a one-file HTML export carries (`window.scorchBoot.inline = {name, bytes}`), taken once.
fn inline_profile() -> Option<web_sys::File> {
    use js_sys::Reflect;
    let w = web_sys::window()?;
    let boot = Reflect::get(&w, &"scorchBoot".into()).ok()?;
    let inline = Reflect::get(&boot, &"inline".into())
        .ok()
        .filter(|v| v.is_object())?;
    let _ = Reflect::set(&boot, &"inline".into(), &wasm_bindgen::JsValue::UNDEFINED);
    let name = Reflect::get(&inline, &"name".into()).ok()?.as_string()?;
    let bytes = Reflect::get(&inline, &"bytes".into()).ok()?;
    web_sys::File::new_with_u8_array_sequence(&js_sys::Array::of1(&bytes), &name).ok()
}
