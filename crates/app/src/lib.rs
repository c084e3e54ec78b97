//! scorch's viewer: Leptos components for the page shell, and a canvas flame graph drawn by `flame`.
//!
//! Architecture invariant: this crate only renders and handles events. Parsing, trees and layout are
//! scorch-core's; no profile text is ever inserted as HTML (names reach the DOM as text nodes and the
//! canvas through `fillText`).

mod bench;
mod flame;
mod load;
mod protocol;
mod state;
pub mod worker;

use flame::{ColorScheme, FlameData, Geometry, Loaded, Orientation, ROW_H};
use leptos::prelude::*;
use scorch_core::calltree::{NodeId, Order};
use scorch_core::diff::Widths;
use scorch_core::explore::{FunctionRow, Pattern, Transform};
use scorch_core::units::group_thousands;
use scorch_core::{RootMode, ViewOptions, WeightMode};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// The demo profile opened when the page has no `#url=`.
const DEMO_URL: &str = "www/demo/service.perf.gz";

#[derive(Clone, Copy, PartialEq)]
struct Hover {
    node: NodeId,
    client_x: f64,
    client_y: f64,
}

/// A heatmap cell: (column, row).
type Cell = (u32, u32);

/// What the main area shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// The call tree, root first.
    Flame,
    /// Bottom-up: leaf functions merged at the root, their callers above.
    Inverted,
    /// A selected function's callers above and callees below, with the function table.
    Sandwich,
    /// The function table.
    Functions,
}

impl Mode {
    const ALL: [Mode; 4] = [Mode::Flame, Mode::Inverted, Mode::Sandwich, Mode::Functions];
    fn key(self) -> &'static str {
        match self {
            Mode::Flame => "flame",
            Mode::Inverted => "inverted",
            Mode::Sandwich => "sandwich",
            Mode::Functions => "functions",
        }
    }
    fn label(self) -> &'static str {
        match self {
            Mode::Flame => "Flame graph",
            Mode::Inverted => "Inverted",
            Mode::Sandwich => "Sandwich",
            Mode::Functions => "Functions",
        }
    }
    fn from_key(k: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.key() == k)
    }
}

/// The function table of the shown profile: rows, the view's total weight and sample count.
type FnTable = (Vec<FunctionRow>, u64, u64);

/// One flame graph on the page: the main one, or a side of the sandwich. Its own data, zoom, hover and size.
#[derive(Clone, Copy)]
struct Pane {
    name: &'static str,
    data: RwSignal<Option<Arc<FlameData>>>,
    zoom: RwSignal<Vec<NodeId>>,
    hover: RwSignal<Option<Hover>>,
    width: RwSignal<f64>,
    height: RwSignal<f64>,
    scroll_top: RwSignal<f64>,
    /// A fixed orientation (the sandwich: callers grow up from the function, callees down); `None` follows the
    /// page's flame/icicle switch.
    fixed: Option<Orientation>,
}

impl Pane {
    fn new(name: &'static str, fixed: Option<Orientation>) -> Pane {
        Pane {
            name,
            data: RwSignal::new(None),
            zoom: RwSignal::new(Vec::new()),
            hover: RwSignal::new(None),
            width: RwSignal::new(800.0),
            height: RwSignal::new(300.0),
            scroll_top: RwSignal::new(0.0),
            fixed,
        }
    }
    fn current_zoom(&self) -> NodeId {
        self.zoom.with(|z| z.last().copied().unwrap_or(NodeId::ROOT))
    }
    fn orientation(&self, ctx: &Ctx) -> Orientation {
        self.fixed.unwrap_or_else(|| ctx.orientation.get_untracked())
    }
}

/// Shared state: a small `Copy` struct of signals.
#[derive(Clone, Copy)]
struct Ctx {
    /// The parsed profile; kept while the view changes.
    loaded: RwSignal<Option<Arc<Loaded>>>,
    /// Which samples are shown and how they weigh.
    view: RwSignal<ViewOptions>,
    /// The call tree and layout of `loaded` under `view` (or of the diff base → loaded).
    data: RwSignal<Option<Arc<FlameData>>>,
    /// When set, the view is differential: `base` (before) → `loaded` (after).
    base: RwSignal<Option<Arc<Loaded>>>,
    diff_widths: RwSignal<Widths>,
    diff_absolute: RwSignal<bool>,
    /// A two-count (difffolded) file is its own base and target: (base event, target event).
    diff_events: RwSignal<Option<(u16, u16)>>,
    /// The heatmap of the loaded profile (None without timestamps), its settings and selection.
    heat: RwSignal<Option<Arc<scorch_core::heatmap::Heatmap>>>,
    hm_rows: RwSignal<u32>,
    hm_idle: RwSignal<bool>,
    hm_sparse: RwSignal<bool>,
    /// Selected cells (first, last) in time order.
    hm_sel: RwSignal<Option<(Cell, Cell)>>,
    /// First cell of a two-click selection.
    hm_pending: RwSignal<Option<(u32, u32)>>,
    /// Range A of a range comparison: the next selection (B) is compared against it.
    range_a: RwSignal<Option<(u64, u64)>>,
    /// Where the open profile came from, as fragment parameters (`url`, `base`+`target`, `p`); empty for a
    /// local file or pasted text. `next_source` is what the load under way will become.
    source: RwSignal<Vec<(String, String)>>,
    next_source: RwSignal<Vec<(String, String)>>,
    /// The label filter as typed (the view holds it resolved).
    label_text: RwSignal<String>,
    /// A fragment's view state, applied once the profile it names has loaded.
    pending: RwSignal<Option<state::Fragment>>,
    /// Zoom history; the last entry is the current zoom, empty means the whole profile.
    zoom: RwSignal<Vec<NodeId>>,
    hover: RwSignal<Option<Hover>>,
    orientation: RwSignal<Orientation>,
    error: RwSignal<Option<String>>,
    busy: RwSignal<Option<String>>,
    /// A flame graph built for a freshly loaded profile over several tasks (`Ctx::load`); `rebuild` takes it
    /// instead of building the same in one long task, when it fits the view.
    prebuilt: StoredValue<Option<(Arc<FlameData>, Order)>, leptos::reactive::owner::LocalStorage>,
    /// The same for the heatmap: (profile, view, options, heatmap).
    #[allow(clippy::type_complexity)]
    prebuilt_heat: StoredValue<
        Option<(
            Arc<Loaded>,
            ViewOptions,
            scorch_core::heatmap::HeatmapOptions,
            Option<scorch_core::heatmap::Heatmap>,
        )>,
        leptos::reactive::owner::LocalStorage,
    >,
    /// The import worker's last progress report for the load under way.
    progress: RwSignal<Option<protocol::Progress>>,
    width: RwSignal<f64>,
    /// Height of the visible flame area in CSS px, and how far it is scrolled.
    height: RwSignal<f64>,
    scroll_top: RwSignal<f64>,
    /// Incremented per load; a finished load that is not the latest is dropped.
    seq: RwSignal<u64>,
    /// The search: matches highlighted, the rest dimmed, the matched share shown. Kept across view changes.
    search: RwSignal<Pattern>,
    /// Which match "next"/"previous" last went to.
    match_idx: RwSignal<Option<usize>>,
    /// Transforms applied in order to the loaded profile(s) before anything is shown.
    transforms: RwSignal<Vec<Transform>>,
    mode: RwSignal<Mode>,
    /// The selected function (by name): outlined everywhere, the sandwich's subject, the function transforms' target.
    selected: RwSignal<Option<String>>,
    order: RwSignal<Order>,
    scheme: RwSignal<ColorScheme>,
    /// `auto` (the system setting), `light` or `dark`.
    theme: RwSignal<&'static str>,
    /// The loaded profile after the transforms (what the function table and the sandwich read).
    shown: RwSignal<Option<Arc<Loaded>>>,
    fn_table: RwSignal<Option<Arc<FnTable>>>,
    callers: Pane,
    callees: Pane,
    help: RwSignal<bool>,
    /// Profiles opened so far (the status line's `data-loads`, so tests can wait for a reload of the same file).
    loads: RwSignal<u64>,
}

impl Ctx {
    fn current_zoom(&self) -> NodeId {
        self.zoom.with(|z| z.last().copied().unwrap_or(NodeId::ROOT))
    }

    fn main_pane(&self) -> Pane {
        Pane {
            name: "main",
            data: self.data,
            zoom: self.zoom,
            hover: self.hover,
            width: self.width,
            height: self.height,
            scroll_top: self.scroll_top,
            fixed: None,
        }
    }

    /// The loaded profile after the transforms; on a transform error, the error is shown and the profile as is.
    fn transformed(&self, l: &Arc<Loaded>) -> Arc<Loaded> {
        let ts = self.transforms.get_untracked();
        match scorch_core::explore::apply_all(&l.imported.profile, &ts) {
            Ok(None) => l.clone(),
            Ok(Some(p)) => Arc::new(l.derived(p)),
            Err(e) => {
                self.error.set(Some(e));
                l.clone()
            }
        }
    }

    /// Adds a transform (it applies on top of the others) and rebuilds.
    fn push_transform(&self, t: Transform) {
        self.transforms.update(|ts| ts.push(t));
        self.rebuild();
    }

    fn remove_transform(&self, i: usize) {
        self.transforms.update(|ts| {
            if i < ts.len() {
                ts.remove(i);
            }
        });
        self.rebuild();
    }

    fn set_mode(&self, m: Mode) {
        if self.mode.get_untracked() != m {
            self.mode.set(m);
            self.rebuild();
        }
    }

    fn select(&self, name: Option<String>) {
        if self.selected.get_untracked() != name {
            self.selected.set(name);
            self.rebuild_sandwich();
        }
    }

    /// The two sides of the sandwich for the selected function (empty outside the sandwich).
    fn rebuild_sandwich(&self) {
        let (Some(shown), Some(f), Mode::Sandwich) = (
            self.shown.get_untracked(),
            self.selected.get_untracked(),
            self.mode.get_untracked(),
        ) else {
            self.callers.data.set(None);
            self.callees.data.set(None);
            return;
        };
        let view = ViewOptions {
            root: RootMode::None,
            ..self.view.get_untracked()
        };
        let order = self.order.get_untracked();
        let p = &shown.imported.profile;
        for (pane, side) in [
            (self.callers, scorch_core::explore::callers(p, &f)),
            (self.callees, scorch_core::explore::callees(p, &f)),
        ] {
            pane.zoom.set(Vec::new());
            pane.hover.set(None);
            match side {
                Ok(side) => pane.data.set(Some(Arc::new(FlameData::new(
                    Arc::new(shown.derived(side)),
                    view,
                    order,
                )))),
                Err(e) => {
                    self.error.set(Some(e));
                    pane.data.set(None);
                }
            }
        }
    }

    fn start_load(&self, what: String) -> u64 {
        // A load still under way stops here: its worker is terminated and its answer would be stale anyway.
        load::cancel();
        self.progress.set(None);
        self.busy.set(Some(format!("Loading {what}…")));
        let seq = self.seq.get_untracked() + 1;
        self.seq.set(seq);
        seq
    }

    fn finish_load(&self, seq: u64, name: String, result: Result<scorch_core::Imported, String>) {
        self.finish_load_as(seq, name, result, false);
    }

    /// `compare`: the open profile becomes the diff base and this one the target.
    fn finish_load_as(
        &self,
        seq: u64,
        name: String,
        result: Result<scorch_core::Imported, String>,
        compare: bool,
    ) {
        let result = result.map(|imported| Arc::new(Loaded::new(name.clone(), imported)));
        self.finish_loaded(seq, name, result, compare);
    }

    fn finish_loaded(&self, seq: u64, name: String, result: Result<Arc<Loaded>, String>, compare: bool) {
        if self.seq.get_untracked() != seq {
            return; // a newer load started; this one is stale
        }
        self.busy.set(None);
        self.progress.set(None);
        match result {
            Ok(loaded) => {
                let view = ViewOptions::default_for(&loaded.imported.profile);
                let mut base = if compare {
                    self.loaded.get_untracked()
                } else {
                    None
                };
                // A differential folded file (two counts per line) opens as base → target by itself.
                let p = &loaded.imported.profile;
                let two_counts = !compare
                    && p.meta.format == scorch_core::Format::Folded
                    && p.events.iter().map(|e| e.name.as_str()).eq(["base", "target"]);
                if two_counts {
                    base = Some(loaded.clone());
                }
                self.diff_events.set(two_counts.then_some((0, 1)));
                mark("bench:import-done");
                RENDER_MARK_PENDING.with(|p| p.set(true));
                self.error.set(None);
                self.view.set(view);
                self.base.set(base);
                self.hm_sel.set(None);
                self.hm_pending.set(None);
                self.range_a.set(None);
                self.label_text.set(String::new());
                // Transforms and the selection name functions of the profile that was open; a link restores its
                // own below (`apply_state`). The search stays.
                self.transforms.set(Vec::new());
                self.selected.set(None);
                self.loads.update(|n| *n += 1);
                self.loaded.set(Some(loaded));
                self.rebuild();
                self.source.set(self.next_source.get_untracked());
                if let Some(f) = self.pending.get_untracked() {
                    // A pair applies its state after the second (target) load.
                    let pair = f.get("base").is_some() && f.get("target").is_some();
                    if !pair || compare {
                        self.pending.set(None);
                        self.apply_state(&f);
                    }
                }
            }
            Err(e) if e == load::CANCELLED => {}
            // The open profile stays on screen; only the error is shown.
            Err(e) => self.error.set(Some(format!("Could not open {name}: {e}"))),
        }
    }

    /// Shows the open profile under another view (event, weight, root): only the tree is rebuilt.
    fn set_view(&self, view: ViewOptions) {
        if self.loaded.get_untracked().is_none() || view == self.view.get_untracked() {
            return;
        }
        self.view.set(view);
        self.rebuild();
    }

