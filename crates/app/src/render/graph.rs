//! The call graph's paint: boxes and edges as the engine laid them out (`worker::graph`), in layout units mapped
//! to CSS px by a pan and a scale ([`GraphGeom`]). Only what is on screen is visited: edges whose bounding box
//! meets the canvas, boxes that do; labels only when the scale leaves them readable, each clipped to its box.
//! Boxes are coloured as the flame graph colours their function (`Loaded::scheme_rgb` of a frame of that
//! name), their border as thick as their cum; edges as thick as their weight, with an arrowhead at the callee,
//! dashed when they stand for a path over dropped functions.

use super::canvas;
use super::color::{frame_color, label_color, ColorScheme, Rgb};
use super::data::Loaded;
use crate::worker::graph::{GraphView, GLYPH_W, LINE_H, MAX_CHARS, PAD};
use crate::worker::protocol::GraphJob;
use scorch_core::analysis::callgraph::GraphEdge;
use scorch_core::model::units::{format_percent, format_value};
use scorch_core::{FrameKind, Unit, ViewOptions};
use std::sync::Arc;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The call graph's pruning, pprof's `-nodefraction`, `-edgefraction` and `-nodecount` (the view's controls; links
/// carry them as `gnf`, `gef`, `gn`); the default is pprof's (`GraphOptions::default`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphPrune {
    pub node_fraction: f64,
    pub edge_fraction: f64,
    /// 0 keeps every node.
    pub node_count: u32,
}

impl Default for GraphPrune {
    fn default() -> GraphPrune {
        let o = scorch_core::analysis::callgraph::GraphOptions::default();
        GraphPrune {
            node_fraction: o.node_fraction,
            edge_fraction: o.edge_fraction,
            node_count: u32::try_from(o.node_count).unwrap_or(u32::MAX),
        }
    }
}

impl GraphPrune {
    /// A fraction as the links and the graph's controls take it: a number from 0 to 1 (`scorch graph`'s rule).
    pub fn fraction(text: &str) -> Option<f64> {
        text.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && (0.0..=1.0).contains(x))
    }
}

/// A call graph of one view of a loaded profile, ready to draw.
pub struct GraphData {
    pub loaded: Arc<Loaded>,
    pub view: ViewOptions,
    pub job: GraphJob,
    pub g: GraphView,
    pub unit: Unit,
    /// Per edge its polyline's bounding box (x0, y0, x1, y1), layout units.
    bbox: Vec<[f64; 4]>,
    /// The heaviest edge's weight, the largest cum.
    pub max_weight: u64,
    pub max_cum: u64,
}

impl GraphData {
    pub fn new(loaded: Arc<Loaded>, view: ViewOptions, job: GraphJob, g: GraphView) -> GraphData {
        let unit = view.unit(&loaded.imported.profile);
        let bbox = (0..g.graph.edges.len())
            .map(|e| {
                let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
                for (x, y) in points(&g, e) {
                    b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
                }
                b
            })
            .collect();
        let max_weight = g.graph.edges.iter().map(|e| e.weight).max().unwrap_or(0);
        let max_cum = g.graph.nodes.iter().map(|n| n.cum).max().unwrap_or(0);
        GraphData {
            loaded,
            view,
            job,
            g,
            unit,
            bbox,
            max_weight,
            max_cum,
        }
    }

    /// Nodes shown.
    pub fn count(&self) -> usize {
        self.g.graph.nodes.len()
    }

    /// A raw weight in the view's unit, for people ("1.24 s").
    pub fn value(&self, raw: u64) -> String {
        let decimals = self.loaded.imported.profile.meta.decimals as i32;
        format_value(self.view.shown(raw as f64 / 10f64.powi(decimals)), &self.unit)
    }

    /// "1.24 s (12.5 %)", the share being of the graph's total (the view's, after the focus).
    pub fn describe(&self, raw: u64) -> String {
        format!(
            "{} ({})",
            self.value(raw),
            format_percent(raw as f64, self.g.graph.total as f64)
        )
    }

    pub fn name(&self, i: usize) -> &str {
        self.g.graph.nodes.get(i).map_or("", |n| n.name.as_str())
    }

