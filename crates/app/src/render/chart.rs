//! The stack chart's paint: x = time (a window of the chart), y = depth (root at the top, under a time ruler).
//! Boxes go into an RGBA buffer blitted once, as the flame graph's do; per row only the boxes in the window are
//! visited, found by binary search, and boxes narrower than a pixel are skipped to the first box ending past that
//! pixel, so a row costs O(pixels × log boxes) however many samples the window holds. Labels and the ruler are
//! canvas calls on top.

use super::canvas;
use super::color::{ColorScheme, Rgb};
use super::data::Loaded;
use super::draw::{self, fill_px};
use super::ROW_H;
use scorch_core::view::StackChart;
use scorch_core::ViewOptions;
use std::sync::Arc;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Height of the time ruler on top, CSS px.
pub const RULER_H: f64 = 22.0;

/// A stack chart of one view of a loaded profile.
pub struct ChartData {
    pub loaded: Arc<Loaded>,
    /// The view it was built for (time range and band cleared: they are the chart's zoom, not a filter).
    pub view: ViewOptions,
    pub chart: StackChart,
    /// Colours per frame id for the scheme last painted (0: not yet computed, else 0x01RRGGBB), filled as frames
    /// are drawn: a paint of a zoomed-out window looks up one colour per pixel and row.
    colors: std::sync::Mutex<(ColorScheme, Vec<u32>)>,
}

impl ChartData {
    pub fn new(loaded: Arc<Loaded>, view: ViewOptions, chart: StackChart) -> ChartData {
        ChartData {
            loaded,
            view,
            chart,
            colors: std::sync::Mutex::new((ColorScheme::Name, Vec::new())),
        }
    }

    /// The key a chart is built for: the profile and the view without its time range and band.
    pub fn key(view: &ViewOptions) -> ViewOptions {
        ViewOptions {
            time_range: None,
            offsets: None,
            ..view.clone()
        }
    }

    /// The window `w` clamped to the chart (the whole chart for `None`), at least 1 ns wide.
    pub fn window(&self, w: Option<(u64, u64)>) -> (u64, u64) {
        let (s, e) = (
            self.chart.start_ns,
            self.chart.end_ns.max(self.chart.start_ns + 1),
        );
        match w {
            Some((a, b)) => {
                let a = a.clamp(s, e - 1);
                (a, b.clamp(a + 1, e))
            }
            None => (s, e),
        }
    }
}

/// Where the chart is drawn: size in CSS px, the time window, the vertical scroll.
#[derive(Clone, Copy, Debug)]
pub struct ChartGeom {
    pub width: f64,
    pub height: f64,
    pub w0: u64,
    pub w1: u64,
    pub scroll_top: f64,
}

impl ChartGeom {
    /// CSS px of time `t`.
    pub fn x(&self, t: u64) -> f64 {
        let span = (self.w1 - self.w0).max(1) as f64;
        (t as f64 - self.w0 as f64) / span * self.width
    }
    /// The time at CSS px `x` (clamped to the window's ends for x outside).
    pub fn t(&self, x: f64) -> u64 {
        let span = (self.w1 - self.w0).max(1) as f64;
        let f = (x / self.width.max(1.0)).clamp(0.0, 1.0);
        self.w0 + (f * span).round() as u64
    }
    /// CSS px of the top of row `depth`.
    pub fn row_y(&self, depth: usize) -> f64 {
        RULER_H + depth as f64 * ROW_H - self.scroll_top
    }
    /// The depth under CSS px `y` (None on the ruler).
    pub fn depth_at(&self, y: f64) -> Option<usize> {
        (y >= RULER_H).then(|| ((y - RULER_H + self.scroll_top) / ROW_H).floor() as usize)
    }
}

/// What the picture depends on besides data and geometry.
pub struct ChartLook {
    pub search: Option<Arc<Vec<bool>>>,
    pub scheme: ColorScheme,
    pub dark: bool,
    /// The heatmap's range, shaded on the ruler; a ruler drag under way.
    pub range: Option<(u64, u64)>,
    pub dragging: Option<(u64, u64)>,
}

const MATCH_RGB: Rgb = [230, 0, 230];

