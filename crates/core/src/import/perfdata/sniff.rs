//! Whether an input is a perf.data recording: its magic, `PERFILE2` (little-endian, as written on x86 and
//! arm64) or `2ELIFREP` (a big-endian machine's), which starts both the file header and pipe mode's.

use crate::import::importer::{Applicable, Importer};
use crate::model::Format;

/// The magic as a little-endian recorder writes it.
pub(super) const MAGIC_LE: &[u8; 8] = b"PERFILE2";
/// The magic as a big-endian recorder writes it (the same u64, bytes reversed).
pub(super) const MAGIC_BE: &[u8; 8] = b"2ELIFREP";

/// The perf.data importer's answer to "is this input mine?".
#[derive(Debug, Clone, Copy, Default)]
pub struct PerfDataFormat;

impl Importer for PerfDataFormat {
    fn format(&self) -> Format {
        Format::PerfData
    }

    fn is_signed(&self, prefix: &[u8]) -> bool {
        prefix.starts_with(MAGIC_LE) || prefix.starts_with(MAGIC_BE)
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        if self.is_signed(prefix) {
            Applicable::Yes
        } else if prefix.len() < 8
            && !at_end
            && (MAGIC_LE.starts_with(prefix) || MAGIC_BE.starts_with(prefix))
        {
            Applicable::NeedMore
        } else {
            Applicable::No
        }
    }
}
