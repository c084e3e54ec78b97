//! V8's CPU profiles: the `.cpuprofile` file (`node --cpu-prof`, DevTools' "Save profile") and Chrome/Edge trace
//! JSON (the DevTools Performance panel, `chrome://tracing`, CDP tracing), whose `Profile`/`ProfileChunk` events
//! carry the same profile in pieces. Both share the node model and the sample rules (`nodes.rs`), so they live in
//! one folder; the JSON plumbing (sniffing keys, cutting records out of a stream, typed parsing with paths) is
//! `import/json.rs`, below every format.
//!
//! - A frame is `callFrame.functionName`, `(anonymous)` when empty; `(root)` is not a frame; `(program)`,
//!   `(idle)` and `(garbage collector)` are frames of their own. A name standing for several locations gets
//!   its location: `NAME (URL:LINE)`.
//! - Sample `i` is at `startTime + Σ timeDeltas[..=i]` (µs, kept exactly as ns) and weighs the time to the next
//!   sample (the last one: to `endTime`), as DevTools and speedscope do.
//! - A trace's profiles are threads, one per (pid, tid) of their `Profile` event, named by the `thread_name` /
//!   `process_name` metadata; every other event is skipped without being built.
//!
//! - V8's sampling heap profile (`.heapprofile`, `node --heap-prof`) is the third: the same call frames and
//!   naming, in a tree of nested nodes with a size each (`heapprofile.rs`).
//!
//! Files: `nodes.rs` (shared), `cpuprofile.rs`, `trace.rs`, `heapprofile.rs`, `sniff.rs` (whether an input is
//! one of them).

mod cpuprofile;
mod heapprofile;
mod marks;
mod nodes;
mod sniff;
mod trace;

pub use cpuprofile::CpuProfileParser;
pub use heapprofile::HeapProfileParser;
pub use sniff::{ChromeTraceFormat, CpuProfileFormat, HeapProfileFormat};
pub use trace::TraceParser;

use crate::model::{Format, ImportError, ImportErrorKind};

/// Options for the V8 importers (the heap profile's too).
#[derive(Debug, Clone)]
pub struct V8Options {
    /// Largest `.cpuprofile` (held whole to parse) and largest single trace event, in bytes. Default is 1 GiB.
    pub max_bytes: usize,
}

impl Default for V8Options {
    fn default() -> Self {
        V8Options { max_bytes: 1 << 30 }
    }
}

/// An error of either V8 format; the format is set by the caller through [`with_format`].
pub(super) fn err(kind: ImportErrorKind, offset: u64, msg: impl Into<String>) -> ImportError {
    ImportError::new(Some(Format::V8CpuProfile), kind, offset, None, msg)
}

/// Names the format an error came from.
fn with_format(mut e: ImportError, format: Format) -> ImportError {
    e.format = Some(format);
    e
}