    /// Rebuilds the tree and layout from the loaded profile(s), the view and the diff settings.
    fn rebuild(&self) {
        // A flame graph built during the load is used at most once, and never kept past the first rebuild.
        let pre = self.prebuilt.try_update_value(|p| p.take()).flatten();
        let Some(target) = self.loaded.get_untracked() else {
            return;
        };
        let view = self.view.get_untracked();
        let order = self.order.get_untracked();
        let mode = self.mode.get_untracked();
        let same = self
            .base
            .get_untracked()
            .is_some_and(|b| Arc::ptr_eq(&b, &target));
        let target = self.transformed(&target);
        self.shown.set(Some(target.clone()));
        let data = match self.base.get_untracked() {
            None => {
                if matches!(mode, Mode::Functions | Mode::Sandwich) {
                    let t = scorch_core::explore::functions(&target.imported.profile, &view);
                    self.fn_table.set(Some(Arc::new(t)));
                } else {
                    self.fn_table.set(None);
                }
                match mode {
                    Mode::Inverted => match scorch_core::explore::invert(&target.imported.profile) {
                        Ok(inv) => Arc::new(FlameData::new(Arc::new(target.derived(inv)), view, order)),
                        Err(e) => {
                            self.error.set(Some(e));
                            Arc::new(FlameData::new(target, view, order))
                        }
                    },
                    _ => match pre {
                        Some((d, o)) if o == order && d.view == view && Arc::ptr_eq(&d.loaded, &target) => d,
                        _ => Arc::new(FlameData::new(target, view, order)),
                    },
                }
            }
            Some(base) => {
                // Transforms apply to both sides; a profile compared with itself (ranges, two counts) is one.
                let base = if same {
                    target.clone()
                } else {
                    self.transformed(&base)
                };
                self.fn_table.set(None);
                let (bview, tview, names) = if let Some((be, te)) = self.diff_events.get_untracked() {
                    let counts = |e: u16| if e == 0 { "first counts" } else { "second counts" };
                    (
                        ViewOptions {
                            event: Some(be),
                            ..view
                        },
                        ViewOptions {
                            event: Some(te),
                            ..view
                        },
                        (
                            format!("{} ({})", base.name, counts(be)),
                            format!("{} ({})", target.name, counts(te)),
                        ),
                    )
                } else if let (Some(a), Some(b)) = (self.range_a.get_untracked(), view.time_range) {
                    let origin = self.heat.get_untracked().map_or(0, |h| h.origin_ns);
                    let label = |(s, e): (u64, u64)| {
                        format!(
                            "{} [{:.3}–{:.3} s]",
                            target.name,
                            (s - origin.min(s)) as f64 / 1e9,
                            (e - origin.min(e)) as f64 / 1e9
                        )
                    };
                    (
                        ViewOptions {
                            time_range: Some(a),
                            ..view
                        },
                        view,
                        (label(a), label(b)),
                    )
                } else {
                    let bview = matching_view(&base.imported.profile, &target.imported.profile, view);
                    (bview, view, (base.name.clone(), target.name.clone()))
                };
                Arc::new(FlameData::new_diff(
                    &base,
                    bview,
                    &target,
                    tview,
                    names,
                    self.diff_widths.get_untracked(),
                    self.diff_absolute.get_untracked(),
                    order,
                ))
            }
        };
        self.zoom.set(Vec::new());
        self.hover.set(None);
        self.match_idx.set(None);
        self.data.set(Some(data));
        self.rebuild_sandwich();
    }

    /// Selects cells a..b of the heatmap: the flame graph shows exactly the samples of that time range; with a
    /// range A set, the diff of this range (B) against A.
    fn select_cells(&self, a: (u32, u32), b: (u32, u32)) {
        let Some(h) = self.heat.get_untracked() else {
            return;
        };
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        self.hm_sel.set(Some((lo, hi)));
        self.hm_pending.set(None);
        let range = h.range(lo, hi);
        if self.range_a.get_untracked().is_some() && self.base.get_untracked().is_none() {
            self.base.set(self.loaded.get_untracked());
        }
        self.view.update(|v| v.time_range = Some(range));
        self.rebuild();
    }

    fn clear_range(&self) {
        self.hm_sel.set(None);
        self.hm_pending.set(None);
        if self.range_a.get_untracked().is_some() {
            self.range_a.set(None);
            self.base.set(None);
        }
        self.view.update(|v| v.time_range = None);
        self.rebuild();
    }

    /// Moves the selected range backward (-1) or forward (+1) by its own length.
    fn step_range(&self, dir: i64) {
        let (Some(h), Some((s, e))) = (self.heat.get_untracked(), self.view.get_untracked().time_range)
        else {
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
            self.hm_sel.set(Some((a, b)));
        }
        self.view.update(|v| v.time_range = Some((s2, e2)));
        self.rebuild();
    }

    fn open_compare(&self, file: web_sys::File) {
        let name = file.name();
        let seq = self.start_load(name.clone());
        let ctx = *self;
        leptos::task::spawn_local(async move {
            let r = ctx.load(seq, &name, load::Source::File(file)).await;
            ctx.finish_loaded(seq, name, r, true);
        });
    }

    /// Applies the view state of a fragment to the open profile(s).
    fn apply_state(&self, f: &state::Fragment) {
        let Some(loaded) = self.loaded.get_untracked() else {
            return;
        };
        let p = &loaded.imported.profile;
        let shown = || {
            (
                self.view.get_untracked(),
                self.mode.get_untracked(),
                self.order.get_untracked(),
                self.transforms.get_untracked(),
                self.base.get_untracked().map(|b| Arc::as_ptr(&b)),
                self.diff_widths.get_untracked(),
                self.diff_absolute.get_untracked(),
            )
        };
        let before = shown();
        self.orientation.set(if f.get("view") == Some("icicle") {
            Orientation::Icicle
        } else {
            Orientation::Flame
        });
        let mut v = ViewOptions::default_for(p);
        if let Some(i) = f
            .get("ev")
            .and_then(|name| p.events.iter().position(|e| e.name == name))
        {
            v.event = Some(i as u16);
        }
        if f.get("w") == Some("count") {
            v.weight = WeightMode::Count;
        }
        match f.get("root") {
            Some(r) if r.starts_with("label:") => {
                if let Some(k) = scorch_core::view::label_key(p, &r["label:".len()..]) {
                    v.root = RootMode::Label(k);
                }
            }
            Some(r) => v.root = RootMode::parse(r).unwrap_or(v.root),
            None => {}
        }
        if let Some(tf) = f.get("tf").filter(|t| !t.is_empty()) {
            if let Ok(filter) = scorch_core::view::LabelFilter::parse(p, tf) {
                v.label = Some(filter);
                self.label_text.set(tf.to_string());
            }
        }
        let rows = f.get("rows").and_then(|r| r.parse().ok()).unwrap_or(50);
        let idle = f.get("idle") != Some("0");
        self.hm_rows.set(rows);
        self.hm_idle.set(idle);
        self.diff_widths.set(if f.get("widths") == Some("base") {
            Widths::Base
        } else {
            Widths::Target
        });
        self.diff_absolute.set(f.get("abs") == Some("1"));
        let opts = scorch_core::heatmap::HeatmapOptions {
            rows,
            idle_filter: idle,
        };
        let ranges = f.range("range").is_some() || f.range("a").is_some();
        let h = ranges
            .then(|| {
                scorch_core::heatmap::heatmap(
                    p,
                    &ViewOptions {
                        time_range: None,
                        ..v
                    },
                    &opts,
                )
            })
            .flatten();
        if let (Some(h), Some((s, e))) = (&h, f.range("range")) {
            v.time_range = Some((h.origin_ns + s, h.origin_ns + e));
            if let (Some(a), Some(b)) = (
                h.cell_of(h.origin_ns + s),
                h.cell_of((h.origin_ns + e).saturating_sub(1)),
            ) {
                self.hm_sel.set(Some((a, b)));
            }
        }
        if let (Some(h), Some((s, e))) = (&h, f.range("a")) {
            self.range_a.set(Some((h.origin_ns + s, h.origin_ns + e)));
            self.base.set(Some(loaded.clone()));
        }
        self.search.set(Pattern {
            text: f.get("q").unwrap_or_default().to_string(),
            regex: f.get("qf").is_some_and(|x| x.contains('r')),
            case_sensitive: f.get("qf").is_some_and(|x| x.contains('c')),
        });
        self.transforms.set(scorch_core::explore::transforms_from_text(
            f.get("tx").unwrap_or_default(),
        ));
        self.mode
            .set(f.get("mode").and_then(Mode::from_key).unwrap_or(Mode::Flame));
        self.selected
            .set(f.get("sel").filter(|s| !s.is_empty()).map(str::to_string));
        self.order.set(if f.get("order") == Some("heavy") {
            Order::Weight
        } else {
            Order::Alphabetical
        });
        self.scheme
            .set(f.get("color").and_then(ColorScheme::from_key).unwrap_or_default());
        self.view.set(v);
        // A link that only names the profile (`#url=…`) changes nothing shown: no second build.
        if shown() != before || self.data.with_untracked(|d| d.is_none()) {
            self.rebuild();
        } else {
            self.zoom.set(Vec::new());
        }
        if let (Some(path), Some(data)) = (f.get("zoom"), self.data.get_untracked()) {
            let names: Vec<&str> = path.split(';').filter(|s| !s.is_empty()).collect();
            if let Some(n) = data.tree.find_path(data.profile(), &names) {
                self.zoom.set(vec![n]);
            }
        }
    }

    /// The view state (and source) as a fragment.
    fn fragment(&self) -> state::Fragment {
        let mut f = state::Fragment(self.source.get_untracked());
        let Some(loaded) = self.loaded.get_untracked() else {
            return f;
        };
        let p = &loaded.imported.profile;
        let v = self.view.get_untracked();
        let default = ViewOptions::default_for(p);
        if self.orientation.get_untracked() == Orientation::Icicle {
            f.set("view", "icicle");
        }
        if let Some(data) = self.data.get_untracked() {
            let z = self.current_zoom();
            if z != NodeId::ROOT {
                f.set("zoom", data.path_string(z));
            }
        }
        if v.event != default.event {
            if let Some(e) = v.event.and_then(|e| p.events.get(e as usize)) {
                f.set("ev", e.name.clone());
            }
        }
        if v.weight == WeightMode::Count {
            f.set("w", "count");
        }
        if v.root != default.root {
            f.set(
                "root",
                match v.root {
                    RootMode::Label(k) => format!("label:{}", p.strings.get(k)),
                    r => r.name().to_string(),
                },
            );
        }
        let tf = self.label_text.get_untracked();
        if v.label.is_some() && !tf.is_empty() {
            f.set("tf", tf);
        }
        if self.hm_rows.get_untracked() != 50 {
            f.set("rows", self.hm_rows.get_untracked().to_string());
        }
        if !self.hm_idle.get_untracked() {
            f.set("idle", "0");
        }
        if let Some(h) = self.heat.get_untracked() {
            let rel = |(s, e): (u64, u64)| {
                format!(
                    "{}-{}",
                    s.saturating_sub(h.origin_ns),
                    e.saturating_sub(h.origin_ns)
                )
            };
            if let Some(r) = v.time_range {
                f.set("range", rel(r));
            }
            if let Some(a) = self.range_a.get_untracked() {
                f.set("a", rel(a));
            }
        }
        let q = self.search.get_untracked();
        if !q.text.is_empty() {
            f.set("q", q.text.clone());
            let flags = format!(
                "{}{}",
                if q.regex { "r" } else { "" },
                if q.case_sensitive { "c" } else { "" }
            );
            if !flags.is_empty() {
                f.set("qf", flags);
            }
        }
        let ts = self.transforms.get_untracked();
        if !ts.is_empty() {
            f.set("tx", scorch_core::explore::transforms_to_text(&ts));
        }
        if self.mode.get_untracked() != Mode::Flame {
            f.set("mode", self.mode.get_untracked().key());
        }
        if let Some(sel) = self.selected.get_untracked() {
            f.set("sel", sel);
        }
        if self.order.get_untracked() == Order::Weight {
            f.set("order", "heavy");
        }
        if self.scheme.get_untracked() != ColorScheme::Name {
            f.set("color", self.scheme.get_untracked().key());
        }
        if self.base.get_untracked().is_some() {
            if self.diff_widths.get_untracked() == Widths::Base {
                f.set("widths", "base");
            }
            if self.diff_absolute.get_untracked() {
                f.set("abs", "1");
            }
        }
        f
    }

    fn open_file(&self, file: web_sys::File) {
        self.next_source.set(Vec::new());
        let name = file.name();
        let seq = self.start_load(name.clone());
        let ctx = *self;
        leptos::task::spawn_local(async move {
            let r = ctx.load(seq, &name, load::Source::File(file)).await;
            ctx.finish_loaded(seq, name, r, false);
        });
    }

    fn open_url(&self, url: String) {
        self.next_source.set(vec![("url".to_string(), url.clone())]);
        let name = url.rsplit('/').next().unwrap_or(&url).to_string();
        let seq = self.start_load(name.clone());
        let ctx = *self;
        leptos::task::spawn_local(async move {
            let r = ctx.load(seq, &name, load::Source::Url(url)).await;
            ctx.finish_loaded(seq, name, r, false);
        });
    }

    /// Fetches two profiles and opens them as a diff, base (before) → target (after).
    fn open_pair(&self, base_url: String, target_url: String) {
        self.next_source.set(vec![
            ("base".to_string(), base_url.clone()),
            ("target".to_string(), target_url.clone()),
        ]);
        let name_of = |u: &str| u.rsplit('/').next().unwrap_or(u).to_string();
        let (bname, tname) = (name_of(&base_url), name_of(&target_url));
        let seq = self.start_load(format!("{bname} and {tname}"));
        let ctx = *self;
        leptos::task::spawn_local(async move {
            let base = ctx.load(seq, &bname, load::Source::Url(base_url)).await;
            let target = ctx.load(seq, &tname, load::Source::Url(target_url)).await;
            let base_ok = base.is_ok();
            ctx.finish_loaded(seq, bname, base, false);
            if base_ok {
                ctx.finish_loaded(seq, tname, target, true);
            }
        });
    }

    /// Opens the profile carried in a link (`p=`; with `pb=`, a diff of the two).
    fn open_embedded(&self, payload: String, base_payload: Option<String>) {
        let mut src = vec![("p".to_string(), payload.clone())];
        if let Some(b) = &base_payload {
            src.insert(0, ("pb".to_string(), b.clone()));
        }
        self.next_source.set(src);
        let seq = self.start_load("the profile in the link".to_string());
        let import = |p: &str| {
            scorch_core::share::decode(p)
                .map_err(|e| e.to_string())
                .and_then(|b| load::import(&b))
        };
        match base_payload {
            Some(b) => {
                self.finish_load_as(seq, "base (from the link)".to_string(), import(&b), false);
                self.finish_load_as(seq, "target (from the link)".to_string(), import(&payload), true);
            }
            None => self.finish_load_as(seq, "profile from the link".to_string(), import(&payload), false),
        }
    }

    /// Imports in the worker, showing its progress while this load (`seq`) is the latest; then builds the
    /// flame graph of the default view in steps, each its own task, so the page never freezes for long.
    async fn load(&self, seq: u64, name: &str, source: load::Source) -> Result<Arc<Loaded>, String> {
        let ctx = *self;
        let order = self.order.get_untracked();
        let done = load::load(source, order, move |p| {
            if ctx.seq.get_untracked() == seq {
                ctx.progress.set(Some(p));
            }
        })
        .await?;
        if self.seq.get_untracked() != seq {
            return Err(load::CANCELLED.to_string());
        }
        load::yield_now().await;
        let loaded = Arc::new(Loaded::new(name.to_string(), done.imported));
        let view = ViewOptions::default_for(&loaded.imported.profile);
        let data = match done.flame {
            // Built by the worker (for this order and the default view).
            Some((tree, layout)) => FlameData::from_parts(loaded.clone(), view, tree, layout),
            None => {
                let tree = scorch_core::CallTree::build(&loaded.imported.profile, &view, order);
                load::yield_now().await;
                FlameData::from_tree(loaded.clone(), view, tree)
            }
        };
        self.prebuilt.set_value(Some((Arc::new(data), order)));
        load::yield_now().await;
        let opts = scorch_core::heatmap::HeatmapOptions {
            rows: self.hm_rows.get_untracked(),
            idle_filter: self.hm_idle.get_untracked(),
        };
        let h = scorch_core::heatmap::heatmap(&loaded.imported.profile, &view, &opts);
        self.prebuilt_heat
            .set_value(Some((loaded.clone(), view, opts, h)));
        load::yield_now().await;
        Ok(loaded)
    }

