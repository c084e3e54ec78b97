//! Whether an input is a speedscope file: read lexically from the first bytes, never from the file name.

use crate::import::importer::{Applicable, Importer};
use crate::import::json::{self, keys, object_or_answer};
use crate::model::Format;

/// The speedscope importer's answer: a top-level object whose `$schema` key names speedscope's file format
/// schema, or (a file without it) one with both `shared` and `profiles` keys.
#[derive(Debug, Clone, Copy, Default)]
pub struct SpeedscopeFormat;

/// The schema every speedscope file names (`https://www.speedscope.app/file-format-schema.json`).
const SCHEMA: &[u8] = b"speedscope.app/file-format-schema";

impl Importer for SpeedscopeFormat {
    fn format(&self) -> Format {
        Format::Speedscope
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        if let Some(answer) = object_or_answer(prefix, at_end) {
            return answer;
        }
        let (mut schema, mut shared, mut profiles, mut foreign) = (false, false, false, false);
        let json = keys(prefix, |depth, key| {
            match (depth, key) {
                (1, b"$schema") => schema = true,
                (1, b"shared") => shared = true,
                (1, b"profiles") => profiles = true,
                // Another JSON format's own keys (V8, Chrome traces, the Firefox Profiler): answer at once.
                (1, b"nodes" | b"traceEvents" | b"samples" | b"timeDeltas" | b"meta" | b"threads") => {
                    foreign = true
                }
                _ => {}
            }
            foreign || (shared && profiles)
        });
        let named = schema && memchr::memmem::find(prefix, SCHEMA).is_some();
        json::verdict(
            !json || (foreign && !named),
            named || (shared && profiles),
            at_end,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff() {
        let f = br#"{"$schema":"https://www.speedscope.app/file-format-schema.json","profiles":["#;
        assert_eq!(SpeedscopeFormat.is_applicable(f, false), Applicable::Yes);
        let f = br#"{"profiles":[{"type":"sampled"}],"shared":{"frames":[]}}"#;
        assert_eq!(SpeedscopeFormat.is_applicable(f, true), Applicable::Yes);
        assert_eq!(
            SpeedscopeFormat.is_applicable(br#"{"profiles":["#, false),
            Applicable::NeedMore
        );
        for text in [
            &br#"{"nodes":[{"callFrame":{}}]}"#[..],
            br#"{"traceEvents":[]}"#,
            b"main;a 1\n",
            b"[1]",
        ] {
            assert_eq!(SpeedscopeFormat.is_applicable(text, true), Applicable::No);
        }
    }
}
