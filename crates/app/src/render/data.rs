//! A loaded profile (with its cached colours and masks) and one view of it (call tree, diff data): what
//! every flame canvas paints from.

use super::color::{
    css_rgb, diff_color, frame_color, hot_cold, module_name, ColorScheme, HealthClass, Rgb, HEALTH_COLORS,
    KIND_COLORS, SELF_COLORS,
};
use crate::worker::protocol::Job;
use scorch_core::analysis::compare::FactRow;
use scorch_core::analysis::diff::{Diff, Mover, Side, Widths};
use scorch_core::analysis::health::StackHealth;
use scorch_core::analysis::{functions, stats};
use scorch_core::model::units::{format_percent, format_value};
use scorch_core::view::calltree::{CallTree, NodeId, Order, ELIDED_FRAME, ROOT_FRAME};
use scorch_core::{FrameKind, Imported, Profile, Unit, ViewOptions};
use std::sync::Arc;

/// A parsed profile, kept while views over it change.
pub struct Loaded {
    pub name: String,
    pub imported: Imported,
    /// This profile's key while it is open: the view engine (`worker::build`) holds a profile by it. A profile
    /// derived by a transform has its own.
    pub key: u32,
    /// Colours of the frames drawn so far, shared with the profiles derived from this one.
    colors: Arc<ColorCache>,
    /// Frame masks (search, selected function) by key, so a redraw does not run a regex per frame; shared with
    /// the profiles derived from this one (same frames), so the sandwich's panes and the main graph compute a
    /// mask over a million frames once, not once each.
    masks: Arc<std::sync::Mutex<Masks>>,
    /// The status line's figures by view, newest last: the default view's as the import worker computed them,
    /// others as the view engine sent them with a flame graph (`Job::Figures`), or as computed here.
    figures: std::sync::Mutex<Vec<(ViewOptions, ViewFigures)>>,
    /// The view whose figures the view engine is working out ([`Loaded::await_figures`]): nobody computes them
    /// here meanwhile.
    awaiting: std::sync::Mutex<Option<ViewOptions>>,
}

/// Views whose figures a profile keeps.
const FIGURES: usize = 4;

use crate::worker::protocol::ViewFigures;

use crate::worker::next_profile_key as next_key;

/// Frame masks by key, the newest last.
type Masks = Vec<(String, Arc<Vec<bool>>)>;

/// Per frame id: its name's colour and its module's, computed when the frame is first drawn (never for all
/// frames at once: a profile of a million distinct names would spend most of a second on it when opened).
#[derive(Default)]
struct ColorCache {
    name: std::sync::Mutex<std::collections::HashMap<u32, Rgb>>,
    module: std::sync::Mutex<std::collections::HashMap<u32, Rgb>>,
}

impl ColorCache {
    fn get(
        map: &std::sync::Mutex<std::collections::HashMap<u32, Rgb>>,
        f: scorch_core::FrameId,
        make: impl FnOnce() -> Rgb,
    ) -> Rgb {
        match map.lock() {
            Ok(mut m) => *m.entry(f.0).or_insert_with(make),
            Err(_) => make(),
        }
    }
}

impl Loaded {
    pub fn new(name: String, imported: Imported) -> Loaded {
        Loaded::with_key(name, imported, next_key())
    }

    /// Known by `key`: the one its import worker, kept as the view engine, holds it by
    /// (`worker::page::Done::key`).
    pub fn with_key(name: String, imported: Imported, key: u32) -> Loaded {
        Loaded {
            name,
            imported,
            key,
            colors: Arc::default(),
            masks: Arc::default(),
            figures: Default::default(),
            awaiting: Default::default(),
        }
    }

    /// With the default view's figures, as the import worker computed them.
    pub fn with_first_figures(self, figures: Option<ViewFigures>) -> Loaded {
        if let Some(f) = figures {
            self.keep_figures(ViewOptions::default_for(&self.imported.profile), f);
        }
        self
    }

    /// The view engine is working out the figures of `view` (a large profile's first view, which its first
    /// answer does not carry so as not to wait for them): [`Loaded::figures_ready`] says no until they are kept,
    /// or [`Loaded::stop_awaiting`] gives up on them.
    pub fn await_figures(&self, view: ViewOptions) {
        if let Ok(mut a) = self.awaiting.lock() {
            *a = Some(view);
        }
    }

