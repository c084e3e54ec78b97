//! An SVG flame graph of a view: one `<rect>` and one `<text>` per drawn frame, each in a `<g>` with a `<title>`
//! (name, total, self, shares), a heading (title and a line saying what the file, format, event, unit and total
//! are) and a legend. No script: the file is read as it is, in a browser or a vector editor.
//!
//! The picture follows the app's canvas (`crates/app/src/render/draw.rs`): rows [`ROW_H`] px tall with a 1 px gap,
//! a 1 px gap on the right of boxes wider than 3 px, frames narrower than a pixel merged into beige slivers by the
//! same rule, search matches magenta and the rest faded, labels cut to the room at 7.2 px a character.
//!
//! Deterministic bytes: numbers are written with a fixed number of decimals, so the app (wasm) and the CLI write
//! the same file for the same view. The output is O(drawn boxes) ≤ O(width × depth): a row draws at most one box
//! or sliver per pixel. Every text from the input is escaped (names are untrusted), and characters XML cannot
//! carry are replaced.

use crate::model::units::{format_percent, format_value, group_thousands};
use crate::model::{Profile, Unit, Weight};
use crate::view::calltree::{CallTree, NodeId, ROOT_FRAME};
use crate::view::color::{frame_color, Rgb};
use crate::view::{FlameLayout, ViewOptions};
use std::fmt::Write as _;

/// Height of one frame row in px (the app's `ROW_H`).
pub const ROW_H: f64 = 18.0;
/// The width of one label character in px (12 px monospace).
const CHAR_W: f64 = 7.2;
/// Margin left and right of the graph.
const PAD: f64 = 10.0;
/// The top of the graph, below the heading.
const TOP: f64 = 56.0;
/// The widest picture written: a row draws at most one box per pixel, so this bounds the output.
pub const MAX_WIDTH: u32 = 20_000;
/// The deepest row drawn: a stack a million frames deep would otherwise make a picture 18 million px tall (and
/// hundreds of MB); the legend says when rows are left out.
pub const MAX_ROWS: usize = 10_000;
/// The narrowest picture written.
pub const MIN_WIDTH: u32 = 200;

const MATCH_RGB: Rgb = [230, 0, 230];
const SLIVER_RGB: Rgb = [214, 196, 176];
/// The fill of the root ("all") in the default scheme, as the app paints it.
const ROOT_RGB: Rgb = [200, 200, 200];
const FONT: &str = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

/// Where the root stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Orientation {
    /// Root at the bottom (flamegraph.pl).
    #[default]
    Flame,
    /// Root at the top.
    Icicle,
}

/// What the picture shows besides the tree and its layout.
#[derive(Debug, Clone, Copy)]
pub struct SvgOptions<'a> {
    /// Width in px, clamped to [`MIN_WIDTH`]..=[`MAX_WIDTH`].
    pub width: u32,
    pub orientation: Orientation,
    pub title: &'a str,
    /// The line under the title (see [`subtitle`]).
    pub subtitle: &'a str,
    /// Fill per call-tree node; `None`: the app's default scheme (a warm hue hashed from the name).
    pub fills: Option<&'a [Rgb]>,
    /// What the fills mean, for the legend; `None`: the default scheme's words.
    pub legend: Option<&'a str>,
    /// Search matches per frame id: matches magenta, the rest faded.
    pub search: Option<&'a [bool]>,
}

impl Default for SvgOptions<'_> {
    fn default() -> Self {
        SvgOptions {
            width: 1200,
            orientation: Orientation::Flame,
            title: "Flame Graph",
            subtitle: "",
            fills: None,
            legend: None,
            search: None,
        }
    }
}

/// The fill of every node in the app's default scheme ("function": hashed from the name and kind).
pub fn default_fills(p: &Profile, t: &CallTree) -> Vec<Rgb> {
    t.frame
        .iter()
        .map(|&f| {
            if f == ROOT_FRAME {
                ROOT_RGB
            } else {
                frame_color(p.frame_name(f), p.frame_kind(f))
            }
        })
        .collect()
}