    /// The node of function `name`, if shown.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.g.graph.nodes.iter().position(|n| n.name == name)
    }

    /// The node whose box holds the layout point (`x`, `y`).
    pub fn node_at(&self, x: f64, y: f64) -> Option<usize> {
        let l = &self.g.layout;
        (0..self.count()).find(|&i| {
            let (bx, by, bw, bh) = (at(&l.x, i), at(&l.y, i), at(&l.w, i), at(&l.h, i));
            x >= bx && x < bx + bw && y >= by && y < by + bh
        })
    }

    /// A node's box (x, y, w, h), layout units.
    pub fn node_box(&self, i: usize) -> (f64, f64, f64, f64) {
        let l = &self.g.layout;
        (at(&l.x, i), at(&l.y, i), at(&l.w, i), at(&l.h, i))
    }

    /// The callers (`up`) or callees of node `i`, heaviest edge first.
    pub fn neighbours(&self, i: usize, up: bool) -> Vec<usize> {
        let mut v: Vec<(u64, usize)> = self
            .g
            .graph
            .edges
            .iter()
            .filter_map(|e| {
                let (from, to) = (e.from as usize, e.to as usize);
                match up {
                    true if to == i => Some((e.weight, from)),
                    false if from == i => Some((e.weight, to)),
                    _ => None,
                }
            })
            .collect();
        v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        v.into_iter().map(|(_, n)| n).collect()
    }

    /// The box drawn just left (`dir` < 0) or right of node `i` in its rank.
    pub fn beside(&self, i: usize, dir: i32) -> Option<usize> {
        let l = &self.g.layout;
        let (r, x) = (l.rank.get(i)?, at(&l.x, i));
        (0..self.count())
            .filter(|&j| l.rank.get(j) == Some(r) && j != i)
            .filter(|&j| if dir < 0 { at(&l.x, j) < x } else { at(&l.x, j) > x })
            .min_by(|&a, &b| {
                let (da, db) = ((at(&l.x, a) - x).abs(), (at(&l.x, b) - x).abs());
                da.total_cmp(&db)
            })
    }

    /// What the graph shows and what pruning dropped, as pprof's legend says it: "36 nodes, 82 edges · total
    /// 4.2 s · 120 nodes (cum ≤ 21 ms) dropped · 12 edges (freq ≤ 4.2 ms) dropped · top 36 of 80 nodes".
    pub fn legend(&self) -> String {
        let g = &self.g.graph;
        let mut parts = vec![format!(
            "{} nodes, {} edges · total {}",
            g.nodes.len(),
            g.edges.len(),
            self.value(g.total)
        )];
        if g.dropped_nodes > 0 {
            parts.push(format!(
                "{} nodes (cum ≤ {}) dropped",
                g.dropped_nodes,
                self.value(g.node_cutoff)
            ));
        }
        if g.dropped_edges > 0 {
            parts.push(format!(
                "{} edges (freq ≤ {}) dropped",
                g.dropped_edges,
                self.value(g.edge_cutoff)
            ));
        }
        if g.nodes_before_count > g.nodes.len() {
            parts.push(format!("top {} of {} nodes", g.nodes.len(), g.nodes_before_count));
        }
        parts.join(" · ")
    }

    /// The fill of node `i` in `scheme`: its function's colour in the flame graph.
    pub fn fill(&self, i: usize, scheme: ColorScheme) -> Rgb {
        match self.g.frames.get(i).copied() {
            Some(f) if f != u32::MAX => self.loaded.scheme_rgb(scorch_core::FrameId(f), scheme),
            _ => frame_color(self.name(i), FrameKind::default()),
        }
    }
}

fn at(v: &[f64], i: usize) -> f64 {
    v.get(i).copied().unwrap_or(0.0)
}

/// Edge `e`'s polyline, layout units.
fn points(g: &GraphView, e: usize) -> impl Iterator<Item = (f64, f64)> + '_ {
    let l = &g.layout;
    let a = l.edge_start.get(e).copied().unwrap_or(0) as usize;
    let b = l.edge_start.get(e + 1).copied().unwrap_or(0) as usize;
    (a..b.max(a)).filter_map(move |k| Some((*l.px.get(k)?, *l.py.get(k)?)))
}

