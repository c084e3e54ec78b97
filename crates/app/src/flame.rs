//! The canvas flame graph: maps the core's unit-space layout to pixels, draws, and hit-tests.
//!
//! Coordinate spaces: *unit* (x in [0,1] of the root total, y = depth), *CSS px* (what events report),
//! *device px* (the canvas backing store, CSS px × devicePixelRatio). One transform, [`Geometry`], goes
//! between unit and CSS px; the context is scaled once by the DPR so drawing uses CSS px.

use scorch_core::calltree::{CallTree, NodeId, Order, ROOT_FRAME};
use scorch_core::diff::{Diff, Mover, Side, Widths};
use scorch_core::units::{format_percent, format_value};
use scorch_core::{FlameLayout, FrameKind, Imported, Profile, Unit, ViewOptions};
use std::sync::Arc;
use web_sys::CanvasRenderingContext2d;

/// Height of one frame row in CSS px.
pub const ROW_H: f64 = 18.0;
const FONT: &str = "12px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

/// A parsed profile, kept while views over it change.
pub struct Loaded {
    pub name: String,
    pub imported: Imported,
    /// Fill colour per frame id (name hashed).
    colors: Arc<Vec<Rgb>>,
    /// Per frame id: its module's colour (index into `module_colors`).
    modules: Arc<(Vec<u32>, Vec<Rgb>)>,
}

impl Loaded {
    pub fn new(name: String, imported: Imported) -> Loaded {
        let p = &imported.profile;
        let colors = (0..p.frames.len())
            .map(|i| {
                let f = scorch_core::FrameId(i as u32);
                frame_color(p.frame_name(f), p.frame_kind(f))
            })
            .collect();
        let mut index: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
        let mut module_colors = Vec::new();
        let module_of: Vec<u32> = (0..p.frames.len())
            .map(|i| {
                let f = scorch_core::FrameId(i as u32);
                let m = module_name(p.frame_name(f), p.frame_kind(f));
                *index.entry(m).or_insert_with(|| {
                    module_colors.push(frame_color(m, FrameKind::User));
                    (module_colors.len() - 1) as u32
                })
            })
            .collect();
        Loaded {
            name,
            imported,
            colors: Arc::new(colors),
            modules: Arc::new((module_of, module_colors)),
        }
    }

    /// A profile derived from this one by a transform (same strings and frames): shares the colours.
    pub fn derived(&self, profile: Profile) -> Loaded {
        Loaded {
            name: self.name.clone(),
            imported: Imported {
                profile,
                gzip: self.imported.gzip,
                bytes: self.imported.bytes,
            },
            colors: self.colors.clone(),
            modules: self.modules.clone(),
        }
    }
}

/// The module (package, namespace, class) a frame belongs to, read from its name: `a::b::f` → `a`,
/// `math/big.nat.add` → `math/big`, `runtime.mallocgc` → `runtime`; kernel frames are `kernel`, process roots
/// `process`; a name without a separator is its own module.
pub fn module_name(name: &str, kind: FrameKind) -> &str {
    match kind {
        FrameKind::Kernel => return "kernel",
        FrameKind::Process => return "process",
        _ => {}
    }
    let name = name.trim_start_matches(['<', '&', '*', '(']);
    if let Some(i) = name.find("::") {
        return &name[..i];
    }
    let tail_start = name.rfind('/').map_or(0, |i| i + 1);
    match name[tail_start..].find('.') {
        Some(i) if tail_start + i > 0 => &name[..tail_start + i],
        _ => name,
    }
}

/// How frames are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorScheme {
    /// A warm hue hashed from the name: the same function has the same colour in every view.
    #[default]
    Name,
    /// A hue hashed from the module (package, namespace, class).
    Module,
    /// One colour per frame kind: user, kernel, JIT, inline, process.
    Kind,
    /// From pale to deep red by the frame's share of self time in its own total.
    SelfTime,
}

