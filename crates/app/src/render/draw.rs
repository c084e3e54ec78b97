//! Drawing a flame graph onto a 2D context already scaled to CSS px: boxes into an RGBA buffer, then labels and
//! outlines; and the hover outline.

use super::color::{ColorScheme, Rgb};
use super::data::FlameData;
use super::geometry::{ancestor_at, Geometry, ROW_H};
use scorch_core::view::calltree::NodeId;
use scorch_core::view::window::{window, Window, RUN};
use std::ops::Range;
use web_sys::CanvasRenderingContext2d;

const FONT: &str = "12px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

/// What a frame's drawing depends on besides the layout.
pub struct Paint<'a> {
    /// Search matches per frame id: matches are highlighted, the rest dimmed.
    pub search: Option<&'a [bool]>,
    /// The selected function per frame id: outlined.
    pub selected: Option<&'a [bool]>,
    /// Frames a note is on, per frame id: a pin (a corner folded down, amber) on each of their boxes.
    pub noted: Option<&'a [bool]>,
    pub scheme: ColorScheme,
    pub dark: bool,
    /// A diff in the colour-blind-safe palette (orange/blue).
    pub colorblind: bool,
}

const MATCH_RGB: Rgb = [230, 0, 230];
/// A note's pin: the box's top-right corner, this many CSS px, folded down.
const PIN: f64 = 9.0;
/// The pin's amber and its edge, the same in both themes (it sits on the box's own colour).
const PIN_FILL: &str = "#f59e0b";
const PIN_EDGE: &str = "#78350f";

/// A note's pin on the box whose top-right corner is (`x1`, `y`).
fn pin(ctx: &CanvasRenderingContext2d, x1: f64, y: f64) {
    ctx.begin_path();
    ctx.move_to(x1 - PIN, y);
    ctx.line_to(x1, y);
    ctx.line_to(x1, y + PIN);
    ctx.close_path();
    ctx.set_fill_style_str(PIN_FILL);
    ctx.fill();
    ctx.set_stroke_style_str(PIN_EDGE);
    ctx.set_line_width(1.0);
    ctx.stroke();
}
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
    /// The box's fill (before its alpha).
    rgb: Rgb,
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
        transparent(&mut buf, dw * dh * 4);
        let dims = (dw, dh, dpr);
        let style = |n: NodeId, base_alpha: f64| -> (Rgb, f64) {
            let matched = paint.search.map(|m| d.node_in(m, n));
            let rgb = if matched == Some(true) {
                MATCH_RGB
            } else if paint.colorblind && d.diff.is_some() {
                super::color::colorblind_safe(d.color_of(n, paint.scheme))
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
            labels.push(Label {
                n,
                x0,
                w,
                y,
                alpha,
                rgb,
            });
        };
        // Ancestors of the zoom: full width, faded. Only the rows on screen are looked up (each walks up from
        // the zoom: looking up every row of a zoom a million frames deep was quadratic).
        for depth in (0..g.zoom_depth).filter(|&d| g.row_visible(d)) {
            if let Some(n) = ancestor_at(d, zoom, depth) {
                boxed(&mut buf, n, 0.0, g.width, g.row_y(depth), 0.6);
            }
        }
        // The rows on screen at and below the zoom, and what they draw: placed from the tree for this window
        // alone (no whole layout is kept), boxes at least a pixel wide and runs of narrower frames.
        let (rows, win) = placed(d, zoom, g);
        for depth in rows {
            let range = win.row(depth);
            let (row, rx0, rx1) = (
                win.node.get(range.clone()).unwrap_or(&[]),
                win.x0.get(range.clone()).unwrap_or(&[]),
                win.x1.get(range).unwrap_or(&[]),
            );
            let range = 0..row.len();
            let y = g.row_y(depth);
            // Sub-pixel frames merge into slivers of one neutral colour, one fill per run of adjacent pixels
            // (looking up each run's colour cost two cache misses per pixel on a million-node tree).
            let sliver_alpha = if paint.search.is_some() { 0.35 } else { 1.0 };
            let mut run: Option<(f64, f64)> = None;
            let mut i = range.start;
            while i < range.end {
                let x0 = g.px(rx0[i]).max(0.0);
                let x1 = g.px(rx1[i]).min(g.width);
                if row[i] == RUN && x1 - x0 >= 1.0 {
                    // A run of narrow frames more than a pixel wide (it can reach into the next pixel): a
                    // sliver over the pixels it touches.
                    let (p, q) = (x0.floor(), x1.ceil());
                    run = match run {
                        Some((a, b)) if b >= p => Some((a, b.max(q))),
                        Some((a, b)) => {
                            fill_px(&mut buf, dims, a, b, y, SLIVER_RGB, sliver_alpha);
                            Some((p, q))
                        }
                        None => Some((p, q)),
                    };
                    i += 1;
                    continue;
                }
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
        blit(ctx, &buf, dw, dh);
    });
    // Outlines and labels, in CSS px (the context is scaled by the DPR).
    let char_w = label_font(ctx);
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
        if l.w > PIN + 2.0 && paint.noted.is_some_and(|m| d.node_in(m, l.n)) {
            pin(ctx, l.x0 + l.w - gap, l.y);
        }
    }
    // Each label in black or white, whichever contrasts more with its box as it shows on the page (the fill
    // blended with the page's background by its alpha): at least 4.58:1 whatever the fill (WCAG 2.2 AA asks
    // 4.5:1). Labels are drawn opaque, so a dimmed box's label stays readable.
    let bg = if paint.dark { BG_DARK } else { BG_LIGHT };
    crate::seams::clear_labels();
    let mut ink = "";
    for l in &labels {
        let room = ((l.w - 6.0) / char_w).floor();
        if room < 3.0 {
            continue;
        }
        let shown = blend(l.rgb, bg, l.alpha);
        let text_rgb = super::color::label_color(shown);
        let css = if text_rgb == [0, 0, 0] { "#000" } else { "#fff" };
        if css != ink {
            ink = css;
            ctx.set_fill_style_str(css);
        }
        crate::seams::record_label(l.x0, l.y, l.w, shown, text_rgb);
        let name = d.name_of(l.n);
        // Counting stops past the room: a name can be megabytes long.
        let count = name.chars().take(room as usize + 1).count();
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
}

