//! The call graph's paint when many boxes and edges are on screen (a large graph zoomed out, or dragged at that
//! scale): into an RGBA buffer in wasm, blitted with one `putImageData`, as the flame graph paints its boxes. A
//! canvas call per edge point and a vector stroke of tens of thousands of edges took about a second per frame for a
//! 10,000-node, 40,000-edge graph; here each segment costs a few pixel writes (clipped to the screen first) and a
//! frame is one crossing into JavaScript. Same picture as the vector paint — edges as wide as their weight (whole
//! device pixels), their colours, dashes and arrowheads, boxes in their function's colour with their border —
//! without anti-aliasing; labels, when the scale leaves them readable, are drawn on top with canvas text.

use super::color::Rgb;

/// An RGBA buffer of `w` × `h` device pixels.
pub struct Pixels<'a> {
    pub buf: &'a mut [u8],
    pub w: usize,
    pub h: usize,
}

impl Pixels<'_> {
    fn put(&mut self, x: i64, y: i64, c: Rgb) {
        if x < 0 || y < 0 || x as usize >= self.w || y as usize >= self.h {
            return;
        }
        let i = (y as usize * self.w + x as usize) * 4;
        if let Some(p) = self.buf.get_mut(i..i + 4) {
            p.copy_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }

    /// Fills the rectangle [x0, x1) × [y0, y1) (device px, rounded to whole pixels; clipped).
    pub fn rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, c: Rgb) {
        let clamp = |v: f64, max: usize| v.round().clamp(0.0, max as f64) as usize;
        let (x0, x1) = (clamp(x0, self.w), clamp(x1, self.w));
        let (y0, y1) = (clamp(y0, self.h), clamp(y1, self.h));
        if x0 >= x1 {
            return;
        }
        let px = [c[0], c[1], c[2], 255];
        for y in y0..y1 {
            let row = y * self.w;
            if let Some(span) = self.buf.get_mut((row + x0) * 4..(row + x1) * 4) {
                for p in span.chunks_exact_mut(4) {
                    p.copy_from_slice(&px);
                }
            }
        }
    }

    /// A ring `t` px thick just inside the rectangle [x0, x1) × [y0, y1).
    pub fn frame(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, t: f64, c: Rgb) {
        let t = t.max(1.0);
        self.rect(x0, y0, x1, (y0 + t).min(y1), c);
        self.rect(x0, (y1 - t).max(y0), x1, y1, c);
        self.rect(x0, y0, (x0 + t).min(x1), y1, c);
        self.rect((x1 - t).max(x0), y0, x1, y1, c);
    }

    /// A row of `k` pixels from (`x`, `y`) rightwards, clipped.
    fn hspan(&mut self, x: i64, y: i64, k: i64, c: Rgb) {
        if y < 0 || y as usize >= self.h {
            return;
        }
        let (x0, x1) = (x.max(0) as usize, (x + k).clamp(0, self.w as i64) as usize);
        let row = y as usize * self.w;
        if let Some(span) = self.buf.get_mut((row + x0) * 4..(row + x1.max(x0)) * 4) {
            for p in span.chunks_exact_mut(4) {
                p.copy_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
    }

    /// A line from `a` to `b` (device px), `t` px thick, optionally dashed (`on`, `off` px), stepped one pixel
    /// at a time along the part that is on screen, `t` pixels across at each step; returns the pixels written.
    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), t: f64, dash: Option<(f64, f64)>, c: Rgb) -> usize {
        let k = t.round().max(1.0) as i64;
        let m = k as f64;
        let Some((a2, b2, skipped)) = clip(a, b, (-m, -m, self.w as f64 + m, self.h as f64 + m)) else {
            return 0;
        };
        let (dx, dy) = (b2.0 - a2.0, b2.1 - a2.1);
        let steps = dx.abs().max(dy.abs()).ceil().max(1.0);
        let (sx, sy) = (dx / steps, dy / steps);
        let step_len = sx.hypot(sy);
        let across = dx.abs() >= dy.abs();
        let half = (k - 1) / 2;
        let (mut x, mut y) = a2;
        for s in 0..=steps as i64 {
            let on = dash.is_none_or(|(on, off)| (skipped + s as f64 * step_len) % (on + off) < on);
            if on {
                let (ix, iy) = (x.floor() as i64, y.floor() as i64);
                if across {
                    for yy in iy - half..iy - half + k {
                        self.put(ix, yy, c);
                    }
                } else {
                    self.hspan(ix - half, iy, k, c);
                }
            }
            x += sx;
            y += sy;
        }
        (steps as usize + 1) * k as usize
    }

    /// Fills the triangle `p` (device px), clipped.
    pub fn triangle(&mut self, p: [(f64, f64); 3], c: Rgb) {
        let [a, b, d] = p;
        let x0 = a.0.min(b.0).min(d.0).floor().max(0.0);
        let x1 = a.0.max(b.0).max(d.0).ceil().min(self.w as f64);
        let y0 = a.1.min(b.1).min(d.1).floor().max(0.0);
        let y1 = a.1.max(b.1).max(d.1).ceil().min(self.h as f64);
        let edge =
            |p: (f64, f64), q: (f64, f64), x: f64, y: f64| (q.0 - p.0) * (y - p.1) - (q.1 - p.1) * (x - p.0);
        let area = edge(a, b, d.0, d.1);
        if area == 0.0 || x0 >= x1 || y0 >= y1 {
            return;
        }
        for y in y0 as i64..y1 as i64 {
            for x in x0 as i64..x1 as i64 {
                let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
                let (e0, e1, e2) = (edge(a, b, cx, cy), edge(b, d, cx, cy), edge(d, a, cx, cy));
                let inside = if area > 0.0 {
                    e0 >= 0.0 && e1 >= 0.0 && e2 >= 0.0
                } else {
                    e0 <= 0.0 && e1 <= 0.0 && e2 <= 0.0
                };
                if inside {
                    self.put(x, y, c);
                }
            }
        }
    }
}

