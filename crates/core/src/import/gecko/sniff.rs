//! Whether an input is a Firefox Profiler profile: read lexically from the first bytes, never the file name.

use crate::import::importer::{Applicable, Importer};
use crate::import::json::{self, keys, object_or_answer};
use crate::model::Format;

/// The Gecko importer's answer: a top-level object with `meta` and `threads` keys, or whose `meta` has a
/// `preprocessedProfileVersion` (the processed format's own mark; `meta` comes first and can be long).
#[derive(Debug, Clone, Copy, Default)]
pub struct GeckoFormat;

impl Importer for GeckoFormat {
    fn format(&self) -> Format {
        Format::Gecko
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        if let Some(answer) = object_or_answer(prefix, at_end) {
            return answer;
        }
        let (mut meta, mut threads, mut processed, mut foreign) = (false, false, false, false);
        let json = keys(prefix, |depth, key| {
            match (depth, key) {
                (1, b"meta") => meta = true,
                (1, b"threads") => threads = true,
                (2, b"preprocessedProfileVersion") if meta && !threads => processed = true,
                // Another JSON format's own keys: answer at once.
                (1, b"nodes" | b"traceEvents" | b"$schema" | b"profiles" | b"samples" | b"timeDeltas") => {
                    foreign = true
                }
                _ => {}
            }
            foreign || processed || (meta && threads)
        });
        json::verdict(!json || foreign, processed || (meta && threads), at_end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff() {
        let yes =
            br#"{"meta":{"categories":[{"name":"Other"}],"interval":1.0,"preprocessedProfileVersion":49,"#;
        assert_eq!(GeckoFormat.is_applicable(yes, false), Applicable::Yes);
        let yes = br#"{"meta":{"version":24},"libs":[],"threads":["#;
        assert_eq!(GeckoFormat.is_applicable(yes, false), Applicable::Yes);
        assert_eq!(
            GeckoFormat.is_applicable(br#"{"meta":{"version":"#, false),
            Applicable::NeedMore
        );
        for no in [
            &br#"{"nodes":[{"callFrame":{}}]}"#[..],
            br#"{"traceEvents":[]}"#,
            br#"{"$schema":"https://www.speedscope.app/file-format-schema.json"}"#,
            b"main;a 1\n",
            br#"{"meta": 1}"#,
        ] {
            assert_eq!(GeckoFormat.is_applicable(no, true), Applicable::No);
        }
    }
}