/// Where the graph is drawn: the canvas's size (CSS px) and the map from layout units, `x · scale + tx`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphGeom {
    pub width: f64,
    pub height: f64,
    pub tx: f64,
    pub ty: f64,
    pub scale: f64,
}

impl GraphGeom {
    pub fn to_screen(&self, x: f64, y: f64) -> (f64, f64) {
        (x * self.scale + self.tx, y * self.scale + self.ty)
    }
    pub fn to_layout(&self, x: f64, y: f64) -> (f64, f64) {
        ((x - self.tx) / self.scale, (y - self.ty) / self.scale)
    }
    /// The first view of a graph: the whole of it when it fits at a scale that keeps labels readable (0.8 to 1),
    /// else at 0.8 from the top, centred across on pprof's first node (the hottest by its score); the rest is
    /// a drag or a wheel away.
    pub fn fit(width: f64, height: f64, d: &GraphData) -> GraphGeom {
        let (lw, lh) = (d.g.layout.width.max(1.0), d.g.layout.height.max(1.0));
        let scale = ((width - 24.0) / lw).min((height - 24.0) / lh).clamp(0.8, 1.0);
        let tx = if lw * scale <= width - 24.0 {
            (width - lw * scale) / 2.0
        } else {
            let (x, _, w, _) = d.node_box(0);
            (width / 2.0 - (x + w / 2.0) * scale).clamp(width - 12.0 - lw * scale, 12.0)
        };
        GraphGeom {
            width,
            height,
            tx,
            ty: 12.0,
            scale,
        }
    }
}

/// What the picture depends on besides data and geometry.
pub struct GraphLook {
    pub scheme: ColorScheme,
    pub dark: bool,
    /// The selected function's node; the keyboard's node; the hovered one.
    pub selected: Option<usize>,
    pub cursor: Option<usize>,
    pub hover: Option<usize>,
    /// Draw the edges: the first picture of a graph is drawn without them, the next frame with them, so that
    /// neither frame holds the whole first paint (its first run and the pixel buffer's first use are slow).
    pub edges: bool,
}

/// The label font (as the flame graph's), at `px` CSS px.
fn font(px: f64) -> String {
    format!("{px:.1}px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace")
}

/// Above this many boxes and edges on screen the picture is drawn into a pixel buffer (`graph_raster`): canvas
/// calls per box and per edge point cost about 20 µs each, so a large graph zoomed out took a second a frame.
const RASTER_ITEMS: usize = 1_500;
/// Or above this many edge segments on screen (long edges of a large graph pass through dozens of ranks): the
/// browser rasterises a canvas's recorded paths when it draws the frame, on the main thread here, and the first
/// picture of a 10,000-node graph at its opening zoom spent 40–60 ms there.
const RASTER_SEGMENTS: usize = 3_000;

