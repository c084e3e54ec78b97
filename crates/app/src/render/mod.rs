//! Everything drawn on a canvas.
//!
//! - [`canvas`]: the one device-pixel canvas primitive (DPR sizing, resize observation, redraw scheduling);
//! - [`data`]: a loaded profile and one view of it (tree, layout, diff), what the flame canvases paint from;
//! - [`color`], [`geometry`], [`draw`]: palettes, unit ↔ CSS px, and drawing a flame graph;
//! - [`flame`], [`heatmap`]: each chart's paint, given its state.
//!
//! Dependencies flow canvas ← flame/heatmap → draw → geometry → data → color; nothing here reads a context.

pub mod canvas;
pub mod chart;
pub mod color;
pub mod data;
pub mod draw;
pub mod flame;
pub mod geometry;
pub mod graph;
pub mod graph_raster;
pub mod graph_svg;
pub mod heatmap;
pub mod per_graph;
pub mod warm;
pub mod weigh;

pub use color::ColorScheme;
pub use data::{DiffData, FlameData, Loaded};
pub use geometry::{Geometry, Orientation, ROW_H};
