//! Whether an input is `perf script` output: the perf importer's own answer to the loader.

use super::frame::parse_frame;
use super::header::{is_side_band, parse_header};
use crate::import::importer::{Applicable, Importer, SNIFF_WINDOW};
use crate::import::lines::{trim_ascii, window_lines, WindowLine};
use crate::model::Format;

/// Does the input start like `perf script` output? Looks at the first non-comment lines.
fn looks_like_perf(prefix: &[u8], at_end: bool) -> Option<bool> {
    let mut header_seen = false;
    for WindowLine { line, ended, .. } in window_lines(prefix) {
        if !ended && !at_end {
            return None;
        }
        if line.first() == Some(&b'#') {
            continue;
        }
        let line = trim_ascii(line);
        if line.is_empty() {
            continue;
        }
        if is_side_band(line) {
            continue;
        }
        if !header_seen {
            match parse_header(line) {
                Some(h) => {
                    if !h.tracepoint && parse_frame(h.rest).is_some() {
                        return Some(true);
                    }
                    header_seen = true;
                }
                None => return Some(false),
            }
        } else {
            return Some(parse_frame(line).is_some() || parse_header(line).is_some());
        }
    }
    if header_seen && at_end {
        return Some(true);
    }
    if at_end {
        Some(false)
    } else {
        None
    }
}

/// The perf script importer's answer to "is this input mine?".
#[derive(Debug, Clone, Copy, Default)]
pub struct PerfFormat;

impl Importer for PerfFormat {
    fn format(&self) -> Format {
        Format::PerfScript
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        Applicable::from(looks_like_perf(prefix, at_end || prefix.len() >= SNIFF_WINDOW))
    }
}