    /// The figures will not come from the view engine: computed here when next asked for.
    pub fn stop_awaiting(&self) {
        if let Ok(mut a) = self.awaiting.lock() {
            *a = None;
        }
    }

    /// Whether the figures of `view` can be had now ([`Loaded::figures`]): kept, or not awaited from the view
    /// engine (then computed here).
    pub fn figures_ready(&self, view: &ViewOptions) -> bool {
        self.kept_figures(view).is_some() || self.awaiting.lock().map_or(true, |a| a.as_ref() != Some(view))
    }

    /// The figures of `view` when this profile keeps them ([`Loaded::keep_figures`]).
    pub fn kept_figures(&self, view: &ViewOptions) -> Option<ViewFigures> {
        let kept = self.figures.lock().ok()?;
        kept.iter().find(|(v, _)| v == view).map(|(_, f)| f.clone())
    }

    /// Keeps `figures` as those of `view` (the view engine's, sent with a flame graph).
    pub fn keep_figures(&self, view: ViewOptions, figures: ViewFigures) {
        if let Ok(mut kept) = self.figures.lock() {
            kept.retain(|(v, _)| *v != view);
            if kept.len() >= FIGURES {
                kept.remove(0);
            }
            kept.push((view.clone(), figures));
        }
        if let Ok(mut a) = self.awaiting.lock() {
            if a.as_ref() == Some(&view) {
                *a = None;
            }
        }
    }

    /// The figures of `view`: the kept ones (the import worker's or the view engine's), else computed here
    /// (passes over the samples and the stack table: the stack health alone was 46 ms of a task for a
    /// 700,000-row table).
    pub fn figures(&self, view: &ViewOptions) -> ViewFigures {
        self.kept_figures(view).unwrap_or_else(|| {
            let f = ViewFigures::of(&self.imported.profile, view);
            self.keep_figures(view.clone(), f.clone());
            f
        })
    }

    /// The stack health of `view` ([`Loaded::figures`]).
    pub fn stack_health(&self, view: &ViewOptions) -> StackHealth {
        self.figures(view).health
    }

    /// A profile derived from this one by a transform (same strings and frames): shares the colours.
    pub fn derived(&self, profile: Profile) -> Loaded {
        self.derived_as(profile, next_key())
    }

    /// [`Loaded::derived`], known by `key`: the one the view engine that made it holds it by
    /// (`worker::build::derive`).
    pub fn derived_as(&self, profile: Profile, key: u32) -> Loaded {
        Loaded {
            name: self.name.clone(),
            imported: Imported {
                profile,
                gzip: self.imported.gzip,
                bytes: self.imported.bytes,
            },
            key,
            colors: self.colors.clone(),
            masks: self.masks.clone(),
            figures: Default::default(),
            awaiting: Default::default(),
        }
    }

    /// The fill colour of frame `f` in a scheme that colours frames by themselves (name, module, kind); the
    /// schemes that need a tree (health, self time) colour by name here (the stack chart uses this).
    pub(crate) fn scheme_rgb(&self, f: scorch_core::FrameId, scheme: ColorScheme) -> Rgb {
        match scheme {
            ColorScheme::Module => self.frame_rgb(f, true),
            ColorScheme::Kind => {
                let k = self.imported.profile.frame_kind(f);
                KIND_COLORS
                    .iter()
                    .find(|(x, _)| *x == k)
                    .map_or([204, 204, 204], |(_, c)| css_rgb(c))
            }
            _ => self.frame_rgb(f, false),
        }
    }

    /// Per frame id of this profile: does it match? Cached by `key`.
    pub fn mask(&self, key: &str, m: &scorch_core::analysis::search::Matcher) -> Arc<Vec<bool>> {
        self.mask_with(key, || m.frame_mask(&self.imported.profile))
    }

    /// A per-frame mask kept under `key` (the last few are), made by `make` when not kept.
    pub fn mask_with(&self, key: &str, make: impl FnOnce() -> Vec<bool>) -> Arc<Vec<bool>> {
        let Ok(mut cache) = self.masks.lock() else {
            return Arc::new(make());
        };
        if let Some((_, v)) = cache.iter().find(|(k, _)| k == key) {
            return v.clone();
        }
        let v = Arc::new(make());
        if cache.len() >= 4 {
            cache.remove(0);
        }
        cache.push((key.to_string(), v.clone()));
        v
    }

