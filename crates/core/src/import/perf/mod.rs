//! `perf script` text: event header lines, each followed by its call chain (leaf first), samples separated by
//! blank lines.
//!
//! What scorch keeps per sample: the stack, the exact integer-nanosecond timestamp, comm, pid, tid, cpu, the
//! event (as perf prints it, modifiers included: `cpu-clock:u`) and the period (the weight; 1 when perf printed none). See docs/FORMATS.md.
//!
//! Two namings share one reader: scorch's own (kinds as attributes, the process as a pseudo root chosen when
//! the call tree is built) and inferno's (`--compat inferno`: `_[k]`/`_[j]`/`_[i]` suffixes and the process
//! name baked into the stack, exactly as `inferno-collapse-perf` 0.12.8 writes them).

//!
//! Files: `header.rs` (event header lines), `frame.rs` (frame lines), `names.rs` (frame naming),
//! `parser.rs` (the reader), `sched.rs` (off-CPU time derived from scheduler events), `sniff.rs` (whether an input is perf script). Kernel and JIT dsos are told apart by
//! `crate::import::kind`, shared with pprof.

mod frame;
mod header;
mod marks;
mod names;
mod parser;
pub mod sched;
mod sniff;
#[cfg(test)]
mod tests;

pub use parser::PerfParser;
pub(crate) use parser::{complete, PerfPart};
pub use sched::derive_offcpu;
pub use sniff::PerfFormat;

/// An event's name without perf's modifiers: `cycles` for `cycles:uppp`, `cpu-clock` for `cpu-clock:u`; a
/// tracepoint (`sched:sched_switch`) or a name without modifiers is returned whole.
pub fn event_base(name: &str) -> &str {
    let base = header::base_name(name.as_bytes());
    name.get(..base.len()).unwrap_or(name)
}

/// How frames and roots are named.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Naming {
    /// scorch's conventions: kinds are attributes, the process root is chosen later.
    #[default]
    Scorch,
    /// `inferno-collapse-perf` with these flags.
    Inferno(InfernoFlags),
}

/// The `inferno-collapse-perf` flags that change names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InfernoFlags {
    pub pid: bool,
    pub tid: bool,
    pub kernel: bool,
    pub jit: bool,
    pub addrs: bool,
}

/// Options for the perf script importer.
#[derive(Debug, Clone, Default)]
pub struct PerfOptions {
    /// Longest accepted line in bytes. Default is 64 MiB (set by the loader).
    pub max_line: usize,
    /// Default is [`Naming::Scorch`].
    pub naming: Naming,
    /// How many warnings are kept with their text (all are counted). Default is `None`:
    /// [`crate::model::Warnings::KEEP`].
    pub keep_warnings: Option<usize>,
}
