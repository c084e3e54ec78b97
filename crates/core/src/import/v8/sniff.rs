//! Whether an input is a `.cpuprofile`, a `.heapprofile` or a Chrome trace: read lexically from the first bytes (object keys and
//! their depths), never from the file name.

use crate::import::importer::{Applicable, Importer};
use crate::import::json::{self, first_significant, keys, object_or_answer, undecided};
use crate::model::Format;

/// The `.cpuprofile` importer's answer: a top-level object with a `nodes` key whose first node has a
/// `callFrame` (and no `traceEvents` key).
#[derive(Debug, Clone, Copy, Default)]
pub struct CpuProfileFormat;

/// The heap profile importer's answer: a top-level object whose `head` key holds an object with a `callFrame`
/// (a `.cpuprofile` has `nodes` instead, a trace `traceEvents`: either at the top level is a no).
#[derive(Debug, Clone, Copy, Default)]
pub struct HeapProfileFormat;

/// The Chrome trace importer's answer: a top-level object with a `traceEvents` key, or a top-level array whose
/// first element is an object with a `ph` (phase) key, as every trace event has.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChromeTraceFormat;

impl Importer for CpuProfileFormat {
    fn format(&self) -> Format {
        Format::V8CpuProfile
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        if let Some(answer) = object_or_answer(prefix, at_end) {
            return answer;
        }
        let (mut nodes, mut call_frame, mut trace) = (false, false, false);
        let json = keys(prefix, |depth, key| {
            match (depth, key) {
                (1, b"nodes") => nodes = true,
                (1, b"traceEvents") => trace = true,
                (3, b"callFrame") if nodes => call_frame = true,
                _ => {}
            }
            trace || call_frame
        });
        if !json || trace {
            Applicable::No
        } else if call_frame {
            Applicable::Yes
        } else if at_end {
            Applicable::from(Some(nodes))
        } else {
            Applicable::NeedMore
        }
    }
}

impl Importer for HeapProfileFormat {
    fn format(&self) -> Format {
        Format::V8HeapProfile
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        if let Some(answer) = object_or_answer(prefix, at_end) {
            return answer;
        }
        let (mut head, mut call_frame, mut other) = (false, false, false);
        let json = keys(prefix, |depth, key| {
            match (depth, key) {
                (1, b"head") => head = true,
                (1, b"nodes" | b"traceEvents") => other = true,
                (1, _) => head = false,
                (2, b"callFrame") if head => call_frame = true,
                _ => {}
            }
            other || call_frame
        });
        json::verdict(!json || other, call_frame, at_end)
    }
}

impl Importer for ChromeTraceFormat {
    fn format(&self) -> Format {
        Format::ChromeTrace
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        let Some((i, first)) = first_significant(prefix) else {
            return undecided(at_end);
        };
        let mut found = false;
        let json = keys(prefix, |depth, key| {
            found = matches!((first, depth, key), (b'{', 1, b"traceEvents") | (b'[', 2, b"ph"));
            found
        });
        if first == b'[' {
            // `[` then `{`: an array of objects; anything else (`[unknown]` in perf output) is not a trace.
            let rest = prefix.get(i + 1..).unwrap_or_default();
            match first_significant(rest) {
                Some((_, b'{')) => {}
                Some(_) => return Applicable::No,
                None => return undecided(at_end),
            }
        } else if first != b'{' {
            return Applicable::No;
        }
        json::verdict(!json, found, at_end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff() {
        let cp = br#"{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}]"#;
        assert_eq!(CpuProfileFormat.is_applicable(cp, false), Applicable::Yes);
        assert_eq!(ChromeTraceFormat.is_applicable(cp, true), Applicable::No);
        assert_eq!(
            CpuProfileFormat.is_applicable(br#"{"nodes":[{"#, false),
            Applicable::NeedMore
        );
        let tr = br#"[{"name":"M","ph":"M","pid":1}"#;
        assert_eq!(ChromeTraceFormat.is_applicable(tr, false), Applicable::Yes);
        assert_eq!(CpuProfileFormat.is_applicable(tr, false), Applicable::No);
        let tr = br#"{"metadata":{"a":[1]},"traceEvents":["#;
        assert_eq!(ChromeTraceFormat.is_applicable(tr, false), Applicable::Yes);
        assert_eq!(CpuProfileFormat.is_applicable(tr, false), Applicable::No);
        assert_eq!(HeapProfileFormat.is_applicable(tr, false), Applicable::No);
        let cp = br#"{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}]"#;
        assert_eq!(HeapProfileFormat.is_applicable(cp, false), Applicable::No);
        let hp = br#"{"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":1,"children":[]}"#;
        assert_eq!(HeapProfileFormat.is_applicable(hp, false), Applicable::Yes);
        assert_eq!(CpuProfileFormat.is_applicable(hp, true), Applicable::No);
        assert_eq!(ChromeTraceFormat.is_applicable(hp, true), Applicable::No);
        assert_eq!(
            HeapProfileFormat.is_applicable(br#"{"head":{"#, false),
            Applicable::NeedMore
        );
        // A `callFrame` that is not under `head` does not count.
        let other = br#"{"x":{"callFrame":{}},"head":1}"#;
        assert_eq!(HeapProfileFormat.is_applicable(other, true), Applicable::No);
        for text in [&b"[unknown];main 3\n"[..], b"main;a 1\n", b"{\"x\": 1}"] {
            assert_eq!(ChromeTraceFormat.is_applicable(text, true), Applicable::No);
            assert_eq!(CpuProfileFormat.is_applicable(text, true), Applicable::No);
            assert_eq!(HeapProfileFormat.is_applicable(text, true), Applicable::No);
        }
    }
}