    /// The fill colour of frame `f` by its name (hashed), or by its module's name.
    fn frame_rgb(&self, f: scorch_core::FrameId, by_module: bool) -> Rgb {
        let p = &self.imported.profile;
        let (name, kind) = (p.frame_name(f), p.frame_kind(f));
        if by_module {
            ColorCache::get(&self.colors.module, f, || {
                frame_color(module_name(name, kind), FrameKind::User)
            })
        } else {
            ColorCache::get(&self.colors.name, f, || frame_color(name, kind))
        }
    }
}

/// One view of a loaded profile: its call tree, rebuilt when the view changes.
pub struct FlameData {
    pub loaded: Arc<Loaded>,
    pub view: ViewOptions,
    pub unit: Unit,
    pub tree: CallTree,
    /// Rows of the graph: the tree's deepest depth + 1.
    pub depths: usize,
    /// Per node: how many rows its subtree reaches below it (`scorch_core::view::window::heights`), sent with
    /// the tree by the worker that built it, else computed on the first paint. What the paint needs besides the
    /// tree: no whole layout is kept (issue #39), each paint places the boxes of its window
    /// (`scorch_core::view::window`).
    heights: std::sync::OnceLock<Vec<u32>>,
    /// The last zoom's interval ([`FlameData::zoom_range`]): asked at every paint and pointer move, and a walk of
    /// the zoom's path each time (a million frames deep on a deep stack).
    zoom_x: std::sync::Mutex<Option<(NodeId, (f64, f64))>>,
    /// Set when this is a differential view.
    pub diff: Option<DiffData>,
    /// Per node: its stack-health class, computed on first use of that scheme.
    health: std::sync::OnceLock<Vec<HealthClass>>,
    /// Per node: the off-CPU fraction of its total (samples labelled `cpu=off`), computed on first use of the
    /// on/off-CPU scheme.
    off_cpu: std::sync::OnceLock<Vec<f64>>,
    /// Set when the tree is cut to what can be drawn (`scorch_core::view::cut`): its stand-ins are leaves for
    /// runs of narrower siblings, and a zoom asks the engine for a finer cut ([`FlameData::finer_for`]).
    pub cut: Option<CutInfo>,
}

/// What a cut tree needs to be cut finer where a zoom goes.
pub struct CutInfo {
    /// Per node: its id in the engine's whole tree (a stand-in's: how many frames it stands for).
    pub full: Vec<u32>,
    /// The job that built the tree and its order: with the view, which whole tree the engine cuts.
    pub job: Job,
    pub order: Order,
    /// The least total the tree keeps, and the finer cuts grafted since, by the node each was made at.
    pub min: u64,
    pub finer: Vec<(NodeId, u64)>,
}

/// What a differential view needs per node, on top of the tree of the merged profile.
pub struct DiffData {
    /// Both sides' facts (sample type, unit, period, duration, samples, labels), differing ones marked.
    pub facts: Vec<FactRow>,
    pub base_name: String,
    pub target_name: String,
    pub base_sum: u64,
    pub target_sum: u64,
    pub base_unit: Unit,
    pub target_unit: Unit,
    pub widths: Widths,
    pub absolute: bool,
    /// Per node: (base self, base total, target self, target total), raw.
    pub nodes: Vec<[u64; 4]>,
    /// Per node: fill colour, and 1 = only in target, 2 = only in base.
    pub colors: Vec<Rgb>,
    pub marks: Vec<u8>,
    /// The movers, each with the 95 % interval of its total share's change (Newcombe, from the samples behind
    /// both sides' shares; `None` without sample counts), as fractions.
    pub movers: Vec<(Mover, Option<(f64, f64)>)>,
}

impl DiffData {
    /// Change of a node's self share in percentage points (or of its raw self value in absolute mode).
    pub fn self_delta(&self, n: usize) -> f64 {
        let [bs, _, ts, _] = self.nodes.get(n).copied().unwrap_or_default();
        if self.absolute {
            ts as f64 - bs as f64
        } else {
            (Diff::share(ts, self.target_sum) - Diff::share(bs, self.base_sum)) * 100.0
        }
    }
}

