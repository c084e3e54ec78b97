//! The options of one import (limits, perf naming), below the dispatcher and the loader: the registry
//! ([`super::sniff`]) makes each format's parser from them.

use super::perf::Naming;

/// Limits and options for one import.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// Largest accepted decompressed input in bytes. Default is 16 GiB (the browser's own limits come first).
    pub max_decompressed: u64,
    /// Longest accepted line in line-oriented formats. Default is 64 MiB.
    pub max_line: usize,
    /// How perf frames are named. Default is scorch's own naming.
    pub perf_naming: Naming,
    /// Largest input held whole to decode — a pprof message, a `.cpuprofile`, a speedscope file, a Firefox
    /// Profiler profile — and largest single Chrome trace event. Default is 1 GiB.
    pub max_whole_input_bytes: usize,
    /// How many warnings are kept with their text (all are counted, and the first of each kind is kept).
    /// Default is [`crate::model::Warnings::KEEP`]; `usize::MAX` keeps them all.
    pub keep_warnings: usize,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            max_decompressed: 16 << 30,
            max_line: 64 << 20,
            perf_naming: Naming::Scorch,
            max_whole_input_bytes: 1 << 30,
            keep_warnings: crate::model::Warnings::KEEP,
        }
    }
}