/// What a window of rows was placed for ([`place_ahead`]): the graph's tree (by where its columns are, and its
/// size), the zoom, the rows and the width of a pixel in unit space.
#[derive(Clone, Copy, PartialEq)]
struct Placing {
    tree: (usize, usize, usize),
    zoom: NodeId,
    rows: (usize, usize),
    min: u64,
}

thread_local! {
    /// Rows placed ahead of their paint ([`place_ahead`]), taken by the next [`draw`].
    static AHEAD: std::cell::RefCell<Option<(Placing, Window)>> = const { std::cell::RefCell::new(None) };
}

/// The rows on screen of `d` at `zoom` (at and below it), and what each is placed to draw.
fn placing(d: &FlameData, zoom: NodeId, g: &Geometry) -> (Range<usize>, Placing) {
    let visible = g.visible_rows(d.depths);
    let rows = visible.start.max(g.zoom_depth)..visible.end;
    let t = &d.tree;
    let p = Placing {
        tree: (t.total.as_ptr() as usize, t.parent.as_ptr() as usize, t.len()),
        zoom,
        rows: (rows.start, rows.end),
        min: ((g.vx1 - g.vx0) / g.width).to_bits(),
    };
    (rows, p)
}

/// Places the rows on screen for the paint that comes next, which takes them if it draws the same (else it
/// places its own): a large graph's first picture is placed in one task and drawn in the next (folded 100 MB:
/// the two in one task were 50–56 ms, docs/BENCHMARKS.md).
pub fn place_ahead(d: &FlameData, zoom: NodeId, g: &Geometry) {
    let (rows, p) = placing(d, zoom, g);
    let win = window(&d.tree, d.heights(), zoom, f64::from_bits(p.min), rows);
    AHEAD.with(|a| *a.borrow_mut() = Some((p, win)));
}

/// The rows [`draw`] draws, and their window: placed ahead for it, or now.
fn placed(d: &FlameData, zoom: NodeId, g: &Geometry) -> (Range<usize>, Window) {
    let (rows, p) = placing(d, zoom, g);
    let ahead = AHEAD.with(|a| a.borrow_mut().take()).filter(|(q, _)| *q == p);
    let win = match ahead {
        Some((_, w)) => w,
        None => window(&d.tree, d.heights(), zoom, f64::from_bits(p.min), rows.clone()),
    };
    (rows, win)
}