    /// Stops the load under way; the open profile stays.
    fn cancel_load(&self) {
        if self.busy.get_untracked().is_none() {
            return;
        }
        load::cancel();
        self.seq.update(|s| *s += 1);
        self.busy.set(None);
        self.progress.set(None);
        self.pending.set(None);
        self.error.set(Some(
            "Loading cancelled. The open profile (if any) is unchanged.".to_string(),
        ));
    }

    fn open_text(&self, name: &str, text: &str) {
        self.next_source.set(Vec::new());
        let seq = self.start_load(name.to_string());
        let r = load::import(text.as_bytes());
        self.finish_load(seq, name.to_string(), r);
    }
}

/// "120.4 MB of 400.1 MB · 58,120 samples".
fn progress_text(p: &protocol::Progress) -> String {
    let mb = |b: f64| format!("{:.1} MB", b / 1e6);
    let mut s = match p.total {
        Some(t) => format!("{} of {}", mb(p.read), mb(t)),
        None => format!("{} read", mb(p.read)),
    };
    if p.samples > 0.0 {
        s.push_str(&format!(
            " · {} samples",
            scorch_core::units::group_thousands(p.samples as u64)
        ));
    }
    s
}

/// The base's view matching the target's: the same event (by name), weight and root where the base has them.
fn matching_view(base: &scorch_core::Profile, target: &scorch_core::Profile, v: ViewOptions) -> ViewOptions {
    let mut b = ViewOptions::default_for(base);
    if let Some(name) = v
        .event
        .and_then(|e| target.events.get(e as usize))
        .map(|e| &e.name)
    {
        if let Some(i) = base.events.iter().position(|e| &e.name == name) {
            b.event = Some(i as u16);
        }
    }
    b.weight = v.weight;
    if !base.threads.is_empty() && !matches!(v.root, RootMode::Label(_)) {
        b.root = v.root;
    }
    b
}

thread_local! {
    static RENDER_MARK_PENDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// Keeps the address bar's fragment in step with the view: a new history entry when the zoom or the time range
/// changes (so Back/Forward move between them), a replaced one for everything else (no entry per hover).
fn sync_fragment(ctx: Ctx) {
    Effect::new(move |_| {
        ctx.data.track();
        ctx.zoom.track();
        ctx.orientation.track();
        ctx.view.track();
        ctx.hm_rows.track();
        ctx.hm_idle.track();
        ctx.range_a.track();
        ctx.diff_widths.track();
        ctx.diff_absolute.track();
        ctx.source.track();
        ctx.heat.track();
        ctx.label_text.track();
        ctx.search.track();
        ctx.transforms.track();
        ctx.mode.track();
        ctx.selected.track();
        ctx.order.track();
        ctx.scheme.track();
        if ctx.pending.get_untracked().is_some() || ctx.loaded.get_untracked().is_none() {
            return; // a link's state is still to be applied
        }
        let Some(w) = web_sys::window() else { return };
        let f = ctx.fragment();
        let current = state::Fragment::parse(&w.location().hash().unwrap_or_default());
        if f == current {
            return;
        }
        let meaningful = ["zoom", "range", "a", "tx", "mode", "sel"]
            .iter()
            .any(|k| f.get(k) != current.get(k))
            || f.source() != current.source();
        let url = if f.0.is_empty() {
            let loc = w.location();
            format!(
                "{}{}",
                loc.pathname().unwrap_or_default(),
                loc.search().unwrap_or_default()
            )
        } else {
            f.render()
        };
        if let Ok(h) = w.history() {
            let _ = if meaningful {
                h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
            } else {
                h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
            };
        }
    });
}

/// Opens what the fragment names (`p`, `base`+`target`, `url`; else the demo on start) and applies its view state;
/// when it names what is already open (Back/Forward), only the view state is applied.
fn open_from_fragment(ctx: Ctx, on_start: bool) {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let f = state::Fragment::parse(&hash);
    let src = f.source();
    if !on_start && !src.is_empty() && src == ctx.source.get_untracked() {
        ctx.apply_state(&f);
        return;
    }
    if !on_start && src.is_empty() {
        if ctx.loaded.get_untracked().is_some() {
            ctx.apply_state(&f);
        }
        return;
    }
    ctx.pending.set(Some(f.clone()));
    match (
        f.get("p"),
        f.get("pb"),
        f.get("base"),
        f.get("target"),
        f.get("url"),
    ) {
        (Some(p), pb, _, _, _) => ctx.open_embedded(p.to_string(), pb.map(str::to_string)),
        (_, _, Some(b), Some(t), _) => ctx.open_pair(b.to_string(), t.to_string()),
        (_, _, _, _, Some(u)) => ctx.open_url(u.to_string()),
        _ => ctx.open_url(DEMO_URL.to_string()),
    }
}

#[component]
pub fn App() -> impl IntoView {
    let ctx = Ctx {
        loaded: RwSignal::new(None),
        view: RwSignal::new(ViewOptions::default()),
        data: RwSignal::new(None),
        base: RwSignal::new(None),
        diff_widths: RwSignal::new(Widths::Target),
        diff_absolute: RwSignal::new(false),
        diff_events: RwSignal::new(None),
        heat: RwSignal::new(None),
        hm_rows: RwSignal::new(50),
        hm_idle: RwSignal::new(true),
        hm_sparse: RwSignal::new(false),
        hm_sel: RwSignal::new(None),
        hm_pending: RwSignal::new(None),
        range_a: RwSignal::new(None),
        source: RwSignal::new(Vec::new()),
        next_source: RwSignal::new(Vec::new()),
        label_text: RwSignal::new(String::new()),
        pending: RwSignal::new(None),
        zoom: RwSignal::new(Vec::new()),
        hover: RwSignal::new(None),
        orientation: RwSignal::new(Orientation::Flame),
        error: RwSignal::new(None),
        busy: RwSignal::new(None),
        progress: RwSignal::new(None),
        prebuilt: StoredValue::new_local(None),
        prebuilt_heat: StoredValue::new_local(None),
        width: RwSignal::new(800.0),
        height: RwSignal::new(400.0),
        scroll_top: RwSignal::new(0.0),
        seq: RwSignal::new(0),
        search: RwSignal::new(Pattern::default()),
        match_idx: RwSignal::new(None),
        transforms: RwSignal::new(Vec::new()),
        mode: RwSignal::new(Mode::Flame),
        selected: RwSignal::new(None),
        order: RwSignal::new(Order::Alphabetical),
        scheme: RwSignal::new(ColorScheme::Name),
        theme: RwSignal::new("auto"),
        shown: RwSignal::new(None),
        fn_table: RwSignal::new(None),
        callers: Pane::new("callers", Some(Orientation::Flame)),
        callees: Pane::new("callees", Some(Orientation::Icicle)),
        help: RwSignal::new(false),
        loads: RwSignal::new(0),
    };
    provide_context(ctx);

    // Whole-page drag and drop, and paste anywhere outside a text field.
    let _ = window_event_listener(leptos::ev::dragover, |e| e.prevent_default());
    let _ = window_event_listener(leptos::ev::drop, move |e| {
        e.prevent_default();
        if let Some(file) = e.data_transfer().and_then(|dt| dt.files()).and_then(|f| f.get(0)) {
            ctx.open_file(file);
        }
    });
    let _ = window_event_listener(leptos::ev::paste, move |e| {
        let in_field = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA"));
        if in_field {
            return;
        }
        if let Some(text) = e.clipboard_data().and_then(|d| d.get_data("text").ok()) {
            if !text.trim().is_empty() {
                e.prevent_default();
                ctx.open_text("pasted text", &text);
            }
        }
    });
    let _ = window_event_listener(leptos::ev::keydown, move |e| {
        let in_field = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA"));
        if in_field {
            return;
        }
        if e.ctrl_key() || e.meta_key() || e.alt_key() {
            if (e.ctrl_key() || e.meta_key()) && e.key() == "z" && ctx.transforms.with(|t| !t.is_empty()) {
                e.prevent_default();
                let last = ctx.transforms.with(|t| t.len() - 1);
                ctx.remove_transform(last);
            }
            return;
        }
        match e.key().as_str() {
            "Escape" if ctx.busy.with(|b| b.is_some()) => ctx.cancel_load(),
            "Escape" if ctx.help.get_untracked() => ctx.help.set(false),
            "Escape" if ctx.zoom.with(|z| !z.is_empty()) => ctx.zoom.update(|z| {
                z.pop();
            }),
            "Escape" if ctx.hm_sel.with(|s| s.is_some()) || ctx.hm_pending.with(|s| s.is_some()) => {
                ctx.clear_range()
            }
            "[" => ctx.step_range(-1),
            "]" => ctx.step_range(1),
            "/" => {
                e.prevent_default();
                focus_testid("search");
            }
            "n" => step_match(ctx, 1),
            "N" => step_match(ctx, -1),
            "r" => ctx.zoom.set(Vec::new()),
            "1" => ctx.set_mode(Mode::Flame),
            "2" => ctx.set_mode(Mode::Inverted),
            "3" => ctx.set_mode(Mode::Sandwich),
            "4" => ctx.set_mode(Mode::Functions),
            "i" => ctx.orientation.update(|o| {
                *o = match o {
                    Orientation::Flame => Orientation::Icicle,
                    Orientation::Icicle => Orientation::Flame,
                }
            }),
            "h" => {
                ctx.order.set(match ctx.order.get_untracked() {
                    Order::Alphabetical => Order::Weight,
                    Order::Weight => Order::Alphabetical,
                });
                ctx.rebuild();
            }
            "t" => cycle_theme(ctx),
            "?" => ctx.help.update(|h| *h = !*h),
            _ => {}
        }
    });

    // The theme: follow the system unless chosen.
    Effect::new(move |_| {
        let t = ctx.theme.get();
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = el.set_attribute("data-theme", t);
        }
    });

    open_from_fragment(ctx, true);
    sync_fragment(ctx);
    // A link pasted into an open tab changes only the fragment.
    let _ = window_event_listener(leptos::ev::hashchange, move |_| open_from_fragment(ctx, false));

    let main = ctx.main_pane();
    let mode = move || ctx.mode.get();
    view! {
        <header class="toolbar">
            <span class="brand">"scorch"</span>
            <OpenControls/>
            <span class="spacer"></span>
            <ViewControls/>
            <OrientationToggle/>
            <ThemeToggle/>
            <button data-testid="help-toggle" title="Keyboard shortcuts (?)" on:click=move |_| ctx.help.update(|h| *h = !*h)>"?"</button>
        </header>
        <ErrorBanner/>
        <DiffBar/>
        <HeatmapPanel/>
        <ExploreBar/>
        <Show when=move || matches!(mode(), Mode::Flame | Mode::Inverted) || ctx.base.with(|b| b.is_some())>
            <Breadcrumb/>
            <FlameCanvas pane=main/>
        </Show>
        <Show when=move || mode() == Mode::Functions && ctx.base.with(|b| b.is_none())>
            <FunctionTable compact=false/>
        </Show>
        <Show when=move || mode() == Mode::Sandwich && ctx.base.with(|b| b.is_none())>
            <Sandwich/>
        </Show>
        <Tooltip pane=main/>
        <Tooltip pane=ctx.callers/>
        <Tooltip pane=ctx.callees/>
        <Shortcuts/>
        <StatusLine/>
    }
}

/// A button that opens a file chooser and hands the chosen file on.
#[component]
fn FilePicker(
    label: &'static str,
    testid: &'static str,
    title: &'static str,
    on_file: Callback<web_sys::File>,
) -> impl IntoView {
    view! {
        <label class="button" title=title>
            {label}
            <input type="file" data-testid=testid class="hidden-input"
                on:change=move |ev| {
                    let input: web_sys::HtmlInputElement = event_target(&ev);
                    if let Some(file) = input.files().and_then(|f| f.get(0)) {
                        on_file.run(file);
                    }
                    input.set_value("");
                }/>
        </label>
    }
}

#[component]
fn OpenControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let paste_open = RwSignal::new(false);
    let text_ref = NodeRef::<leptos::html::Textarea>::new();
    view! {
        <FilePicker label="Open file…" testid="open-file" title="Open a profile (perf script, pprof, folded; gzip'd or not)"
            on_file=Callback::new(move |f| ctx.open_file(f))/>
        <button data-testid="paste-toggle" on:click=move |_| paste_open.update(|o| *o = !*o)>"Paste text…"</button>
        <Show when=move || ctx.loaded.with(|l| l.is_some())>
            <FilePicker label="Compare with…" testid="compare-file"
                title="Open a second profile and compare: the one open now is the base (before), the new one the target (after)"
                on_file=Callback::new(move |f| ctx.open_compare(f))/>
        </Show>
        <span class="hint">"or drop a file anywhere"</span>
        <Show when=move || paste_open.get()>
            <div class="paste-panel">
                <textarea node_ref=text_ref data-testid="paste-text" rows="8"
                    placeholder="Paste folded stacks here (frame;frame;frame COUNT per line)"></textarea>
                <button data-testid="paste-open" on:click=move |_| {
                    if let Some(t) = text_ref.get() {
                        ctx.open_text("pasted text", &t.value());
                    }
                    paste_open.set(false);
                }>"Open"</button>
            </div>
        </Show>
        {move || ctx.busy.get().map(|b| view! {
            <span class="busy" data-testid="busy">
                {b}
                {move || ctx.progress.get().map(|p| {
                    let value = p.total.map(|t| (p.read / t.max(1.0)).clamp(0.0, 1.0));
                    view! {
                        <progress data-testid="progress" max="1" value=value.map(|v| v.to_string())
                            data-read=p.read data-samples=p.samples></progress>
                        <span class="progress-text" data-testid="progress-text">{progress_text(&p)}</span>
                    }
                })}
                <button data-testid="cancel" title="Stop loading (Esc)" on:click=move |_| ctx.cancel_load()>"Cancel"</button>
            </span>
        })}
    }
}