impl ColorScheme {
    pub const ALL: [ColorScheme; 4] = [
        ColorScheme::Name,
        ColorScheme::Module,
        ColorScheme::Kind,
        ColorScheme::SelfTime,
    ];
    pub fn key(self) -> &'static str {
        match self {
            ColorScheme::Name => "name",
            ColorScheme::Module => "module",
            ColorScheme::Kind => "kind",
            ColorScheme::SelfTime => "self",
        }
    }
    pub fn from_key(k: &str) -> Option<ColorScheme> {
        ColorScheme::ALL.into_iter().find(|c| c.key() == k)
    }
    pub fn label(self) -> &'static str {
        match self {
            ColorScheme::Name => "function",
            ColorScheme::Module => "module",
            ColorScheme::Kind => "kind",
            ColorScheme::SelfTime => "self time",
        }
    }
}

/// Fill colours of the kind scheme (also the legend's swatches).
pub const KIND_COLORS: [(FrameKind, &str); 5] = [
    (FrameKind::User, "rgb(242,179,90)"),
    (FrameKind::Kernel, "rgb(232,116,59)"),
    (FrameKind::Jit, "rgb(95,181,95)"),
    (FrameKind::Inline, "rgb(94,196,196)"),
    (FrameKind::Process, "rgb(180,180,200)"),
];

/// Ten steps from pale yellow (no self time) to deep red (all self time).
pub const SELF_COLORS: [&str; 10] = [
    "rgb(250,240,200)",
    "rgb(250,225,170)",
    "rgb(250,205,140)",
    "rgb(248,185,115)",
    "rgb(244,160,95)",
    "rgb(238,135,80)",
    "rgb(228,108,66)",
    "rgb(214,80,55)",
    "rgb(196,52,45)",
    "rgb(170,28,36)",
];

/// One view of a loaded profile: its call tree and layout, rebuilt when the view changes.
pub struct FlameData {
    pub loaded: Arc<Loaded>,
    pub view: ViewOptions,
    pub unit: Unit,
    pub tree: CallTree,
    pub layout: FlameLayout,
    /// Set when this is a differential view.
    pub diff: Option<DiffData>,
    /// Frame masks (search, selected function) cached per key, so a redraw does not run a regex per frame.
    masks: std::sync::Mutex<Vec<(String, Arc<Vec<bool>>)>>,
}

