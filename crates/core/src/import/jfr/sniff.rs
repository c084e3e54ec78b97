//! Whether an input is a JFR recording: the JFR importer's own answer, from the first bytes, never the file
//! name.

use crate::import::importer::{Applicable, Importer};
use crate::model::Format;

/// The JFR importer's answer: the chunk magic `FLR\0` and a major version of 1 or 2 (a 16-bit big-endian
/// number). Text and the other binary formats never start with a NUL as their fourth byte after `FLR`.
#[derive(Debug, Clone, Copy, Default)]
pub struct JfrFormat;

impl Importer for JfrFormat {
    fn format(&self) -> Format {
        Format::Jfr
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        let want = b"FLR\0\0";
        let n = prefix.len().min(want.len());
        if prefix.get(..n) != want.get(..n) {
            return Applicable::No;
        }
        match prefix.get(5) {
            Some(1 | 2) => Applicable::Yes,
            Some(_) => Applicable::No,
            None if at_end => Applicable::No,
            None => Applicable::NeedMore,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff() {
        let real = b"FLR\0\0\x02\0\x01";
        assert_eq!(JfrFormat.is_applicable(real, false), Applicable::Yes);
        assert_eq!(JfrFormat.is_applicable(b"FLR\0\0\x01", true), Applicable::Yes);
        assert_eq!(JfrFormat.is_applicable(&real[..3], false), Applicable::NeedMore);
        assert_eq!(JfrFormat.is_applicable(&real[..3], true), Applicable::No);
        for no in [&b"FLR\0\0\x03"[..], b"FLRx", b"main;a 1\n", b"{}", b""] {
            assert_eq!(JfrFormat.is_applicable(no, true), Applicable::No, "{no:?}");
        }
    }
}