thread_local! {
    /// The pixel buffer of the last raster paint, reused.
    static PIXELS: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Sizes the canvas and draws the graph: the edges and boxes on screen, as vectors when there are few, into a
/// pixel buffer when there are many; then the labels when the scale leaves them readable. Returns how many edges
/// on screen were left out (the raster paint's budget, [`EDGE_PIXELS`]; said on the picture too).
pub fn paint(canvas: &HtmlCanvasElement, d: &GraphData, g: &GraphGeom, look: &GraphLook) -> usize {
    let Some(surface) = canvas::prepare(canvas, g.width, g.height) else {
        return 0;
    };
    let ctx = &surface.ctx;
    ctx.clear_rect(0.0, 0.0, g.width, g.height);
    let (mut edges_on, nodes_on) = on_screen(d, g);
    if !look.edges {
        edges_on.clear();
    }
    let mut left = 0;
    let segments: usize = edges_on
        .iter()
        .map(|&e| {
            let at = |k: usize| d.g.layout.edge_start.get(k).copied().unwrap_or(0) as usize;
            at(e + 1).saturating_sub(at(e) + 1)
        })
        .sum();
    if edges_on.len() + nodes_on.len() > RASTER_ITEMS || segments > RASTER_SEGMENTS {
        left = raster(ctx, d, g, look, (&edges_on, &nodes_on), surface.dpr);
    } else {
        edges(ctx, d, g, look, &edges_on);
        nodes(ctx, d, g, look, &nodes_on);
    }
    labels(ctx, d, g, look, &nodes_on);
    if left > 0 {
        // What the picture leaves out, on it.
        let text = format!("{left} lighter edges not drawn at this zoom: zoom in to see them");
        ctx.set_font(&font(12.0));
        ctx.set_text_baseline("bottom");
        let tw = ctx.measure_text(&text).map_or(0.0, |m| m.width());
        ctx.set_fill_style_str(if look.dark {
            "rgba(24,24,27,0.85)"
        } else {
            "rgba(255,255,255,0.85)"
        });
        ctx.fill_rect(4.0, g.height - 22.0, tw + 12.0, 18.0);
        ctx.set_fill_style_str(if look.dark { "#e4e4e7" } else { "#27272a" });
        let _ = ctx.fill_text(&text, 10.0, g.height - 6.0);
    }
    left
}

/// Runs the paint's code once on a tiny graph, on a canvas that is never shown, in both its ways (vectors, and
/// the pixel buffer with its labels), so that the browser has compiled that code before the first real picture:
/// wasm is compiled function by function on first call, and on the first picture of a 10,000-node graph that was
/// 18–36 ms of one frame. The component calls it in a task of its own while the engine lays the graph out.
pub fn warm_up() {
    let imported = crate::worker::tiny();
    let view = ViewOptions::default_for(&imported.profile);
    let job = GraphJob::default();
    let Ok(g) = crate::worker::graph::compute(&imported.profile, &view, &job) else {
        return;
    };
    let d = GraphData::new(Arc::new(Loaded::new(String::new(), imported)), view, job, g);
    let Some(canvas) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|doc| doc.create_element("canvas").ok())
        .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
    else {
        return;
    };
    let geom = GraphGeom::fit(320.0, 240.0, &d);
    for dark in [false, true] {
        let look = GraphLook {
            scheme: ColorScheme::default(),
            dark,
            selected: Some(0),
            cursor: None,
            hover: None,
            edges: true,
        };
        paint(&canvas, &d, &geom, &look);
        if let Some(surface) = canvas::prepare(&canvas, geom.width, geom.height) {
            let on = on_screen(&d, &geom);
            raster(&surface.ctx, &d, &geom, &look, (&on.0, &on.1), surface.dpr);
        }
    }
    // The pixel buffer at the size of a canvas filling the window, so the first real picture does not grow
    // the wasm memory for it.
    if let Some(w) = web_sys::window() {
        let px = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>| {
            v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0)
        };
        let dpr = w.device_pixel_ratio();
        let n = (px(w.inner_width()) * dpr) as usize * (px(w.inner_height()) * dpr) as usize * 4;
        PIXELS.with(|p| {
            let mut p = p.borrow_mut();
            let len = p.len();
            if p.capacity() < n {
                p.reserve(n - len);
            }
        });
    }
}

/// Whether edge `e` is drawn dark: the heavier half of the edges, and those of the selected or hovered node.
fn heavy(d: &GraphData, e: &GraphEdge, look: &GraphLook) -> bool {
    let touches = |n: Option<usize>| n.is_some_and(|n| n == e.from as usize || n == e.to as usize);
    2 * e.weight > d.max_weight || touches(look.selected) || touches(look.hover)
}

/// The theme's box border and highlight colours.
fn border_accent(dark: bool) -> (Rgb, Rgb) {
    if dark {
        ([212, 212, 216], [96, 165, 250])
    } else {
        (BORDER_RGB, [37, 99, 235])
    }
}

