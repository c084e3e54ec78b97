//! Deciding the format of an input from its content (never from the file name): the dispatcher asks each
//! importer in turn whether the input is its own.

use super::bpftrace::{BpftraceFormat, BpftraceOptions, BpftraceParser};
use super::callgrind::{CallgrindFormat, CallgrindOptions, CallgrindParser};
use super::cprofile::{CprofileFormat, CprofileOptions, CprofileParser};
use super::dhat::{DhatFormat, DhatOptions, DhatParser};
use super::folded::{FoldedFormat, FoldedOptions, FoldedParser};
use super::gecko::{GeckoFormat, GeckoOptions, GeckoParser};
use super::importer::{Applicable, Importer, Parse};
use super::jfr::{JfrFormat, JfrOptions, JfrParser};
use super::options::ImportOptions;
use super::perf::{PerfFormat, PerfOptions, PerfParser};
use super::perfdata::{PerfDataFormat, PerfDataOptions, PerfDataParser};
use super::pprof::{PprofFormat, PprofOptions, PprofParser};
use super::speedscope::{SpeedscopeFormat, SpeedscopeOptions, SpeedscopeParser};
use super::v8::{
    ChromeTraceFormat, CpuProfileFormat, CpuProfileParser, HeapProfileFormat, HeapProfileParser, TraceParser,
    V8Options,
};
use crate::model::{Format, ImportError, Profile};

/// The registry: every format once, its importer (the sniffer) and how its parser is made from the options, in
/// the order the importers are asked: binary first (perf.data by its magic, then JFR's chunk magic `FLR\0`, then cProfile's marshalled dict by the type
/// bytes of its first key, then pprof) (text never starts with a valid run of
/// profile.proto fields), then the JSON formats (a `{` or `[` with their keys; speedscope and Gecko first, since
/// they answer no at once on another JSON format's keys while the V8 formats wait for theirs; DHAT's, by its first key;
/// the heap profile before the `.cpuprofile`, as each says no at once on the other's first key), then callgrind
/// (its first line, or a header of known `key:` lines up to `events:`), then bpftrace's `@[` blocks,
/// then perf script, then folded (whose lines are the least distinctive).
static FORMATS: [Registered; 14] = [
    Registered {
        importer: &PerfDataFormat,
        parser: |o| {
            Box::new(WithOffCpu(Box::new(PerfDataParser::new(&PerfDataOptions {
                max_bytes: o.max_whole_input_bytes,
                keep_warnings: Some(o.keep_warnings),
            }))))
        },
    },
    Registered {
        importer: &JfrFormat,
        parser: |o| {
            Box::new(JfrParser::new(&JfrOptions {
                max_bytes: o.max_whole_input_bytes,
            }))
        },
    },
    Registered {
        importer: &CprofileFormat,
        parser: |o| {
            Box::new(CprofileParser::new(&CprofileOptions {
                max_bytes: o.max_whole_input_bytes,
            }))
        },
    },
    Registered {
        importer: &PprofFormat,
        parser: |o| {
            Box::new(WithOffCpu(Box::new(PprofParser::new(&PprofOptions {
                max_bytes: o.max_whole_input_bytes,
            }))))
        },
    },
    Registered {
        importer: &SpeedscopeFormat,
        parser: |o| {
            Box::new(SpeedscopeParser::new(&SpeedscopeOptions {
                max_bytes: o.max_whole_input_bytes,
            }))
        },
    },
    Registered {
        importer: &GeckoFormat,
        parser: |o| {
            Box::new(GeckoParser::new(&GeckoOptions {
                max_bytes: o.max_whole_input_bytes,
            }))
        },
    },
    Registered {
        importer: &DhatFormat,
        parser: |o| {
            Box::new(DhatParser::new(&DhatOptions {
                max_bytes: o.max_whole_input_bytes,
            }))
        },
    },
    Registered {
        importer: &HeapProfileFormat,
        parser: |o| {
            Box::new(HeapProfileParser::new(&V8Options {
                max_bytes: o.max_whole_input_bytes,
            }))
        },
    },
    Registered {
        importer: &CpuProfileFormat,
        parser: |o| {
            Box::new(CpuProfileParser::new(&V8Options {
                max_bytes: o.max_whole_input_bytes,
            }))
        },
    },
    Registered {
        importer: &ChromeTraceFormat,
        parser: |o| {
            Box::new(TraceParser::new(&V8Options {
                max_bytes: o.max_whole_input_bytes,
            }))
        },
    },
    Registered {
        importer: &CallgrindFormat,
        parser: |o| {
            Box::new(CallgrindParser::new(&CallgrindOptions {
                max_line: o.max_line,
                keep_warnings: Some(o.keep_warnings),
            }))
        },
    },
    Registered {
        importer: &BpftraceFormat,
        parser: |o| {
            Box::new(BpftraceParser::new(&BpftraceOptions {
                max_line: o.max_line,
                keep_warnings: Some(o.keep_warnings),
            }))
        },
    },
    Registered {
        importer: &PerfFormat,
        parser: |o| {
            Box::new(PerfParser::new(&PerfOptions {
                max_line: o.max_line,
                naming: o.perf_naming.clone(),
                keep_warnings: Some(o.keep_warnings),
            }))
        },
    },
    Registered {
        importer: &FoldedFormat,
        parser: |o| {
            Box::new(FoldedParser::new(&FoldedOptions {
                max_line: o.max_line,
                keep_warnings: Some(o.keep_warnings),
            }))
        },
    },
];