/// The page's background under the graph in the light and dark themes (`--bg` in www/style.css).
const BG_LIGHT: Rgb = [0xfb, 0xfb, 0xfa];
const BG_DARK: Rgb = [0x17, 0x17, 0x1a];

/// `rgb` at opacity `alpha` over `bg`, as the page shows it.
fn blend(rgb: Rgb, bg: Rgb, alpha: f64) -> Rgb {
    let mix = |f: u8, b: u8| (f64::from(f) * alpha + f64::from(b) * (1.0 - alpha)).round() as u8;
    [mix(rgb[0], bg[0]), mix(rgb[1], bg[1]), mix(rgb[2], bg[2])]
}

/// Where node `n` is drawn: (x, width, y) in CSS px, or `None` when it is off the canvas.
fn node_box(d: &FlameData, n: NodeId, g: &Geometry) -> Option<(f64, f64, f64)> {
    let depth = d.tree.depth.get(n.idx()).copied().unwrap_or(0) as usize;
    let (x0, x1) = if depth < g.zoom_depth {
        (0.0, g.width)
    } else {
        let (x0, x1) = d.x_range(n);
        (g.px(x0).max(0.0), g.px(x1).min(g.width))
    };
    (x1 > x0 && g.row_visible(depth)).then(|| (x0, x1 - x0, g.row_y(depth)))
}

/// Outlines the hovered node (on the overlay canvas; the context is scaled to CSS px).
pub fn draw_hover(ctx: &CanvasRenderingContext2d, d: &FlameData, n: NodeId, g: &Geometry, dark: bool) {
    let Some((x0, w, y)) = node_box(d, n, g) else {
        return;
    };
    let gap = if w > 3.0 { 1.0 } else { 0.0 };
    ctx.set_stroke_style_str(if dark { "#fff" } else { "#000" });
    ctx.set_line_width(1.5);
    ctx.stroke_rect(x0 + 0.75, y + 0.75, (w - gap - 1.5).max(0.0), ROW_H - 2.5);
}

/// The keyboard's focus ring around node `n` (on the overlay canvas): a double ring, 2 px of the theme's text
/// colour outside the box and 2 px of the opposite inside, so it shows on any fill and neighbour, and differs
/// from the hover outline (one 1.5 px line) and the selection (one blue 2 px line). At least 6 px wide, so a
/// frame narrower than a pixel still shows where the focus is.
pub fn draw_focus(ctx: &CanvasRenderingContext2d, d: &FlameData, n: NodeId, g: &Geometry, dark: bool) {
    let Some((x0, w, y)) = node_box(d, n, g) else {
        return;
    };
    let (w, x0) = if w < 6.0 {
        (6.0, (x0 + w / 2.0 - 3.0).max(0.0))
    } else {
        (w, x0)
    };
    let (outer, inner) = if dark { ("#fff", "#000") } else { ("#000", "#fff") };
    ctx.set_line_width(2.0);
    ctx.set_stroke_style_str(outer);
    ctx.stroke_rect(x0 - 1.0, y - 1.0, w + 1.0, ROW_H + 1.0);
    ctx.set_stroke_style_str(inner);
    ctx.stroke_rect(x0 + 1.0, y + 1.0, (w - 3.0).max(0.0), ROW_H - 3.0);
}

