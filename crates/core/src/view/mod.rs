//! The view layer: which samples a view shows and how they weigh ([`ViewOptions`]), the merged call tree
//! ([`CallTree`]) and the flame layout ([`FlameLayout`]); notes that travel with a view in links ([`notes`]).
//! Depends only on `crate::model`.

pub mod calltree;
pub mod chart;
pub mod color;
pub mod cut;
pub mod granularity;
pub mod layout;
pub mod notes;
mod options;
pub mod window;

pub use calltree::{CallTree, NodeId, Order, Rebuild, TreeColumns, ROOT_FRAME};
pub use chart::{ChartRow, Lane, StackChart, MAX_LANES};
pub use granularity::Granularity;
pub use layout::FlameLayout;
pub use options::{
    band_span_ns, has_threads, keyed_weights, label_key, label_keys, parse_offsets_ms, takes_declared_unit,
    thread_filter, LabelFilter, LabelMatch, RootMode, SampleFilter, ThreadSet, ViewOptions, WeightMode,
    NO_ROOT, THREAD_KEYS,
};