thread_local! {
    static PIXELS: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

struct Label {
    f: scorch_core::FrameId,
    x0: f64,
    w: f64,
    y: f64,
    alpha: f64,
}

use crate::worker::now;

/// Sizes the canvas and draws the chart.
pub fn paint(canvas: &HtmlCanvasElement, d: &ChartData, g: &ChartGeom, look: &ChartLook) {
    let t0 = now();
    let Some(surface) = canvas::prepare(canvas, g.width, g.height) else {
        return;
    };
    draw(&surface.ctx, d, g, look, surface.dpr);
    crate::seams::record_chart_paint(now() - t0);
}

fn draw(ctx: &CanvasRenderingContext2d, d: &ChartData, g: &ChartGeom, look: &ChartLook, dpr: f64) {
    let dw = (g.width * dpr).round().max(0.0) as usize;
    let dh = (g.height * dpr).round().max(0.0) as usize;
    let mut labels: Vec<Label> = Vec::new();
    let chart = &d.chart;
    let frames = d.loaded.imported.profile.frames.len();
    let mut cache = d.colors.lock().ok();
    let mut none = (look.scheme, Vec::new());
    let colors = cache.as_deref_mut().unwrap_or(&mut none);
    if colors.0 != look.scheme || colors.1.len() != frames {
        *colors = (look.scheme, vec![0; frames]);
    }
    let mut rgb_of = |f: scorch_core::FrameId| -> Rgb {
        match colors.1.get_mut(f.idx()) {
            Some(c) if *c != 0 => [(*c >> 16) as u8, (*c >> 8) as u8, *c as u8],
            Some(c) => {
                let [r, g, b] = d.loaded.scheme_rgb(f, look.scheme);
                *c = 0x0100_0000 | u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b);
                [r, g, b]
            }
            None => d.loaded.scheme_rgb(f, look.scheme),
        }
    };
    PIXELS.with(|px| {
        let mut buf = px.borrow_mut();
        super::draw::transparent(&mut buf, dw * dh * 4);
        let dims = (dw, dh, dpr);
        let mut style = |f: scorch_core::FrameId| -> (Rgb, f64) {
            match look
                .search
                .as_deref()
                .map(|m| m.get(f.idx()).copied().unwrap_or(false))
            {
                Some(true) => (MATCH_RGB, 1.0),
                Some(false) => (rgb_of(f), 0.35),
                None => (rgb_of(f), 1.0),
            }
        };
        for (depth, row) in chart.rows().enumerate() {
            let y = g.row_y(depth);
            if y + ROW_H <= RULER_H || y >= g.height {
                continue;
            }
            let range = row.visible(g.w0, g.w1);
            let mut i = range.start;
            while i < range.end {
                let (Some(&s), Some(&e), Some(&f)) = (row.start.get(i), row.end.get(i), row.frame.get(i))
                else {
                    break;
                };
                let x0 = g.x(s).max(0.0);
                let x1 = g.x(e).min(g.width);
                let (rgb, alpha) = style(f);
                if x1 - x0 < 1.0 {
                    // One pixel for this box, then skip every box that ends inside the same pixel.
                    let p = x0.floor();
                    fill_px(&mut buf, dims, p, p + 1.0, y.max(RULER_H), rgb, alpha);
                    i = row.next_ending_after(i + 1, g.t(p + 1.0));
                    continue;
                }
                let gap = if x1 - x0 > 3.0 { 1.0 } else { 0.0 };
                fill_px(&mut buf, dims, x0, x1 - gap, y.max(RULER_H), rgb, alpha);
                if x1 - x0 > 20.0 {
                    labels.push(Label {
                        f,
                        x0,
                        w: x1 - x0,
                        y,
                        alpha,
                    });
                }
                i += 1;
            }
        }
        draw::blit(ctx, &buf, dw, dh);
    });
    let char_w = draw::label_font(ctx);
    ctx.set_fill_style_str("#000");
    let p = &d.loaded.imported.profile;
    for l in &labels {
        if l.y < RULER_H {
            continue;
        }
        let room = ((l.w - 6.0) / char_w).floor();
        if room < 3.0 {
            continue;
        }
        ctx.set_global_alpha(l.alpha);
        let _ = ctx.fill_text(
            &fit(p.frame_name(l.f), room as usize),
            l.x0 + 3.0,
            l.y + ROW_H / 2.0,
        );
    }
    ctx.set_global_alpha(1.0);
    lane_headers(ctx, d, g, look);
    ruler(ctx, d, g, look, char_w);
}

/// The name a lane's header shows: `comm (tid N) · S samples`.
pub fn lane_title(p: &scorch_core::Profile, lane: &scorch_core::view::Lane) -> String {
    let t = lane.thread as usize;
    let comm = p.threads.comm.get(t).map_or("?", |&c| p.strings.get(c));
    let tid = p.threads.tid.get(t).copied().unwrap_or(0);
    let n = lane.samples;
    format!("{comm} (tid {tid}) · {n} sample{}", if n == 1 { "" } else { "s" })
}

/// Each lane's header row: a band across the chart with the thread's name, and a rule above it.
fn lane_headers(ctx: &CanvasRenderingContext2d, d: &ChartData, g: &ChartGeom, look: &ChartLook) {
    let (band, fg, rule) = if look.dark {
        ("#2a2f36", "#e4e4e7", "#71717a")
    } else {
        ("#e4e4e7", "#18181b", "#a1a1aa")
    };
    let p = &d.loaded.imported.profile;
    for lane in &d.chart.lanes {
        let y = g.row_y(lane.header);
        if y + ROW_H <= RULER_H || y >= g.height {
            continue;
        }
        ctx.set_fill_style_str(band);
        ctx.fill_rect(0.0, y, g.width, ROW_H);
        ctx.set_fill_style_str(rule);
        ctx.fill_rect(0.0, y, g.width, 1.0);
        ctx.set_fill_style_str(fg);
        let _ = ctx.fill_text(&lane_title(p, lane), 6.0, y + ROW_H / 2.0);
    }
}