/// The line under the title, as the app's status line says it: `NAME · FORMAT · N RECORDS · event E · unit U ·
/// total T`.
pub fn subtitle(name: &str, gzip: bool, p: &Profile, v: &ViewOptions, total_raw: u64) -> String {
    let mut s = format!(
        "{name} · {}{} · {} {}",
        p.meta.format,
        if gzip { " (gzip)" } else { "" },
        group_thousands(p.meta.records),
        p.meta.format.record_noun()
    );
    if let Some(e) = v.event.and_then(|e| p.events.get(e as usize)) {
        let word = if p.meta.format == crate::model::Format::Pprof {
            "sample type"
        } else {
            "event"
        };
        let _ = write!(s, " · {word} {}", e.name);
    }
    let unit = v.unit(p);
    let shown = Weight {
        raw: total_raw,
        decimals: p.meta.decimals,
    };
    let _ = write!(
        s,
        " · unit {} · total {}",
        unit.name(),
        format_value(shown.as_f64(), &unit)
    );
    // A scrubbed profile (`export::scrub`) says so, so nobody takes the picture for the original.
    if let Some((_, rules)) = p.meta.info.iter().find(|(k, _)| k == crate::model::SCRUBBED_INFO) {
        let _ = write!(s, " · scrubbed: {rules}");
    }
    s
}

/// Appends `s` escaped for XML text and attribute values; characters XML 1.0 cannot carry become U+FFFD.
pub fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
}

fn rgb(c: Rgb) -> String {
    format!("rgb({},{},{})", c[0], c[1], c[2])
}

/// The label that fits in `w` px, cut with `..` as the app cuts it; empty when fewer than 3 characters fit.
fn label(name: &str, w: f64) -> String {
    let room = ((w - 6.0) / CHAR_W).floor();
    if room < 3.0 {
        return String::new();
    }
    // Counting stops past the room: a name can be megabytes long.
    let count = name.chars().take(room as usize + 1).count();
    if count as f64 <= room {
        name.to_string()
    } else {
        let mut s: String = name.chars().take((room as usize).saturating_sub(2)).collect();
        s.push_str("..");
        s
    }
}

