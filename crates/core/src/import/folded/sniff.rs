//! Whether an input is folded stacks: the folded importer's own answer to the dispatcher.

use super::looks_like_folded_line;
use crate::import::importer::{Applicable, Importer, SNIFF_WINDOW};
use crate::import::lines::{trim_ascii, window_lines, WindowLine};
use crate::model::Format;

/// The folded importer's answer to "is this input mine?".
#[derive(Debug, Clone, Copy, Default)]
pub struct FoldedFormat;

impl Importer for FoldedFormat {
    fn format(&self) -> Format {
        Format::Folded
    }

    /// scorch's own link payloads say what they are on their first line: folded, whatever the stacks look like
    /// (a frame can read like a perf header; timed lines end in ` @…`, not in a count).
    fn is_signed(&self, prefix: &[u8]) -> bool {
        prefix.starts_with(b"# scorch-unit:")
    }

    /// Looks at the lines of the sniffing window that are not blank or `#` comments (see docs/FORMATS.md): folded
    /// when at least half of them read as `stack COUNT` with a stack that is not a bare number. Text that is
    /// mostly something else (a callgrind file, whose cost lines `+4 2` end in a number too) is not claimed.
    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        let mut rest = prefix;
        // Skip a UTF-8 byte order mark.
        if let Some(r) = rest.strip_prefix(b"\xEF\xBB\xBF") {
            rest = r;
        }
        let full = prefix.len() >= SNIFF_WINDOW;
        let (mut judged, mut stacks) = (0u64, 0u64);
        for WindowLine { line, ended, from } in window_lines(rest) {
            if !ended && !at_end && !full {
                return Applicable::NeedMore;
            }
            // A line longer than the whole window (a very deep stack, a huge name): its count is out of sight.
            // Stack separators say folded, and so does one long frame name of plain text (not the start of a
            // JSON or XML document); the parser then checks the rest.
            if !ended && full && judged == 0 {
                return if long_line_may_be_folded(from) {
                    Applicable::Yes
                } else {
                    Applicable::No
                };
            }
            // The window's last line, cut by its end, is not judged.
            if !ended && !at_end {
                break;
            }
            let line = trim_ascii(line);
            if line.is_empty() || line.starts_with(b"#") {
                continue;
            }
            judged += 1;
            if reads_as_stack(line) {
                stacks += 1;
            }
            // Three first real lines that are not folded decide against it at once (austin and other writers
            // put a few odd lines first, never three).
            if judged >= 3 && stacks == 0 {
                return Applicable::No;
            }
        }
        if !at_end && !full {
            return Applicable::NeedMore;
        }
        // At most half of the lines may be something else.
        if stacks > 0 && 2 * stacks >= judged {
            Applicable::Yes
        } else {
            Applicable::No
        }
    }
}

/// A (trimmed) line that reads as a folded stack: `stack COUNT` whose stack is not only a number (`30 18`,
/// `+4 2`, `* 3`: callgrind's cost lines, a position and a cost).
fn reads_as_stack(line: &[u8]) -> bool {
    looks_like_folded_line(line)
        && line
            .iter()
            .rposition(|&b| b == b' ' || b == b'\t')
            .and_then(|i| line.get(..i))
            .map(trim_ascii)
            .is_some_and(|stack| {
                !stack
                    .iter()
                    .all(|&b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'*'))
            })
}

/// The visible start of a first line longer than the sniffing window: folded if it has a stack separator, or if
/// it is plain text (no control bytes but tab) that does not open a JSON or XML document.
fn long_line_may_be_folded(start: &[u8]) -> bool {
    if start.iter().any(|&b| b < 0x20 && b != b'\t' && b != b'\r') {
        return false;
    }
    memchr::memchr(b';', start).is_some() || !matches!(trim_ascii(start).first(), Some(b'{' | b'[' | b'<'))
}