/// Event (or pprof sample type), weight, label filter and root selectors, shown when the profile has them.
#[component]
fn ViewControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let with_profile = move |f: &dyn Fn(&scorch_core::Profile) -> Vec<(String, String)>| {
        ctx.loaded
            .with(|l| l.as_ref().map(|l| f(&l.imported.profile)).unwrap_or_default())
    };
    let events = move || {
        with_profile(&|p| {
            p.events
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    (
                        i.to_string(),
                        format!("{} ({} samples)", e.name, group_thousands(e.samples)),
                    )
                })
                .collect()
        })
    };
    let label_keys = move || {
        with_profile(&|p| {
            scorch_core::view::label_keys(p)
                .into_iter()
                .map(|k| (format!("label:{k}"), k))
                .collect()
        })
    };
    let has_threads = move || {
        ctx.loaded
            .with(|l| l.as_ref().is_some_and(|l| !l.imported.profile.threads.is_empty()))
    };
    let is_pprof = move || {
        ctx.loaded.with(|l| {
            l.as_ref()
                .is_some_and(|l| l.imported.profile.meta.format == scorch_core::Format::Pprof)
        })
    };
    let root_value = move || match ctx.view.get().root {
        RootMode::Label(k) => ctx
            .loaded
            .with(|l| {
                l.as_ref()
                    .map(|l| format!("label:{}", l.imported.profile.strings.get(k)))
            })
            .unwrap_or_default(),
        r => r.name().to_string(),
    };
    let on_event = move |ev: leptos::ev::Event| {
        let i: u16 = event_target_value(&ev).parse().unwrap_or(0);
        ctx.set_view(ViewOptions {
            event: Some(i),
            ..ctx.view.get_untracked()
        });
    };
    let on_weight = move |ev: leptos::ev::Event| {
        let weight = if event_target_value(&ev) == "count" {
            WeightMode::Count
        } else {
            WeightMode::Weight
        };
        ctx.set_view(ViewOptions {
            weight,
            ..ctx.view.get_untracked()
        });
    };
    let on_root = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        let root = match value.strip_prefix("label:") {
            Some(key) => {
                match ctx
                    .loaded
                    .get_untracked()
                    .and_then(|l| scorch_core::view::label_key(&l.imported.profile, key))
                {
                    Some(k) => RootMode::Label(k),
                    None => return,
                }
            }
            None => RootMode::parse(&value).unwrap_or_default(),
        };
        ctx.set_view(ViewOptions {
            root,
            ..ctx.view.get_untracked()
        });
    };
    let filter_error = RwSignal::new(None::<String>);
    let on_filter = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() != "Enter" {
            return;
        }
        let text = event_target_value(&ev);
        let Some(loaded) = ctx.loaded.get_untracked() else {
            return;
        };
        let label = if text.trim().is_empty() {
            Ok(None)
        } else {
            scorch_core::view::LabelFilter::parse(&loaded.imported.profile, text.trim()).map(Some)
        };
        match label {
            Ok(label) => {
                filter_error.set(None);
                ctx.label_text.set(text.trim().to_string());
                ctx.set_view(ViewOptions {
                    label,
                    ..ctx.view.get_untracked()
                });
            }
            Err(e) => filter_error.set(Some(e)),
        }
    };
    let options = |items: Vec<(String, String)>| {
        items
            .into_iter()
            .map(|(value, label)| view! { <option value=value>{label}</option> })
            .collect_view()
    };
    view! {
        <Show when=move || !events().is_empty()>
            <label class="control">{move || if is_pprof() { "Sample type " } else { "Event " }}
                <select data-testid="event-select" on:change=on_event
                    prop:value=move || ctx.view.get().event.unwrap_or(0).to_string()>
                    {move || options(events())}
                </select>
            </label>
        </Show>
        <Show when=move || !events().is_empty() && !is_pprof()>
            <label class="control">"Weight "
                <select data-testid="weight-select" on:change=on_weight
                    prop:value=move || if ctx.view.get().weight == WeightMode::Count { "count" } else { "weight" }>
                    <option value="weight">"period"</option>
                    <option value="count">"sample count"</option>
                </select>
            </label>
        </Show>
        <Show when=move || !label_keys().is_empty()>
            <label class="control">"Labels "
                <input data-testid="label-filter" class="label-filter" type="text" placeholder="key=value ⏎"
                    title="Keep samples with this label: key=value, or key=LO:HI for numbers (units like 4kb, 10ms); empty shows all"
                    on:keydown=on_filter/>
            </label>
            {move || filter_error.get().map(|e| view! { <span class="filter-error" data-testid="label-filter-error">{e}</span> })}
        </Show>
        <Show when=move || has_threads() || !label_keys().is_empty()>
            <label class="control">"Root "
                <select data-testid="root-select" on:change=on_root prop:value=root_value>
                    {move || {
                        let mut items = Vec::new();
                        if has_threads() {
                            items.push(("comm".to_string(), "process".to_string()));
                            items.push(("pid".to_string(), "process-pid".to_string()));
                            items.push(("tid".to_string(), "process-pid/tid".to_string()));
                        }
                        items.push(("none".to_string(), "none".to_string()));
                        items.extend(label_keys().into_iter().map(|(v, k)| (v, format!("label {k}"))));
                        options(items)
                    }}
                </select>
            </label>
        </Show>
        <InfoPanel/>
        <CopyLink/>
    }
}

/// "Copy link": the view as a link. A profile opened by URL is named by it; a local file or pasted text travels
/// in the link itself (compressed: the stacks of the current view, so what the receiver sees is what you see).
#[component]
fn CopyLink() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let shown = RwSignal::new(None::<(String, String)>);
    let make = move |_| {
        let Some(w) = web_sys::window() else { return };
        let mut f = ctx.fragment();
        let mut about = String::from("the link names the hosted profile");
        if f.source().is_empty() {
            if let Some(loaded) = ctx.loaded.get_untracked() {
                // The profile travels as folded stacks of the current view: event, weight, root, labels and
                // time range are baked into it, so they leave the fragment.
                let v = ctx.view.get_untracked();
                // With timestamps when they fit (the receiver gets the heatmap, and the range stays view state);
                // else the view's stacks with the range baked in.
                let p = &loaded.imported.profile;
                let max = scorch_core::share::DEFAULT_MAX;
                let s = scorch_core::share::encode_timed(p, &v, max)
                    .unwrap_or_else(|| scorch_core::share::encode(p, &v, max));
                let timed = s.times;
                let keep: Vec<(String, String)> =
                    f.0.into_iter()
                        .filter(|(k, _)| {
                            matches!(
                                k.as_str(),
                                "view"
                                    | "zoom"
                                    | "widths"
                                    | "abs"
                                    | "q"
                                    | "qf"
                                    | "tx"
                                    | "mode"
                                    | "sel"
                                    | "order"
                                    | "color"
                            ) || (timed && matches!(k.as_str(), "range" | "a" | "rows" | "idle"))
                        })
                        .collect();
                f = state::Fragment(keep);
                f.0.insert(0, ("p".to_string(), s.payload));
                // A diff of two local profiles carries the base too (not a range comparison: one profile).
                let base = ctx.base.get_untracked().filter(|b| !Arc::ptr_eq(b, &loaded));
                about = if let (Some(b), None) = (base, ctx.range_a.get_untracked()) {
                    let bv = ViewOptions {
                        time_range: None,
                        ..matching_view(&b.imported.profile, &loaded.imported.profile, v)
                    };
                    let bs =
                        scorch_core::share::encode(&b.imported.profile, &bv, scorch_core::share::DEFAULT_MAX);
                    f.0.insert(0, ("pb".to_string(), bs.payload));
                    String::from("both profiles are in the link (")
                } else {
                    String::from("the profile is in the link (")
                };
                about.push_str(&format!("{} stacks", group_thousands(s.stacks as u64)));
                if s.dropped_stacks > 0 {
                    about.push_str(&format!(
                        "; {} smaller stacks, {:.2} % of the total, left out to keep it under {} KB",
                        group_thousands(s.dropped_stacks as u64),
                        s.dropped_ppm as f64 / 1e4,
                        scorch_core::share::DEFAULT_MAX / 1024
                    ));
                }
                if timed {
                    about.push_str("; with timestamps, so the heatmap and the time range come along");
                } else if v.time_range.is_some() {
                    about.push_str("; only the selected time range, without timestamps");
                }
                about.push(')');
            }
        }
        let loc = w.location();
        let link = format!(
            "{}{}{}",
            loc.origin().unwrap_or_default(),
            loc.pathname().unwrap_or_default(),
            f.render()
        );
        let _ = w.navigator().clipboard().write_text(&link);
        shown.set(Some((
            link.clone(),
            format!("{} characters: {about}", group_thousands(link.len() as u64)),
        )));
    };
    view! {
        <button data-testid="copy-link" title="Copy a link to exactly this view" on:click=make>"Copy link"</button>
        {move || shown.get().map(|(link, size)| view! {
            <div class="link-panel">
                <input data-testid="copy-link-text" readonly prop:value=link/>
                <span data-testid="copy-link-size">{size}</span>
                <button on:click=move |_| shown.set(None)>"Close"</button>
            </div>
        })}
    }
}

/// What the file says about itself (pprof: sample types, period, duration, comments, drop_frames).
#[component]
fn InfoPanel() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let open = RwSignal::new(false);
    let info = move || {
        ctx.loaded.with(|l| {
            l.as_ref()
                .map(|l| l.imported.profile.meta.info.clone())
                .unwrap_or_default()
        })
    };
    view! {
        <Show when=move || !info().is_empty()>
            <button data-testid="info-toggle" title="What the file says about itself"
                on:click=move |_| open.update(|o| *o = !*o)>"Info"</button>
            <Show when=move || open.get()>
                <div class="info-panel" data-testid="profile-info">
                    <table>
                        {move || info().into_iter().map(|(k, v)| view! { <tr><th>{k}</th><td>{v}</td></tr> }).collect_view()}
                    </table>
                </div>
            </Show>
        </Show>
    }
}

