//! The import layer: bytes in, a [`Profile`](crate::model::Profile) out. Depends only on `crate::model`.
//!
//! Inside, dependencies flow one way too: the shared pieces (`importer.rs`: the trait every format answers,
//! `lines.rs`: line splitting, `kind.rs`: frame kinds several formats derive, `json.rs`: JSON
//! sniffing, streaming and typed parsing, `graph.rs`: a call graph turned into stacks) sit below the formats
//! (`folded/`, `perf/`, `perfdata/`, `pprof/`, `v8/`, `speedscope/`, `gecko/`, `bpftrace/`, `callgrind/`, `cprofile/`, `dhat/`, `jfr/`), which sit below the dispatcher (`sniff.rs`) and the streaming
//! [`Loader`] (`loader.rs`). No format imports another format or the dispatcher.

pub mod bpftrace;
pub mod callgrind;
pub mod cprofile;
pub mod dhat;
pub mod event;
pub mod folded;
pub mod gecko;
pub(crate) mod graph;
pub mod importer;
pub mod jfr;
pub(crate) mod json;
mod kind;
pub(crate) mod lines;
mod loader;
pub mod many;
mod options;
pub mod perf;
pub mod perfdata;
pub mod pprof;
mod sniff;
pub mod speedscope;
pub mod split;
pub(crate) mod symname;
pub mod v8;

pub use crate::model::Imported;
pub use importer::{Applicable, Importer, SNIFF_WINDOW};
pub use loader::{import_bytes, Loader};
pub use options::ImportOptions;
pub use sniff::{formats, sniff, Sniff};

/// Control characters as `\xNN`, so names are always safe to show (the
/// importers whose names are text; pprof's reader has its own, over bytes).
pub(crate) fn safe_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}
