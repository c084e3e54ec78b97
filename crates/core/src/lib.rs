//! scorch-core: the profile model, importers, call trees and flame layout.
//!
//! Architecture invariant: this crate knows nothing of wasm, the DOM or Leptos and does no I/O.
//! Input is bytes (fed in chunks of any size), output is plain data. It never panics on input:
//! every malformed input becomes an [`ImportError`] or a counted [`Warning`].
//!
//! Layers, lowest first; each imports only the layers before it, never one above:
//! - [`model`]: the profile, its tables and builder, [`Format`], [`FrameKind`], errors, warnings, units;
//! - [`import`]: bytes to a profile (the loader, the importer trait and the formats); uses `model`;
//! - [`view`]: sample selection, the call tree, the flame layout; uses `model`;
//! - [`analysis`]: per-function numbers, search, transforms, sandwich, diff, heatmap; uses `view`, `model`;
//! - [`export`]: folded text, links, the worker's wire format; uses `analysis`, `view`, `model`.
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
pub use model::{Format, ImportError, ImportErrorKind, Unit, Warning, Warnings, Weight};
pub use model::{FrameId, FrameKind, Profile, StackId, StrId};
pub use view::{CallTree, FlameLayout, NodeId, TreeColumns};
pub use view::{RootMode, ViewOptions, WeightMode};

// compat: old paths, removed when app and cli move to the new ones
pub use analysis::{heatmap, top};
pub use export::links as share;
pub use import::{folded, perf, pprof};
pub use model::{error, units};
pub use view::{calltree, layout};
/// compat: `Format` and sniffing were one module.
pub mod format {
    pub use crate::import::{sniff, Sniff, SNIFF_WINDOW};
    pub use crate::model::format::*;
}
/// compat: the diff engine and its folded output were one module.
pub mod diff {
    pub use crate::analysis::diff::*;
    pub use crate::export::folded::diff_folded;
}
/// compat: search, transforms, the sandwich and the function table were one module.
pub mod explore {
    pub use crate::analysis::functions::{functions, FunctionRow};
    pub use crate::analysis::sandwich::*;
    pub use crate::analysis::search::*;
    pub use crate::analysis::transforms::*;
}
/// compat: `wire::encode` and `wire::decode` returned their errors as text.
pub mod wire {
    pub use crate::export::wire::{put_columns, take_columns, WireError};

    /// [`crate::export::wire::encode`], its error as text.
    pub fn encode(imported: &crate::model::Imported) -> Result<Vec<u8>, String> {
        crate::export::wire::encode(imported).map_err(|e| e.to_string())
    }

    /// [`crate::export::wire::decode`], its error as text.
    pub fn decode(bytes: &[u8]) -> Result<crate::model::Imported, String> {
        crate::export::wire::decode(bytes).map_err(|e| e.to_string())
    }
}
// end compat
