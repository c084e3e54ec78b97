//! Whether an input is bpftrace's printed maps of stacks: read from the first lines, never the file name.

use super::block_start;
use crate::import::importer::{Applicable, Importer, SNIFF_WINDOW};
use crate::import::lines::{trim_ascii, window_lines, WindowLine};
use crate::model::Format;

/// The bpftrace importer's answer: one of the first lines (after blank ones, `Attaching N probes...` and at most
/// a few others: a tool's banner, scalar maps) opens a block, `@[` or `@name[`, at the start of the line.
#[derive(Debug, Clone, Copy, Default)]
pub struct BpftraceFormat;

impl Importer for BpftraceFormat {
    fn format(&self) -> Format {
        Format::Bpftrace
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        let rest = prefix.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(prefix);
        let mut judged = 0;
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
            // A scalar map (`@start: 123`) or a tool's own banner (`Sampling at 99 Hertz... Hit Ctrl-C to end.`)
            // may come first: a few lines are allowed before the first block.
            judged += 1;
            if judged >= MAX_LINES_BEFORE {
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

/// How many other lines may come before the first block (banners, `printf` output, scalar maps).
const MAX_LINES_BEFORE: usize = 8;

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
            b"Attaching 1 probe...\nSampling at 99 Hertz... Hit Ctrl-C to end.\n^C\n@[\n    f+1\n]: 3\n",
        ] {
            assert_eq!(
                BpftraceFormat.is_applicable(yes, true),
                Applicable::Yes,
                "{}",
                String::from_utf8_lossy(yes)
            );
        }
        for no in [
            &b"main;a 1\n"[..],
            b"[unknown];main 3\n",
            b"{\"a\":1}",
            b"  @[\n",
            b"a\nb\nc\nd\ne\nf\ng\nh\n@[\n",
        ] {
            assert_eq!(BpftraceFormat.is_applicable(no, true), Applicable::No);
        }
        assert_eq!(
            BpftraceFormat.is_applicable(b"Attaching 1 probe...\n@", false),
            Applicable::NeedMore
        );
    }
}
