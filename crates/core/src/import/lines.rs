//! Splits input fed in chunks of any size into lines, without copying whole lines except across chunk edges.

use crate::model::{Format, ImportError, ImportErrorKind};

/// Where a line starts: 1-based line number and byte offset in the (decompressed) input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LinePos {
    pub line: u64,
    pub offset: u64,
}

#[derive(Debug)]
pub(crate) struct LineSplitter {
    format: Format,
    carry: Vec<u8>,
    next: LinePos,
    max_line: usize,
}

impl LineSplitter {
    pub fn new(format: Format, max_line: usize) -> Self {
        LineSplitter {
            format,
            carry: Vec::new(),
            next: LinePos { line: 1, offset: 0 },
            max_line,
        }
    }

    /// Calls `f` for every complete line in `chunk` (plus what was carried from the previous chunk).
    /// The line excludes its `\n` and a trailing `\r`.
    pub fn feed<F>(&mut self, mut chunk: &[u8], mut f: F) -> Result<(), ImportError>
    where
        F: FnMut(&[u8], LinePos) -> Result<(), ImportError>,
    {
        if !self.carry.is_empty() {
            match memchr::memchr(b'\n', chunk) {
                None => {
                    self.carry.extend_from_slice(chunk);
                    return self.check_len(self.carry.len());
                }
                Some(i) => {
                    let (head, rest) = split_around(chunk, i);
                    self.carry.extend_from_slice(head);
                    self.check_len(self.carry.len())?;
                    let line = std::mem::take(&mut self.carry);
                    self.emit(&line, &mut f)?;
                    self.carry = line;
                    self.carry.clear();
                    chunk = rest;
                }
            }
        }
        while let Some(i) = memchr::memchr(b'\n', chunk) {
            let (line, rest) = split_around(chunk, i);
            self.emit(line, &mut f)?;
            chunk = rest;
        }
        if !chunk.is_empty() {
            self.check_len(chunk.len())?;
            self.carry.extend_from_slice(chunk);
        }
        Ok(())
    }

    /// Emits the last line when the input does not end with a newline.
    pub fn finish<F>(&mut self, mut f: F) -> Result<(), ImportError>
    where
        F: FnMut(&[u8], LinePos) -> Result<(), ImportError>,
    {
        if !self.carry.is_empty() {
            let line = std::mem::take(&mut self.carry);
            self.emit(&line, &mut f)?;
        }
        Ok(())
    }

    /// Position of the next line to be read (after `finish`, one past the end).
    pub fn position(&self) -> LinePos {
        self.next
    }

    fn emit<F>(&mut self, raw: &[u8], f: &mut F) -> Result<(), ImportError>
    where
        F: FnMut(&[u8], LinePos) -> Result<(), ImportError>,
    {
        // A line that arrived whole in one chunk is checked here (one carried across chunks, as it grows).
        self.check_len(raw.len())?;
        let pos = self.next;
        self.next = LinePos {
            line: pos.line + 1,
            offset: pos.offset + raw.len() as u64 + 1,
        };
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        f(line, pos)
    }

    fn check_len(&self, len: usize) -> Result<(), ImportError> {
        if len > self.max_line {
            return Err(ImportError::new(
                Some(self.format),
                ImportErrorKind::LimitExceeded,
                self.next.offset,
                Some(self.next.line),
                format!(
                    "a line is longer than the limit of {}",
                    bytes_in_words(self.max_line)
                ),
            ));
        }
        Ok(())
    }
}

/// A size limit for a message: `64 MiB (67108864 bytes)`, or just the bytes when not a whole number of MiB.
pub(crate) fn bytes_in_words(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB ({n} bytes)", n >> 20)
    } else {
        format!("{n} bytes")
    }
}

/// One line of a sniffing window: its bytes (without the `\n`), whether a `\n` ended it (the last line of a
/// window may be cut short), and the window's bytes from the line's start on.
pub(crate) struct WindowLine<'a> {
    pub line: &'a [u8],
    pub ended: bool,
    pub from: &'a [u8],
}

/// The lines of a sniffing window, in order; the importers' sniffers judge the first few.
pub(crate) fn window_lines(window: &[u8]) -> impl Iterator<Item = WindowLine<'_>> {
    let mut rest = window;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let from = rest;
        let (line, ended) = match memchr::memchr(b'\n', rest) {
            Some(i) => {
                let (line, next) = split_around(rest, i);
                rest = next;
                (line, true)
            }
            None => {
                rest = &[];
                (from, false)
            }
        };
        Some(WindowLine { line, ended, from })
    })
}

/// `s` split around the byte at `i` (a separator found by memchr): what is before it and what is after it. An `i`
/// past the end gives `(s, [])`.
pub(crate) fn split_around(s: &[u8], i: usize) -> (&[u8], &[u8]) {
    let (head, rest) = s.split_at(i.min(s.len()));
    (head, rest.get(1..).unwrap_or_default())
}

/// `s` without leading and trailing ASCII whitespace.
pub(crate) fn trim_ascii(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if first.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = s {
        if last.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(input: &[u8], chunk: usize) -> Vec<(String, u64, u64)> {
        let mut out = Vec::new();
        let mut s = LineSplitter::new(Format::Folded, 1 << 20);
        for c in input.chunks(chunk.max(1)) {
            s.feed(c, |l, p| {
                out.push((String::from_utf8_lossy(l).into_owned(), p.line, p.offset));
                Ok(())
            })
            .unwrap();
        }
        s.finish(|l, p| {
            out.push((String::from_utf8_lossy(l).into_owned(), p.line, p.offset));
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn chunk_size_does_not_change_lines() {
        let input = b"a;b 1\r\n\nc 2\nlast 3";
        let one = split(input, input.len());
        assert_eq!(
            one,
            vec![
                ("a;b 1".into(), 1, 0),
                ("".into(), 2, 7),
                ("c 2".into(), 3, 8),
                ("last 3".into(), 4, 12)
            ]
        );
        for n in 1..input.len() {
            assert_eq!(split(input, n), one, "chunk size {n}");
        }
    }

    #[test]
    fn overlong_line_is_an_error() {
        let mut s = LineSplitter::new(Format::Folded, 4);
        let err = s.feed(b"ok\n0123456789", |_, _| Ok(())).unwrap_err();
        assert_eq!(err.kind, ImportErrorKind::LimitExceeded);
        assert_eq!(err.line, Some(2));
        assert_eq!(err.offset, 3);
    }
}
