//! The input formats scorch reads. Which format an input is in is decided by the importers (the import
//! layer); this is only the name of the answer.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Format {
    /// `frame;frame;frame COUNT` lines (Brendan Gregg's collapsed stacks).
    Folded,
    /// `perf script` text.
    PerfScript,
    /// pprof `profile.proto` (raw; gzip is undone by the loader).
    Pprof,
    /// V8's `.cpuprofile` JSON (`node --cpu-prof`, DevTools' "Save profile").
    V8CpuProfile,
    /// Chrome/Edge trace JSON with V8 CPU profile events (DevTools Performance panel, CDP tracing).
    ChromeTrace,
    /// speedscope's JSON file format (`sampled` and `evented` profiles; py-spy, rbspy, austin, speedscope).
    Speedscope,
    /// bpftrace's printed maps of stacks (`@[` + one frame per line + `]: COUNT`).
    Bpftrace,
    /// The Firefox Profiler's processed profile JSON (samply, the Firefox Profiler's download).
    Gecko,
    /// perf.data, the binary recording `perf record` writes (file or pipe mode).
    PerfData,
    /// Callgrind's profile format (`valgrind --tool=callgrind`; cachegrind's files are its subset).
    Callgrind,
    /// V8's sampling heap profile, the `.heapprofile` JSON (`node --heap-prof`, DevTools' allocation sampling).
    V8HeapProfile,
    /// Python's cProfile/profile statistics as `pstats` saves them (`python -m cProfile -o FILE`; marshal).
    Cprofile,
    /// DHAT's JSON profile (`valgrind --tool=dhat`, `dhat.out.PID`; the Rust `dhat` crate's `dhat-heap.json`).
    Dhat,
    /// Java Flight Recorder's chunked binary recording (`java -XX:StartFlightRecording`, `jcmd JFR.dump`).
    Jfr,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Folded => "folded",
            Format::PerfScript => "perf-script",
            Format::Pprof => "pprof",
            Format::V8CpuProfile => "v8-cpuprofile",
            Format::ChromeTrace => "chrome-trace",
            Format::Speedscope => "speedscope",
            Format::Bpftrace => "bpftrace",
            Format::Gecko => "gecko",
            Format::PerfData => "perf-data",
            Format::Callgrind => "callgrind",
            Format::V8HeapProfile => "v8-heapprofile",
            Format::Cprofile => "cprofile",
            Format::Dhat => "dhat",
            Format::Jfr => "jfr",
        }
    }
}

impl Format {
    /// What the format is called in words, for help texts (`name` is the short key).
    pub fn description(self) -> &'static str {
        match self {
            Format::Folded => "folded stacks",
            Format::PerfScript => "perf script",
            Format::Pprof => "pprof",
            Format::V8CpuProfile => "V8 .cpuprofile",
            Format::ChromeTrace => "Chrome traces",
            Format::Speedscope => "speedscope JSON",
            Format::Bpftrace => "bpftrace stack maps",
            Format::Gecko => "Firefox Profiler (Gecko) JSON",
            Format::PerfData => "perf.data recordings",
            Format::Callgrind => "callgrind",
            Format::V8HeapProfile => "V8 .heapprofile",
            Format::Cprofile => "Python cProfile (pstats)",
            Format::Dhat => "DHAT JSON",
            Format::Jfr => "Java Flight Recorder (JFR)",
        }
    }

    /// What one input record is called: folded files hold stack lines, profilers write samples.
    pub fn record_noun(self) -> &'static str {
        match self {
            Format::Folded => "stack lines",
            Format::PerfScript | Format::PerfData => "samples",
            Format::Pprof => "samples",
            Format::V8CpuProfile | Format::ChromeTrace | Format::Speedscope | Format::Gecko => "samples",
            Format::Bpftrace => "stack blocks",
            Format::Callgrind => "cost lines",
            Format::V8HeapProfile => "nodes",
            Format::Cprofile => "functions",
            Format::Dhat => "program points",
            Format::Jfr => "samples",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
