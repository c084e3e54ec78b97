//! A flame pane: what one flame graph on the page needs — its data, zoom, hover and size.

use crate::render::{FlameData, Geometry, Orientation};
use leptos::prelude::*;
use scorch_core::view::calltree::NodeId;
use std::sync::Arc;

/// The frame under the mouse, and where the mouse is (for the tooltip).
#[derive(Clone, Copy, PartialEq)]
pub struct Hover {
    pub node: NodeId,
    pub client_x: f64,
    pub client_y: f64,
}

/// Which pane: the main graph, or a side of the sandwich.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PaneId {
    Main,
    Callers,
    Callees,
}

impl PaneId {
    pub const ALL: [PaneId; 3] = [PaneId::Main, PaneId::Callers, PaneId::Callees];
    pub fn name(self) -> &'static str {
        match self {
            PaneId::Main => "main",
            PaneId::Callers => "callers",
            PaneId::Callees => "callees",
        }
    }
}

/// One flame graph on the page: its own data, zoom, hover and size.
#[derive(Clone, Copy)]
pub struct Pane {
    pub id: PaneId,
    pub data: RwSignal<Option<Arc<FlameData>>>,
    /// Zoom history; the last entry is the current zoom, empty means the whole profile.
    pub zoom: RwSignal<Vec<NodeId>>,
    pub hover: RwSignal<Option<Hover>>,
    /// The keyboard's frame (arrows move it, Enter zooms to it, Space selects its function): drawn with a focus
    /// ring while the canvas has the focus, announced to screen readers. Distinct from the selected function.
    pub focus: RwSignal<Option<NodeId>>,
    /// Graphs shown so far ([`Pane::show`]; the canvas's `data-shown`): tests wait for a graph built in steps.
    pub shows: RwSignal<u64>,
    /// Width of the graph and height of its visible area in CSS px, and how far it is scrolled.
    pub width: RwSignal<f64>,
    pub height: RwSignal<f64>,
    pub scroll_top: RwSignal<f64>,
    /// A fixed orientation (the sandwich: callers grow up from the function, callees down); `None` follows the
    /// page's flame/icicle switch.
    pub fixed: Option<Orientation>,
}

impl Pane {
    fn new(id: PaneId, height: f64, fixed: Option<Orientation>) -> Pane {
        Pane {
            id,
            data: RwSignal::new(None),
            zoom: RwSignal::new(Vec::new()),
            hover: RwSignal::new(None),
            focus: RwSignal::new(None),
            shows: RwSignal::new(0),
            width: RwSignal::new(800.0),
            height: RwSignal::new(height),
            scroll_top: RwSignal::new(0.0),
            fixed,
        }
    }

    pub fn current_zoom(&self) -> NodeId {
        self.zoom.with(|z| z.last().copied().unwrap_or(NodeId::ROOT))
    }

    /// This pane's orientation when the page's switch says `page`.
    pub fn orientation(&self, page: Orientation) -> Orientation {
        self.fixed.unwrap_or(page)
    }

    /// The transform between the graph's unit space and CSS px now, the page's switch saying `page`.
    pub fn geometry(&self, data: &FlameData, page: Orientation) -> Geometry {
        Geometry::new(
            data,
            self.current_zoom(),
            self.width.get_untracked(),
            self.height.get_untracked(),
            self.scroll_top.get_untracked(),
            self.orientation(page),
        )
    }

    /// A fresh graph: shown whole, nothing hovered.
    pub fn show(&self, data: Option<Arc<FlameData>>) {
        self.zoom.set(Vec::new());
        self.hover.set(None);
        self.focus.set(None);
        self.data.set(data);
        self.shows.update(|n| *n += 1);
    }
}

/// The panes on the page.
#[derive(Clone, Copy)]
pub struct Panes {
    /// The call tree (or the inverted tree, or the diff) of the shown profile.
    pub main: Pane,
    pub callers: Pane,
    pub callees: Pane,
}

impl Default for Panes {
    fn default() -> Panes {
        Panes {
            main: Pane::new(PaneId::Main, 400.0, None),
            callers: Pane::new(PaneId::Callers, 300.0, Some(Orientation::Flame)),
            callees: Pane::new(PaneId::Callees, 300.0, Some(Orientation::Icicle)),
        }
    }
}

impl Panes {
    pub fn get(&self, id: PaneId) -> Pane {
        match id {
            PaneId::Main => self.main,
            PaneId::Callers => self.callers,
            PaneId::Callees => self.callees,
        }
    }
}