/// One format of the registry.
pub(super) struct Registered {
    pub importer: &'static dyn Importer,
    pub parser: fn(&ImportOptions) -> Box<dyn Parse>,
}

/// The loader drives each format's parser through [`Parse`].
macro_rules! parse {
    ($($t:ty $(, samples $s:ident)?;)*) => {$(
        impl Parse for $t {
            fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
                <$t>::feed(self, chunk)
            }
            fn finish(self: Box<Self>) -> Result<Profile, ImportError> {
                <$t>::finish(*self)
            }
            $(fn samples(&self) -> usize {
                <$t>::$s(self)
            })?
        }
    )*};
}

parse! {
    FoldedParser, samples samples;
    PerfParser, samples samples;
    PprofParser;
    CpuProfileParser;
    HeapProfileParser;
    TraceParser, samples samples;
    SpeedscopeParser;
    BpftraceParser, samples samples;
    GeckoParser;
    PerfDataParser;
    CallgrindParser, samples samples;
    CprofileParser;
    DhatParser;
    JfrParser;
}

/// The formats the dispatcher tries, in order: every format scorch reads.
pub fn formats() -> Vec<Format> {
    FORMATS.iter().map(|r| r.importer.format()).collect()
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
    match find(prefix, at_end) {
        Found::Yes(r) => Sniff::Yes(r.importer.format()),
        Found::NeedMore => Sniff::NeedMore,
        Found::No => Sniff::No,
    }
}

/// [`sniff`]'s answer with the format's entry of the registry.
pub(super) enum Found {
    Yes(&'static Registered),
    NeedMore,
    No,
}

/// [`sniff`], for the loader.
pub(super) fn find(prefix: &[u8], at_end: bool) -> Found {
    if let Some(r) = FORMATS.iter().find(|r| r.importer.is_signed(prefix)) {
        return Found::Yes(r);
    }
    for r in &FORMATS {
        match r.importer.is_applicable(prefix, at_end) {
            Applicable::Yes => return Found::Yes(r),
            Applicable::NeedMore => return Found::NeedMore,
            Applicable::No => {}
        }
    }
    Found::No
}

/// A parse followed by the off-CPU time its `sched:sched_switch` samples' labels give (`perf::derive_offcpu`,
/// the perf script importer's own step; nothing when there are none): perf.data, whose reader labels them from
/// the raw payloads, and pprof, where `scorch pack` keeps those labels with each sample's thread and time.
/// Joined here, as no format imports another.
struct WithOffCpu(Box<dyn Parse>);

impl Parse for WithOffCpu {
    fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        self.0.feed(chunk)
    }

    fn finish(self: Box<Self>) -> Result<Profile, ImportError> {
        Ok(super::perf::derive_offcpu(self.0.finish()?))
    }

    fn samples(&self) -> usize {
        self.0.samples()
    }
}