/// Rows of a graph whose nodes reach `heights` rows below them (a cut tree's stand-ins reach below its deepest
/// node).
fn rows_of(t: &CallTree, heights: &[u32]) -> usize {
    t.depth
        .iter()
        .zip(heights)
        .map(|(&d, &h)| d as usize + h as usize)
        .max()
        .unwrap_or(0)
        + 1
}

/// A stand-in's fill (`scorch_core::view::cut`): the grey of frames too narrow to tell apart.
const ELIDED_RGB: Rgb = [176, 176, 176];

impl FlameData {
    /// The differential view of `base` → `target`.
    #[allow(clippy::too_many_arguments)]
    pub fn new_diff(
        facts: Vec<FactRow>,
        base: &Loaded,
        bview: ViewOptions,
        target: &Loaded,
        tview: ViewOptions,
        names: (String, String),
        widths: Widths,
        absolute: bool,
        order: Order,
    ) -> FlameData {
        let counts = |l: &Loaded, v: &ViewOptions| {
            functions::function_counts(&l.imported.profile, v).map(|(rows, n, _)| {
                let by_name: std::collections::HashMap<String, u64> =
                    rows.into_iter().map(|r| (r.name, r.total_n)).collect();
                (by_name, n)
            })
        };
        let (bcounts, tcounts) = (counts(base, &bview), counts(target, &tview));
        let d = Diff::new(
            Side {
                profile: &base.imported.profile,
                view: bview,
            },
            Side {
                profile: &target.imported.profile,
                view: tview,
            },
        );
        let (bname, tname) = names;
        let movers = d
            .movers()
            .into_iter()
            .map(|m| {
                let ci = match (&bcounts, &tcounts) {
                    (Some((bm, bn)), Some((tm, tn))) => {
                        let k = |map: &std::collections::HashMap<String, u64>| {
                            map.get(&m.name).copied().unwrap_or(0)
                        };
                        stats::difference_interval(k(bm), *bn, k(tm), *tn)
                    }
                    _ => None,
                };
                (m, ci)
            })
            .collect();
        let tree = d.tree(widths, order);
        let nodes: Vec<[u64; 4]> = (0..tree.len())
            .map(|n| {
                let x = d.node(&tree, NodeId(n as u32));
                [x.base_self, x.base_total, x.target_self, x.target_total]
            })
            .collect();
        let mut data = DiffData {
            facts,
            base_name: bname,
            target_name: tname,
            base_sum: d.base_sum,
            target_sum: d.target_sum,
            base_unit: d.base_unit.clone(),
            target_unit: d.target_unit.clone(),
            widths,
            absolute,
            nodes,
            colors: Vec::new(),
            marks: Vec::new(),
            movers,
        };
        let deltas: Vec<f64> = (0..tree.len()).map(|n| data.self_delta(n)).collect();
        let max = deltas.iter().skip(1).fold(0f64, |m, d| m.max(d.abs()));
        data.colors = deltas.iter().map(|&x| diff_color(x, max)).collect();
        data.marks = data
            .nodes
            .iter()
            .enumerate()
            .map(|(i, [_, bt, _, tt])| match (i, *bt, *tt) {
                (0, _, _) => 0,
                (_, 0, t) if t > 0 => 1,
                (_, b, 0) if b > 0 => 2,
                _ => 0,
            })
            .collect();
        let merged = Imported {
            profile: d.merged,
            gzip: false,
            bytes: 0,
        };
        let loaded = Arc::new(Loaded::new(format!("{} → {}", base.name, target.name), merged));
        let unit = if widths == Widths::Target {
            data.target_unit.clone()
        } else {
            data.base_unit.clone()
        };
        FlameData {
            loaded,
            view: ViewOptions::default(),
            unit,
            depths: tree.max_depth() as usize + 1,
            tree,
            heights: Default::default(),
            zoom_x: Default::default(),
            diff: Some(data),
            health: Default::default(),
            off_cpu: Default::default(),
            cut: None,
        }
    }

    pub fn new(loaded: Arc<Loaded>, view: ViewOptions, order: Order) -> FlameData {
        let tree = CallTree::build(&loaded.imported.profile, &view, order);
        FlameData::from_tree(loaded, view, tree)
    }