/// The raster paint (`graph_raster`) of the edges and boxes on screen (`on`): the same picture in whole device
/// pixels, one blit; returns how many edges on screen were left out ([`EDGE_PIXELS`]).
fn raster(
    ctx: &CanvasRenderingContext2d,
    d: &GraphData,
    g: &GraphGeom,
    look: &GraphLook,
    on: (&[usize], &[usize]),
    dpr: f64,
) -> usize {
    let dw = (g.width * dpr).round().max(0.0) as usize;
    let dh = (g.height * dpr).round().max(0.0) as usize;
    PIXELS.with(|cell| {
        let mut buf = cell.borrow_mut();
        super::draw::transparent(&mut buf, dw * dh * 4);
        let mut px = super::graph_raster::Pixels {
            buf: &mut buf,
            w: dw,
            h: dh,
        };
        let left = raster_into(&mut px, d, g, look, on, dpr);
        super::draw::blit(ctx, &buf, dw, dh);
        left
    })
}

/// At most this many pixels of edges per raster paint (about twice a 1280 × 800 screen): zoomed out on a large
/// graph, its edges cross the screen dozens of times over (40,000 edges at 0.05 wrote some 30 million pixels,
/// 190 ms natively); the heaviest edges are drawn up to it, and the paint says how many lighter ones were left.
pub const EDGE_PIXELS: usize = 2_000_000;

/// Draws the edges and boxes `on` screen into `px` (device pixels, `dpr` per CSS px): the heaviest edges whose
/// pixels fit in [`EDGE_PIXELS`], lightest first (the heavy ones on top), then the boxes. Returns how many
/// edges on screen were not drawn.
pub fn raster_into(
    px: &mut super::graph_raster::Pixels,
    d: &GraphData,
    g: &GraphGeom,
    look: &GraphLook,
    on: (&[usize], &[usize]),
    dpr: f64,
) -> usize {
    let zoom = g.scale.max(0.5);
    let dev = |p: (f64, f64)| (p.0 * dpr, p.1 * dpr);
    let weight = |e: usize| d.g.graph.edges.get(e).map_or(0, |x| x.weight);
    let mut order: Vec<usize> = on.0.to_vec();
    order.sort_unstable_by(|&a, &b| weight(b).cmp(&weight(a)).then(a.cmp(&b)));
    // Each edge's cost: its length on screen (clipped by the canvas's extent), times its thickness.
    let (w, h) = (g.width * dpr, g.height * dpr);
    let mut spent = 0usize;
    let fit = order
        .iter()
        .take_while(|&&e| {
            let k = (edge_width(weight(e), d.max_weight) * zoom * dpr)
                .round()
                .max(1.0);
            let mut len = 0.0;
            let mut prev: Option<(f64, f64)> = None;
            for p in points(&d.g, e) {
                let q = dev(g.to_screen(p.0, p.1));
                if let Some(a) = prev {
                    let (x0, x1) = (a.0.min(q.0).max(0.0), a.0.max(q.0).min(w));
                    let (y0, y1) = (a.1.min(q.1).max(0.0), a.1.max(q.1).min(h));
                    len += (x1 - x0).max(0.0).max((y1 - y0).max(0.0)) + 1.0;
                }
                prev = Some(q);
            }
            spent += (len * k) as usize;
            spent <= EDGE_PIXELS
        })
        .count();
    for &e in order.get(..fit).unwrap_or(&[]).iter().rev() {
        let Some(edge) = d.g.graph.edges.get(e) else {
            continue;
        };
        let width = edge_width(edge.weight, d.max_weight) * zoom;
        let color = edge_rgb(heavy(d, edge, look), look.dark);
        let (head, half) = arrow_head(width);
        let Some((tip, base)) = tip_base(d, g, e, head) else {
            continue;
        };
        let dash = edge.residual.then_some((4.0 * zoom * dpr, 3.0 * zoom * dpr));
        let last = points(&d.g, e).count().saturating_sub(1);
        let mut prev: Option<(f64, f64)> = None;
        for (k, p) in points(&d.g, e).enumerate() {
            let q = if k == last { base } else { g.to_screen(p.0, p.1) };
            if let Some(a) = prev {
                px.line(dev(a), dev(q), width * dpr, dash, color);
            }
            prev = Some(q);
        }
        let (ux, uy) = unit(base, tip);
        let left = (base.0 - uy * half, base.1 + ux * half);
        let right = (base.0 + uy * half, base.1 - ux * half);
        px.triangle([dev(tip), dev(left), dev(right)], color);
    }
    let (border, accent) = border_accent(look.dark);
    for &i in on.1 {
        let Some(n) = d.g.graph.nodes.get(i) else { continue };
        let (x, y, w, h) = d.node_box(i);
        let (sx, sy) = g.to_screen(x, y);
        let (ex, ey) = (sx + w * g.scale, sy + h * g.scale);
        px.rect(sx * dpr, sy * dpr, ex * dpr, ey * dpr, d.fill(i, look.scheme));
        let bw = border_width(n.cum, d.max_cum) * zoom;
        px.frame(sx * dpr, sy * dpr, ex * dpr, ey * dpr, bw * dpr, border);
        if look.selected == Some(i) || look.hover == Some(i) || look.cursor == Some(i) {
            let ring = |v: f64, out: f64| (v + out) * dpr;
            px.frame(
                ring(sx, -4.0),
                ring(sy, -4.0),
                ring(ex, 4.0),
                ring(ey, 4.0),
                3.0 * dpr,
                accent,
            );
        }
    }
    order.len() - fit
}

