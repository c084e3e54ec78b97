//! Typed import errors and counted warnings.
//!
//! Errors state facts — the format, the byte offset, the line, and what was expected; the app adds advice.

use super::format::Format;
use super::units::group_thousands;
use std::fmt;

/// Why an import failed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ImportErrorKind {
    /// Occurs when the input is empty or holds only blank and comment lines.
    Empty,
    /// Occurs when no importer recognises the first bytes of the input.
    UnknownFormat,
    /// Occurs when a gzip stream is corrupt or truncated.
    Gzip,
    /// Occurs when input exceeds a configured limit (decompressed size, line length, frames).
    LimitExceeded,
    /// Occurs when a weight or a sum of weights does not fit in 64 bits.
    Overflow,
    /// Occurs when the input is in a known format but no line of it could be read.
    NoValidRecords,
    /// Occurs when a structured record cannot be read (the message says what was expected).
    Malformed,
}

/// An import failure with its position in the (decompressed) input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub struct ImportError {
    /// The format being read, when it was known.
    pub format: Option<Format>,
    pub kind: ImportErrorKind,
    /// Byte offset in the decompressed input where the problem starts.
    pub offset: u64,
    /// 1-based line number, when the format is line oriented and the line is known.
    pub line: Option<u64>,
    pub message: String,
}

impl ImportError {
    pub fn new(
        format: Option<Format>,
        kind: ImportErrorKind,
        offset: u64,
        line: Option<u64>,
        msg: impl Into<String>,
    ) -> Self {
        ImportError {
            format,
            kind,
            offset,
            line,
            message: msg.into(),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.format {
            Some(format) => write!(f, "{format}: ")?,
            None => write!(f, "input: ")?,
        }
        write!(f, "{}", self.message)?;
        match self.line {
            Some(line) => write!(f, " (line {line}, byte {})", self.offset),
            None => write!(f, " (byte {})", self.offset),
        }
    }
}

/// What a warning is about. Warnings of one kind are one problem seen several times: they are shown as one
/// line with their count and first example ([`Warnings::summary`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub enum WarningKind {
    /// Occurs when a line (or a block) is not in the input's format and is skipped.
    #[default]
    UnreadableLine,
    /// Occurs when a count is not a whole number that fits in 64 bits; its line or block is skipped.
    BadCount,
    /// Occurs when a folded count has more than 9 decimals (the rest is cut).
    DecimalsCut,
    /// Occurs when a fractional count is rounded to a whole one (speedscope).
    Rounded,
    /// Occurs when frame names hold invalid UTF-8 (shown as U+FFFD).
    InvalidUtf8,
    /// Occurs when a folded `# unit:` line names no known unit.
    UnknownUnit,
    /// Occurs when timestamps are missing or do not add up, so the timeline is unavailable or ignored.
    Timestamps,
    /// Occurs when a bpftrace block is cut off by another block or by the end of the input.
    CutOffBlock,
    /// Occurs when speedscope frames are still open at the end of an evented profile.
    UnclosedFrames,
    /// Occurs when a thread switched out (`sched:sched_switch`) is never seen switching back in.
    UnmatchedSwitchOut,
    /// Occurs when off-CPU time cannot be derived at all (switch events without timestamps).
    NoOffCpu,
    /// Occurs when derived weights overflow 64 bits and some are left out.
    Overflow,
    /// Occurs when a binary record (perf.data) is too short for its fields or names no known event; it is skipped.
    MalformedRecord,
    /// Occurs when a sampled address lies in no mapping of its process (perf.data); it is named `[unknown]`.
    UnmappedAddress,
    /// Occurs when a file's own totals disagree with what its records add up to (callgrind's `totals:`).
    Inconsistent,
    /// Occurs when a call graph has more paths than are expanded into stacks; the rest are shown under
    /// `[call graph cut]` (callgrind, cProfile).
    GraphCut,
}

