//! Reading fixed-size fields of either byte order out of the held input, never past its end: every read is an
//! `Option`, and the callers turn a `None` into a typed error or a counted warning with the byte offset.

use crate::model::{Format, ImportError, ImportErrorKind};

/// The input (or a part of it) with its byte order; `base` is where `data` starts in the input, for offsets.
#[derive(Debug, Clone, Copy)]
pub(super) struct Buf<'a> {
    pub data: &'a [u8],
    pub big: bool,
}

impl<'a> Buf<'a> {
    pub fn bytes(&self, at: usize, n: usize) -> Option<&'a [u8]> {
        self.data.get(at..at.checked_add(n)?)
    }

    pub fn u8(&self, at: usize) -> Option<u8> {
        self.data.get(at).copied()
    }

    pub fn u16(&self, at: usize) -> Option<u16> {
        let b: [u8; 2] = self.bytes(at, 2)?.try_into().ok()?;
        Some(if self.big {
            u16::from_be_bytes(b)
        } else {
            u16::from_le_bytes(b)
        })
    }

    pub fn u32(&self, at: usize) -> Option<u32> {
        let b: [u8; 4] = self.bytes(at, 4)?.try_into().ok()?;
        Some(if self.big {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        })
    }

    pub fn u64(&self, at: usize) -> Option<u64> {
        let b: [u8; 8] = self.bytes(at, 8)?.try_into().ok()?;
        Some(if self.big {
            u64::from_be_bytes(b)
        } else {
            u64::from_le_bytes(b)
        })
    }

    /// A `u64` that must fit in `usize` (a size or an offset).
    pub fn usize(&self, at: usize) -> Option<usize> {
        usize::try_from(self.u64(at)?).ok()
    }

    /// The NUL-terminated string in `[at, end)` (the whole range when it has no NUL), lossily as UTF-8.
    pub fn cstr(&self, at: usize, end: usize) -> Option<String> {
        let b = self.data.get(at..end)?;
        let n = memchr::memchr(0, b).unwrap_or(b.len());
        Some(String::from_utf8_lossy(b.get(..n)?).into_owned())
    }

    /// The same bytes from `at` to `end`.
    pub fn slice(&self, at: usize, end: usize) -> Option<Buf<'a>> {
        Some(Buf {
            data: self.data.get(at..end)?,
            big: self.big,
        })
    }
}

/// A perf.data error at `offset`.
pub(super) fn err(kind: ImportErrorKind, offset: usize, msg: impl Into<String>) -> ImportError {
    ImportError::new(Some(Format::PerfData), kind, offset as u64, None, msg)
}

/// A perf.data error for a field that the input ends before.
pub(super) fn cut(offset: usize, what: &str) -> ImportError {
    err(
        ImportErrorKind::Malformed,
        offset,
        format!("the input ends inside the {what}"),
    )
}