/// The edges and boxes of `d` whose bounding boxes meet the screen of `g`.
pub fn on_screen(d: &GraphData, g: &GraphGeom) -> (Vec<usize>, Vec<usize>) {
    let (vx0, vy0) = g.to_layout(0.0, 0.0);
    let (vx1, vy1) = g.to_layout(g.width, g.height);
    let seen = |b: [f64; 4]| b[2] >= vx0 && b[0] <= vx1 && b[3] >= vy0 && b[1] <= vy1;
    let edges_on = (0..d.g.graph.edges.len())
        .filter(|&e| d.bbox.get(e).is_some_and(|&b| seen(b)))
        .collect();
    let nodes_on = (0..d.count())
        .filter(|&i| {
            let (x, y, w, h) = d.node_box(i);
            seen([x, y, x + w, y + h])
        })
        .collect();
    (edges_on, nodes_on)
}

/// An edge's stroke at scale 1, CSS px: 1 to 6 by its weight's share of the heaviest edge, in half-pixel steps
/// (so the edges of a large graph fall into a few strokes of one width each).
pub fn edge_width(weight: u64, max_weight: u64) -> f64 {
    let share = weight as f64 / max_weight.max(1) as f64;
    1.0 + (10.0 * share).round() / 2.0
}

/// An edge's colour: dark for the heavier half of the edges (and those touching the selected or hovered node).
pub fn edge_rgb(heavy: bool, dark: bool) -> Rgb {
    match (dark, heavy) {
        (true, false) => [113, 113, 122],
        (true, true) => [228, 228, 231],
        (false, false) => [161, 161, 170],
        (false, true) => [39, 39, 42],
    }
}

/// A box's border at scale 1, CSS px: 1 to 4 by its cum's share of the largest.
pub fn border_width(cum: u64, max_cum: u64) -> f64 {
    1.0 + 3.0 * (cum as f64 / max_cum.max(1) as f64)
}

/// The arrowhead's length for a stroke `width` px wide, and its half width.
pub fn arrow_head(width: f64) -> (f64, f64) {
    let head = 6.0 + 2.0 * width;
    (head, head * 0.55)
}

