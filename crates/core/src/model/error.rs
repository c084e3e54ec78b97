//! Typed import errors and counted warnings.
//!
//! Errors state facts — the format, the byte offset, the line, and what was expected; the app adds advice.

use super::format::Format;
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

/// One skipped or adjusted line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Warning {
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

/// Warnings, counted: all are counted, only the first [`Warnings::KEEP`] are kept with their text.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Warnings {
    pub count: u64,
    pub first: Vec<Warning>,
}

impl Warnings {
    /// How many warnings are kept with their text. Default is 100.
    pub const KEEP: usize = 100;

    pub fn push(&mut self, line: u64, offset: u64, message: impl Into<String>) {
        self.count += 1;
        if self.first.len() < Self::KEEP {
            self.first.push(Warning {
                line,
                offset,
                message: message.into(),
            });
        }
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}
