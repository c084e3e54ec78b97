//! scorch-core: the profile model, importers, call trees and flame layout.
//!
//! Architecture invariant: this crate knows nothing of wasm, the DOM or Leptos and does no I/O.
//! Input is bytes (fed in chunks of any size), output is plain data. It never panics on input:
//! every malformed input becomes an [`ImportError`] or a counted [`Warning`].
//!
//! Layers, lowest first; each imports only the layers before it, never one above:
//! - [`model`]: the profile, its tables and builder, [`Format`], [`FrameKind`], errors, warnings, units, the
//!   transport codec (`model::wire`, the worker's wire format);
//! - [`import`]: bytes to a profile (the loader, the importer trait and the formats); uses `model`;
//! - [`view`]: sample selection, the call tree, the flame layout; uses `model`;
//! - [`analysis`]: per-function numbers, search, transforms, sandwich, diff, heatmap; uses `view`, `model`;
//! - [`export`]: folded text, links, SVG, pprof, HTML; uses `analysis`, `view`, `model`.
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

pub mod analysis;
pub mod export;
pub mod import;
pub mod model;
pub mod view;

pub use import::{import_bytes, sniff, ImportOptions, Imported, Loader, Sniff};
pub use model::{Format, ImportError, ImportErrorKind, Unit, Warning, WarningKind, Warnings, Weight};
pub use model::{FrameId, FrameKind, Profile, StackId, StrId};
pub use view::{CallTree, FlameLayout, NodeId, TreeColumns};
pub use view::{RootMode, ViewOptions, WeightMode};