impl WarningKind {
    /// The kind in a few words, plural: "2,601 unmatched switch-outs".
    pub fn label(self) -> &'static str {
        match self {
            WarningKind::UnreadableLine => "unreadable lines skipped",
            WarningKind::BadCount => "unreadable counts",
            WarningKind::DecimalsCut => "counts with decimals cut",
            WarningKind::Rounded => "fractional counts rounded",
            WarningKind::InvalidUtf8 => "lines with invalid UTF-8",
            WarningKind::UnknownUnit => "unknown units",
            WarningKind::Timestamps => "timestamp problems",
            WarningKind::CutOffBlock => "blocks cut off",
            WarningKind::UnclosedFrames => "unclosed frames",
            WarningKind::UnmatchedSwitchOut => "switch-outs never switched back in",
            WarningKind::NoOffCpu => "no off-CPU time",
            WarningKind::Overflow => "overflows",
            WarningKind::MalformedRecord => "malformed records skipped",
            WarningKind::UnmappedAddress => "addresses in no mapping",
            WarningKind::Inconsistent => "totals that disagree",
            WarningKind::GraphCut => "call graphs cut",
        }
    }
}

/// One skipped or adjusted line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Warning {
    pub kind: WarningKind,
    pub line: u64,
    pub offset: u64,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Line numbers start at 1: 0 is a warning about the whole input (perf's unmatched switch-outs).
        if self.line == 0 {
            return write!(f, "{}", self.message);
        }
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// How many warnings of one kind there are, and the first of them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KindCount {
    pub kind: WarningKind,
    pub count: u64,
    pub first: Warning,
}

/// Warnings, counted: all are counted (in all and per kind), only the first [`Warnings::keep`] are kept with
/// their text, and the first of each kind.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Warnings {
    pub count: u64,
    pub first: Vec<Warning>,
    /// Per kind, in the order the kinds first occurred.
    pub kinds: Vec<KindCount>,
    /// How many are kept with their text. Default is [`Warnings::KEEP`].
    pub keep: usize,
}

impl Default for Warnings {
    fn default() -> Self {
        Warnings::keeping(Warnings::KEEP)
    }
}

impl Warnings {
    /// How many warnings are kept with their text by default. Default is 100.
    pub const KEEP: usize = 100;

    /// No warnings yet; the first `keep` will be kept with their text (`usize::MAX`: all of them).
    pub fn keeping(keep: usize) -> Warnings {
        Warnings {
            count: 0,
            first: Vec::new(),
            kinds: Vec::new(),
            keep,
        }
    }

    pub fn push(&mut self, kind: WarningKind, line: u64, offset: u64, message: impl Into<String>) {
        let w = Warning {
            kind,
            line,
            offset,
            message: message.into(),
        };
        self.add_kind(kind, 1, || w.clone());
        self.count += 1;
        if self.first.len() < self.keep {
            self.first.push(w);
        }
    }

    /// Counts `n` more warnings of `kind` whose texts are not kept (they were past [`Warnings::keep`]).
    pub fn count_more(&mut self, kind: WarningKind, n: u64) {
        if n == 0 {
            return;
        }
        self.count = self.count.saturating_add(n);
        if let Some(k) = self.kinds.iter_mut().find(|k| k.kind == kind) {
            k.count = k.count.saturating_add(n);
        }
    }

    fn add_kind(&mut self, kind: WarningKind, n: u64, first: impl FnOnce() -> Warning) {
        match self.kinds.iter_mut().find(|k| k.kind == kind) {
            Some(k) => k.count = k.count.saturating_add(n),
            None => self.kinds.push(KindCount {
                kind,
                count: n,
                first: first(),
            }),
        }
    }

    /// Adds `b`'s warnings after these: counts added (in all and per kind), texts kept up to [`Self::keep`].
    pub fn append(&mut self, b: Warnings) {
        self.count = self.count.saturating_add(b.count);
        let room = self.keep.saturating_sub(self.first.len());
        self.first.extend(b.first.into_iter().take(room));
        for k in b.kinds {
            let KindCount { kind, count, first } = k;
            self.add_kind(kind, count, || first);
        }
    }

    /// One line per kind, in the order the kinds first occurred: the first example, and when there are more,
    /// how many of that kind there are in all.
    pub fn summary(&self) -> Vec<String> {
        self.kinds
            .iter()
            .map(|k| {
                if k.count > 1 {
                    format!(
                        "{} (the first of {} {})",
                        k.first,
                        group_thousands(k.count),
                        k.kind.label()
                    )
                } else {
                    k.first.to_string()
                }
            })
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}
