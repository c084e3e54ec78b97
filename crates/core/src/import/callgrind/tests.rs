//! Unit tests of the callgrind importer on hand-written files: the format reference's examples, name and
//! subposition compression, parts, hostile lines.

use super::*;
use crate::model::FrameId;

fn parse_in(input: &[u8], chunk: usize) -> Result<Profile, ImportError> {
    let mut p = CallgrindParser::new(&CallgrindOptions::default());
    for c in input.chunks(chunk.max(1)) {
        p.feed(c)?;
    }
    p.finish()
}

/// Folded stacks of one event, sorted.
fn fold(p: &Profile, event: u16) -> String {
    let mut m = std::collections::BTreeMap::<String, u64>::new();
    for i in 0..p.samples.len() {
        if p.samples.event.as_ref().map(|e| e[i]) != Some(event) {
            continue;
        }
        let names: Vec<&str> = p
            .stack_frames(p.samples.stack[i])
            .iter()
            .map(|&f: &FrameId| p.frame_name(f))
            .collect();
        *m.entry(names.join(";")).or_default() += p.samples.weight[i];
    }
    m.iter().map(|(s, w)| format!("{s} {w}\n")).collect()
}

/// The format reference's extended example, with name compression (section 3.1.5).
const EXTENDED: &str = "# callgrind format
events: Instructions
fl=(1) file1.c
fn=(1) main
16 20
cfn=(2) func1
calls=1 50
16 400
cfi=(2) file2.c
cfn=(3) func2
calls=3 20
16 400
fn=(2)
51 100
cfi=(2)
cfn=(3)
calls=2 20
51 300
fl=(2)
fn=(3)
20 700
";

#[test]
fn the_reference_example() {
    let p = parse_in(EXTENDED.as_bytes(), usize::MAX).unwrap();
    p.validate().unwrap();
    assert_eq!(p.total(), 820);
    assert_eq!(p.meta.format, Format::Callgrind);
    assert_eq!(p.events.len(), 1);
    assert_eq!(p.events[0].name, "Instructions");
    assert_eq!(p.meta.records, 6);
    // func2 (700) is called from main (400) and func1 (300): its self splits 400/300.
    assert_eq!(
        fold(&p, 0),
        "main 20\nmain;func1 100\nmain;func1;func2 300\nmain;func2 400\n"
    );
    for n in [1, 2, 7, 64] {
        assert_eq!(
            fold(&parse_in(EXTENDED.as_bytes(), n).unwrap(), 0),
            fold(&p, 0),
            "chunks of {n}"
        );
    }
}

#[test]
fn subpositions_events_and_parts() {
    let text = "version: 1
creator: hand
positions: instr line
events: Ir Dr
summary: 20 3
fn=f
0x10 3 5 1
+3 * 5
+1 +1 2 2
-2 -1 1
fn=g
0x20 7 3
part: 2
events: Ir Dr
fn=f
0x10 3 4
totals: 20 3
";
    let p = parse_in(text.as_bytes(), 5).unwrap();
    assert_eq!(
        p.events
            .iter()
            .map(|e| (e.name.as_str(), e.total))
            .collect::<Vec<_>>(),
        [("Ir", 20), ("Dr", 3)]
    );
    assert_eq!(fold(&p, 0), "f 17\ng 3\n");
    assert_eq!(fold(&p, 1), "f 3\n");
    assert!(p.meta.warnings.is_empty(), "{:?}", p.meta.warnings);
}

#[test]
fn names_shared_by_functions_get_their_file() {
    let text = "events: Ir\nfl=a.c\nfn=f\n1 1\nfl=b.c\nfn=f\n1 2\nfi=c.h\n2 3\ncfn=g\ncalls=1 1\n2 4\nfl=c.h\nfn=g\n1 4\n";
    let p = parse_in(text.as_bytes(), 3).unwrap();
    // fi= changes the file of the lines, not the function; the callee without cfi= is in the current file.
    assert_eq!(fold(&p, 0), "f (a.c) 1\nf (b.c) 5\nf (b.c);g 4\n");
}

#[test]
fn recursion_keeps_self_costs() {
    // main → fib (10, all of fib's work); fib → fib counted again per level.
    let text = "events: Ir\nfn=main\n1 1\ncfn=fib\ncalls=1 1\n1 10\nfn=fib\n1 10\ncfn=fib\ncalls=9 1\n1 45\n";
    let p = parse_in(text.as_bytes(), 4).unwrap();
    assert_eq!(fold(&p, 0), "main 1\nmain;fib 10\n");
    assert!(p.meta.info.iter().any(|(k, _)| k == "recursion"));
}

#[test]
fn hostile_lines_are_counted_warnings_or_typed_errors() {
    // A cost line before `events:` is an error with its line.
    let e = parse_in(b"fn=main\n1 2\n", 64).unwrap_err();
    assert_eq!(
        (e.kind, e.line, e.offset),
        (ImportErrorKind::Malformed, Some(2), 8)
    );
    // No events at all; no cost lines.
    assert_eq!(
        parse_in(b"version: 1\n", 64).unwrap_err().kind,
        ImportErrorKind::Malformed
    );
    assert_eq!(
        parse_in(b"events: Ir\nfn=a\n", 64).unwrap_err().kind,
        ImportErrorKind::NoValidRecords
    );
    // Too many events.
    let many = format!(
        "events: {}\n",
        (0..300).map(|i| format!("e{i}")).collect::<Vec<_>>().join(" ")
    );
    assert_eq!(
        parse_in(many.as_bytes(), 64).unwrap_err().kind,
        ImportErrorKind::LimitExceeded
    );
    // Bad costs, an undefined id, a call without a callee, an unknown spec, a cost line before fn=, a sum
    // past 2^64, totals that disagree: warnings, the rest read.
    let text = "events: Ir\n1 5\nfn=(7)\n1 x\n1 1 1\nq 1\ncalls=1 2\n3 4\nzz=1\nfn=main\n1 2\n1 18446744073709551615\ntotals: 3\n";
    let p = parse_in(text.as_bytes(), 3).unwrap();
    let kinds: Vec<(WarningKind, u64)> = p.meta.warnings.kinds.iter().map(|k| (k.kind, k.count)).collect();
    assert_eq!(
        kinds,
        [
            (WarningKind::UnreadableLine, 5),
            (WarningKind::BadCount, 2),
            (WarningKind::Overflow, 1),
            (WarningKind::Inconsistent, 1)
        ],
        "{:?}",
        p.meta.warnings.summary()
    );
    assert_eq!(fold(&p, 0), format!("main {}\n", u64::MAX));
    // A part naming other events is an error.
    let e = parse_in(b"events: Ir\nfn=a\n1 1\nevents: Dr\n", 64).unwrap_err();
    assert_eq!((e.kind, e.line), (ImportErrorKind::Malformed, Some(4)));
}
