//! The heatmap chart's paint and hit test: cells coloured from the background to red at the largest, a mark on
//! the columns (seconds) in which the recorder lost events, then the selection outline. The component
//! (`components::heatmap`) decides when; this only paints.

use super::canvas;
use scorch_core::analysis::heatmap::Heatmap;
use web_sys::HtmlCanvasElement;

/// Height of the heatmap in CSS px (rows share it): a fifth of the window's height, within these limits, so the
/// flame graph keeps most of a laptop's screen.
pub const HEATMAP_H: f64 = 200.0;
pub const HEATMAP_MIN_H: f64 = 100.0;

/// A heatmap cell: (column, row).
pub type Cell = (u32, u32);

/// The narrowest and widest a column (a second) is drawn, CSS px: past the narrowest the heatmap scrolls.
pub const MIN_CELL_W: f64 = 4.0;
pub const MAX_CELL_W: f64 = 160.0;

/// Width and height of a cell in CSS px: columns share the window's width (within
/// [`MIN_CELL_W`]..[`MAX_CELL_W`]), so a short profile uses the width it has and a long one scrolls.
pub fn cell_size(h: &Heatmap) -> (f64, f64) {
    let avail = web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(1200.0)
        - 40.0;
    let cw = (avail / f64::from(h.columns.max(1)))
        .clamp(MIN_CELL_W, MAX_CELL_W)
        .floor();
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|v| v.as_f64())
        .map_or(HEATMAP_H, |v| (v * 0.2).clamp(HEATMAP_MIN_H, HEATMAP_H));
    let ch = (height / f64::from(h.rows)).max(2.0);
    (cw, ch)
}

/// The chart's size in CSS px: every column and row at [`cell_size`]. The panel sets it on the canvas before the
/// first paint, so the page's layout (the flame graph's height below) is final when the charts are first drawn.
pub fn chart_size(h: &Heatmap) -> (f64, f64) {
    let (cw, ch) = cell_size(h);
    (cw * f64::from(h.columns), ch * f64::from(h.rows))
}

/// The cell under a client (page) point; row 0 is at the bottom.
pub fn cell_at(h: &Heatmap, canvas: &HtmlCanvasElement, client_x: f64, client_y: f64) -> Option<Cell> {
    let rect = canvas.get_bounding_client_rect();
    let (cw, ch) = cell_size(h);
    let x = client_x - rect.left();
    let y = client_y - rect.top();
    if x < 0.0 || y < 0.0 {
        return None;
    }
    let c = (x / cw) as u32;
    let r_from_top = (y / ch) as u32;
    (c < h.columns && r_from_top < h.rows).then(|| (c, h.rows - 1 - r_from_top))
}

/// An empty cell in the light theme, and in the dark one; the largest cell.
const EMPTY_LIGHT: [u8; 3] = [245, 245, 243];
const EMPTY_DARK: [u8; 3] = [40, 40, 46];
const FULL: [u8; 3] = [220, 20, 20];

/// Colour of the lost-events mark.
pub const LOST_MARK: &str = "rgb(109,40,217)";

