//! How the open profile is shown: view options, orientation, view mode, order, colours.

use crate::render::{ColorScheme, Orientation};
use leptos::prelude::*;
use scorch_core::analysis::functions::FunctionRow;
use scorch_core::view::calltree::Order;
use scorch_core::ViewOptions;
use std::sync::Arc;

/// What the main area shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// The call tree, root first.
    Flame,
    /// Bottom-up: leaf functions merged at the root, their callers above.
    Inverted,
    /// A selected function's callers above and callees below, with the function table.
    Sandwich,
    /// The function table.
    Functions,
    /// The call tree as an expandable table (`components::call_tree`).
    CallTree,
    /// The stack chart: every sample's stack in time order.
    Chart,
    /// The call graph: a node per function, an edge per call (pprof's graph view; `components::call_graph`).
    Graph,
}

impl Mode {
    pub const ALL: [Mode; 7] = [
        Mode::Flame,
        Mode::Inverted,
        Mode::Sandwich,
        Mode::Functions,
        Mode::CallTree,
        Mode::Chart,
        Mode::Graph,
    ];
    pub fn label(self) -> &'static str {
        match self {
            Mode::Flame => "Flame graph",
            Mode::Inverted => "Inverted",
            Mode::Sandwich => "Sandwich",
            Mode::Functions => "Functions",
            Mode::CallTree => "Call tree",
            Mode::Chart => "Stack chart",
            Mode::Graph => "Call graph",
        }
    }
}

/// The function table of the shown profile: rows, the view's total weight and sample count.
pub type FnTable = (Vec<FunctionRow>, u64, u64);

#[derive(Clone, Copy)]
pub struct ViewState {
    /// Which samples are shown and how they weigh.
    pub options: RwSignal<ViewOptions>,
    /// The label filter as typed (`options` holds it resolved).
    pub label_text: RwSignal<String>,
    pub orientation: RwSignal<Orientation>,
    pub mode: RwSignal<Mode>,
    pub order: RwSignal<Order>,
    pub scheme: RwSignal<ColorScheme>,
    /// The function table (functions and sandwich modes).
    pub fn_table: RwSignal<Option<Arc<FnTable>>>,
    /// The last function table asked for could not be built (the error is shown); the table offers to try again.
    pub fn_table_failed: RwSignal<bool>,
    /// The call-tree table shows the inverted (bottom-up) tree, the one the inverted flame graph shows.
    pub tree_inverted: RwSignal<bool>,
    /// The stack chart's time window (ns, the profile's clock; `None`: the whole chart).
    pub chart_window: RwSignal<Option<(u64, u64)>>,
    /// The call graph's focus (pprof's `-focus`: a regular expression; the app sets one matching a function
    /// exactly), `None`: the whole view.
    pub graph_focus: RwSignal<Option<String>>,
    /// The call graph's pruning (pprof's `-nodefraction`, `-edgefraction`, `-nodecount`).
    pub graph_prune: RwSignal<crate::render::graph::GraphPrune>,
    /// Notes on the view, a function or a time range (`note=`; plain text, capped by the core).
    pub notes: RwSignal<Vec<scorch_core::view::notes::Note>>,
    /// What the link's notes left out or cut (shown in the page's message area).
    pub note_messages: RwSignal<Vec<String>>,
}

impl Default for ViewState {
    fn default() -> ViewState {
        ViewState {
            options: RwSignal::new(ViewOptions::default()),
            label_text: RwSignal::new(String::new()),
            orientation: RwSignal::new(Orientation::Flame),
            mode: RwSignal::new(Mode::Flame),
            order: RwSignal::new(Order::Alphabetical),
            scheme: RwSignal::new(ColorScheme::Name),
            fn_table: RwSignal::new(None),
            fn_table_failed: RwSignal::new(false),
            tree_inverted: RwSignal::new(false),
            chart_window: RwSignal::new(None),
            graph_focus: RwSignal::new(None),
            graph_prune: RwSignal::new(crate::render::graph::GraphPrune::default()),
            notes: RwSignal::new(Vec::new()),
            note_messages: RwSignal::new(Vec::new()),
        }
    }
}

impl ViewState {
    pub fn toggle_orientation(&self) {
        self.orientation.update(|o| {
            *o = match o {
                Orientation::Flame => Orientation::Icicle,
                Orientation::Icicle => Orientation::Flame,
            }
        });
    }
}
