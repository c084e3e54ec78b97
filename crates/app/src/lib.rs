//! scorch's viewer: a Leptos client-side app whose page shell is components and whose charts are canvases.
//!
//! Architecture invariant: this crate only renders and handles events. Parsing, trees and layout are
//! scorch-core's; no profile text is ever inserted as HTML (names reach the DOM as text nodes and the
//! canvas through `fillText`).
//!
//! Layers, each depending only on those below it:
//!
//! - [`components`]: one component per file, and the app shell that lays them out;
//! - [`state`]: the state slices (each its own context) and the operations that span them;
//! - [`url`]: the link format (every fragment key, typed and versioned);
//! - [`render`]: canvases — the device-pixel primitive, the flame graph and heatmap paints, colours;
//! - [`worker`]: importing in a worker (both sides, and their protocol);
//! - `testing` (feature `testing` only): test and benchmark hooks.

pub mod components;
pub mod render;
pub mod state;
#[cfg(feature = "testing")]
mod testing;
pub mod url;
pub mod worker;

pub use components::app::App;
