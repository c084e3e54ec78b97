//! Whether an input is a callgrind (or cachegrind) profile: the callgrind importer's own answer, from the
//! first lines, never the file name.

use crate::import::importer::{Applicable, Importer, SNIFF_WINDOW};
use crate::import::lines::{trim_ascii, window_lines, WindowLine};
use crate::model::Format;

/// The callgrind importer's answer: the format's own first line `# callgrind format`, or a header of known
/// `key: value` lines (`version:`, `creator:`, `cmd:`, `desc:`, …) that reaches `events:` before any other
/// line (older callgrind files and cachegrind's have no first line of their own).
#[derive(Debug, Clone, Copy, Default)]
pub struct CallgrindFormat;

/// The header keys callgrind and cachegrind write before `events:`.
const HEADER_KEYS: [&[u8]; 11] = [
    b"version",
    b"creator",
    b"pid",
    b"cmd",
    b"part",
    b"thread",
    b"desc",
    b"positions",
    b"event",
    b"summary",
    b"totals",
];

impl Importer for CallgrindFormat {
    fn format(&self) -> Format {
        Format::Callgrind
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        let rest = prefix.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(prefix);
        if rest.starts_with(b"# callgrind format") {
            return Applicable::Yes;
        }
        let full = prefix.len() >= SNIFF_WINDOW;
        for WindowLine { line, ended, .. } in window_lines(rest) {
            if !ended && !at_end {
                return if full {
                    Applicable::No
                } else {
                    Applicable::NeedMore
                };
            }
            let line = trim_ascii(line);
            if line.is_empty() || line.starts_with(b"#") {
                continue;
            }
            let Some(colon) = memchr::memchr(b':', line) else {
                return Applicable::No;
            };
            let key = line.get(..colon).unwrap_or_default();
            if key == b"events" {
                return Applicable::Yes;
            }
            if !HEADER_KEYS.contains(&key) {
                return Applicable::No;
            }
        }
        if at_end || full {
            Applicable::No
        } else {
            Applicable::NeedMore
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff() {
        let yes = |s: &[u8]| CallgrindFormat.is_applicable(s, true);
        assert_eq!(yes(b"# callgrind format\nversion: 1\n"), Applicable::Yes);
        assert_eq!(
            yes(b"version: 1\ncreator: callgrind-3.7\n\nevents: Ir\nfn=main\n"),
            Applicable::Yes
        );
        assert_eq!(
            yes(b"desc: I1 cache: 32768 B\ncmd: ./a\nevents: Ir I1mr\n"),
            Applicable::Yes
        );
        assert_eq!(yes(b"main;a 1\n"), Applicable::No);
        assert_eq!(yes(b"version: 1\nmain;a 1\nevents: Ir\n"), Applicable::No);
        assert_eq!(yes(b"version: 1\n"), Applicable::No);
        assert_eq!(
            CallgrindFormat.is_applicable(b"version: 1\n", false),
            Applicable::NeedMore
        );
        assert_eq!(
            CallgrindFormat.is_applicable(b"version: 1\nevents", false),
            Applicable::NeedMore
        );
    }
}