/// `name` cut to `room` characters (`..` at the end when cut); counting stops past the room.
fn fit(name: &str, room: usize) -> String {
    if name.chars().take(room + 1).count() <= room {
        return name.to_string();
    }
    let mut s: String = name.chars().take(room.saturating_sub(2)).collect();
    s.push_str("..");
    s
}

/// The ruler: ticks at a round step, labelled with the time since the chart's first sample; the heatmap's range
/// shaded; a drag under way shaded darker.
fn ruler(ctx: &CanvasRenderingContext2d, d: &ChartData, g: &ChartGeom, look: &ChartLook, char_w: f64) {
    let (bg, fg, shade, drag) = if look.dark {
        (
            "#1f2328",
            "#d4d4d8",
            "rgba(96,165,250,0.30)",
            "rgba(96,165,250,0.55)",
        )
    } else {
        (
            "#f4f4f5",
            "#27272a",
            "rgba(37,99,235,0.18)",
            "rgba(37,99,235,0.40)",
        )
    };
    ctx.set_fill_style_str(bg);
    ctx.fill_rect(0.0, 0.0, g.width, RULER_H);
    for ((a, b), color) in [(look.range, shade), (look.dragging, drag)]
        .into_iter()
        .filter_map(|(r, c)| r.map(|r| (r, c)))
    {
        let (x0, x1) = (g.x(a).max(0.0), g.x(b).min(g.width));
        if x1 > x0 {
            ctx.set_fill_style_str(color);
            ctx.fill_rect(x0, 0.0, x1 - x0, RULER_H);
        }
    }
    let span = g.w1.saturating_sub(g.w0).max(1);
    // About one label per 110 px.
    let step = nice_step(span as f64 * 110.0 / g.width.max(1.0));
    let origin = d.chart.start_ns;
    ctx.set_stroke_style_str(fg);
    ctx.set_fill_style_str(fg);
    ctx.set_line_width(1.0);
    ctx.set_text_baseline("middle");
    let rel0 = g.w0.saturating_sub(origin);
    let mut k = rel0.div_ceil(step);
    let mut guard = 0;
    while guard < 1000 {
        guard += 1;
        let t = origin.saturating_add(k.saturating_mul(step));
        if t > g.w1 {
            break;
        }
        let x = g.x(t).round() + 0.5;
        ctx.begin_path();
        ctx.move_to(x, RULER_H - 7.0);
        ctx.line_to(x, RULER_H);
        ctx.stroke();
        let text = format_time(t - origin, step);
        if x + 3.0 + text.chars().count() as f64 * char_w <= g.width {
            let _ = ctx.fill_text(&text, x + 3.0, RULER_H / 2.0 - 2.0);
        }
        k += 1;
    }
    ctx.begin_path();
    ctx.move_to(0.0, RULER_H - 0.5);
    ctx.line_to(g.width, RULER_H - 0.5);
    ctx.stroke();
}

/// The smallest 1, 2 or 5 × 10ⁿ ns at least `ns` (at least 1).
pub fn nice_step(ns: f64) -> u64 {
    let mut base = 1u64;
    loop {
        for m in [1u64, 2, 5] {
            let s = base.saturating_mul(m);
            if s as f64 >= ns || s == u64::MAX {
                return s;
            }
        }
        if base > u64::MAX / 10 {
            return u64::MAX;
        }
        base *= 10;
    }
}

/// A time in ns with the unit its `step` calls for (s, ms, µs, ns) and as many decimals as the step needs.
pub fn format_time(ns: u64, step: u64) -> String {
    let (unit, div) = if step >= 1_000_000_000 {
        ("s", 1e9)
    } else if step >= 1_000_000 {
        ("ms", 1e6)
    } else if step >= 1_000 {
        ("µs", 1e3)
    } else {
        ("ns", 1.0)
    };
    let decimals = ((div / step as f64).log10().ceil().max(0.0)) as usize;
    format!("{:.*} {unit}", decimals, ns as f64 / div)
}

/// A duration for the tooltip: `12.345 ms`, `1.234 s`, `850 µs`.
pub fn format_duration(ns: u64) -> String {
    if ns >= 1_000_000_000 {
        format!("{:.3} s", ns as f64 / 1e9)
    } else if ns >= 1_000_000 {
        format!("{:.3} ms", ns as f64 / 1e6)
    } else if ns >= 1_000 {
        format!("{:.3} µs", ns as f64 / 1e3)
    } else {
        format!("{ns} ns")
    }
}
