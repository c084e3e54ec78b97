//! scorch-core: the profile model, importers, call trees and flame layout.
//!
//! Architecture invariant: this crate knows nothing of wasm, the DOM or Leptos and does no I/O.
//! Input is bytes (fed in chunks of any size), output is plain data. It never panics on input:
//! every malformed input becomes an [`ImportError`] or a counted [`Warning`].
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::unreachable,
        clippy::indexing_slicing
    )
)]

pub mod calltree;
pub mod diff;
pub mod explore;
pub mod export;
pub mod heatmap;
pub mod import;
pub mod layout;
pub mod model;
pub mod share;
pub mod top;
pub mod view;
pub mod wire;

pub use calltree::{CallTree, NodeId, TreeColumns};
pub use import::{import_bytes, sniff, ImportOptions, Imported, Loader, Sniff};
pub use layout::FlameLayout;
pub use model::{Format, ImportError, ImportErrorKind, Unit, Warning, Warnings, Weight};
pub use model::{FrameId, FrameKind, Profile, StackId, StrId};
pub use view::{RootMode, ViewOptions, WeightMode};

// compat: old paths, removed when app and cli move to the new ones
pub use import::{folded, perf, pprof};
pub use model::{error, units};
/// compat: `Format` and sniffing were one module.
pub mod format {
    pub use crate::import::{sniff, Sniff, SNIFF_WINDOW};
    pub use crate::model::format::*;
}
