//! The drawn call graph as SVG (the Export menu's SVG and PNG while the graph is shown): the whole graph at scale
//! 1, as `graph::paint` draws it in the light theme — the same boxes (the flame graph's colour of each function,
//! the border as heavy as its cum), the same three label lines per box, the same edge widths, colours, dashes and
//! arrowheads — under a title and the legend. Text is escaped (`scorch_core::export::svg::escape_into`), numbers
//! written with one decimal; each box is a `<g class="node">` carrying the function's name and exact flat and cum
//! (`data-name`, `data-flat`, `data-cum`) and a `<title>` (the tooltip), each edge a `<g class="edge">` with its
//! nodes and weight.

use super::color::{label_color, ColorScheme};
use super::graph::{
    arrow_head, border_width, css, edge_rgb, edge_width, node_lines, tip_base, GraphData, GraphGeom,
    BORDER_RGB,
};
use crate::worker::graph::{LINE_H, PAD};
use scorch_core::export::svg::escape_into;
use std::fmt::Write;

/// Room around the drawing, px.
const MARGIN: f64 = 12.0;
/// The title's and the legend's lines above the drawing, px.
const HEADER: f64 = 44.0;

fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s);
    out
}

/// The SVG of graph `d` with fills in `scheme`, titled `title`.
pub fn graph_svg(d: &GraphData, scheme: ColorScheme, title: &str) -> String {
    let l = &d.g.layout;
    let (w, h) = (
        l.width.max(1.0) + 2.0 * MARGIN,
        l.height.max(1.0) + 2.0 * MARGIN + HEADER,
    );
    let mut s = String::with_capacity(400 + 400 * d.count() + 200 * d.g.graph.edges.len());
    let _ = write!(
        s,
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w:.0}\" height=\"{h:.0}\" \
         viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace\" \
         font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n\
         <text x=\"{MARGIN}\" y=\"20\" font-size=\"15\" fill=\"#18181b\">{}</text>\n\
         <text x=\"{MARGIN}\" y=\"38\" fill=\"#52525b\">{}</text>\n\
         <g transform=\"translate({MARGIN},{})\">\n<g class=\"edges\" fill=\"none\">\n",
        esc(title),
        esc(&d.legend()),
        MARGIN + HEADER
    );
    let one = GraphGeom {
        width: l.width,
        height: l.height,
        tx: 0.0,
        ty: 0.0,
        scale: 1.0,
    };
    for (e, edge) in d.g.graph.edges.iter().enumerate() {
        let width = edge_width(edge.weight, d.max_weight);
        let color = css(edge_rgb(2 * edge.weight > d.max_weight, false));
        let (head, half) = arrow_head(width);
        let Some((tip, base)) = tip_base(d, &one, e, head) else {
            continue;
        };
        let _ = write!(
            s,
            "<g class=\"edge\" data-from=\"{}\" data-to=\"{}\" data-weight=\"{}\"><path d=\"",
            edge.from, edge.to, edge.weight
        );
        let (a, b) = (
            l.edge_start.get(e).copied().unwrap_or(0) as usize,
            l.edge_start.get(e + 1).copied().unwrap_or(0) as usize,
        );
        for k in a..b {
            let (x, y) = if k + 1 == b {
                base
            } else {
                (
                    l.px.get(k).copied().unwrap_or(0.0),
                    l.py.get(k).copied().unwrap_or(0.0),
                )
            };
            let _ = write!(s, "{}{x:.1},{y:.1}", if k == a { "M" } else { " L" });
        }
        let _ = write!(s, "\" stroke=\"{color}\" stroke-width=\"{width:.1}\"");
        if edge.residual {
            s.push_str(" stroke-dasharray=\"4 3\"");
        }
        let (dx, dy) = (tip.0 - base.0, tip.1 - base.1);
        let len = dx.hypot(dy).max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let _ = writeln!(
            s,
            "/><path d=\"M{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z\" fill=\"{color}\"/></g>",
            tip.0,
            tip.1,
            base.0 - uy * half,
            base.1 + ux * half,
            base.0 + uy * half,
            base.1 - ux * half
        );
    }
    s.push_str("</g>\n<g class=\"nodes\">\n");
    for (i, n) in d.g.graph.nodes.iter().enumerate() {
        let (x, y, bw, bh) = d.node_box(i);
        let fill = d.fill(i, scheme);
        let border = border_width(n.cum, d.max_cum);
        let name = esc(&n.name);
        let stroke = css(BORDER_RGB);
        let _ = write!(
            s,
            "<g class=\"node\" data-name=\"{name}\" data-flat=\"{}\" data-cum=\"{}\"><title>{name}\nflat {}\ncum {}</title>\
             <rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\" stroke=\"{stroke}\" stroke-width=\"{border:.1}\"/>",
            n.flat,
            n.cum,
            esc(&d.describe(n.flat)),
            esc(&d.describe(n.cum)),
            x + border / 2.0,
            y + border / 2.0,
            (bw - border).max(0.0),
            (bh - border).max(0.0),
            css(fill),
        );
        let ink = css(label_color(fill));
        for (k, text) in node_lines(d, i, bw).iter().enumerate() {
            let ty = y + PAD + LINE_H * (k as f64 + 0.5);
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{ty:.1}\" dominant-baseline=\"central\" fill=\"{ink}\">{}</text>",
                x + PAD,
                esc(text)
            );
        }
        s.push_str("</g>\n");
    }
    s.push_str("</g>\n</g>\n</svg>\n");
    s
}