/// Writes the SVG flame graph of a view's tree and layout; `unit` is the view's unit (for the figures).
pub fn flame_svg(p: &Profile, t: &CallTree, l: &FlameLayout, unit: &Unit, o: &SvgOptions) -> String {
    let width = f64::from(o.width.clamp(MIN_WIDTH, MAX_WIDTH));
    let gw = width - 2.0 * PAD;
    let all_depths = l.depth_count();
    let depths = all_depths.min(MAX_ROWS);
    let gh = depths as f64 * ROW_H;
    let height = TOP + gh + 34.0;
    let root_total = t.total.first().copied().unwrap_or(0);
    let scale = 10f64.powi(p.meta.decimals as i32);
    let own_fills;
    let fills: &[Rgb] = match o.fills {
        Some(f) => f,
        None => {
            own_fills = default_fills(p, t);
            &own_fills
        }
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n\
         <svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {w:.0} {height:.0}\" font-family=\"{FONT}\" font-size=\"12\">\n\
         <rect x=\"0\" y=\"0\" width=\"{w:.0}\" height=\"{height:.0}\" fill=\"rgb(250,250,246)\"/>\n\
         <text x=\"{cx:.1}\" y=\"24\" font-size=\"17\" text-anchor=\"middle\">",
        w = width,
        cx = width / 2.0,
    );
    escape_into(&mut out, o.title);
    out.push_str("</text>\n<text x=\"");
    let _ = write!(
        out,
        "{:.1}\" y=\"44\" text-anchor=\"middle\" fill=\"rgb(60,60,60)\">",
        width / 2.0
    );
    escape_into(&mut out, o.subtitle);
    out.push_str("</text>\n<g id=\"frames\">\n");
    let row_y = |depth: usize| match o.orientation {
        Orientation::Flame => TOP + (depths.saturating_sub(depth + 1)) as f64 * ROW_H,
        Orientation::Icicle => TOP + depth as f64 * ROW_H,
    };
    let faded = if o.search.is_some() { 0.35 } else { 1.0 };
    let sliver = |out: &mut String, a: f64, b: f64, y: f64| {
        let _ = writeln!(
            out,
            "<rect x=\"{:.2}\" y=\"{y:.1}\" width=\"{:.2}\" height=\"{:.1}\" fill=\"{}\"{}/>",
            PAD + a,
            (b - a).max(1.0),
            ROW_H - 1.0,
            rgb(SLIVER_RGB),
            if faded < 1.0 { " opacity=\"0.35\"" } else { "" }
        );
    };
    for depth in 0..depths {
        let (row, rx0, rx1) = (l.row(depth), l.row_x0(depth), l.row_x1(depth));
        let y = row_y(depth);
        let mut run: Option<(f64, f64)> = None;
        let mut i = 0;
        while i < row.len() {
            let x0 = (rx0.get(i).copied().unwrap_or(0.0) * gw).max(0.0);
            let x1 = (rx1.get(i).copied().unwrap_or(0.0) * gw).min(gw);
            if x1 - x0 < 1.0 {
                // The app's rule: skip every frame that ends inside this pixel; the run becomes a sliver when it
                // covers half the pixel.
                let next = (x0.floor() + 1.0) / gw;
                let skip = rx1.get(i + 1..).map_or(0, |rest| gallop(rest, next));
                let end = (rx1.get(i + skip).copied().unwrap_or(0.0) * gw).min(gw);
                if end - x0 >= 0.5 {
                    let px = x0.floor();
                    run = match run {
                        Some((a, b)) if b >= px => Some((a, px + 1.0)),
                        Some((a, b)) => {
                            sliver(&mut out, a, b, y);
                            Some((px, px + 1.0))
                        }
                        None => Some((px, px + 1.0)),
                    };
                }
                i += 1 + skip;
                continue;
            }
            if let Some((a, b)) = run.take() {
                sliver(&mut out, a, b.min(x0), y);
            }
            let n = row.get(i).copied().unwrap_or(NodeId::ROOT);
            frame(
                &mut out,
                p,
                t,
                n,
                (x0, x1, y),
                fills,
                o.search,
                unit,
                (scale, root_total),
            );
            i += 1;
        }
        if let Some((a, b)) = run {
            sliver(&mut out, a, b, y);
        }
    }
    out.push_str("</g>\n");
    let legend = o
        .legend
        .unwrap_or("colour: hashed from the function name (kernel orange, JIT green, inline aqua)");
    let _ = write!(
        out,
        "<text x=\"{PAD:.1}\" y=\"{:.1}\" fill=\"rgb(60,60,60)\">",
        TOP + gh + 22.0
    );
    escape_into(&mut out, legend);
    if o.search.is_some() {
        out.push_str(" · magenta: search matches");
    }
    if all_depths > depths {
        let _ = write!(
            out,
            " · {} deeper rows of {} not drawn",
            group_thousands((all_depths - depths) as u64),
            group_thousands(all_depths as u64)
        );
    }
    out.push_str(" · beige: frames narrower than a pixel · hover a box for its figures</text>\n</svg>\n");
    out
}

/// One frame: its box, label and title.
#[allow(clippy::too_many_arguments)]
fn frame(
    out: &mut String,
    p: &Profile,
    t: &CallTree,
    n: NodeId,
    (x0, x1, y): (f64, f64, f64),
    fills: &[Rgb],
    search: Option<&[bool]>,
    unit: &Unit,
    (scale, root_total): (f64, u64),
) {
    let w = x1 - x0;
    let f = t.frame.get(n.idx()).copied().unwrap_or(ROOT_FRAME);
    let matched = search.map(|m| f != ROOT_FRAME && m.get(f.idx()).copied().unwrap_or(false));
    let fill = if matched == Some(true) {
        MATCH_RGB
    } else {
        fills.get(n.idx()).copied().unwrap_or(ROOT_RGB)
    };
    let name = t.name(p, n);
    let total = t.total.get(n.idx()).copied().unwrap_or(0);
    let own = t.self_w.get(n.idx()).copied().unwrap_or(0);
    out.push_str("<g><title>");
    escape_into(out, name);
    let _ = write!(
        out,
        "\ntotal {} ({}), self {} ({})</title>",
        format_value(total as f64 / scale, unit),
        format_percent(total as f64, root_total as f64),
        format_value(own as f64 / scale, unit),
        format_percent(own as f64, root_total as f64),
    );
    let gap = if w > 3.0 { 1.0 } else { 0.0 };
    let _ = write!(
        out,
        "<rect x=\"{:.2}\" y=\"{y:.1}\" width=\"{:.2}\" height=\"{:.1}\" fill=\"{}\"{}/>",
        PAD + x0,
        (w - gap).max(1.0),
        ROW_H - 1.0,
        rgb(fill),
        if matched == Some(false) {
            " opacity=\"0.35\""
        } else {
            ""
        }
    );
    let _ = write!(out, "<text x=\"{:.2}\" y=\"{:.1}\">", PAD + x0 + 3.0, y + 12.5);
    escape_into(out, &label(name, w));
    out.push_str("</text></g>\n");
}