/// Fills `[x0, x1) × [y, y + ROW_H − 1)` (CSS px) of an RGBA buffer of `dims` = (device width, device height,
/// device-pixel ratio); at least one device pixel wide.
pub(crate) fn fill_px(
    buf: &mut [u8],
    dims: (usize, usize, f64),
    x0: f64,
    x1: f64,
    y: f64,
    rgb: Rgb,
    alpha: f64,
) {
    let (dw, dh, dpr) = dims;
    let a = ((x0 * dpr).round().max(0.0) as usize).min(dw);
    let b = ((x1 * dpr).round().max(0.0) as usize)
        .min(dw)
        .max((a + 1).min(dw));
    let top = ((y * dpr).round().max(0.0) as usize).min(dh);
    let bottom = (((y + ROW_H - 1.0) * dpr).round().max(0.0) as usize).min(dh);
    let px = [rgb[0], rgb[1], rgb[2], (alpha * 255.0).round() as u8];
    let span = |line: usize| (line * dw + a) * 4..(line * dw + b) * 4;
    // A wide box's first line is filled pixel by pixel and copied to its other lines (one `memory.copy` each).
    // The first picture runs this code unoptimised (V8's baseline tier): on folded 1 MB it was 0.4–2.8 ms of that
    // picture's draw pixel by pixel, 0.2–0.9 ms with the copies (three CPU profiles each). A narrow box is filled
    // line by line: a copy per line costs more than a few pixels.
    let wide = (b - a) >= WIDE_PX;
    for line in top..bottom {
        let to = span(line);
        if to.end > buf.len() {
            break;
        }
        if wide && line > top {
            buf.copy_within(span(top), to.start);
        } else if let Some(row) = buf.get_mut(to) {
            for p in row.chunks_exact_mut(4) {
                p.copy_from_slice(&px);
            }
        }
    }
}

/// Device pixels from which [`fill_px`] copies a box's first line to its others.
const WIDE_PX: usize = 16;

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

/// Makes `buf` `len` transparent bytes: a paint's pixel buffer, kept from paint to paint. A larger canvas gets a
/// new buffer rather than the old one grown, which copied it though it was about to be cleared (a 1 MB profile's
/// first picture, after a smaller one's: 4 ms of its paint, Chromium profile).
pub(crate) fn transparent(buf: &mut Vec<u8>, len: usize) {
    buf.clear();
    if buf.capacity() < len {
        *buf = Vec::with_capacity(len);
    }
    buf.resize(len, 0);
}

/// Puts an RGBA pixel buffer of `dw` × `dh` device pixels on the canvas at its origin (one blit per paint).
pub(crate) fn blit(ctx: &CanvasRenderingContext2d, buf: &[u8], dw: usize, dh: usize) {
    if dw > 0 && dh > 0 {
        if let Ok(img) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
            wasm_bindgen::Clamped(buf),
            dw as u32,
            dh as u32,
        ) {
            let _ = ctx.put_image_data(&img, 0.0, 0.0);
        }
    }
}

/// Sets the labels' font and baseline; the width of one character of it, in CSS px.
pub(crate) fn label_font(ctx: &CanvasRenderingContext2d) -> f64 {
    ctx.set_font(FONT);
    ctx.set_text_baseline("middle");
    ctx.measure_text("MMMMMMMMMM")
        .map(|m| m.width() / 10.0)
        .unwrap_or(7.2)
        .max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pixels `fill_px` sets, wide (first line copied) or narrow, at device-pixel ratios 1 and 2, clipped at
    /// the buffer's edges, against a plain pixel-by-pixel fill of the same rectangle.
    #[test]
    fn fill_px_sets_the_rectangle_it_is_given() {
        for dpr in [1.0, 2.0] {
            let (dw, dh) = (40, 50);
            for (x0, x1, y) in [
                (1.0, 30.0, 2.0),
                (3.0, 5.0, 0.0),
                (10.0, 60.0, 40.0),
                (0.0, 0.2, 7.0),
            ] {
                let mut buf = vec![0u8; dw * dh * 4];
                fill_px(&mut buf, (dw, dh, dpr), x0, x1, y, [1, 2, 3], 0.5);
                let a = ((x0 * dpr).round() as usize).min(dw);
                let b = (((x1 * dpr).round() as usize).min(dw)).max((a + 1).min(dw));
                let (top, bottom) = (
                    ((y * dpr).round() as usize).min(dh),
                    (((y + ROW_H - 1.0) * dpr).round() as usize).min(dh),
                );
                for line in 0..dh {
                    for x in 0..dw {
                        let inside = (top..bottom).contains(&line) && (a..b).contains(&x);
                        let want: [u8; 4] = if inside { [1, 2, 3, 128] } else { [0; 4] };
                        let at = (line * dw + x) * 4;
                        assert_eq!(
                            buf[at..at + 4],
                            want,
                            "dpr {dpr}, box {x0}–{x1} at {y}: pixel {x},{line}"
                        );
                    }
                }
            }
        }
    }
}
