//! perf.data, the recording `perf record` writes: read directly, no `perf script` step.
//!
//! What scorch keeps per sample is what the perf script importer keeps (`crate::import::perf`): the stack
//! (leaf first in the callchain, kernel and user parts as the `PERF_CONTEXT_*` markers say), the timestamp in
//! ns, the thread (pid, tid and the comm it had at that moment, from COMM and FORK records), the CPU, the
//! event (named by the `EVENT_DESC` feature, pipe mode's `EVENT_UPDATE`, or perf's name of its type and
//! config) and the period as the weight. Lost events come from `PERF_RECORD_LOST` (else `LOST_SAMPLES`), as
//! the perf script importer counts them.
//!
//! No symbols in the core (it does no I/O): a user-space address is named `MODULE+0xOFFSET` (the mapping's
//! basename and the file offset, `ip − start + pgoff`, the address `perf script` prints for a frame), a kernel
//! address `[kernel.kallsyms]+0xADDRESS` (the address itself, as `/proc/kallsyms` lists them), an address in
//! no mapping `[unknown]` (counted). The binaries frames point into are listed with their build ids in the
//! profile's facts; [`symbols`] renames the frames through a [`Symbolizer`] that whoever can read the
//! binaries provides (the CLI does).
//!
//! The whole input is held (capped by `max_whole_input_bytes`): a file's feature sections (event names,
//! build ids) follow its data. It is read in two passes over the records: one checks their framing and notes
//! their times, the second replays them in time order (perf's ordered-events queue).
//!
//! Files: `sniff.rs` (the magic), `bytes.rs` (bounds-checked fields of either byte order), `header.rs` (file
//! header, attributes, feature sections), `maps.rs` (mappings per process), `record.rs` (record types, a
//! sample's fields), `parser.rs` (the reader: the header, the records' framing and time order), `replay.rs`
//! (the records replayed in that order into the profile: mappings, threads, frames, stacks), `tracing.rs`
//! (`sched:sched_switch` payloads into the labels off-CPU time is derived from), `symbols.rs` (renaming frames
//! through a symbolizer).

mod bytes;
pub mod demangle;
pub mod elf;
mod header;
mod maps;
mod parser;
mod record;
mod replay;
mod sniff;
pub mod symbols;
#[cfg(test)]
mod tests;
mod tracing;

pub use parser::{read, PerfDataParser};
pub use sniff::PerfDataFormat;
pub use symbols::{binaries, expand_inlined, recorded_kernel, symbolize, Binary, RecordedKernel, Symbolizer};

/// The key of the profile's facts (`Meta::info`) that lists a binary frames point into: `PATH` or
/// `PATH (build id HEX)`.
pub const BINARY_INFO: &str = "binary";
/// The module kernel addresses are named after.
pub const KERNEL_MODULE: &str = "[kernel.kallsyms]";
/// The key of the profile's facts that says where the recording's kernel was loaded: `SYMBOL 0xADDRESS`, the
/// symbol (`_text` or `_stext`) of its `[kernel.kallsyms]` MMAP record and the address it had (the record's
/// `pgoff`), to compare with that symbol's address in the kallsyms of the machine that symbolizes.
pub const KERNEL_TEXT_INFO: &str = "kernel text";
/// The key of the profile's facts that says the `sched:sched_switch` payloads were read through the kernel's
/// layout since 4.14, assumed: the recording has no format text for them (no tracing data).
pub const SCHED_SWITCH_INFO: &str = "sched_switch";
/// The key of the profile's facts with the recording machine's kernel release (the `OSRELEASE` feature).
pub const OS_RELEASE_INFO: &str = "os release";

/// Options for the perf.data importer.
#[derive(Debug, Clone)]
pub struct PerfDataOptions {
    /// Largest recording held whole, in bytes (the loader sets `max_whole_input_bytes`).
    pub max_bytes: usize,
    /// How many warnings are kept with their text (all are counted). Default is `None`:
    /// [`crate::model::Warnings::KEEP`].
    pub keep_warnings: Option<usize>,
}

impl Default for PerfDataOptions {
    fn default() -> Self {
        PerfDataOptions {
            max_bytes: 1 << 30,
            keep_warnings: None,
        }
    }
}
