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
//! - [`seams`]: the ground floor where product code reports what the test hooks need (no-ops in the product);
//!
//! and beside them `testing` (feature `testing` only): the test and benchmark hooks, which install themselves
//! into [`seams`] (`install_test_hooks`); no other module names it.

pub mod components;
pub mod render;
pub mod seams;
pub mod state;
#[cfg(feature = "testing")]
mod testing;
pub mod url;
pub mod worker;

pub use components::app::App;

/// Installs the test and benchmark hooks into [`seams`] (feature `testing` only): `main` calls it first, on
/// the page and in every worker.
#[cfg(feature = "testing")]
pub fn install_test_hooks() {
    testing::install();
}