    /// The flame graph of a tree built from `loaded` under `view` by `job` in `order`, with its heights (made where
    /// the tree was); cut when the engine cut it.
    pub fn from_flame(
        loaded: Arc<Loaded>,
        view: ViewOptions,
        flame: crate::worker::Flame,
        job: Job,
        order: Order,
    ) -> FlameData {
        let crate::worker::Flame { tree, heights, full } = flame;
        let mut data = FlameData::from_tree(loaded, view, tree);
        if !full.is_empty() && full.len() == data.tree.len() {
            data.cut = Some(CutInfo {
                full,
                job,
                order,
                min: scorch_core::view::cut::min_of(data.tree.total.first().copied().unwrap_or(0)),
                finer: Vec::new(),
            });
            data.depths = rows_of(&data.tree, &heights);
        }
        if heights.len() == data.tree.len() {
            let _ = data.heights.set(heights);
        }
        data
    }

    /// What the frames of `mask` weigh in this view: the samples whose path has one, counted once, and the self
    /// weight of its nodes (`scorch_core::analysis::search::matched_weights`). From the profile when the tree
    /// is cut (its stand-ins hide the nodes under them) and it is the plain or inverted tree.
    pub fn matched_weights(&self, mask: &[bool]) -> (u64, u64) {
        use scorch_core::analysis::search;
        match self.cut.as_ref().map(|c| &c.job) {
            Some(Job::Plain) => search::matched_in_profile(self.profile(), &self.view, mask, false),
            Some(Job::Inverted) => search::matched_in_profile(self.profile(), &self.view, mask, true),
            _ => search::matched_weights(&self.tree, mask),
        }
    }

    /// How many frames node `n` stands for, when it is a stand-in of a cut tree.
    pub fn elided_count(&self, n: NodeId) -> Option<u32> {
        let c = self.cut.as_ref()?;
        self.is_elided(n)
            .then(|| c.full.get(n.idx()).copied().unwrap_or(0))
    }

    /// Is this graph's tree cut, and node `n` a stand-in for narrower frames?
    pub fn is_elided(&self, n: NodeId) -> bool {
        self.cut.is_some() && scorch_core::view::cut::is_elided(&self.tree, n)
    }

    /// The whole-tree node and the cut a zoom to `n` needs from the engine, when this tree is cut there too
    /// coarsely to draw it (`scorch_core::view::cut::needs_finer`).
    pub fn finer_for(&self, n: NodeId) -> Option<(u32, u64)> {
        use scorch_core::view::cut;
        let c = self.cut.as_ref()?;
        if self.is_elided(n) {
            return None;
        }
        // The finest cut made at `n` or above it.
        let mut min = c.min;
        if !c.finer.is_empty() {
            let mut at = Some(n);
            while let Some(a) = at {
                if let Some(&(_, m)) = c.finer.iter().find(|(x, _)| *x == a) {
                    min = min.min(m);
                }
                at = self.tree.parent(a);
            }
        }
        let total = self.tree.total.get(n.idx()).copied().unwrap_or(0);
        cut::needs_finer(min, total).then(|| (c.full.get(n.idx()).copied().unwrap_or(0), cut::min_of(total)))
    }

    /// This graph with the engine's finer cut of node `at` (made at `min`) grafted in (`Cut::graft`); `None` when
    /// it does not fit.
    pub fn refined(&self, at: NodeId, min: u64, part: crate::worker::Flame) -> Option<FlameData> {
        use scorch_core::view::cut::{graft, Cut};
        let c = self.cut.as_ref()?;
        let part = Cut {
            tree: part.tree,
            heights: part.heights,
            full: part.full,
        };
        // From this graph's own columns, borrowed: the graft copies them once, into the new graph.
        let g = graft(&self.tree, self.heights(), &c.full, at, &part)?;
        let mut finer = c.finer.clone();
        finer.push((at, min));
        let depths = rows_of(&g.tree, &g.heights);
        let heights = std::sync::OnceLock::new();
        let _ = heights.set(g.heights);
        Some(FlameData {
            loaded: self.loaded.clone(),
            view: self.view.clone(),
            unit: self.unit.clone(),
            tree: g.tree,
            depths,
            heights,
            zoom_x: Default::default(),
            diff: None,
            health: Default::default(),
            off_cpu: Default::default(),
            cut: Some(CutInfo {
                full: g.full,
                job: c.job.clone(),
                order: c.order,
                min: c.min,
                finer,
            }),
        })
    }