/// What a differential view needs per node, on top of the tree of the merged profile.
pub struct DiffData {
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
    pub movers: Vec<Mover>,
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

impl FlameData {
    /// The differential view of `base` → `target`.
    #[allow(clippy::too_many_arguments)]
    pub fn new_diff(
        base: &Loaded,
        bview: ViewOptions,
        target: &Loaded,
        tview: ViewOptions,
        names: (String, String),
        widths: Widths,
        absolute: bool,
        order: Order,
    ) -> FlameData {
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
        let movers = d.movers();
        let tree = d.tree(widths, order);
        let nodes: Vec<[u64; 4]> = (0..tree.len())
            .map(|n| {
                let x = d.node(&tree, NodeId(n as u32));
                [x.base_self, x.base_total, x.target_self, x.target_total]
            })
            .collect();
        let mut data = DiffData {
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
        let layout = FlameLayout::new(&tree);
        let unit = if widths == Widths::Target {
            data.target_unit.clone()
        } else {
            data.base_unit.clone()
        };
        FlameData {
            loaded,
            view: ViewOptions::default(),
            unit,
            tree,
            layout,
            diff: Some(data),
            masks: Default::default(),
        }
    }

    pub fn new(loaded: Arc<Loaded>, view: ViewOptions, order: Order) -> FlameData {
        let tree = CallTree::build(&loaded.imported.profile, &view, order);
        FlameData::from_tree(loaded, view, tree)
    }

    /// The flame graph of a tree built from `loaded` under `view`.
    pub fn from_tree(loaded: Arc<Loaded>, view: ViewOptions, tree: CallTree) -> FlameData {
        let layout = FlameLayout::new(&tree);
        FlameData::from_parts(loaded, view, tree, layout)
    }

    /// The flame graph of a tree and its layout, both of `loaded` under `view`.
    pub fn from_parts(
        loaded: Arc<Loaded>,
        view: ViewOptions,
        tree: CallTree,
        layout: FlameLayout,
    ) -> FlameData {
        let p = &loaded.imported.profile;
        let unit = view.unit(p);
        FlameData {
            loaded,
            view,
            unit,
            tree,
            layout,
            diff: None,
            masks: Default::default(),
        }
    }

    /// Per frame id of this view's profile: does it match? Cached by `key`.
    pub fn mask(&self, key: &str, m: &scorch_core::explore::Matcher) -> Arc<Vec<bool>> {
        let Ok(mut cache) = self.masks.lock() else {
            return Arc::new(m.frame_mask(self.profile()));
        };
        if let Some((_, v)) = cache.iter().find(|(k, _)| k == key) {
            return v.clone();
        }
        let v = Arc::new(m.frame_mask(self.profile()));
        if cache.len() >= 4 {
            cache.remove(0);
        }
        cache.push((key.to_string(), v.clone()));
        v
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
        (f != ROOT_FRAME).then(|| self.profile().frame_kind(f))
    }

    fn color_of(&self, n: NodeId, scheme: ColorScheme) -> Rgb {
        const GREY: Rgb = [204, 204, 204];
        if let Some(c) = self.diff.as_ref().and_then(|d| d.colors.get(n.idx())) {
            return *c;
        }
        let f = match self.tree.frame.get(n.idx()) {
            Some(&f) if f != ROOT_FRAME => f,
            _ => return [200, 200, 200],
        };
        match scheme {
            ColorScheme::Name => self.loaded.colors.get(f.idx()).copied().unwrap_or(GREY),
            ColorScheme::Module => {
                let (of, colors) = &*self.loaded.modules;
                of.get(f.idx())
                    .and_then(|&m| colors.get(m as usize))
                    .copied()
                    .unwrap_or(GREY)
            }
            ColorScheme::Kind => {
                let k = self.profile().frame_kind(f);
                KIND_COLORS
                    .iter()
                    .find(|(x, _)| *x == k)
                    .map_or(GREY, |(_, c)| css_rgb(c))
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

    /// Value of a raw weight in the profile's unit, as a float for display.
    pub fn value(&self, raw: u64) -> f64 {
        raw as f64 / 10f64.powi(self.profile().meta.decimals as i32)
    }

    /// "1.24 s (31.2 %)", the share being of the whole profile.
    pub fn describe(&self, raw: u64) -> String {
        let unit = &self.profile().meta.unit;
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

/// flamegraph.pl's palettes, with the hue picked by a stable hash of the name: the same function always has
/// the same colour. Warm hues for user code; orange kernel, green JIT, aqua inline, as flamegraph.pl's java palette.
pub fn frame_color(name: &str, kind: FrameKind) -> Rgb {
    let h = fnv1a(name.as_bytes());
    let v1 = (h & 0xff) as f64 / 255.0;
    let v2 = ((h >> 8) & 0xff) as f64 / 255.0;
    let v3 = ((h >> 16) & 0xff) as f64 / 255.0;
    let (r, g, b) = match kind {
        FrameKind::User => (205.0 + 50.0 * v3, 230.0 * v1, 55.0 * v2),
        FrameKind::Kernel => (200.0 + 55.0 * v1, 110.0 + 50.0 * v2, 30.0 * v3),
        FrameKind::Jit => (50.0 + 60.0 * v1, 170.0 + 60.0 * v2, 50.0 + 60.0 * v3),
        FrameKind::Inline => (50.0 + 60.0 * v1, 165.0 + 55.0 * v2, 165.0 + 55.0 * v2),
        FrameKind::Process => (160.0 + 40.0 * v1, 160.0 + 40.0 * v1, 170.0 + 40.0 * v1),
    };
    [r as u8, g as u8, b as u8]
}

/// A colour as red, green, blue.
pub type Rgb = [u8; 3];

/// `rgb(r,g,b)` → [r, g, b] (the constants above; anything else is grey).
pub fn css_rgb(s: &str) -> Rgb {
    let mut out = [204u8; 3];
    let inner = s.trim_start_matches("rgb(").trim_end_matches(')');
    for (o, part) in out.iter_mut().zip(inner.split(',')) {
        *o = part.trim().parse().unwrap_or(204);
    }
    out
}

/// Differential colour: red grew, blue shrank, grey unchanged; intensity relative to the largest change shown.
pub fn diff_color(delta: f64, max: f64) -> Rgb {
    if max <= 0.0 || delta.abs() < max * 1e-3 {
        return [210, 210, 210];
    }
    let a = (delta.abs() / max).clamp(0.0, 1.0);
    // From light grey towards saturated red or blue.
    let fade = |full: f64| (210.0 + (full - 210.0) * a).round() as u8;
    if delta > 0.0 {
        [fade(230.0), fade(40.0), fade(40.0)]
    } else {
        [fade(40.0), fade(90.0), fade(230.0)]
    }
}

fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Orientation {
    /// Root at the bottom (flamegraph.pl).
    #[default]
    Flame,
    /// Root at the top.
    Icicle,
}

/// The transform between unit space and CSS px for one view.
pub struct Geometry {
    pub width: f64,
    /// Height of the whole graph (the scrollable content).
    pub height: f64,
    /// The visible window onto it: the canvas is only this tall (browsers refuse canvases over ~32,767 px,
    /// which a deep recursion would need), and draws the rows that fall in it.
    pub view_top: f64,
    pub view_h: f64,
    pub vx0: f64,
    pub vx1: f64,
    pub zoom_depth: usize,
    pub orientation: Orientation,
}

impl Geometry {
    /// `min_height` is the visible area's height: a short graph fills it, root at the bottom in flame mode.
    pub fn new(
        d: &FlameData,
        zoom: NodeId,
        width: f64,
        min_height: f64,
        view_top: f64,
        orientation: Orientation,
    ) -> Geometry {
        let z = zoom.idx();
        let (vx0, vx1) = (
            d.layout.x0.get(z).copied().unwrap_or(0.0),
            d.layout.x1.get(z).copied().unwrap_or(1.0),
        );
        let (vx0, vx1) = if vx1 > vx0 { (vx0, vx1) } else { (0.0, 1.0) };
        let height = (d.layout.depth_count() as f64 * ROW_H).max(min_height.floor());
        let view_h = min_height.floor().min(height);
        Geometry {
            width,
            height,
            view_top: view_top.clamp(0.0, (height - view_h).max(0.0)),
            view_h,
            vx0,
            vx1,
            zoom_depth: d.tree.depth.get(z).copied().unwrap_or(0) as usize,
            orientation,
        }
    }

    pub fn px(&self, x: f64) -> f64 {
        (x - self.vx0) / (self.vx1 - self.vx0) * self.width
    }

    pub fn unit_x(&self, px: f64) -> f64 {
        self.vx0 + px / self.width * (self.vx1 - self.vx0)
    }

    /// Top of a row on the canvas (CSS px; the canvas shows `[view_top, view_top + view_h)` of the graph).
    pub fn row_y(&self, depth: usize) -> f64 {
        let content = match self.orientation {
            Orientation::Flame => self.height - (depth as f64 + 1.0) * ROW_H,
            Orientation::Icicle => depth as f64 * ROW_H,
        };
        content - self.view_top
    }

    /// The row under a canvas y.
    pub fn depth_at(&self, py: f64) -> Option<usize> {
        let y = py + self.view_top;
        let r = match self.orientation {
            Orientation::Flame => (self.height - y) / ROW_H,
            Orientation::Icicle => y / ROW_H,
        };
        (r >= 0.0).then_some(r.floor() as usize)
    }

    /// Is a row (partly) on the canvas?
    pub fn row_visible(&self, depth: usize) -> bool {
        let y = self.row_y(depth);
        y + ROW_H > 0.0 && y < self.view_h
    }
}

/// The node under a CSS-px point, taking the zoom into account (ancestors of the zoom span the full width).
pub fn hit(d: &FlameData, zoom: NodeId, g: &Geometry, px: f64, py: f64) -> Option<NodeId> {
    let depth = g.depth_at(py)?;
    if px < 0.0 || px >= g.width {
        return None;
    }
    if depth < g.zoom_depth {
        return ancestor_at(d, zoom, depth);
    }
    d.layout.node_at(g.unit_x(px), depth)
}

fn ancestor_at(d: &FlameData, zoom: NodeId, depth: usize) -> Option<NodeId> {
    if depth == 0 {
        return Some(NodeId::ROOT);
    }
    d.tree.path(zoom).get(depth - 1).copied()
}

/// What a frame's drawing depends on besides the layout.
pub struct Paint<'a> {
    /// Search matches per frame id: matches are highlighted, the rest dimmed.
    pub search: Option<&'a [bool]>,
    /// The selected function per frame id: outlined.
    pub selected: Option<&'a [bool]>,
    pub scheme: ColorScheme,
    pub dark: bool,
}

/// Highlight colour of search matches (flamegraph.pl's magenta).
pub const MATCH_COLOR: &str = "rgb(230,0,230)";
const MATCH_RGB: Rgb = [230, 0, 230];
/// Runs of frames narrower than a pixel.
const SLIVER_RGB: Rgb = [214, 196, 176];

thread_local! {
    /// The pixel buffer of the last paint, reused (a full canvas of RGBA).
    static PIXELS: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Label and outline work left for after the boxes are blitted.
struct Label {
    n: NodeId,
    x0: f64,
    w: f64,
    y: f64,
    alpha: f64,
}

/// Draws the whole flame graph. The context is already scaled to CSS px; `dpr` is the device-pixel ratio.
///
/// Boxes are written into an RGBA buffer in wasm and blitted with one `putImageData`: on a million-node tree a
/// canvas call per box (tens of thousands, each crossing into JavaScript with a colour string) took 30 ms and
/// more. Labels and outlines, far fewer, are drawn with canvas calls on top.
pub fn draw(
    ctx: &CanvasRenderingContext2d,
    d: &FlameData,
    zoom: NodeId,
    paint: &Paint,
    g: &Geometry,
    dpr: f64,
) {
    let dw = (g.width * dpr).round().max(0.0) as usize;
    let dh = (g.view_h * dpr).round().max(0.0) as usize;
    let mut labels: Vec<Label> = Vec::new();
    PIXELS.with(|px| {
        let mut buf = px.borrow_mut();
        buf.clear();
        buf.resize(dw * dh * 4, 0);
        let dims = (dw, dh, dpr);
        let style = |n: NodeId, base_alpha: f64| -> (Rgb, f64) {
            let matched = paint.search.map(|m| d.node_in(m, n));
            let rgb = if matched == Some(true) {
                MATCH_RGB
            } else {
                d.color_of(n, paint.scheme)
            };
            let alpha = if matched == Some(false) {
                base_alpha * 0.35
            } else {
                base_alpha
            };
            (rgb, alpha)
        };
        let mut boxed = |buf: &mut Vec<u8>, n: NodeId, x0: f64, x1: f64, y: f64, base_alpha: f64| {
            let w = x1 - x0;
            let (rgb, alpha) = style(n, base_alpha);
            // One CSS px gap on the right and bottom separates neighbours when there is room.
            let gap = if w > 3.0 { 1.0 } else { 0.0 };
            fill_px(buf, dims, x0, x1 - gap, y, rgb, alpha);
            labels.push(Label { n, x0, w, y, alpha });
        };
        // Ancestors of the zoom: full width, faded.
        for depth in 0..g.zoom_depth {
            if let Some(n) = ancestor_at(d, zoom, depth) {
                if g.row_visible(depth) {
                    boxed(&mut buf, n, 0.0, g.width, g.row_y(depth), 0.6);
                }
            }
        }
        for depth in g.zoom_depth..d.layout.depth_count() {
            if !g.row_visible(depth) {
                continue;
            }
            let (Some(row), Some(rx0), Some(rx1)) = (
                d.layout.rows.get(depth),
                d.layout.row_x0.get(depth),
                d.layout.row_x1.get(depth),
            ) else {
                continue;
            };
            let range = d.layout.row_range(depth, g.vx0, g.vx1);
            let y = g.row_y(depth);
            // Sub-pixel frames merge into slivers of one neutral colour, one fill per run of adjacent pixels
            // (looking up each run's colour cost two cache misses per pixel on a million-node tree).
            let sliver_alpha = if paint.search.is_some() { 0.35 } else { 1.0 };
            let mut run: Option<(f64, f64)> = None;
            let mut i = range.start;
            while i < range.end {
                let x0 = g.px(rx0[i]).max(0.0);
                let x1 = g.px(rx1[i]).min(g.width);
                if x1 - x0 < 1.0 {
                    // Skip every frame that ends inside this pixel (siblings do not overlap, so ends are sorted
                    // too); the run becomes a sliver when it covers half the pixel. A wide frame that merely
                    // starts inside the pixel is not skipped. The search gallops from `i`: runs are usually
                    // short, and the row's ends are contiguous in memory.
                    let next = g.unit_x(x0.floor() + 1.0);
                    let skip = gallop(&rx1[i + 1..range.end], next);
                    let end = g.px(rx1[i + skip]).min(g.width);
                    if end - x0 >= 0.5 {
                        let p = x0.floor();
                        run = match run {
                            Some((a, b)) if b >= p => Some((a, p + 1.0)),
                            Some((a, b)) => {
                                fill_px(&mut buf, dims, a, b, y, SLIVER_RGB, sliver_alpha);
                                Some((p, p + 1.0))
                            }
                            None => Some((p, p + 1.0)),
                        };
                    }
                    i += 1 + skip;
                    continue;
                }
                if let Some((a, b)) = run.take() {
                    fill_px(&mut buf, dims, a, b.min(x0), y, SLIVER_RGB, sliver_alpha);
                }
                boxed(&mut buf, row[i], x0, x1, y, 1.0);
                i += 1;
            }
            if let Some((a, b)) = run {
                fill_px(&mut buf, dims, a, b, y, SLIVER_RGB, sliver_alpha);
            }
        }
        if dw > 0 && dh > 0 {
            if let Ok(img) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
                wasm_bindgen::Clamped(&buf[..]),
                dw as u32,
                dh as u32,
            ) {
                let _ = ctx.put_image_data(&img, 0.0, 0.0);
            }
        }
    });
    // Outlines and labels, in CSS px (the context is scaled by the DPR).
    ctx.set_font(FONT);
    ctx.set_text_baseline("middle");
    let char_w = ctx
        .measure_text("MMMMMMMMMM")
        .map(|m| m.width() / 10.0)
        .unwrap_or(7.2)
        .max(1.0);
    for l in &labels {
        let gap = if l.w > 3.0 { 1.0 } else { 0.0 };
        let mark = d
            .diff
            .as_ref()
            .and_then(|x| x.marks.get(l.n.idx()))
            .copied()
            .unwrap_or(0);
        if mark != 0 && l.w > 3.0 {
            // Only in the target: a dark red dashed outline; only in the base: a dark blue one.
            ctx.set_stroke_style_str(if mark == 1 { "#7a0000" } else { "#00237a" });
            ctx.set_line_width(1.5);
            let _ = ctx.set_line_dash(&js_sys::Array::of2(&3.0.into(), &2.0.into()));
            ctx.stroke_rect(l.x0 + 0.75, l.y + 0.75, (l.w - gap - 1.5).max(0.0), ROW_H - 2.5);
            let _ = ctx.set_line_dash(&js_sys::Array::new());
        }
        if l.w > 2.0 && paint.selected.is_some_and(|m| d.node_in(m, l.n)) {
            ctx.set_stroke_style_str(if paint.dark { "#7dd3fc" } else { "#0b4fd6" });
            ctx.set_line_width(2.0);
            ctx.stroke_rect(l.x0 + 1.0, l.y + 1.0, (l.w - gap - 2.0).max(0.0), ROW_H - 3.0);
        }
    }
    ctx.set_fill_style_str("#000");
    let mut alpha = 1.0;
    for l in &labels {
        let room = ((l.w - 6.0) / char_w).floor();
        if room < 3.0 {
            continue;
        }
        if l.alpha != alpha {
            alpha = l.alpha;
            ctx.set_global_alpha(alpha);
        }
        let name = d.name_of(l.n);
        let count = name.chars().count();
        let text: std::borrow::Cow<str> = if count as f64 <= room {
            name.into()
        } else {
            let keep = (room as usize).saturating_sub(2);
            let mut s: String = name.chars().take(keep).collect();
            s.push_str("..");
            s.into()
        };
        let _ = ctx.fill_text(&text, l.x0 + 3.0, l.y + ROW_H / 2.0);
    }
    ctx.set_global_alpha(1.0);
}

/// Outlines the hovered node (on the overlay canvas; the context is scaled to CSS px).
pub fn draw_hover(ctx: &CanvasRenderingContext2d, d: &FlameData, n: NodeId, g: &Geometry, dark: bool) {
    let depth = d.tree.depth.get(n.idx()).copied().unwrap_or(0) as usize;
    let (x0, x1) = if depth < g.zoom_depth {
        (0.0, g.width)
    } else {
        (
            g.px(d.layout.x0.get(n.idx()).copied().unwrap_or(0.0)).max(0.0),
            g.px(d.layout.x1.get(n.idx()).copied().unwrap_or(0.0))
                .min(g.width),
        )
    };
    let w = x1 - x0;
    if w <= 0.0 || !g.row_visible(depth) {
        return;
    }
    let gap = if w > 3.0 { 1.0 } else { 0.0 };
    let y = g.row_y(depth);
    ctx.set_stroke_style_str(if dark { "#fff" } else { "#000" });
    ctx.set_line_width(1.5);
    ctx.stroke_rect(x0 + 0.75, y + 0.75, (w - gap - 1.5).max(0.0), ROW_H - 2.5);
}

/// Fills `[x0, x1) × [y, y + ROW_H − 1)` (CSS px) of an RGBA buffer of `dims` = (device width, device height,
/// device-pixel ratio); at least one device pixel wide.
fn fill_px(buf: &mut [u8], dims: (usize, usize, f64), x0: f64, x1: f64, y: f64, rgb: Rgb, alpha: f64) {
    let (dw, dh, dpr) = dims;
    let a = ((x0 * dpr).round().max(0.0) as usize).min(dw);
    let b = ((x1 * dpr).round().max(0.0) as usize)
        .min(dw)
        .max((a + 1).min(dw));
    let top = ((y * dpr).round().max(0.0) as usize).min(dh);
    let bottom = (((y + ROW_H - 1.0) * dpr).round().max(0.0) as usize).min(dh);
    let px = [rgb[0], rgb[1], rgb[2], (alpha * 255.0).round() as u8];
    for line in top..bottom {
        if let Some(span) = buf.get_mut((line * dw + a) * 4..(line * dw + b) * 4) {
            for p in span.chunks_exact_mut(4) {
                p.copy_from_slice(&px);
            }
        }
    }
}

/// How many leading values of `xs` (ascending) are `<= limit`: an exponential then binary search, cheap when the
/// answer is small.
fn gallop(xs: &[f64], limit: f64) -> usize {
    let mut hi = 1;
    while hi < xs.len() && xs[hi - 1] <= limit {
        hi *= 2;
    }
    let lo = hi / 2;
    let hi = hi.min(xs.len());
    lo + xs[lo..hi].partition_point(|&x| x <= limit)
}