/// The differential view's legend, switches and movers table. The legend says the direction in words.
#[component]
fn DiffBar() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let show_movers = RwSignal::new(false);
    let sort_by_total = RwSignal::new(false);
    let info = move || {
        ctx.data.with(|d| {
            d.as_ref().and_then(|d| d.diff.as_ref()).map(|x| {
                (
                    x.base_name.clone(),
                    x.target_name.clone(),
                    scorch_core::units::format_value(x.base_sum as f64, &x.base_unit),
                    scorch_core::units::format_value(x.target_sum as f64, &x.target_unit),
                    x.widths,
                    x.absolute,
                )
            })
        })
    };
    let swap = move |_| {
        if let Some((be, te)) = ctx.diff_events.get_untracked() {
            ctx.diff_events.set(Some((te, be)));
            ctx.rebuild();
            return;
        }
        if let (Some(a), Some(b)) = (ctx.range_a.get_untracked(), ctx.view.get_untracked().time_range) {
            ctx.range_a.set(Some(b));
            ctx.view.update(|v| v.time_range = Some(a));
            if let Some(h) = ctx.heat.get_untracked() {
                if let (Some(x), Some(y)) = (h.cell_of(a.0), h.cell_of(a.1 - 1)) {
                    ctx.hm_sel.set(Some((x, y)));
                }
            }
            ctx.rebuild();
            return;
        }
        let (b, t) = (ctx.base.get_untracked(), ctx.loaded.get_untracked());
        if let (Some(b), Some(t)) = (b, t) {
            ctx.view.set(ViewOptions::default_for(&b.imported.profile));
            ctx.base.set(Some(t));
            ctx.loaded.set(Some(b));
            ctx.rebuild();
        }
    };
    let exit = move |_| {
        ctx.range_a.set(None);
        if let Some((_, te)) = ctx.diff_events.get_untracked() {
            ctx.view.update(|v| v.event = Some(te));
            ctx.diff_events.set(None);
        }
        ctx.base.set(None);
        ctx.rebuild();
    };
    let toggle_widths = move |_| {
        ctx.diff_widths.update(|w| {
            *w = if *w == Widths::Target {
                Widths::Base
            } else {
                Widths::Target
            }
        });
        ctx.rebuild();
    };
    let toggle_mode = move |_| {
        ctx.diff_absolute.update(|a| *a = !*a);
        ctx.rebuild();
    };
    let movers = move || {
        let by_total = sort_by_total.get();
        ctx.data.with(|d| {
            let mut rows = d
                .as_ref()
                .and_then(|d| d.diff.as_ref())
                .map(|x| x.movers.clone())
                .unwrap_or_default();
            if by_total {
                rows.sort_by(|a, b| {
                    b.total_delta()
                        .abs()
                        .total_cmp(&a.total_delta().abs())
                        .then_with(|| a.name.cmp(&b.name))
                });
            }
            rows.truncate(200);
            rows
        })
    };
    let select = move |name: String| {
        // Zoom to the widest frame of that function.
        let Some(d) = ctx.data.get_untracked() else { return };
        let best = (1..d.tree.len())
            .filter(|&n| d.name_of(NodeId(n as u32)) == name && d.tree.total[n] > 0)
            .max_by_key(|&n| d.tree.total[n]);
        if let Some(n) = best {
            ctx.zoom.set(vec![NodeId(n as u32)]);
        }
    };
    move || {
        info().map(|(bname, tname, btotal, ttotal, widths, absolute)| {
            let (battr, tattr) = (bname.clone(), tname.clone());
            let legend = format!(
                "Red: {} in target (after) than in base (before); blue: {}; grey: unchanged. {}",
                if absolute { "more" } else { "larger share" },
                if absolute { "less" } else { "smaller share" },
                if absolute {
                    "Absolute values: the two runs are assumed comparable.".to_string()
                } else {
                    "Shares of each profile's own total (normalised).".to_string()
                }
            );
            view! {
                <div class="diff-bar" data-testid="diff-legend" data-base=battr data-target=tattr
                    data-widths=if widths == Widths::Target { "target" } else { "base" }
                    data-mode=if absolute { "absolute" } else { "normalised" }>
                    <div class="diff-sides">
                        <span class="swatch grew"></span><span class="swatch shrank"></span>
                        <span>"base (before): "<b>{bname}</b>" · "{btotal}</span>
                        <span>" → target (after): "<b>{tname}</b>" · "{ttotal}</span>
                    </div>
                    <div class="diff-legend-text">{legend}
                        " Widths from the "{if widths == Widths::Target { "target (after)" } else { "base (before)" }}". "
                        <span class="mark-new">"dashed red"</span>" = only in the target; "
                        <span class="mark-gone">"dashed blue"</span>" = only in the base."
                    </div>
                    <div class="diff-buttons">
                        <button data-testid="diff-swap" on:click=swap>"Swap base ⇄ target"</button>
                        <button data-testid="diff-widths" on:click=toggle_widths>
                            {if widths == Widths::Target { "Widths: target" } else { "Widths: base" }}
                        </button>
                        <button data-testid="diff-mode" on:click=toggle_mode>
                            {if absolute { "Absolute values" } else { "Normalised shares" }}
                        </button>
                        <button data-testid="movers-toggle" on:click=move |_| show_movers.update(|m| *m = !*m)>"Movers"</button>
                        <button data-testid="diff-exit" on:click=exit>"Exit diff"</button>
                    </div>
                    <Show when=move || show_movers.get()>
                        <div class="movers">
                            <table data-testid="movers-table">
                                <thead><tr>
                                    <th>"function"</th><th>"base self"</th><th>"target self"</th>
                                    <th class="sortable" on:click=move |_| sort_by_total.set(false)>"Δ self ▾"</th>
                                    <th>"base total"</th><th>"target total"</th>
                                    <th class="sortable" on:click=move |_| sort_by_total.set(true)>"Δ total ▾"</th>
                                </tr></thead>
                                <tbody>
                                    {move || movers().into_iter().map(|m| {
                                        let name = m.name.clone();
                                        let cls = if m.self_delta() > 0.0 { "grew" } else if m.self_delta() < 0.0 { "shrank" } else { "" };
                                        view! {
                                            <tr data-testid="mover-row" class=cls on:click=move |_| select(name.clone())>
                                                <td class="fn">{m.name.clone()}</td>
                                                <td>{format!("{:.2} %", m.base_self * 100.0)}</td>
                                                <td>{format!("{:.2} %", m.target_self * 100.0)}</td>
                                                <td>{format!("{:+.2} pp", m.self_delta())}</td>
                                                <td>{format!("{:.2} %", m.base_total * 100.0)}</td>
                                                <td>{format!("{:.2} %", m.target_total * 100.0)}</td>
                                                <td>{format!("{:+.2} pp", m.total_delta())}</td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                    </Show>
                </div>
            }
        })
    }
}

/// Height of the heatmap in CSS px (rows share it).
const HEATMAP_H: f64 = 200.0;

/// FlameScope's subsecond-offset heatmap: one column per second, rows for the offset within the second (row 0 at
/// the bottom), colour from the background to red at the largest cell. Press on a cell and release on another
/// (or click twice) to select a time range; the flame graph below shows exactly its samples.
#[component]
fn HeatmapPanel() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let canvas_ref = NodeRef::<leptos::html::Canvas>::new();
    let drag_from = RwSignal::new(None::<(u32, u32)>);
    let hover_text = RwSignal::new(String::new());
    let has_times = move || {
        ctx.loaded
            .with(|l| l.as_ref().map(|l| l.imported.profile.samples.time_ns.is_some()))
    };
    let file_diff = move || ctx.base.with(|b| b.is_some()) && ctx.range_a.with(|a| a.is_none());

    // Recompute the grid when the profile, the event, labels, rows or the idle filter change (not on selection).
    let key = Memo::new(move |_| {
        let loaded = ctx.loaded.with(|l| l.as_ref().map(|l| Arc::as_ptr(l) as usize));
        let v = ctx.view.with(|v| (v.event, v.label, v.weight));
        (loaded, v, ctx.hm_rows.get(), ctx.hm_idle.get())
    });
    Effect::new(move |_| {
        let (_, (event, label, _), rows, idle) = key.get();
        let Some(loaded) = ctx.loaded.get_untracked() else {
            return;
        };
        let p = &loaded.imported.profile;
        let v = ViewOptions {
            event,
            label,
            ..ViewOptions::default_for(p)
        };
        let opts = scorch_core::heatmap::HeatmapOptions {
            rows,
            idle_filter: idle,
        };
        let pre = ctx.prebuilt_heat.try_update_value(|p| p.take()).flatten();
        let h = match pre {
            Some((l, pv, po, h)) if Arc::ptr_eq(&l, &loaded) && pv == v && po == opts => h,
            _ => scorch_core::heatmap::heatmap(p, &v, &opts),
        };
        // Keep a selection that a link or the view already holds (it is a time range, not cells).
        let sel = match (&h, ctx.view.get_untracked().time_range) {
            (Some(h), Some((s, e))) => h.cell_of(s).zip(h.cell_of(e.saturating_sub(1))),
            _ => None,
        };
        ctx.heat.set(h.map(Arc::new));
        mark("bench:heatmap-done");
        ctx.hm_sel.set(sel);
        ctx.hm_pending.set(None);
    });

    let cell_size = move |h: &scorch_core::heatmap::Heatmap| {
        let avail = web_sys::window()
            .and_then(|w| w.inner_width().ok())
            .and_then(|v| v.as_f64())
            .unwrap_or(1200.0)
            - 40.0;
        let cw = (avail / f64::from(h.columns.max(1))).clamp(4.0, 28.0).floor();
        let ch = (HEATMAP_H / f64::from(h.rows)).max(2.0);
        (cw, ch)
    };
    let cell_at = move |ev: &leptos::ev::MouseEvent| -> Option<(u32, u32)> {
        let h = ctx.heat.get_untracked()?;
        let canvas = canvas_ref.get_untracked()?;
        let rect = canvas.get_bounding_client_rect();
        let (cw, ch) = cell_size(&h);
        let x = f64::from(ev.client_x()) - rect.left();
        let y = f64::from(ev.client_y()) - rect.top();
        if x < 0.0 || y < 0.0 {
            return None;
        }
        let c = (x / cw) as u32;
        let r_from_top = (y / ch) as u32;
        (c < h.columns && r_from_top < h.rows).then(|| (c, h.rows - 1 - r_from_top))
    };

    // Draw: cells, then the selection outline.
    Effect::new(move |_| {
        let h = ctx.heat.get();
        let sel = ctx.hm_sel.get();
        let pending = ctx.hm_pending.get();
        let sparse = ctx.hm_sparse.get();
        let (Some(h), Some(canvas)) = (h, canvas_ref.get()) else {
            return;
        };
        let (cw, ch) = cell_size(&h);
        let (w, hh) = (cw * f64::from(h.columns), ch * f64::from(h.rows));
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
        canvas.set_width((w * dpr).round() as u32);
        canvas.set_height((hh * dpr).round() as u32);
        let style = web_sys::HtmlElement::style(&canvas);
        let _ = style.set_property("width", &format!("{w}px"));
        let _ = style.set_property("height", &format!("{hh}px"));
        let Some(c2d) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let _ = c2d.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        c2d.set_fill_style_str("rgb(245,245,243)");
        c2d.fill_rect(0.0, 0.0, w, hh);
        let max = f64::from(h.max.max(1));
        for c in 0..h.columns {
            for r in 0..h.rows {
                let n = h.count(c, r);
                if n == 0 {
                    continue;
                }
                let mut a = f64::from(n) / max;
                if sparse && n <= 3 {
                    a = a.max(0.3);
                }
                let mix = |bg: f64, full: f64| (bg + (full - bg) * a).round() as u8;
                c2d.set_fill_style_str(&format!(
                    "rgb({},{},{})",
                    mix(245.0, 220.0),
                    mix(245.0, 20.0),
                    mix(243.0, 20.0)
                ));
                c2d.fill_rect(f64::from(c) * cw, f64::from(h.rows - 1 - r) * ch, cw - 0.5, ch);
            }
        }
        let outline = |a: (u32, u32), b: (u32, u32), color: &str, dash: bool| {
            c2d.set_stroke_style_str(color);
            c2d.set_line_width(2.0);
            let dash_pattern: wasm_bindgen::JsValue = if dash {
                js_sys::Array::of2(&3.0.into(), &2.0.into()).into()
            } else {
                js_sys::Array::new().into()
            };
            let _ = c2d.set_line_dash(&dash_pattern);
            for c in a.0..=b.0 {
                let r0 = if c == a.0 { a.1 } else { 0 };
                let r1 = if c == b.0 { b.1 } else { h.rows - 1 };
                let top = f64::from(h.rows - 1 - r1) * ch;
                let height = f64::from(r1 - r0 + 1) * ch;
                c2d.stroke_rect(f64::from(c) * cw + 1.0, top + 1.0, cw - 2.0, height - 2.0);
            }
            let _ = c2d.set_line_dash(&js_sys::Array::new());
        };
        if let Some((a, b)) = sel {
            outline(a, b, "#1d4ed8", false);
        }
        if let Some(p) = pending {
            outline(p, p, "#1d4ed8", true);
        }
    });

    let on_down = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        drag_from.set(cell_at(&ev));
    };
    let on_up = move |ev: leptos::ev::MouseEvent| {
        let (Some(from), Some(to)) = (drag_from.get_untracked(), cell_at(&ev)) else {
            return;
        };
        drag_from.set(None);
        if from != to {
            ctx.select_cells(from, to);
        } else if let Some(first) = ctx.hm_pending.get_untracked() {
            ctx.select_cells(first, to);
        } else {
            ctx.hm_pending.set(Some(to));
        }
    };
    let on_move = move |ev: leptos::ev::MouseEvent| {
        let text = match (cell_at(&ev), ctx.heat.get_untracked()) {
            (Some((c, r)), Some(h)) => {
                let ms = |r: u32| f64::from(r) * 1000.0 / f64::from(h.rows);
                let n = h.count(c, r);
                format!(
                    "second {c} · {:.0}–{:.0} ms · {n} sample{}",
                    ms(r),
                    ms(r + 1),
                    if n == 1 { "" } else { "s" }
                )
            }
            _ => String::new(),
        };
        hover_text.set(text);
    };
    let range_attr = move |end: bool| {
        ctx.view
            .get()
            .time_range
            .map(|(s, e)| if end { e } else { s }.to_string())
            .unwrap_or_default()
    };
    let selection_text = move || {
        let h = ctx.heat.get()?;
        let (s, e) = ctx.view.get().time_range?;
        let rel = |t: u64| (t.saturating_sub(h.origin_ns)) as f64 / 1e9;
        Some(format!(
            "selected [{:.3} s, {:.3} s) after the first second",
            rel(s),
            rel(e)
        ))
    };
    let rows_changed = move |ev: leptos::ev::Event| {
        if let Ok(r) = event_target_value(&ev).parse() {
            ctx.hm_rows.set(r);
            ctx.clear_range();
        }
    };

    view! {
        <Show when=move || has_times() == Some(false) && !file_diff()>
            <div class="heatmap-unavailable" data-testid="heatmap-unavailable">
                "Heatmap unavailable: this profile has no timestamps (folded stacks and most pprof files carry none; "
                "perf script does)."
            </div>
        </Show>
        <Show when=move || has_times() == Some(true) && !file_diff()>
            <section class="heatmap" aria-label="subsecond heatmap">
                <div class="heatmap-controls">
                    <span class="heatmap-title">"Heatmap"</span>
                    <span class="hint">"columns: seconds · rows: offset within the second (0 ms at the bottom) · drag or click twice to select"</span>
                    <label class="control">"Rows "
                        <select data-testid="heatmap-rows" on:change=rows_changed prop:value=move || ctx.hm_rows.get().to_string()>
                            {scorch_core::heatmap::ROW_CHOICES.iter().map(|r| view! { <option value=r.to_string()>{r.to_string()}</option> }).collect_view()}
                        </select>
                    </label>
                    <label class="control"><input type="checkbox" data-testid="heatmap-idle" prop:checked=move || ctx.hm_idle.get()
                        on:change=move |ev| ctx.hm_idle.set(event_target_checked(&ev))/>" hide idle"</label>
                    <label class="control"><input type="checkbox" data-testid="heatmap-sparse" prop:checked=move || ctx.hm_sparse.get()
                        on:change=move |ev| ctx.hm_sparse.set(event_target_checked(&ev))/>" show 1–3 sample cells"</label>
                    <button data-testid="heatmap-prev" title="Previous range of the same length ([)" on:click=move |_| ctx.step_range(-1)>"◀"</button>
                    <button data-testid="heatmap-next" title="Next range of the same length (])" on:click=move |_| ctx.step_range(1)>"▶"</button>
                    <button data-testid="heatmap-set-a" title="Keep this range as A; the next selection (B) is compared against it"
                        on:click=move |_| {
                            if let Some(r) = ctx.view.get_untracked().time_range {
                                ctx.range_a.set(Some(r));
                            }
                        }>{move || if ctx.range_a.with(|a| a.is_some()) { "A set: select B" } else { "Compare: set A" }}</button>
                    <button data-testid="heatmap-clear" on:click=move |_| ctx.clear_range()>"Whole profile"</button>
                    <span class="heatmap-legend">
                        "0"<span class="legend-ramp"></span>{move || ctx.heat.get().map(|h| format!("{} samples", h.max)).unwrap_or_default()}
                    </span>
                </div>
                <div class="heatmap-scroll">
                    <canvas node_ref=canvas_ref data-testid="heatmap-canvas"
                        data-range-start-ns=move || range_attr(false) data-range-end-ns=move || range_attr(true)
                        data-origin-ns=move || ctx.heat.get().map(|h| h.origin_ns.to_string()).unwrap_or_default()
                        data-rows=move || ctx.heat.get().map(|h| h.rows.to_string()).unwrap_or_default()
                        data-columns=move || ctx.heat.get().map(|h| h.columns.to_string()).unwrap_or_default()
                        data-max=move || ctx.heat.get().map(|h| h.max.to_string()).unwrap_or_default()
                        on:mousedown=on_down on:mouseup=on_up on:mousemove=on_move
                        on:mouseleave=move |_| hover_text.set(String::new())></canvas>
                </div>
                <div class="heatmap-status">
                    <span data-testid="heatmap-hover">{move || hover_text.get()}</span>
                    <span data-testid="heatmap-selection">{move || selection_text().unwrap_or_default()}</span>
                </div>
            </section>
        </Show>
    }
}

#[component]
fn OrientationToggle() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let set = move |o| ctx.orientation.set(o);
    view! {
        <div class="segmented" role="group" aria-label="orientation">
            <button data-testid="view-flame" class:active=move || ctx.orientation.get() == Orientation::Flame
                on:click=move |_| set(Orientation::Flame)>"Flame"</button>
            <button data-testid="view-icicle" class:active=move || ctx.orientation.get() == Orientation::Icicle
                on:click=move |_| set(Orientation::Icicle)>"Icicle"</button>
        </div>
    }
}

#[component]
fn ErrorBanner() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    move || {
        ctx.error.get().map(|e| {
            view! {
                <div class="error" role="alert" data-testid="error">
                    <span>{e}</span>
                    <button class="dismiss" on:click=move |_| ctx.error.set(None) aria-label="dismiss">"×"</button>
                </div>
            }
        })
    }
}

#[component]
fn Breadcrumb() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let crumbs = move || {
        let data = ctx.data.get()?;
        let zoom = ctx.current_zoom();
        let mut items = vec![(NodeId::ROOT, "all".to_string())];
        items.extend(
            data.tree
                .path(zoom)
                .into_iter()
                .map(|n| (n, data.name_of(n).to_string())),
        );
        Some(items)
    };
    view! {
        <nav class="breadcrumb" data-testid="breadcrumb" aria-label="zoom path">
            {move || crumbs().unwrap_or_default().into_iter().enumerate().map(|(i, (n, name))| {
                view! {
                    {(i > 0).then(|| view! { <span class="sep">"›"</span> })}
                    <button class="crumb" on:click=move |_| {
                        if n == NodeId::ROOT { ctx.zoom.set(Vec::new()) } else { ctx.zoom.update(|z| z.push(n)) }
                    }>{name}</button>
                }
            }).collect_view()}
            <span class="hint">{move || (ctx.current_zoom() != NodeId::ROOT).then_some("Esc zooms back out")}</span>
        </nav>
    }
}