    /// The flame graph of a tree built from `loaded` under `view`.
    pub fn from_tree(loaded: Arc<Loaded>, view: ViewOptions, tree: CallTree) -> FlameData {
        let p = &loaded.imported.profile;
        let unit = view.unit(p);
        FlameData {
            loaded,
            view,
            unit,
            depths: tree.max_depth() as usize + 1,
            tree,
            heights: Default::default(),
            zoom_x: Default::default(),
            diff: None,
            health: Default::default(),
            off_cpu: Default::default(),
            cut: None,
        }
    }

    /// Per node: how many rows its subtree reaches below it (what a paint's window needs; one pass, once).
    pub fn heights(&self) -> &[u32] {
        self.heights
            .get_or_init(|| scorch_core::view::window::heights(&self.tree))
    }

    /// Node `n`'s interval in unit space (from the tree: O(depth × siblings)).
    pub fn x_range(&self, n: NodeId) -> (f64, f64) {
        scorch_core::view::window::x_range(&self.tree, n)
    }

    /// [`FlameData::x_range`] of the zoom, kept for the next ask of the same zoom.
    pub fn zoom_range(&self, zoom: NodeId) -> (f64, f64) {
        if let Ok(last) = self.zoom_x.lock() {
            if let Some((z, r)) = *last {
                if z == zoom {
                    return r;
                }
            }
        }
        let r = self.x_range(zoom);
        if let Ok(mut last) = self.zoom_x.lock() {
            *last = Some((zoom, r));
        }
        r
    }

    /// Per frame id of this view's profile: does it match? Cached by `key`.
    pub fn mask(&self, key: &str, m: &scorch_core::analysis::search::Matcher) -> Arc<Vec<bool>> {
        self.loaded.mask(key, m)
    }

    /// Does node `n` stand for a frame set in `mask`?
    pub fn node_in(&self, mask: &[bool], n: NodeId) -> bool {
        match self.tree.frame.get(n.idx()) {
            Some(&f) if f != ROOT_FRAME => mask.get(f.idx()).copied().unwrap_or(false),
            _ => false,
        }
    }

    pub fn name(&self) -> &str {
        &self.loaded.name
    }

    pub fn profile(&self) -> &Profile {
        &self.loaded.imported.profile
    }

    pub fn name_of(&self, n: NodeId) -> &str {
        self.tree.name(self.profile(), n)
    }

    pub fn kind_of(&self, n: NodeId) -> Option<FrameKind> {
        let f = *self.tree.frame.get(n.idx())?;
        (f != ROOT_FRAME && f != ELIDED_FRAME).then(|| self.profile().frame_kind(f))
    }

    pub(crate) fn color_of(&self, n: NodeId, scheme: ColorScheme) -> Rgb {
        const GREY: Rgb = [204, 204, 204];
        if let Some(c) = self.diff.as_ref().and_then(|d| d.colors.get(n.idx())) {
            return *c;
        }
        let f = match self.tree.frame.get(n.idx()) {
            Some(&f) if f == ELIDED_FRAME => return ELIDED_RGB,
            Some(&f) if f != ROOT_FRAME => f,
            _ => return [200, 200, 200],
        };
        match scheme {
            ColorScheme::Name => self.loaded.frame_rgb(f, false),
            ColorScheme::Module => self.loaded.frame_rgb(f, true),
            ColorScheme::Kind => {
                let k = self.profile().frame_kind(f);
                KIND_COLORS
                    .iter()
                    .find(|(x, _)| *x == k)
                    .map_or(GREY, |(_, c)| css_rgb(c))
            }
            ColorScheme::Health => {
                let class = self
                    .health
                    .get_or_init(|| self.health_classes())
                    .get(n.idx())
                    .copied()
                    .unwrap_or(HealthClass::Whole);
                HEALTH_COLORS
                    .iter()
                    .find(|(x, _)| *x == class)
                    .map_or(GREY, |(_, c)| css_rgb(c))
            }
            ColorScheme::OnOffCpu => {
                let off = self
                    .off_cpu
                    .get_or_init(|| self.off_cpu_shares())
                    .get(n.idx())
                    .copied()
                    .unwrap_or(0.0);
                let p = self.profile();
                hot_cold(p.frame_name(f), p.frame_kind(f), off)
            }
            ColorScheme::SelfTime => {
                let total = self.tree.total.get(n.idx()).copied().unwrap_or(0);
                let own = self.tree.self_w.get(n.idx()).copied().unwrap_or(0);
                let step = if total == 0 {
                    0
                } else {
                    ((own as f64 / total as f64) * 9.0).round() as usize
                };
                SELF_COLORS.get(step.min(9)).map_or(GREY, |c| css_rgb(c))
            }
        }
    }

