//! Whether an input is a DHAT profile: the DHAT importer's own answer, from the first bytes, never the file
//! name.

use crate::import::importer::{Applicable, Importer};
use crate::import::json::{keys, object_or_answer, verdict};
use crate::model::Format;

/// The DHAT importer's answer: a top-level object whose first key is `dhatFileVersion` (DHAT and the Rust
/// `dhat` crate write it first); any other first key is a no.
#[derive(Debug, Clone, Copy, Default)]
pub struct DhatFormat;

impl Importer for DhatFormat {
    fn format(&self) -> Format {
        Format::Dhat
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        if let Some(answer) = object_or_answer(prefix, at_end) {
            return answer;
        }
        let mut first: Option<bool> = None;
        let json = keys(prefix, |depth, key| {
            if depth == 1 {
                first = Some(key == b"dhatFileVersion");
            }
            first.is_some()
        });
        verdict(!json || first == Some(false), first == Some(true), at_end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff() {
        assert_eq!(
            DhatFormat.is_applicable(b"{\"dhatFileVersion\":2\n,", false),
            Applicable::Yes
        );
        assert_eq!(
            DhatFormat.is_applicable(b"{\"dhatFile", false),
            Applicable::NeedMore
        );
        assert_eq!(DhatFormat.is_applicable(b"{\"nodes\":[", false), Applicable::No);
        assert_eq!(DhatFormat.is_applicable(b"main;a 1\n", true), Applicable::No);
    }
}
