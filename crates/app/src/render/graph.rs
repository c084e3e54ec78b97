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
use scorch_core::model::units::{format_percent, format_value};
use scorch_core::{FrameKind, Unit, ViewOptions};
use std::sync::Arc;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A call graph of one view of a loaded profile, ready to draw.
pub struct GraphData {
    pub loaded: Arc<Loaded>,
    pub view: ViewOptions,
    pub job: GraphJob,
    pub g: GraphView,
    pub unit: Unit,
    /// Per edge its polyline's bounding box (x0, y0, x1, y1), layout units.
    bbox: Vec<[f64; 4]>,
    max_weight: u64,
    max_cum: u64,
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
}

/// The label font (as the flame graph's), at `px` CSS px.
fn font(px: f64) -> String {
    format!("{px:.1}px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace")
}

/// Sizes the canvas and draws the graph.
pub fn paint(canvas: &HtmlCanvasElement, d: &GraphData, g: &GraphGeom, look: &GraphLook) {
    let Some(surface) = canvas::prepare(canvas, g.width, g.height) else {
        return;
    };
    let ctx = &surface.ctx;
    ctx.clear_rect(0.0, 0.0, g.width, g.height);
    let (vx0, vy0) = g.to_layout(0.0, 0.0);
    let (vx1, vy1) = g.to_layout(g.width, g.height);
    let seen = |b: [f64; 4]| b[2] >= vx0 && b[0] <= vx1 && b[3] >= vy0 && b[1] <= vy1;
    edges(ctx, d, g, look, &seen);
    nodes(ctx, d, g, look, &seen);
}

fn edges(
    ctx: &CanvasRenderingContext2d,
    d: &GraphData,
    g: &GraphGeom,
    look: &GraphLook,
    seen: &dyn Fn([f64; 4]) -> bool,
) {
    let (light, heavy) = if look.dark {
        ("#71717a", "#e4e4e7")
    } else {
        ("#a1a1aa", "#27272a")
    };
    let max = d.max_weight.max(1) as f64;
    for (e, edge) in d.g.graph.edges.iter().enumerate() {
        let Some(&b) = d.bbox.get(e) else { continue };
        if !seen(b) {
            continue;
        }
        let share = edge.weight as f64 / max;
        let width = (1.0 + 5.0 * share) * g.scale.max(0.5);
        let touches = |n: Option<usize>| n.is_some_and(|n| n == edge.from as usize || n == edge.to as usize);
        let color = if share > 0.5 || touches(look.selected) || touches(look.hover) {
            heavy
        } else {
            light
        };
        ctx.set_stroke_style_str(color);
        ctx.set_fill_style_str(color);
        ctx.set_line_width(width);
        let dash = js_sys::Array::new();
        if edge.residual {
            dash.push(&(4.0 * g.scale.max(0.5)).into());
            dash.push(&(3.0 * g.scale.max(0.5)).into());
        }
        let _ = ctx.set_line_dash(&dash);
        let pts: Vec<(f64, f64)> = points(&d.g, e).map(|(x, y)| g.to_screen(x, y)).collect();
        let (Some(&last), Some(&before)) = (pts.last(), pts.len().checked_sub(2).and_then(|k| pts.get(k)))
        else {
            continue;
        };
        // The arrowhead, and the line stopping at its base.
        let (dx, dy) = (last.0 - before.0, last.1 - before.1);
        let len = dx.hypot(dy).max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let head = (6.0 + 2.0 * width).min(len);
        let base = (last.0 - ux * head, last.1 - uy * head);
        ctx.begin_path();
        for (k, &(x, y)) in pts.iter().enumerate() {
            let (x, y) = if k + 1 == pts.len() { base } else { (x, y) };
            if k == 0 {
                ctx.move_to(x, y);
            } else {
                ctx.line_to(x, y);
            }
        }
        ctx.stroke();
        let _ = ctx.set_line_dash(&js_sys::Array::new());
        let half = head * 0.55;
        ctx.begin_path();
        ctx.move_to(last.0, last.1);
        ctx.line_to(base.0 - uy * half, base.1 + ux * half);
        ctx.line_to(base.0 + uy * half, base.1 - ux * half);
        ctx.close_path();
        ctx.fill();
    }
}

fn nodes(
    ctx: &CanvasRenderingContext2d,
    d: &GraphData,
    g: &GraphGeom,
    look: &GraphLook,
    seen: &dyn Fn([f64; 4]) -> bool,
) {
    let (border, accent) = if look.dark {
        ("#d4d4d8", "#60a5fa")
    } else {
        ("#3f3f46", "#2563eb")
    };
    let max = d.max_cum.max(1) as f64;
    let font_px = 12.0 * g.scale;
    let labels = font_px >= 5.0;
    ctx.set_font(&font(font_px));
    ctx.set_text_baseline("middle");
    for (i, n) in d.g.graph.nodes.iter().enumerate() {
        let (x, y, w, h) = d.node_box(i);
        if !seen([x, y, x + w, y + h]) {
            continue;
        }
        let (sx, sy) = g.to_screen(x, y);
        let (sw, sh) = (w * g.scale, h * g.scale);
        let fill = d.fill(i, look.scheme);
        ctx.set_fill_style_str(&css(fill));
        ctx.fill_rect(sx, sy, sw, sh);
        // The border as heavy as the node's cum.
        let bw = (1.0 + 3.0 * (n.cum as f64 / max)) * g.scale.max(0.5);
        ctx.set_line_width(bw);
        ctx.set_stroke_style_str(border);
        ctx.stroke_rect(sx + bw / 2.0, sy + bw / 2.0, sw - bw, sh - bw);
        if look.selected == Some(i) || look.hover == Some(i) || look.cursor == Some(i) {
            ctx.set_line_width(3.0);
            ctx.set_stroke_style_str(accent);
            let dash = js_sys::Array::new();
            if look.cursor == Some(i) && look.selected != Some(i) {
                dash.push(&4.0.into());
                dash.push(&3.0.into());
            }
            let _ = ctx.set_line_dash(&dash);
            ctx.stroke_rect(sx - 2.5, sy - 2.5, sw + 5.0, sh + 5.0);
            let _ = ctx.set_line_dash(&js_sys::Array::new());
        }
        if !labels {
            continue;
        }
        ctx.save();
        ctx.begin_path();
        ctx.rect(sx, sy, sw, sh);
        ctx.clip();
        ctx.set_fill_style_str(&css(label_color(fill)));
        let room = ((w - 2.0 * PAD) / GLYPH_W).floor().max(3.0) as usize;
        let lines = [
            fit_tail(&n.name, room.min(MAX_CHARS)),
            format!("flat {}", d.describe(n.flat)),
            format!("cum {}", d.describe(n.cum)),
        ];
        for (k, text) in lines.iter().enumerate() {
            let ly = y + PAD + LINE_H * (k as f64 + 0.5);
            let (tx, ty) = g.to_screen(x + PAD, ly);
            let _ = ctx.fill_text(text, tx, ty);
        }
        ctx.restore();
    }
}

fn css([r, g, b]: Rgb) -> String {
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