    /// Each node's stack-health class: its own and its descendants' self weight in truncated stacks against
    /// their total (one pass leaf to root over the tree; ids are topological), unnamed frames apart.
    /// Per node, the share of its total that samples labelled `cpu=off` weigh (wall-clock profiles); zeros
    /// when the profile has no such label.
    fn off_cpu_shares(&self) -> Vec<f64> {
        let p = self.profile();
        let Ok(off) = scorch_core::view::LabelFilter::parse(p, "cpu=off") else {
            return vec![0.0; self.tree.len()];
        };
        let w = ViewOptions {
            label: Some(off),
            ..self.view.clone()
        };
        let (totals, _) = scorch_core::analysis::stats::node_totals(p, &w, &self.tree);
        totals
            .iter()
            .zip(&self.tree.total)
            .map(|(&o, &t)| if t == 0 { 0.0 } else { o as f64 / t as f64 })
            .collect()
    }

    fn health_classes(&self) -> Vec<HealthClass> {
        use scorch_core::analysis::health::{is_unsymbolized, truncated_rows};
        let p = self.profile();
        let cut = truncated_rows(p);
        let t = &self.tree;
        let mut broken: Vec<u64> = (0..t.len())
            .map(|i| {
                let own = t.self_w.get(i).copied().unwrap_or(0);
                let row = t.origin.get(i).copied().unwrap_or(u32::MAX) as usize;
                if cut.get(row).copied().unwrap_or(false) {
                    own
                } else {
                    0
                }
            })
            .collect();
        for i in (1..t.len()).rev() {
            let par = t.parent.get(i).copied().unwrap_or(u32::MAX) as usize;
            let add = broken.get(i).copied().unwrap_or(0);
            if let Some(x) = broken.get_mut(par) {
                *x = x.saturating_add(add);
            }
        }
        (0..t.len())
            .map(|i| {
                let total = t.total.get(i).copied().unwrap_or(0);
                let b = broken.get(i).copied().unwrap_or(0);
                let named = match t.frame.get(i) {
                    Some(&f) if f != ROOT_FRAME => !is_unsymbolized(p.frame_name(f)),
                    _ => true,
                };
                if !named {
                    HealthClass::Unnamed
                } else if b == 0 {
                    HealthClass::Whole
                } else if b >= total {
                    HealthClass::Truncated
                } else {
                    HealthClass::Mixed
                }
            })
            .collect()
    }

    /// Value of a raw weight in the profile's unit, as a float for display (the mean per profile when the view
    /// asks for it).
    pub fn value(&self, raw: u64) -> f64 {
        self.view
            .shown(raw as f64 / 10f64.powi(self.profile().meta.decimals as i32))
    }

    /// "1.24 s (31.2 %)", the share being of the whole profile.
    pub fn describe(&self, raw: u64) -> String {
        let unit = &self.unit;
        let total = self.tree.total.first().copied().unwrap_or(0);
        format!(
            "{} ({})",
            format_value(self.value(raw), unit),
            format_percent(raw as f64, total as f64)
        )
    }

    /// Share of `raw` in the total of node `of` ("80.0 %").
    pub fn share_of(&self, raw: u64, of: NodeId) -> String {
        format_percent(
            raw as f64,
            self.tree.total.get(of.idx()).copied().unwrap_or(0) as f64,
        )
    }

    /// Names from the root to `n`, joined with `;` (the zoom's test hook and breadcrumb text).
    pub fn path_string(&self, n: NodeId) -> String {
        self.tree
            .path(n)
            .iter()
            .map(|&c| self.name_of(c))
            .collect::<Vec<_>>()
            .join(";")
    }
}