/// Latest draw request; one requestAnimationFrame drains it (the one redraw scheduler).
struct Scheduler {
    pending: RefCell<bool>,
}

#[component]
fn FlameCanvas(pane: Pane) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let canvas_ref = NodeRef::<leptos::html::Canvas>::new();
    let overlay_ref = NodeRef::<leptos::html::Canvas>::new();
    let scroll_ref = NodeRef::<leptos::html::Div>::new();
    let sched = Rc::new(Scheduler {
        pending: RefCell::new(false),
    });

    let measure = move || {
        if let Some(el) = scroll_ref.try_get_untracked().flatten() {
            let w = f64::from(el.client_width()).max(100.0);
            if (w - pane.width.get_untracked()).abs() > 0.5 {
                pane.width.set(w);
            }
            let h = f64::from(el.client_height()).max(0.0);
            if (h - pane.height.get_untracked()).abs() > 0.5 {
                pane.height.set(h);
            }
        }
    };
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());
    install_test_hook(ctx, pane, canvas_ref);
    if pane.name == "main" {
        install_bench_hooks(ctx);
    }
    // The flame area also changes size when panels above it open or close: follow it, and keep the root in view.
    Effect::new(move |observed: Option<bool>| {
        if observed == Some(true) {
            return true;
        }
        let Some(el) = scroll_ref.get() else { return false };
        let on_resize = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
            measure();
            if pane.orientation(&ctx) == Orientation::Flame {
                if let Some(el) = scroll_ref.try_get_untracked().flatten() {
                    el.set_scroll_top(el.scroll_height());
                }
            }
        });
        if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
            observer.observe(&el);
            // A pane that leaves the page (view switches) stops observing; its closure must not run after.
            let observer = send_wrapper::SendWrapper::new(observer);
            on_cleanup(move || observer.disconnect());
        }
        on_resize.forget();
        true
    });

    let redraw = {
        let sched = sched.clone();
        move || {
            if std::mem::replace(&mut *sched.pending.borrow_mut(), true) {
                return;
            }
            let sched = sched.clone();
            request_animation_frame(move || {
                *sched.pending.borrow_mut() = false;
                paint(ctx, pane, canvas_ref);
                paint_overlay(ctx, pane, canvas_ref, overlay_ref);
            });
        }
    };
    // Hover only repaints the overlay.
    let hover_sched = Rc::new(Scheduler {
        pending: RefCell::new(false),
    });
    Effect::new(move |_| {
        pane.hover.track();
        if std::mem::replace(&mut *hover_sched.pending.borrow_mut(), true) {
            return;
        }
        let hs = hover_sched.clone();
        request_animation_frame(move || {
            *hs.pending.borrow_mut() = false;
            paint_overlay(ctx, pane, canvas_ref, overlay_ref);
        });
    });

    // Everything that changes the picture schedules one redraw.
    Effect::new(move |_| {
        pane.data.track();
        pane.zoom.track();
        ctx.search.track();
        ctx.selected.track();
        ctx.scheme.track();
        ctx.theme.track();
        ctx.orientation.track();
        pane.width.track();
        pane.height.track();
        pane.scroll_top.track();
        measure();
        redraw();
    });

    // On a new profile in flame orientation, show the root (bottom) first.
    Effect::new(move |_| {
        let tall = pane.data.with(|d| d.as_ref().map(|d| d.layout.depth_count()));
        ctx.orientation.track();
        let o = pane.orientation(&ctx);
        if let (Some(_), Some(el)) = (tall, scroll_ref.try_get_untracked().flatten()) {
            request_animation_frame(move || {
                el.set_scroll_top(if o == Orientation::Flame {
                    el.scroll_height()
                } else {
                    0
                });
            });
        }
    });

    let geometry = move || {
        let data = pane.data.get_untracked()?;
        let g = geometry_of(ctx, pane, &data);
        Some((data, g))
    };

    let on_move = move |ev: leptos::ev::MouseEvent| {
        let Some((data, g)) = geometry() else { return };
        let Some(canvas) = canvas_ref.try_get_untracked().flatten() else {
            return;
        };
        let rect = canvas.get_bounding_client_rect();
        let (px, py) = (
            f64::from(ev.client_x()) - rect.left(),
            f64::from(ev.client_y()) - rect.top(),
        );
        let node = flame::hit(&data, pane.current_zoom(), &g, px, py);
        let next = node.map(|node| Hover {
            node,
            client_x: ev.client_x().into(),
            client_y: ev.client_y().into(),
        });
        if pane.hover.get_untracked() != next {
            pane.hover.set(next);
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some((data, g)) = geometry() else { return };
        let Some(canvas) = canvas_ref.try_get_untracked().flatten() else {
            return;
        };
        let rect = canvas.get_bounding_client_rect();
        let (px, py) = (
            f64::from(ev.client_x()) - rect.left(),
            f64::from(ev.client_y()) - rect.top(),
        );
        let hit = flame::hit(&data, pane.current_zoom(), &g, px, py);
        match hit {
            Some(NodeId::ROOT) => pane.zoom.set(Vec::new()),
            Some(n) if n != pane.current_zoom() => pane.zoom.update(|z| z.push(n)),
            _ => {}
        }
        // A click in the main graph also selects the function (outlined everywhere, the sandwich's subject).
        if let (Some(n), "main") = (hit, pane.name) {
            if n != NodeId::ROOT && data.kind_of(n) != Some(scorch_core::FrameKind::Process) {
                ctx.select(Some(data.name_of(n).to_string()));
            }
        }
    };

    let zoom_attr = move || {
        ctx.data
            .get()
            .map(|d| d.path_string(pane.current_zoom()))
            .unwrap_or_default()
    };
    let depth_attr = move || {
        ctx.data
            .get()
            .map(|d| d.layout.depth_count())
            .unwrap_or(0)
            .to_string()
    };
    let orientation_attr = move || {
        ctx.orientation.track();
        match pane.orientation(&ctx) {
            Orientation::Flame => "flame",
            Orientation::Icicle => "icicle",
        }
    };

    view! {
        <div class="flame-scroll" node_ref=scroll_ref
            // A sandwich side is only as tall as its graph (up to 42 % of the window): no empty band above it.
            style:height=move || (pane.name != "main").then(|| {
                let rows = pane.data.with(|d| d.as_ref().map_or(0, |d| d.layout.depth_count()));
                format!("min(42vh, {}px)", rows as f64 * ROW_H + 2.0)
            })
            on:scroll=move |_| {
                if let Some(el) = scroll_ref.try_get_untracked().flatten() {
                    pane.scroll_top.set(f64::from(el.scroll_top()));
                }
            }>
            // The spacer is as tall as the graph (it gives the scroll bar); the canvas stays in view and draws
            // only the rows under it.
            <div class="flame-spacer" style:height=move || {
                let rows = pane.data.with(|d| d.as_ref().map_or(0, |d| d.layout.depth_count()));
                format!("{}px", (rows as f64 * ROW_H).max(pane.height.get().floor()))
            }>
            <div class="canvas-stack">
            <canvas node_ref=canvas_ref data-testid=if pane.name == "main" { "flame-canvas".to_string() } else { format!("{}-canvas", pane.name) }
                data-row-height=ROW_H.to_string() data-depth=depth_attr data-zoom=zoom_attr
                data-orientation=orientation_attr
                on:mousemove=on_move on:mouseleave=move |_| pane.hover.set(None) on:click=on_click></canvas>
            // The hover outline lives on its own canvas: moving the mouse repaints one rectangle, not the graph.
            <canvas node_ref=overlay_ref class="overlay" aria-hidden="true"></canvas>
            </div>
            </div>
        </div>
    }
}

fn geometry_of(ctx: Ctx, pane: Pane, data: &FlameData) -> Geometry {
    Geometry::new(
        data,
        pane.current_zoom(),
        pane.width.get_untracked(),
        pane.height.get_untracked(),
        pane.scroll_top.get_untracked(),
        pane.orientation(&ctx),
    )
}

thread_local! {
    /// The panes on the page with their canvases, for the test hook.
    static PANES: RefCell<Vec<(Pane, NodeRef<leptos::html::Canvas>)>> = const { RefCell::new(Vec::new()) };
}

/// Test hook: `window.__scorchFramePoint(name, pane?)` gives the page (CSS px) centre of the widest drawn frame
/// with that name in a pane (`main`, `callers`, `callees`; default `main`), or null. Browser tests use it to
/// hover and click frames of real profiles.
fn install_test_hook(ctx: Ctx, pane: Pane, canvas_ref: NodeRef<leptos::html::Canvas>) {
    PANES.with(|p| {
        let mut p = p.borrow_mut();
        p.retain(|(x, _)| x.name != pane.name);
        p.push((pane, canvas_ref));
    });
    let hook = wasm_bindgen::closure::Closure::<dyn Fn(String, Option<String>) -> wasm_bindgen::JsValue>::new(
        move |name: String, which: Option<String>| {
            let which = which.unwrap_or_else(|| "main".to_string());
            let Some((pane, canvas_ref)) =
                PANES.with(|p| p.borrow().iter().find(|(x, _)| x.name == which).copied())
            else {
                return wasm_bindgen::JsValue::NULL;
            };
            let (Some(data), Some(canvas)) = (
                pane.data.get_untracked(),
                canvas_ref.try_get_untracked().flatten(),
            ) else {
                return wasm_bindgen::JsValue::NULL;
            };
            let g = geometry_of(ctx, pane, &data);
            let best = (1..data.tree.len())
                .filter(|&n| data.name_of(NodeId(n as u32)) == name)
                .filter_map(|n| {
                    let (x0, x1) = (
                        g.px(data.layout.x0[n]).max(0.0),
                        g.px(data.layout.x1[n]).min(g.width),
                    );
                    (x1 - x0 >= 1.0).then_some((n, x0, x1))
                })
                .max_by(|a, b| (a.2 - a.1).total_cmp(&(b.2 - b.1)));
            let Some((n, x0, x1)) = best else {
                return wasm_bindgen::JsValue::NULL;
            };
            let rect = canvas.get_bounding_client_rect();
            let y = g.row_y(data.tree.depth[n] as usize) + ROW_H / 2.0;
            let out = js_sys::Array::of2(&(rect.left() + (x0 + x1) / 2.0).into(), &(rect.top() + y).into());
            out.into()
        },
    );
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &"__scorchFramePoint".into(), hook.as_ref());
    }
    hook.forget();
}

/// Benchmark hooks (bench/heatmap-browser.mjs): `__scorchBenchLoad(n)` opens a synthetic profile of n
/// timestamped samples; `__scorchBenchHeatmap(rows)` times one heatmap computation (ms).
fn install_bench_hooks(ctx: Ctx) {
    let load = wasm_bindgen::closure::Closure::<dyn Fn(f64)>::new(move |n: f64| {
        let seq = ctx.start_load(format!("synthetic {n} samples"));
        let imported = bench::synthetic(n as usize, 60);
        ctx.finish_load(seq, format!("synthetic-{n}"), Ok(imported));
    });
    let time_heatmap = wasm_bindgen::closure::Closure::<dyn Fn(f64) -> f64>::new(move |rows: f64| {
        let Some(loaded) = ctx.loaded.get_untracked() else {
            return -1.0;
        };
        let p = &loaded.imported.profile;
        let perf = web_sys::window().and_then(|w| w.performance());
        let t0 = perf.as_ref().map_or(0.0, |p| p.now());
        let o = scorch_core::heatmap::HeatmapOptions {
            rows: rows as u32,
            idle_filter: true,
        };
        let h = scorch_core::heatmap::heatmap(p, &ViewOptions::default_for(p), &o);
        let t1 = perf.as_ref().map_or(0.0, |p| p.now());
        if h.is_none() {
            return -1.0;
        }
        t1 - t0
    });
    let load_tree = wasm_bindgen::closure::Closure::<dyn Fn(f64) -> f64>::new(move |n: f64| {
        let seq = ctx.start_load(format!("synthetic tree of {n} nodes"));
        let imported = bench::tree(n as usize);
        ctx.finish_load(seq, format!("tree-{n}"), Ok(imported));
        ctx.data.get_untracked().map_or(0.0, |d| d.tree.len() as f64)
    });
    // The paint durations (ms) since the last call, and clears them.
    let overlay_times = wasm_bindgen::closure::Closure::<dyn Fn() -> js_sys::Array>::new(move || {
        OVERLAY_TIMES.with(|t| {
            t.borrow_mut()
                .drain(..)
                .map(wasm_bindgen::JsValue::from)
                .collect()
        })
    });
    let paint_times = wasm_bindgen::closure::Closure::<dyn Fn() -> js_sys::Array>::new(move || {
        PAINT_TIMES.with(|t| {
            t.borrow_mut()
                .drain(..)
                .map(wasm_bindgen::JsValue::from)
                .collect()
        })
    });
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &"__scorchBenchTree".into(), load_tree.as_ref());
        let _ = js_sys::Reflect::set(&w, &"__scorchPaintTimes".into(), paint_times.as_ref());
        let _ = js_sys::Reflect::set(&w, &"__scorchOverlayTimes".into(), overlay_times.as_ref());
        let _ = js_sys::Reflect::set(&w, &"__scorchBenchLoad".into(), load.as_ref());
        let _ = js_sys::Reflect::set(&w, &"__scorchBenchHeatmap".into(), time_heatmap.as_ref());
    }
    load.forget();
    load_tree.forget();
    paint_times.forget();
    overlay_times.forget();
    time_heatmap.forget();
}

/// Sizes the canvas for the device-pixel ratio and draws the current view.
fn paint(ctx: Ctx, pane: Pane, canvas_ref: NodeRef<leptos::html::Canvas>) {
    let t0 = now();
    let Some(Some(canvas)) = canvas_ref.try_get_untracked() else {
        return;
    };
    let Some(data) = pane.data.get_untracked() else {
        return;
    };
    let zoom = pane.current_zoom();
    // The real scroll position (content changes can move it without a scroll event).
    if let Some(top) = canvas
        .closest(".flame-scroll")
        .ok()
        .flatten()
        .map(|el| f64::from(el.scroll_top()))
    {
        pane.scroll_top.update_untracked(|v| *v = top);
    }
    let g = geometry_of(ctx, pane, &data);
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    let (dw, dh) = ((g.width * dpr).round() as u32, (g.view_h * dpr).round() as u32);
    if canvas.width() != dw || canvas.height() != dh {
        canvas.set_width(dw);
        canvas.set_height(dh);
    }
    let style = web_sys::HtmlElement::style(&canvas);
    let _ = style.set_property("width", &format!("{}px", g.width));
    let _ = style.set_property("height", &format!("{}px", g.view_h));
    let Some(c2d) = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let _ = c2d.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    let search = search_mask(ctx, &data);
    let selected = ctx.selected.get_untracked().map(|f| {
        data.mask(
            &format!("sel\n{f}"),
            &scorch_core::explore::Matcher::Exact(f.clone()),
        )
    });
    let paint = flame::Paint {
        search: search.as_deref().map(|v| v.as_slice()),
        selected: selected.as_deref().map(|v| v.as_slice()),
        scheme: ctx.scheme.get_untracked(),
        dark: is_dark(ctx),
    };
    flame::draw(&c2d, &data, zoom, &paint, &g, dpr);
    PAINT_TIMES.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() < 10_000 {
            t.push(now() - t0);
        }
    });
    if RENDER_MARK_PENDING.with(|p| p.replace(false)) {
        mark("bench:rendered");
    }
    // Only the latest paint is kept, so a long session does not grow the timing buffer.
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        p.clear_marks_with_mark_name("bench:paint");
    }
    mark("bench:paint");
}

