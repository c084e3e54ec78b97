//! The view layer: which samples a view shows and how they weigh ([`ViewOptions`]), the merged call tree
//! ([`CallTree`]) and the flame layout ([`FlameLayout`]). Depends only on `crate::model`.

pub mod calltree;
pub mod color;
pub mod layout;
mod options;

pub use calltree::{CallTree, NodeId, Order, TreeColumns, ROOT_FRAME};
pub use layout::FlameLayout;
pub use options::{
    band_span_ns, keyed_weights, label_key, label_keys, parse_offsets_ms, takes_declared_unit, LabelFilter,
    LabelMatch, RootMode, ViewOptions, WeightMode, NO_ROOT,
};