/// A point (x, y).
type Point = (f64, f64);

/// The part of segment a–b inside the box (x0, y0, x1, y1) (Liang–Barsky), and how far along a–b it starts;
/// `None` when none of it is.
fn clip(a: Point, b: Point, (x0, y0, x1, y1): (f64, f64, f64, f64)) -> Option<(Point, Point, f64)> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.0 - x0), (dx, x1 - a.0), (-dy, a.1 - y0), (dy, y1 - a.1)] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    if t0 > t1 || !t0.is_finite() || !t1.is_finite() {
        return None;
    }
    let at = |t: f64| (a.0 + dx * t, a.1 + dy * t);
    Some((at(t0), at(t1), t0 * dx.hypot(dy)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(p: &Pixels, x: usize, y: usize) -> bool {
        p.buf[(y * p.w + x) * 4 + 3] == 255
    }

    #[test]
    fn lines_rects_and_triangles_land_where_they_should() {
        let mut buf = vec![0u8; 20 * 10 * 4];
        let mut p = Pixels {
            buf: &mut buf,
            w: 20,
            h: 10,
        };
        // A horizontal line, one pixel thick, far past both ends of the buffer: clipped, every pixel of its row.
        assert!(p.line((-1e9, 2.5), (1e9, 2.5), 1.0, None, [1, 2, 3]) <= 25);
        assert!((0..20).all(|x| lit(&p, x, 2)) && (0..20).all(|x| !lit(&p, x, 3)));
        // Dashed: 4 on, 3 off.
        p.line((0.5, 5.5), (14.5, 5.5), 1.0, Some((4.0, 3.0)), [1, 2, 3]);
        // Three pixels thick, steep: three across each row it passes.
        p.line((10.5, 0.0), (10.5, 1.9), 3.0, None, [4, 4, 4]);
        assert!((9..12).all(|x| lit(&p, x, 0) && lit(&p, x, 1)) && !lit(&p, 8, 0) && !lit(&p, 12, 0));
        let row: String = (0..15).map(|x| if lit(&p, x, 5) { '#' } else { '.' }).collect();
        assert_eq!(row, "####...####...#");
        p.rect(16.0, 7.0, 99.0, 99.0, [9, 9, 9]);
        assert!(lit(&p, 19, 9) && !lit(&p, 15, 9) && !lit(&p, 16, 6));
        p.triangle([(0.0, 7.0), (4.0, 7.0), (0.0, 10.0)], [5, 5, 5]);
        assert!(lit(&p, 0, 7) && lit(&p, 1, 8) && !lit(&p, 3, 9));
    }

    /// The bench's graph (bench/graph-layout-browser.mjs): 10,000 functions, 40,000 distinct calls on 60 levels,
    /// as a folded profile of `caller;callee W` lines, built and laid out as the engine does, then painted into
    /// pixels at 0.05 (all on screen), 0.2 and 0.8.
    /// `cargo test -p scorch-app --release --lib graph_paint_benchmark -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn graph_paint_benchmark() {
        use crate::render::graph::{on_screen, raster_into, GraphData, GraphGeom, GraphLook};
        let (n, m, levels) = (10_000usize, 40_000usize, 60usize);
        let mut x = 7u64;
        let mut next = |k: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % k.max(1) as u64) as usize
        };
        let per = n.div_ceil(levels);
        let pick = |l: usize, r: usize| ((l * per).min(n - 1) + r % per).min(n - 1);
        let mut seen = std::collections::HashSet::new();
        let mut text = String::new();
        let name = |i: usize| format!("{:x<w$}", format!("pkg{}.F{i}_", i % 97), w = 10 + i % 30);
        let mut add = |a: usize, b: usize, w: usize, text: &mut String| {
            if a != b && seen.insert((a, b)) {
                text.push_str(&format!("{};{} {}\n", name(a), name(b), 1 + w % 50));
            }
            seen.len()
        };
        for v in per..n {
            let (r, w) = (next(per), next(50));
            add(pick(v / per - 1, r), v, w, &mut text);
        }
        let mut count = 0;
        while count < m {
            let a = next(n);
            let down = (a / per + 1 + next(3)).min(levels - 1);
            let (r, w) = (next(per), next(50));
            count = add(a, pick(down, r), w, &mut text);
        }
        let imported = scorch_core::import_bytes(text.as_bytes(), Default::default()).unwrap();
        let view = scorch_core::ViewOptions::default_for(&imported.profile);
        let job = crate::worker::protocol::GraphJob {
            node_fraction: 0.0,
            edge_fraction: 0.0,
            node_count: 0,
            focus: None,
        };
        let t = std::time::Instant::now();
        let g = crate::worker::graph::compute(&imported.profile, &view, &job).unwrap();
        println!(
            "build and layout of {} nodes, {} edges: {:?} ({} points)",
            g.graph.nodes.len(),
            g.graph.edges.len(),
            t.elapsed(),
            g.layout.px.len()
        );
        let loaded = std::sync::Arc::new(crate::render::Loaded::new("bench".into(), imported));
        let t = std::time::Instant::now();
        let d = GraphData::new(loaded, view, job, g);
        println!("draw data: {:?}", t.elapsed());
        let look = GraphLook {
            scheme: Default::default(),
            dark: false,
            selected: None,
            cursor: None,
            hover: None,
            edges: true,
        };
        let (w, h) = (1280usize, 700usize);
        let mut buf = vec![0u8; w * h * 4];
        for scale in [0.05, 0.2, 0.8] {
            let geom = GraphGeom {
                width: w as f64,
                height: h as f64,
                tx: 10.0,
                ty: 10.0,
                scale,
            };
            let t = std::time::Instant::now();
            let on = on_screen(&d, &geom);
            let mut px = Pixels { buf: &mut buf, w, h };
            let left = raster_into(&mut px, &d, &geom, &look, (&on.0, &on.1), 1.0);
            println!(
                "scale {scale}: {} edges ({left} left out), {} boxes on screen, painted into pixels in {:?}",
                on.0.len(),
                on.1.len(),
                t.elapsed()
            );
        }
    }

    /// `cargo test -p scorch-app --release --lib raster_benchmark -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn raster_benchmark() {
        let (w, h) = (1280, 700);
        let mut buf = vec![0u8; w * h * 4];
        let t = std::time::Instant::now();
        let mut p = Pixels { buf: &mut buf, w, h };
        let mut x = 7u64;
        let mut next = |k: f64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 1_000_000) as f64 / 1e6 * k
        };
        for _ in 0..40_000 {
            let (mut ax, mut ay) = (next(1280.0), next(700.0));
            for _ in 0..8 {
                let (bx, by) = (ax + next(40.0) - 20.0, ay + next(8.0));
                p.line((ax, ay), (bx, by), 1.5, None, [1, 2, 3]);
                (ax, ay) = (bx, by);
            }
            p.triangle([(ax, ay), (ax - 3.0, ay - 6.0), (ax + 3.0, ay - 6.0)], [1, 2, 3]);
        }
        for _ in 0..10_000 {
            let (a, b) = (next(1280.0), next(700.0));
            p.rect(a, b, a + 13.0, b + 4.0, [4, 5, 6]);
            p.frame(a, b, a + 13.0, b + 4.0, 1.0, [7, 8, 9]);
        }
        println!("40,000 edges of 8 segments and 10,000 boxes: {:?}", t.elapsed());
    }
}
