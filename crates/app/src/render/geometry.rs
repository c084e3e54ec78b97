//! Coordinate spaces: *unit* (x in [0,1] of the root total, y = depth), *CSS px* (what events report),
//! *device px* (the canvas backing store, CSS px × devicePixelRatio). One transform, [`Geometry`], goes
//! between unit and CSS px; the context is scaled once by the DPR so drawing uses CSS px.

use super::data::FlameData;
use scorch_core::view::calltree::NodeId;

/// Height of one frame row in CSS px.
pub const ROW_H: f64 = 18.0;

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
        let (vx0, vx1) = d.zoom_range(zoom);
        let (vx0, vx1) = if vx1 > vx0 { (vx0, vx1) } else { (0.0, 1.0) };
        let height = (d.depths as f64 * ROW_H).max(min_height.floor());
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

    /// The rows (partly) on the canvas, of a graph of `depths` rows.
    pub fn visible_rows(&self, depths: usize) -> std::ops::Range<usize> {
        // Rows are ROW_H apart: the first and last on screen from the window's top and bottom.
        let (a, b) = match self.orientation {
            Orientation::Flame => (
                (self.height - self.view_top - self.view_h) / ROW_H,
                (self.height - self.view_top) / ROW_H,
            ),
            Orientation::Icicle => (self.view_top / ROW_H, (self.view_top + self.view_h) / ROW_H),
        };
        let first = (a.floor().max(0.0) as usize).saturating_sub(1);
        let last = (b.ceil().max(0.0) as usize + 1).min(depths);
        // Widened by a row each way above, then trimmed to the rows that really show.
        let first = (first..last).find(|&r| self.row_visible(r)).unwrap_or(last);
        let end = (first..last)
            .rev()
            .find(|&r| self.row_visible(r))
            .map_or(first, |r| r + 1);
        first..end
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
    scorch_core::view::window::node_at(&d.tree, zoom, g.unit_x(px), depth)
}

pub(crate) fn ancestor_at(d: &FlameData, zoom: NodeId, depth: usize) -> Option<NodeId> {
    d.tree.ancestor_at(zoom, u32::try_from(depth).ok()?)
}
