//! The export layer: a profile or a view written out. Depends on `crate::analysis`, `crate::view` and
//! `crate::model`; nothing depends on it.
//!
//! - `dot.rs`: a call graph as Graphviz DOT (what `go tool pprof -dot` writes);
//! - `folded.rs`: the canonical folded text, and inferno-diff-folded output of a diff;
//! - `svg.rs`: an SVG flame graph of a view (the app's picture, with titles, heading and legend);
//! - `pprof.rs`: a view as gzip'd `profile.proto`;
//! - `links.rs`: a view carried in a link (deflated folded text, base64url);
//! - `scrub.rs`: a profile scrubbed before it is shared (paths, user names, header, labels, threads, times);
//! - `report.rs`: what a shared payload carries (the preview before it leaves).
//!
//! (The worker's wire format, a transport codec, is [`crate::model::wire`].)

pub mod dot;
pub mod folded;
pub mod html;
pub mod links;
pub mod pprof;
pub mod report;
pub mod scrub;
pub mod svg;

pub use folded::{
    diff_folded, fold_view, fold_view_lines, folded_entries, folded_name, to_folded, to_folded_lines,
    to_folded_signed, to_folded_signed_lines, to_folded_view, to_folded_view_lines,
};