/// Draws the hover outline on the overlay canvas (sized like the graph's canvas, stacked on it).
fn paint_overlay(
    ctx: Ctx,
    pane: Pane,
    canvas_ref: NodeRef<leptos::html::Canvas>,
    overlay_ref: NodeRef<leptos::html::Canvas>,
) {
    let t0 = now();
    let (Some(Some(canvas)), Some(Some(overlay))) =
        (canvas_ref.try_get_untracked(), overlay_ref.try_get_untracked())
    else {
        return;
    };
    if overlay.width() != canvas.width() || overlay.height() != canvas.height() {
        overlay.set_width(canvas.width());
        overlay.set_height(canvas.height());
    }
    let style = web_sys::HtmlElement::style(&overlay);
    let main_style = web_sys::HtmlElement::style(&canvas);
    for prop in ["width", "height"] {
        let _ = style.set_property(prop, &main_style.get_property_value(prop).unwrap_or_default());
    }
    let Some(c2d) = overlay
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    let _ = c2d.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    c2d.clear_rect(0.0, 0.0, f64::from(overlay.width()), f64::from(overlay.height()));
    if let (Some(h), Some(data)) = (pane.hover.get_untracked(), pane.data.get_untracked()) {
        let g = geometry_of(ctx, pane, &data);
        flame::draw_hover(&c2d, &data, h.node, &g, is_dark(ctx));
    }
    OVERLAY_TIMES.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() < 10_000 {
            t.push(now() - t0);
        }
    });
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        p.clear_marks_with_mark_name("bench:paint");
    }
    mark("bench:paint");
}

/// Tooltip rows of a diff node: both sides' self and total (value and share), and the changes.
fn diff_tooltip_rows(x: &flame::DiffData, n: usize) -> Vec<(&'static str, &'static str, String)> {
    use scorch_core::diff::Diff;
    use scorch_core::units::format_value;
    let [bs, bt, ts, tt] = x.nodes.get(n).copied().unwrap_or_default();
    let side = |v: u64, sum: u64, unit: &scorch_core::Unit| {
        format!(
            "{} ({:.2} %)",
            format_value(v as f64, unit),
            Diff::share(v, sum) * 100.0
        )
    };
    let delta = |b: u64, t: u64| {
        if x.absolute {
            let d = t as f64 - b as f64;
            let rel = if b == 0 {
                "new".to_string()
            } else {
                format!("{:+.1} %", d / b as f64 * 100.0)
            };
            format!(
                "{}{} ({rel})",
                if d >= 0.0 { "+" } else { "−" },
                format_value(d.abs(), &x.target_unit)
            )
        } else {
            let (sb, st) = (Diff::share(b, x.base_sum), Diff::share(t, x.target_sum));
            let rel = if sb == 0.0 {
                if st == 0.0 {
                    "unchanged".to_string()
                } else {
                    "new in target".to_string()
                }
            } else {
                format!("{:+.1} % relative", (st - sb) / sb * 100.0)
            };
            format!("{:+.2} pp ({rel})", (st - sb) * 100.0)
        }
    };
    vec![
        (
            "base self",
            "tooltip-base-self",
            side(bs, x.base_sum, &x.base_unit),
        ),
        (
            "target self",
            "tooltip-target-self",
            side(ts, x.target_sum, &x.target_unit),
        ),
        ("Δ self", "tooltip-delta-self", delta(bs, ts)),
        (
            "base total",
            "tooltip-base-total",
            side(bt, x.base_sum, &x.base_unit),
        ),
        (
            "target total",
            "tooltip-target-total",
            side(tt, x.target_sum, &x.target_unit),
        ),
        ("Δ total", "tooltip-delta-total", delta(bt, tt)),
    ]
}

#[component]
fn Tooltip(pane: Pane) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let content = move || {
        let h = pane.hover.get()?;
        let data = pane.data.get()?;
        let n = h.node.idx();
        let kind = data
            .kind_of(h.node)
            .filter(|k| *k != scorch_core::FrameKind::User);
        let zoom = pane.current_zoom();
        // Inside a zoom, also the share of the zoomed frame (the visible width).
        let in_zoom = (zoom != NodeId::ROOT && data.tree.path(h.node).contains(&zoom)).then(|| {
            format!(
                "{} of {}",
                data.share_of(data.tree.total[n], zoom),
                data.name_of(zoom)
            )
        });
        let diff_rows = data.diff.as_ref().map(|x| diff_tooltip_rows(x, n));
        // When transforms, a range or a filter narrow the view, also the share of the whole profile.
        let shown_total = data.tree.total.first().copied().unwrap_or(0);
        let whole = whole_total(ctx)
            .filter(|&w| w != shown_total && data.diff.is_none() && pane.name == "main")
            .map(|w| {
                scorch_core::units::format_percent(data.tree.total[n] as f64, w as f64)
                    + " of the whole profile"
            });
        Some((
            h,
            data.name_of(h.node).to_string(),
            kind,
            data.describe(data.tree.total[n]),
            data.describe(data.tree.self_w[n]),
            in_zoom,
            diff_rows,
            whole,
        ))
    };
    move || {
        content().map(|(h, name, kind, total, self_, in_zoom, diff_rows, whole)| {
            let win = web_sys::window();
            let size = |v: Option<Result<wasm_bindgen::JsValue, _>>, d| v.and_then(|v| v.ok()).and_then(|v| v.as_f64()).unwrap_or(d);
            let w = size(win.as_ref().map(|w| w.inner_width()), 1200.0);
            let wh = size(win.as_ref().map(|w| w.inner_height()), 800.0);
            // Keep the tooltip on screen: flip left of the cursor near the right edge, above it near the bottom.
            let left = if h.client_x > w - 380.0 { h.client_x - 372.0 } else { h.client_x + 14.0 };
            let top = if h.client_y > wh - 130.0 { h.client_y - 110.0 } else { h.client_y + 14.0 };
            view! {
                <div class="tooltip" data-testid="tooltip" style:left=format!("{left}px")
                    style:top=format!("{top}px")>
                    <div class="tt-name">{name}</div>
                    {kind.map(|k| view! { <div class="tt-kind">{k.name()}</div> })}
                    {match diff_rows {
                        Some(rows) => rows.into_iter().map(|(label, id, value)| view! {
                            <div class="tt-row"><span>{label}</span><span data-testid=id>{value}</span></div>
                        }).collect_view().into_any(),
                        None => view! {
                            <div class="tt-row"><span>"total"</span><span data-testid="tooltip-total">{total}</span></div>
                            <div class="tt-row"><span>"self"</span><span data-testid="tooltip-self">{self_}</span></div>
                        }.into_any(),
                    }}
                    {whole.map(|w| view! {
                        <div class="tt-row"><span>"whole"</span><span data-testid="tooltip-whole">{w}</span></div>
                    })}
                    {in_zoom.map(|z| view! {
                        <div class="tt-row"><span>"zoom"</span><span data-testid="tooltip-zoom">{z}</span></div>
                    })}
                </div>
            }
        })
    }
}

#[component]
fn StatusLine() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let info = move || {
        ctx.data.get().map(|d| {
            if let Some(x) = &d.diff {
                let text = format!(
                    "diff · base (before) {} · {} → target (after) {} · {} · {}",
                    x.base_name,
                    scorch_core::units::format_value(x.base_sum as f64, &x.base_unit),
                    x.target_name,
                    scorch_core::units::format_value(x.target_sum as f64, &x.target_unit),
                    if x.absolute {
                        "absolute values"
                    } else {
                        "normalised shares"
                    },
                );
                return (
                    "diff",
                    x.target_sum.to_string(),
                    x.base_sum.to_string(),
                    text,
                    String::new(),
                    d.unit.name().to_string(),
                    "0".to_string(),
                );
            }
            let p = d.profile();
            let shown = scorch_core::Weight {
                raw: d.tree.total.first().copied().unwrap_or(0),
                decimals: p.meta.decimals,
            };
            let event = d
                .view
                .event
                .and_then(|e| p.events.get(e as usize))
                .map(|e| e.name.clone())
                .unwrap_or_default();
            let text = format!(
                "{} · {}{} · {} {}{} · total {}{}",
                d.name(),
                p.meta.format,
                if d.loaded.imported.gzip { " (gzip)" } else { "" },
                group_thousands(p.meta.records),
                p.meta.format.record_noun(),
                if event.is_empty() {
                    String::new()
                } else if p.meta.format == scorch_core::Format::Pprof {
                    format!(" · sample type {event}")
                } else {
                    format!(" · event {event}")
                },
                scorch_core::units::format_value(shown.as_f64(), &d.unit),
                match p.meta.warnings.count {
                    0 => String::new(),
                    1 => " · 1 line skipped".to_string(),
                    n => format!(" · {} lines skipped", group_thousands(n)),
                }
            );
            (
                p.meta.format.name(),
                shown.to_string(),
                String::new(),
                text,
                event,
                d.unit.name().to_string(),
                p.meta.records.to_string(),
            )
        })
    };
    view! {
        <footer class="status" data-testid="status" data-loads=move || ctx.loads.get().to_string()
            data-format=move || info().map(|i| i.0).unwrap_or("")
            data-samples=move || info().map(|i| i.6).unwrap_or_default()
            data-total=move || info().map(|i| i.1).unwrap_or_default()
            data-base-total=move || info().map(|i| i.2).unwrap_or_default()
            data-event=move || info().map(|i| i.4).unwrap_or_default()
            data-unit=move || info().map(|i| i.5).unwrap_or_default()>
            {move || info().map(|i| i.3).unwrap_or_else(|| "No profile open".to_string())}
        </footer>
    }
}

