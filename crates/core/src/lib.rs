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
pub mod error;
pub mod explore;
pub mod export;
pub mod folded;
pub mod format;
pub mod heatmap;
pub mod import;
pub mod layout;
mod lines;
pub mod model;
pub mod perf;
pub mod pprof;
pub mod share;
pub mod top;
pub mod units;
pub mod view;
pub mod wire;

pub use calltree::{CallTree, NodeId, TreeColumns};
pub use error::{ImportError, ImportErrorKind, Warning, Warnings};
pub use format::{sniff, Format, Sniff};
pub use import::{import_bytes, ImportOptions, Imported, Loader};
pub use layout::FlameLayout;
pub use model::{FrameId, FrameKind, Profile, StackId, StrId};
pub use units::{Unit, Weight};
pub use view::{RootMode, ViewOptions, WeightMode};
