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

    /// Looks at the first lines that are not blank or `#` comments.
    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        let mut rest = prefix;
        // Skip a UTF-8 byte order mark.
        if let Some(r) = rest.strip_prefix(b"\xEF\xBB\xBF") {
            rest = r;
        }
        let mut judged = 0;
        for WindowLine { line, ended, from } in window_lines(rest) {
            if !ended && !at_end && prefix.len() < SNIFF_WINDOW {
                return Applicable::NeedMore;
            }
            // A line longer than the whole window (a very deep stack, a huge name): its count is out of sight.
            // Stack separators say folded, and so does one long frame name of plain text (not the start of a
            // JSON or XML document); the parser then checks the rest.
            if !ended && prefix.len() >= SNIFF_WINDOW && judged == 0 {
                return if long_line_may_be_folded(from) {
                    Applicable::Yes
                } else {
                    Applicable::No
                };
            }
            let line = trim_ascii(line);
            if line.is_empty() || line.starts_with(b"#") {
                continue;
            }
            judged += 1;
            if looks_like_folded_line(line) {
                return Applicable::Yes;
            }
            // A first real line that is not folded decides against folded only after a few lines:
            // austin and other writers put a few odd lines first.
            if judged >= 3 {
                return Applicable::No;
            }
        }
        if at_end || prefix.len() >= SNIFF_WINDOW {
            Applicable::No
        } else {
            Applicable::NeedMore
        }
    }
}

/// The visible start of a first line longer than the sniffing window: folded if it has a stack separator, or if
/// it is plain text (no control bytes but tab) that does not open a JSON or XML document.
fn long_line_may_be_folded(start: &[u8]) -> bool {
    if start.iter().any(|&b| b < 0x20 && b != b'\t' && b != b'\r') {
        return false;
    }
    memchr::memchr(b';', start).is_some() || !matches!(trim_ascii(start).first(), Some(b'{' | b'[' | b'<'))
}