/// Edges on screen, drawn in as few strokes as there are styles (width, colour, dash).
fn edges(ctx: &CanvasRenderingContext2d, d: &GraphData, g: &GraphGeom, look: &GraphLook, on: &[usize]) {
    let zoom = g.scale.max(0.5);
    // (width step, heavy, residual, edge), sorted: one stroke per run of one style.
    let mut shown: Vec<(u8, bool, bool, u32)> = Vec::with_capacity(on.len());
    for &e in on {
        let Some(edge) = d.g.graph.edges.get(e) else {
            continue;
        };
        let step = ((edge_width(edge.weight, d.max_weight) - 1.0) * 2.0) as u8;
        shown.push((step, heavy(d, edge, look), edge.residual, e as u32));
    }
    shown.sort_unstable();
    for run in shown.chunk_by(|a, b| (a.0, a.1, a.2) == (b.0, b.1, b.2)) {
        let Some(&(step, heavy, residual, _)) = run.first() else {
            continue;
        };
        let width = (1.0 + f64::from(step) / 2.0) * zoom;
        let color = css(edge_rgb(heavy, look.dark));
        ctx.set_stroke_style_str(&color);
        ctx.set_fill_style_str(&color);
        ctx.set_line_width(width);
        let dash = js_sys::Array::new();
        if residual {
            dash.push(&(4.0 * zoom).into());
            dash.push(&(3.0 * zoom).into());
        }
        let _ = ctx.set_line_dash(&dash);
        let (head, half) = arrow_head(width);
        // The lines, each stopping at its arrowhead's base; then the heads. Only the segments that meet the
        // screen go into the path: a long edge of a large graph runs through dozens of ranks off screen, and the
        // browser strokes every segment of a path when it draws the frame (on the first paint of a 10,000-node
        // graph that was 40–50 ms of the frame's commit).
        let m = width + 2.0;
        let meets = |a: (f64, f64), b: (f64, f64)| {
            a.0.max(b.0) >= -m
                && a.0.min(b.0) <= g.width + m
                && a.1.max(b.1) >= -m
                && a.1.min(b.1) <= g.height + m
        };
        ctx.begin_path();
        for &(.., e) in run {
            let Some((_, base)) = tip_base(d, g, e as usize, head) else {
                continue;
            };
            let last = points(&d.g, e as usize).count().saturating_sub(1);
            let mut prev: Option<(f64, f64)> = None;
            let mut pen_down = false;
            for (k, p) in points(&d.g, e as usize).enumerate() {
                let q = if k == last { base } else { g.to_screen(p.0, p.1) };
                if let Some(a) = prev {
                    if meets(a, q) {
                        if !pen_down {
                            ctx.move_to(a.0, a.1);
                        }
                        ctx.line_to(q.0, q.1);
                        pen_down = true;
                    } else {
                        pen_down = false;
                    }
                }
                prev = Some(q);
            }
        }
        ctx.stroke();
        ctx.begin_path();
        for &(.., e) in run {
            let Some((tip, base)) = tip_base(d, g, e as usize, head) else {
                continue;
            };
            let (ux, uy) = unit(base, tip);
            ctx.move_to(tip.0, tip.1);
            ctx.line_to(base.0 - uy * half, base.1 + ux * half);
            ctx.line_to(base.0 + uy * half, base.1 - ux * half);
            ctx.close_path();
        }
        ctx.fill();
    }
    let _ = ctx.set_line_dash(&js_sys::Array::new());
}

/// Edge `e`'s tip on screen and the base of an arrowhead `head` px long there (shorter on a short last
/// segment); `None` for an edge of fewer than two points.
pub fn tip_base(d: &GraphData, g: &GraphGeom, e: usize, head: f64) -> Option<((f64, f64), (f64, f64))> {
    let l = &d.g.layout;
    let end = *l.edge_start.get(e + 1)? as usize;
    let start = *l.edge_start.get(e)? as usize;
    if end < start + 2 {
        return None;
    }
    let at = |k: usize| Some(g.to_screen(*l.px.get(k)?, *l.py.get(k)?));
    let (tip, before) = (at(end - 1)?, at(end - 2)?);
    let len = (tip.0 - before.0).hypot(tip.1 - before.1);
    let (ux, uy) = unit(before, tip);
    let h = head.min(len);
    Some((tip, (tip.0 - ux * h, tip.1 - uy * h)))
}

/// The unit vector from `a` to `b`.
fn unit(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy).max(1e-9);
    (dx / len, dy / len)
}

