//! Deciding the format of an input from its content (never from the file name): the dispatcher asks each
//! importer in turn whether the input is its own.

use super::bpftrace::BpftraceFormat;
use super::folded::FoldedFormat;
use super::gecko::GeckoFormat;
use super::importer::{Applicable, Importer};
use super::perf::PerfFormat;
use super::pprof::PprofFormat;
use super::speedscope::SpeedscopeFormat;
use super::v8::{ChromeTraceFormat, CpuProfileFormat};
use crate::model::Format;

/// The importers, in the order they are asked: binary first (text never starts with a valid run of
/// profile.proto fields), then the JSON formats (a `{` or `[` with their keys; speedscope and Gecko first, since
/// they answer no at once on another JSON format's keys while the V8 formats wait for theirs), then bpftrace's `@[` blocks,
/// then perf script, then folded (whose lines are the least distinctive).
static IMPORTERS: [&dyn Importer; 8] = [
    &PprofFormat,
    &SpeedscopeFormat,
    &GeckoFormat,
    &CpuProfileFormat,
    &ChromeTraceFormat,
    &BpftraceFormat,
    &PerfFormat,
    &FoldedFormat,
];

/// The formats the dispatcher tries, in order: every format scorch reads.
pub fn formats() -> Vec<Format> {
    IMPORTERS.iter().map(|i| i.format()).collect()
}

/// The names of the formats the dispatcher tries, in order (for the error that none matched).
pub fn tried() -> Vec<&'static str> {
    formats().into_iter().map(Format::name).collect()
}

/// The answer of the dispatcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniff {
    Yes(Format),
    /// Not enough input yet to decide; feed more (or call with `at_end = true`).
    NeedMore,
    No,
}

/// Decides the format of decompressed input from its first bytes.
///
/// A format's own signature settles it first; then each importer is asked in turn, and the first that says
/// yes (or that needs more input to say) decides. `at_end` says that `prefix` is the whole input.
pub fn sniff(prefix: &[u8], at_end: bool) -> Sniff {
    if let Some(i) = IMPORTERS.iter().find(|i| i.is_signed(prefix)) {
        return Sniff::Yes(i.format());
    }
    for i in IMPORTERS {
        match i.is_applicable(prefix, at_end) {
            Applicable::Yes => return Sniff::Yes(i.format()),
            Applicable::NeedMore => return Sniff::NeedMore,
            Applicable::No => {}
        }
    }
    Sniff::No
}