/// Paints the cells, the lost-events marks (`lost`: columns with losses, from
/// `scorch_core::analysis::lost::lost_columns`), the selection (first, last) and the first cell of a two-click
/// selection. `sparse`: cells of 1–3 samples are shown at least at 30 %. `band`: the selection is a band, drawn
/// as one rectangle (columns first..last × rows first..last) rather than a run of cells in time order. `dark`:
/// the dark theme's background, from which the cells' colour ramps to red (the legend's ramp, `style.css`, is
/// the same).
#[allow(clippy::too_many_arguments)]
pub fn paint(
    canvas: &HtmlCanvasElement,
    h: &Heatmap,
    sel: Option<(Cell, Cell)>,
    band: bool,
    pending: Option<Cell>,
    sparse: bool,
    lost: &[(u32, u64)],
    dark: bool,
) {
    let (cw, ch) = cell_size(h);
    let (w, hh) = chart_size(h);
    let Some(surface) = canvas::prepare(canvas, w, hh) else {
        return;
    };
    let c2d = &surface.ctx;
    let bg = if dark { EMPTY_DARK } else { EMPTY_LIGHT };
    paint_cells(c2d, h, (cw, ch), surface.dpr, canvas, bg, sparse);
    // A small triangle at the top of each column in which events were lost: that second under-counts.
    c2d.set_fill_style_str(LOST_MARK);
    let tri = (cw * 0.8).clamp(4.0, 10.0);
    for &(c, _) in lost {
        let x = f64::from(c) * cw + cw / 2.0;
        c2d.begin_path();
        c2d.move_to(x - tri / 2.0, 0.0);
        c2d.line_to(x + tri / 2.0, 0.0);
        c2d.line_to(x, tri);
        c2d.close_path();
        c2d.fill();
    }
    let outline = |a: Cell, b: Cell, color: &str, dash: bool| {
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
    match sel {
        Some((a, b)) if band => {
            let (c0, c1) = (a.0.min(b.0), a.0.max(b.0));
            let (r0, r1) = (a.1.min(b.1), a.1.max(b.1).min(h.rows.saturating_sub(1)));
            let top = f64::from(h.rows - 1 - r1) * ch;
            let (width, height) = (f64::from(c1 - c0 + 1) * cw, f64::from(r1 - r0 + 1) * ch);
            c2d.set_fill_style_str("rgba(29,78,216,0.12)");
            c2d.fill_rect(f64::from(c0) * cw, top, width, height);
            c2d.set_stroke_style_str("#1d4ed8");
            c2d.set_line_width(2.0);
            c2d.stroke_rect(f64::from(c0) * cw + 1.0, top + 1.0, width - 2.0, height - 2.0);
        }
        Some((a, b)) => outline(a, b, "#1d4ed8", false),
        None => {}
    }
    if let Some(p) = pending {
        outline(p, p, "#1d4ed8", true);
    }
}

/// The cells, a band of [`BAND`] device columns at a time: a band of many cells written into an RGBA buffer in
/// wasm and put on the canvas at once, a band of a few (up to [`FEW`]) filled cell by cell over the background,
/// a band of none left as it is. A formatted colour and a `fillRect` per cell were most of an 89–96 ms frame for
/// a thousand seconds of a million events (50,000 cells; docs/BENCHMARKS.md); a buffer for every band was 75 ms
/// for the four samples of a capture that spans ten years (100,000 seconds of background). The band keeps the
/// buffer small however long the capture (the heatmap scrolls past [`MIN_CELL_W`] per second). Each cell is
/// drawn `cw − 0.5` CSS px wide: a gap of a device pixel or so between the seconds.
fn paint_cells(
    ctx: &web_sys::CanvasRenderingContext2d,
    h: &Heatmap,
    (cw, ch): (f64, f64),
    dpr: f64,
    canvas: &HtmlCanvasElement,
    bg: [u8; 3],
    sparse: bool,
) {
    let (dw, dh) = (canvas.width() as usize, canvas.height() as usize);
    let css = |c: [u8; 3]| format!("rgb({},{},{})", c[0], c[1], c[2]);
    ctx.set_fill_style_str(&css(bg));
    ctx.fill_rect(0.0, 0.0, dw as f64 / dpr, dh as f64 / dpr);
    let max = f64::from(h.max.max(1));
    let empty = [bg[0], bg[1], bg[2], 255];
    let mut buf = Vec::new();
    let mut x = 0;
    while x < dw {
        let bw = BAND.min(dw - x);
        // The columns that reach into this band, and how many cells they fill.
        let first = ((x as f64 / dpr / cw).floor() as u32).min(h.columns);
        let last = ((((x + bw) as f64) / dpr / cw).ceil() as u32).min(h.columns);
        let cells = || {
            (first..last)
                .flat_map(|c| (0..h.rows).map(move |r| (c, r, h.count(c, r))))
                .filter(|&(_, _, n)| n > 0)
        };
        let filled = cells().take(FEW + 1).count();
        if filled == 0 {
            // The background, filled above.
        } else if filled <= FEW {
            for (c, r, n) in cells() {
                ctx.set_fill_style_str(&css(cell_rgb(n, max, sparse, bg)));
                ctx.fill_rect(f64::from(c) * cw, f64::from(h.rows - 1 - r) * ch, cw - 0.5, ch);
            }
        } else {
            buf.clear();
            buf.resize(bw * dh * 4, 0);
            for p in buf.chunks_exact_mut(4) {
                p.copy_from_slice(&empty);
            }
            for (c, r, n) in cells() {
                let left = (f64::from(c) * cw * dpr).round() as usize;
                let right = (((f64::from(c) * cw + cw - 0.5) * dpr).floor() as usize).max(left + 1);
                let (a, b) = (left.max(x) - x, right.min(x + bw).saturating_sub(x));
                if a >= b {
                    continue;
                }
                let rgb = cell_rgb(n, max, sparse, bg);
                let px = [rgb[0], rgb[1], rgb[2], 255];
                let top = ((f64::from(h.rows - 1 - r) * ch * dpr).round() as usize).min(dh);
                let bottom = ((f64::from(h.rows - r) * ch * dpr).round() as usize).min(dh);
                for line in top..bottom {
                    if let Some(span) = buf.get_mut((line * bw + a) * 4..(line * bw + b) * 4) {
                        for p in span.chunks_exact_mut(4) {
                            p.copy_from_slice(&px);
                        }
                    }
                }
            }
            if dh > 0 {
                if let Ok(img) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
                    wasm_bindgen::Clamped(&buf),
                    bw as u32,
                    dh as u32,
                ) {
                    let _ = ctx.put_image_data(&img, x as f64, 0.0);
                }
            }
        }
        x += bw;
    }
}

/// A band with at most this many cells is filled cell by cell ([`paint_cells`]): cheaper than its buffer.
const FEW: usize = 256;

/// Device columns put on the canvas at once by [`paint_cells`].
const BAND: usize = 2048;

/// A cell of `n` samples, the largest being `max`: from the background `bg` to red, in proportion (at least 30 %
/// for 1–3 samples when `sparse`).
fn cell_rgb(n: u32, max: f64, sparse: bool, bg: [u8; 3]) -> [u8; 3] {
    let mut a = f64::from(n) / max;
    if sparse && n <= 3 {
        a = a.max(0.3);
    }
    let mix = |k: usize| {
        let (from, to) = (f64::from(bg[k]), f64::from(FULL[k]));
        (from + (to - from) * a).round() as u8
    };
    [mix(0), mix(1), mix(2)]
}
