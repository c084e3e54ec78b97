//! Whether an input is bpftrace's printed maps of stacks: read from the first lines, never the file name.

use super::block_start;
use crate::import::importer::{Applicable, Importer, SNIFF_WINDOW};
use crate::import::lines::{trim_ascii, window_lines, WindowLine};
use crate::model::Format;

/// The bpftrace importer's answer: the first line that is not blank, `Attaching N probes...` or a scalar map
/// (`@name: value`) opens a block, `@[` or `@name[`.
#[derive(Debug, Clone, Copy, Default)]
pub struct BpftraceFormat;

impl Importer for BpftraceFormat {
    fn format(&self) -> Format {
        Format::Bpftrace
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        let rest = prefix.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(prefix);
        for WindowLine { line, ended, .. } in window_lines(rest) {
            if !ended && !at_end && prefix.len() < SNIFF_WINDOW {
                return Applicable::NeedMore;
            }
            let t = trim_ascii(line);
            if t.is_empty() || t.starts_with(b"Attaching ") {
                continue;
            }
            if block_start(line).is_some() {
                return Applicable::Yes;
            }
            // A scalar map printed before the stacks (`@start: 123`).
            let scalar = t.strip_prefix(b"@").is_some_and(|r| {
                let n = r
                    .iter()
                    .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_')
                    .count();
                r.get(n..).is_some_and(|x| x.starts_with(b": "))
            });
            if !scalar {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff() {
        for yes in [
            &b"Attaching 1 probe...\n\n\n@[\n    f+1\n]: 3\n"[..],
            b"@[, \n    spin+38\n, busy]: 152\n",
            b"@start: 12\n@bytes[\n",
            b"@[busy]: 5\n",
        ] {
            assert_eq!(
                BpftraceFormat.is_applicable(yes, true),
                Applicable::Yes,
                "{}",
                String::from_utf8_lossy(yes)
            );
        }
        for no in [&b"main;a 1\n"[..], b"[unknown];main 3\n", b"{\"a\":1}", b"  @[\n"] {
            assert_eq!(BpftraceFormat.is_applicable(no, true), Applicable::No);
        }
        assert_eq!(
            BpftraceFormat.is_applicable(b"Attaching 1 probe...\n@", false),
            Applicable::NeedMore
        );
    }
}