/// How many leading values of `xs` (ascending) are `<= limit` (the app's gallop).
fn gallop(xs: &[f64], limit: f64) -> usize {
    let mut hi = 1;
    while hi < xs.len() && xs.get(hi - 1).is_some_and(|&x| x <= limit) {
        hi *= 2;
    }
    let lo = hi / 2;
    let hi = hi.min(xs.len());
    lo + xs.get(lo..hi).map_or(0, |s| s.partition_point(|&x| x <= limit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::folded::parse;
    use crate::view::calltree::Order;

    fn svg_of(text: &[u8], width: u32) -> String {
        let p = parse(text).unwrap();
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        let l = FlameLayout::new(&t);
        let o = SvgOptions {
            width,
            ..SvgOptions::default()
        };
        flame_svg(&p, &t, &l, &Unit::Samples, &o)
    }

    #[test]
    fn names_are_escaped() {
        let s = svg_of(b"a<&\"'>b;c\x01d 3\n", 1200);
        assert!(s.contains("a&lt;&amp;&quot;&apos;&gt;b"));
        assert!(!s.contains("a<&"));
        assert!(s.contains("c\u{FFFD}d"));
    }

    #[test]
    fn icicle_and_search() {
        let p = parse(b"main;a 3\nmain;b 1\n").unwrap();
        let t = CallTree::from_profile(&p, Order::Alphabetical);
        let l = FlameLayout::new(&t);
        let a = p
            .frames
            .name
            .iter()
            .position(|&s| p.strings.get(s) == "a")
            .unwrap();
        let mut mask = vec![false; p.frames.name.len()];
        mask[a] = true;
        let o = SvgOptions {
            width: 1000,
            orientation: Orientation::Icicle,
            search: Some(&mask),
            ..SvgOptions::default()
        };
        let s = flame_svg(&p, &t, &l, &Unit::Samples, &o);
        // Icicle: the root in the first row under the heading, `a` two rows down; `a` magenta, the others faded.
        let rect = |name: &str| {
            let g = s
                .split("<g><title>")
                .find(|g| g.starts_with(&format!("{name}\n")))
                .unwrap();
            g[g.find("<rect").unwrap()..g.find("/>").unwrap()].to_string()
        };
        assert!(rect("all").contains("y=\"56.0\""));
        assert!(rect("a").contains("y=\"92.0\"") && rect("a").contains("fill=\"rgb(230,0,230)\""));
        assert!(!rect("a").contains("opacity"));
        assert!(rect("b").contains("opacity=\"0.35\""));
        // 3 of 4 samples: 735 of the 980 px graph, less the 1 px gap.
        assert!(rect("a").contains("width=\"734.00\""));
        assert!(s.contains("<title>a\ntotal 3 samples (75.0 %), self 3 samples (75.0 %)</title>"));
    }

    #[test]
    fn rows_past_the_cap_are_left_out_and_said() {
        let mut text = vec!["f"; MAX_ROWS + 10].join(";");
        text.push_str(" 1\n");
        let s = svg_of(text.as_bytes(), 1200);
        // `all` and MAX_ROWS - 1 frames.
        assert_eq!(s.matches("<title>").count(), MAX_ROWS);
        assert!(s.contains(" · 11 deeper rows of 10,011 not drawn"));
    }

    #[test]
    fn slivers_merge_as_the_app_does() {
        // 1,000 leaves of weight 1 under one root at 200 px (180 px of graph): each is 0.18 px wide.
        let mut text = String::new();
        for i in 0..1000 {
            text.push_str(&format!("main;f{i} 1\n"));
        }
        let s = svg_of(text.as_bytes(), 200);
        assert_eq!(s.matches("<title>").count(), 2); // all and main
                                                     // One merged sliver per row of leaves: a single run.
        assert_eq!(s.matches("fill=\"rgb(214,196,176)\"").count(), 1);
    }
}