fn nodes(ctx: &CanvasRenderingContext2d, d: &GraphData, g: &GraphGeom, look: &GraphLook, on: &[usize]) {
    let (border, accent) = border_accent(look.dark);
    let (border, accent) = (css(border), css(accent));
    for &i in on {
        let Some(n) = d.g.graph.nodes.get(i) else { continue };
        let (x, y, w, h) = d.node_box(i);
        let (sx, sy) = g.to_screen(x, y);
        let (sw, sh) = (w * g.scale, h * g.scale);
        ctx.set_fill_style_str(&css(d.fill(i, look.scheme)));
        ctx.fill_rect(sx, sy, sw, sh);
        // The border as heavy as the node's cum.
        let bw = border_width(n.cum, d.max_cum) * g.scale.max(0.5);
        ctx.set_line_width(bw);
        ctx.set_stroke_style_str(&border);
        ctx.stroke_rect(sx + bw / 2.0, sy + bw / 2.0, sw - bw, sh - bw);
        if look.selected == Some(i) || look.hover == Some(i) || look.cursor == Some(i) {
            ctx.set_line_width(3.0);
            ctx.set_stroke_style_str(&accent);
            let dash = js_sys::Array::new();
            if look.cursor == Some(i) && look.selected != Some(i) {
                dash.push(&4.0.into());
                dash.push(&3.0.into());
            }
            let _ = ctx.set_line_dash(&dash);
            ctx.stroke_rect(sx - 2.5, sy - 2.5, sw + 5.0, sh + 5.0);
            let _ = ctx.set_line_dash(&js_sys::Array::new());
        }
    }
}

/// The boxes' labels, each clipped to its box, when the scale leaves them readable (12 px at scale 1, none
/// under 5 px).
fn labels(ctx: &CanvasRenderingContext2d, d: &GraphData, g: &GraphGeom, look: &GraphLook, on: &[usize]) {
    // Whole pixels, rounded down: few distinct sizes (the browser rasterises each size's glyphs once; at
    // 9.6 px the first paint of a 10,000-node graph spent 40 ms of its frame rasterising text), never wider
    // than the box's characters at this scale, so no clip is needed (`node_lines` cuts each line to fit).
    let font_px = (12.0 * g.scale).floor();
    if font_px < 5.0 {
        return;
    }
    ctx.set_font(&font(font_px));
    ctx.set_text_baseline("middle");
    let mut ink = String::new();
    for &i in on {
        let (x, y, w, _) = d.node_box(i);
        let colour = css(label_color(d.fill(i, look.scheme)));
        if colour != ink {
            ctx.set_fill_style_str(&colour);
            ink = colour;
        }
        for (k, text) in node_lines(d, i, w).iter().enumerate() {
            let ly = y + PAD + LINE_H * (k as f64 + 0.5);
            let (tx, ty) = g.to_screen(x + PAD, ly);
            let _ = ctx.fill_text(text, tx, ty);
        }
    }
}

/// A box's border colour in the light theme (the SVG export's).
pub const BORDER_RGB: Rgb = [63, 63, 70];

/// The three lines in node `i`'s box, `w` wide (layout units): its name cut from the front to fit, its flat
/// and its cum with their shares.
pub fn node_lines(d: &GraphData, i: usize, w: f64) -> [String; 3] {
    let Some(n) = d.g.graph.nodes.get(i) else {
        return Default::default();
    };
    let room = ((w - 2.0 * PAD) / GLYPH_W).floor().max(3.0) as usize;
    [
        fit_tail(&n.name, room.min(MAX_CHARS)),
        format!("flat {}", d.describe(n.flat)),
        format!("cum {}", d.describe(n.cum)),
    ]
}

/// A colour as CSS `rgb(r,g,b)`.
pub fn css([r, g, b]: Rgb) -> String {
    format!("rgb({r},{g},{b})")
}

/// `name` cut to its last `room` characters (`..` first when cut): a qualified name's end says the most
/// (`..frostdb.(*TableBlock).insert`, where pprof drops the package path).
fn fit_tail(name: &str, room: usize) -> String {
    let n = name.chars().count();
    if n <= room {
        return name.to_string();
    }
    let keep = room.saturating_sub(2);
    let mut s = "..".to_string();
    s.extend(name.chars().skip(n - keep));
    s
}