thread_local! {
    /// How long each paint took (ms), for the redraw benchmark (`__scorchPaintTimes`).
    static PAINT_TIMES: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
    /// The same for the hover overlay (`__scorchOverlayTimes`).
    static OVERLAY_TIMES: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn focus_testid(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(&format!("[data-testid=\"{id}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

fn is_dark(ctx: Ctx) -> bool {
    match ctx.theme.get_untracked() {
        "dark" => true,
        "light" => false,
        _ => web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches()),
    }
}

fn cycle_theme(ctx: Ctx) {
    ctx.theme.update(|t| {
        *t = match *t {
            "auto" => "light",
            "light" => "dark",
            _ => "auto",
        }
    });
}

/// The search's frame mask for a view's profile (cached in the view), or None without a valid search.
fn search_mask(ctx: Ctx, data: &FlameData) -> Option<Arc<Vec<bool>>> {
    let q = ctx.search.get_untracked();
    if q.text.is_empty() {
        return None;
    }
    let m = q.compile().ok()?;
    Some(data.mask(&format!("q\n{}", q.to_text()), &m))
}

/// The whole profile's total for the view's event and weight (before transforms, ranges and filters).
fn whole_total(ctx: Ctx) -> Option<u64> {
    let l = ctx.loaded.get_untracked()?;
    let p = &l.imported.profile;
    let v = ctx.view.get_untracked();
    let e = v.event.and_then(|e| p.events.get(e as usize));
    Some(match (v.weight, e) {
        (WeightMode::Count, Some(e)) => e.samples,
        (WeightMode::Count, None) => p.samples.len() as u64,
        (WeightMode::Weight, Some(e)) => e.total,
        (WeightMode::Weight, None) => p.total(),
    })
}

/// Matching nodes that have no matching ancestor, left to right: where "next match" goes.
fn match_nodes(data: &FlameData, mask: &[bool]) -> Vec<NodeId> {
    let t = &data.tree;
    let mut covered = vec![false; t.len()];
    let mut out = Vec::new();
    for n in 1..t.len() {
        let above = covered[t.parent[n] as usize];
        let m = data.node_in(mask, NodeId(n as u32));
        if m && !above {
            out.push(NodeId(n as u32));
        }
        covered[n] = above || m;
    }
    out.sort_by(|a, b| data.layout.x0[a.idx()].total_cmp(&data.layout.x0[b.idx()]));
    out
}

/// Zooms to the next (+1) or previous (-1) match.
fn step_match(ctx: Ctx, dir: i64) {
    let Some(data) = ctx.data.get_untracked() else {
        return;
    };
    let Some(mask) = search_mask(ctx, &data) else {
        return;
    };
    let nodes = match_nodes(&data, &mask);
    if nodes.is_empty() {
        return;
    }
    let len = nodes.len() as i64;
    let i = match ctx.match_idx.get_untracked() {
        None if dir > 0 => 0,
        None => len - 1,
        Some(i) => (i as i64 + dir).rem_euclid(len),
    } as usize;
    ctx.match_idx.set(Some(i));
    ctx.zoom.set(vec![nodes[i]]);
}

/// The matched share of the search over the shown view: (matched, shown total).
fn matched(ctx: Ctx) -> Option<(u64, u64)> {
    ctx.search.track();
    let data = ctx.data.get()?;
    let mask = search_mask(ctx, &data)?;
    Some((
        scorch_core::explore::matched_total(&data.tree, &mask),
        data.tree.total.first().copied().unwrap_or(0),
    ))
}

/// Search, view mode, order, colours, the selected function's actions and the transform chips.
#[component]
fn ExploreBar() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let search_error = move || {
        let q = ctx.search.get();
        (!q.text.is_empty()).then(|| q.compile().err()).flatten()
    };
    let set_search = move |f: &dyn Fn(&mut Pattern)| {
        ctx.search.update(|q| f(q));
        ctx.match_idx.set(None);
    };
    let matched_text = move || {
        matched(ctx).map(|(m, t)| {
            let pct = if t == 0 { 0.0 } else { m as f64 / t as f64 * 100.0 };
            let count = ctx
                .data
                .get_untracked()
                .and_then(|d| search_mask(ctx, &d).map(|m| match_nodes(&d, &m).len()))
                .unwrap_or_default();
            let at = ctx
                .match_idx
                .get()
                .map(|i| format!(" · {}/{}", i + 1, count))
                .unwrap_or_else(|| format!(" · {count} frames"));
            (format!("{pct}"), format!("Matched: {pct:.2} %{at}"))
        })
    };
    let pattern_tx = move |make: fn(Pattern) -> Transform| {
        let q = ctx.search.get_untracked();
        if !q.text.is_empty() && q.compile().is_ok() {
            ctx.push_transform(make(q));
        }
    };
    let fn_tx = move |make: fn(String) -> Transform| {
        if let Some(f) = ctx.selected.get_untracked() {
            ctx.push_transform(make(f));
        }
    };
    let in_diff = move || ctx.base.with(|b| b.is_some());
    let selected_info = move || {
        let f = ctx.selected.get()?;
        let data = ctx.data.get()?;
        let mask = data.mask(
            &format!("sel\n{f}"),
            &scorch_core::explore::Matcher::Exact(f.clone()),
        );
        let total = scorch_core::explore::matched_total(&data.tree, &mask);
        let own: u64 = (1..data.tree.len())
            .filter(|&n| data.node_in(&mask, NodeId(n as u32)))
            .map(|n| data.tree.self_w[n])
            .sum();
        Some((f, data.describe(total), data.describe(own)))
    };
    view! {
        <div class="explore" data-testid="explore">
            <div class="segmented" role="group" aria-label="view">
                {Mode::ALL.into_iter().map(|m| view! {
                    <button data-testid=format!("view-mode-{}", m.key())
                        class:active=move || ctx.mode.get() == m
                        prop:disabled=move || in_diff() && m != Mode::Flame
                        title=move || format!("{} (key {})", m.label(), Mode::ALL.iter().position(|x| *x == m).unwrap_or(0) + 1)
                        on:click=move |_| ctx.set_mode(m)>{m.label()}</button>
                }).collect_view()}
            </div>
            <input data-testid="search" class="search" type="text" placeholder="Search functions ( / )"
                prop:value=move || ctx.search.get().text
                on:input=move |ev| { let t = event_target_value(&ev); set_search(&|q| q.text = t.clone()); }
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if ev.key() == "Enter" { step_match(ctx, if ev.shift_key() { -1 } else { 1 }); }
                    if ev.key() == "Escape" {
                        if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) { let _ = el.blur(); }
                    }
                }/>
            <label class="control" title="Regular expression"><input type="checkbox" data-testid="search-regex"
                prop:checked=move || ctx.search.get().regex
                on:change=move |ev| { let on = event_target_checked(&ev); set_search(&|q| q.regex = on); }/>".*"</label>
            <label class="control" title="Match case"><input type="checkbox" data-testid="search-case"
                prop:checked=move || ctx.search.get().case_sensitive
                on:change=move |ev| { let on = event_target_checked(&ev); set_search(&|q| q.case_sensitive = on); }/>"Aa"</label>
            <button data-testid="search-prev" title="Previous match (Shift+Enter, N)" on:click=move |_| step_match(ctx, -1)>"‹"</button>
            <button data-testid="search-next" title="Next match (Enter, n)" on:click=move |_| step_match(ctx, 1)>"›"</button>
            {move || matched_text().map(|(v, text)| view! { <span class="matched" data-testid="matched" data-value=v>{text}</span> })}
            {move || search_error().map(|e| view! { <span class="filter-error" data-testid="search-error">{e}</span> })}
            <Show when=move || !ctx.search.get().text.is_empty() && search_error().is_none()>
                <button data-testid="tx-hide" title="Remove matching frames; their callees join their callers"
                    on:click=move |_| pattern_tx(Transform::Hide)>"Hide"</button>
                <button data-testid="tx-ignore" title="Drop every sample whose stack has a match"
                    on:click=move |_| pattern_tx(Transform::Ignore)>"Ignore"</button>
                <button data-testid="tx-from" title="Drop the frames above the outermost match (samples without one are dropped)"
                    on:click=move |_| pattern_tx(Transform::ShowFrom)>"Show from"</button>
            </Show>
            <span class="spacer"></span>
            <label class="control">"Order "
                <select data-testid="order-select" prop:value=move || if ctx.order.get() == Order::Weight { "heavy" } else { "alpha" }
                    on:change=move |ev| {
                        ctx.order.set(if event_target_value(&ev) == "heavy" { Order::Weight } else { Order::Alphabetical });
                        ctx.rebuild();
                    }>
                    <option value="alpha">"alphabetical"</option>
                    <option value="heavy">"left-heavy"</option>
                </select>
            </label>
            <label class="control">"Colour by "
                <select data-testid="color-select" prop:value=move || ctx.scheme.get().key()
                    on:change=move |ev| ctx.scheme.set(ColorScheme::from_key(&event_target_value(&ev)).unwrap_or_default())>
                    {ColorScheme::ALL.into_iter().map(|c| view! { <option value=c.key()>{c.label()}</option> }).collect_view()}
                </select>
            </label>
            <Legend/>
        </div>
        // The selection row is always there (a hint when nothing is selected), so selecting a function by clicking
        // a frame never moves the graph under the mouse.
        {move || selected_info().is_none().then(|| view! {
            <div class="selection" data-testid="selection-empty">
                <span class="hint">"Click a frame or a table row to select its function: outlined everywhere, with its sandwich and transforms."</span>
            </div>
        })}
        {move || selected_info().map(|(f, total, own)| view! {
            <div class="selection" data-testid="selection">
                <span class="sel-label">"Selected"</span>
                <span class="sel-name" data-testid="selected-name">{f}</span>
                <span class="hint" data-testid="selected-total">{format!("total {total} · self {own}")}</span>
                <button data-testid="sel-sandwich" prop:disabled=in_diff title="Its callers and callees"
                    on:click=move |_| ctx.set_mode(Mode::Sandwich)>"Sandwich"</button>
                <button data-testid="tx-focus" title="Keep only samples through it, re-rooted at its outermost call"
                    on:click=move |_| fn_tx(Transform::Focus)>"Focus"</button>
                <button data-testid="tx-merge" title="Remove it: its callees join its callers, its self time goes to them"
                    on:click=move |_| fn_tx(Transform::Merge)>"Merge"</button>
                <button data-testid="tx-rec" title="Collapse recursion (direct and indirect) into its outermost call"
                    on:click=move |_| fn_tx(Transform::CollapseRecursion)>"Collapse recursion"</button>
                <button data-testid="tx-drec" title="Collapse direct recursion only (f calling f)"
                    on:click=move |_| fn_tx(Transform::CollapseDirect)>"Collapse direct recursion"</button>
                <button data-testid="sel-clear" title="Clear the selection" on:click=move |_| ctx.select(None)>"×"</button>
            </div>
        })}
        <Show when=move || ctx.transforms.with(|t| !t.is_empty())>
            <div class="chips" data-testid="transforms">
                <span class="sel-label">"Transforms"</span>
                {move || ctx.transforms.get().into_iter().enumerate().map(|(i, t)| view! {
                    <span class="chip" data-testid="transform-chip">
                        <span>{t.label()}</span>
                        <button data-testid="transform-remove" title="Remove this transform" on:click=move |_| ctx.remove_transform(i)>"×"</button>
                    </span>
                }).collect_view()}
                <span class="hint">"Ctrl+Z removes the last"</span>
            </div>
        </Show>
    }
}

/// What the colours mean.
#[component]
fn Legend() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    move || {
        let diff = ctx.base.with(|b| b.is_some());
        let body = if diff {
            view! { <span>"red grew, blue shrank (see the diff bar)"</span> }.into_any()
        } else {
            match ctx.scheme.get() {
                ColorScheme::Name => view! { <span>"hue from the function name: the same function, the same colour in every view"</span> }.into_any(),
                ColorScheme::Module => view! { <span>"hue from the module (namespace, package, class) read from the name"</span> }.into_any(),
                ColorScheme::Kind => flame::KIND_COLORS.iter().map(|(k, c)| view! {
                    <span class="swatch" style:background=*c></span><span>{k.name()}</span>
                }).collect_view().into_any(),
                ColorScheme::SelfTime => view! {
                    <span>"self share of the frame's total: "</span>
                    <span class="swatch" style:background=flame::SELF_COLORS[0]></span><span>"0 %"</span>
                    <span class="swatch" style:background=flame::SELF_COLORS[9]></span><span>"100 %"</span>
                }.into_any(),
            }
        };
        view! {
            <span class="legend" data-testid="legend">
                {body}
                {move || (!ctx.search.get().text.is_empty()).then(|| view! {
                    <span class="swatch" style:background=flame::MATCH_COLOR></span><span>"match"</span>
                })}
            </span>
        }
    }
}

/// Every function with self and total, sortable, filtered by the search; a click selects the function.
#[component]
fn FunctionTable(compact: bool) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    // Column to sort by and whether ascending.
    let sort = RwSignal::new(("self", false));
    const LIMIT: usize = 500;
    let rows = move || {
        let table = ctx.fn_table.get()?;
        let q = ctx.search.get();
        let m = (!q.text.is_empty()).then(|| q.compile().ok()).flatten();
        let mut rows: Vec<&FunctionRow> = table
            .0
            .iter()
            .filter(|r| m.as_ref().is_none_or(|m| m.is_match(&r.name)))
            .collect();
        let (col, asc) = sort.get();
        rows.sort_by(|a, b| {
            let o = match col {
                "name" => a.name.cmp(&b.name),
                "total" => a.total_w.cmp(&b.total_w),
                "self_n" => a.self_samples.cmp(&b.self_samples),
                "total_n" => a.total_samples.cmp(&b.total_samples),
                _ => a.self_w.cmp(&b.self_w),
            };
            let o = if asc { o } else { o.reverse() };
            o.then(a.name.cmp(&b.name))
        });
        let matching = rows.len();
        let data = ctx.data.get_untracked()?;
        let unit = data.unit.clone();
        let decimals = data.profile().meta.decimals;
        let whole = whole_total(ctx).unwrap_or(table.1);
        let fmt =
            |raw: u64| scorch_core::units::format_value(raw as f64 / 10f64.powi(decimals as i32), &unit);
        let pct = |raw: u64, of: u64| scorch_core::units::format_percent(raw as f64, of as f64);
        let out: Vec<_> = rows
            .into_iter()
            .take(LIMIT)
            .map(|r| {
                (
                    r.name.clone(),
                    fmt(r.self_w),
                    pct(r.self_w, table.1),
                    fmt(r.total_w),
                    pct(r.total_w, table.1),
                    (whole != table.1).then(|| pct(r.total_w, whole)),
                    group_thousands(r.self_samples),
                    group_thousands(r.total_samples),
                )
            })
            .collect();
        Some((out, matching, table.0.len(), whole != table.1))
    };
    let header = move |key: &'static str, label: &'static str| {
        view! {
            <th><button class="th" data-testid=format!("sort-{key}") on:click=move |_| sort.update(|s| {
                *s = if s.0 == key { (key, !s.1) } else { (key, key == "name") };
            })>{label}{move || { let (c, asc) = sort.get(); (c == key).then_some(if asc { " ▲" } else { " ▼" }) }}</button></th>
        }
    };
    view! {
        <div class="fn-table" class:compact=compact data-testid="function-table">
            {move || match rows() {
                None => view! { <p class="hint">"No profile open."</p> }.into_any(),
                Some((rows, matching, all, narrowed)) => view! {
                    <p class="hint" data-testid="function-count" data-matching=matching.to_string()>
                        {format!("{} of {} functions{}{}", group_thousands(matching as u64), group_thousands(all as u64),
                            if matching > LIMIT { format!(", the first {LIMIT} shown") } else { String::new() },
                            if narrowed { "; “of whole” is the share before transforms, ranges and filters" } else { "" })}
                    </p>
                    <table>
                        <thead><tr>
                            {header("self", "Self")}<th>"Self %"</th>
                            {header("total", "Total")}<th>"Total %"</th>
                            {narrowed.then(|| view! { <th>"of whole"</th> })}
                            {header("self_n", "Self samples")}{header("total_n", "Total samples")}
                            {header("name", "Function")}
                        </tr></thead>
                        <tbody>
                            {rows.into_iter().map(|(name, s, sp, t, tp, tw, sn, tn)| {
                                let n2 = name.clone();
                                let n3 = name.clone();
                                let n4 = name.clone();
                                view! {
                                    <tr data-testid="fn-row" data-name=n4
                                        class:selected=move || ctx.selected.with(|x| x.as_deref() == Some(n3.as_str()))
                                        on:click=move |_| ctx.select(Some(n2.clone()))>
                                        <td class="num">{s}</td><td class="num">{sp}</td>
                                        <td class="num">{t}</td><td class="num">{tp}</td>
                                        {tw.map(|w| view! { <td class="num">{w}</td> })}
                                        <td class="num">{sn}</td><td class="num">{tn}</td>
                                        <td class="fn-name">{name}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any(),
            }}
        </div>
    }
}

/// The selected function's callers (above, growing up from it) and callees (below), with the function table.
#[component]
fn Sandwich() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let name = move || ctx.selected.get();
    view! {
        <div class="sandwich" data-testid="sandwich">
            <FunctionTable compact=true/>
            {move || match name() {
                None => view! { <p class="hint sandwich-empty">"Select a function (in the table, or click a frame in the flame graph) to see its callers and callees."</p> }.into_any(),
                Some(f) => view! {
                    <div class="sandwich-title">"Callers of "<b>{f.clone()}</b>" (the function at the bottom, its callers above)"</div>
                    <FlameCanvas pane=ctx.callers/>
                    <div class="sandwich-title">"Callees of "<b>{f}</b>" (the function at the top, what it calls below)"</div>
                    <FlameCanvas pane=ctx.callees/>
                }.into_any(),
            }}
        </div>
    }
}

#[component]
fn ThemeToggle() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    view! {
        <button data-testid="theme-toggle" title="Theme: follows the system (auto), light or dark (t)"
            data-theme=move || ctx.theme.get() on:click=move |_| cycle_theme(ctx)>
            {move || match ctx.theme.get() { "light" => "☀ light", "dark" => "☾ dark", _ => "◐ auto" }}
        </button>
    }
}

/// The keyboard shortcuts, opened with `?`.
#[component]
fn Shortcuts() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    const KEYS: [(&str, &str); 14] = [
        ("/", "focus the search"),
        ("Enter / n", "next match (zooms to it)"),
        ("Shift+Enter / N", "previous match"),
        ("Esc", "zoom out one step; clear the time range"),
        ("r", "reset the zoom"),
        ("1 2 3 4", "flame graph, inverted, sandwich, functions"),
        ("i", "flame ↔ icicle"),
        ("h", "alphabetical ↔ left-heavy"),
        ("t", "theme: auto, light, dark"),
        ("[ ]", "previous / next time range"),
        ("Ctrl+Z", "remove the last transform"),
        ("click", "zoom to a frame and select its function"),
        ("Ctrl+V", "open pasted folded stacks"),
        ("?", "this list"),
    ];
    view! {
        <Show when=move || ctx.help.get()>
            <div class="shortcuts" data-testid="shortcuts" role="dialog" aria-label="keyboard shortcuts">
                <table>
                    {KEYS.iter().map(|(k, what)| view! { <tr><th><kbd>{*k}</kbd></th><td>{*what}</td></tr> }).collect_view()}
                </table>
                <button on:click=move |_| ctx.help.set(false)>"Close"</button>
            </div>
        </Show>
    }
}
