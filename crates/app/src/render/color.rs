//! Colours: the palettes (name hash, module, kind, self time, diff) and the scheme the user picks. They live in
//! the core (`scorch_core::view::color`) so that the CLI's SVG export colours frames as the app does.

pub use scorch_core::view::color::*;
