//! Unit tests of the folded importer.
use super::*;

#[test]
fn counts() {
    assert_eq!(
        parse_count(b"12"),
        Some(Count {
            mantissa: 12,
            decimals: 0,
            truncated: false
        })
    );
    assert_eq!(
        parse_count(b"31.23"),
        Some(Count {
            mantissa: 3123,
            decimals: 2,
            truncated: false
        })
    );
    assert_eq!(
        parse_count(b"12.0"),
        Some(Count {
            mantissa: 12,
            decimals: 0,
            truncated: false
        })
    );
    assert_eq!(
        parse_count(b"18446744073709551615").map(|c| c.mantissa),
        Some(u64::MAX)
    );
    assert_eq!(parse_count(b"18446744073709551616"), None);
}

#[test]
fn basic_and_warnings() {
    let p = parse(b"a;b 3\r\n\n# comment\na;b 2\nBAD LINE\na;c 1.5\n").unwrap();
    assert_eq!(p.meta.decimals, 1);
    assert_eq!(p.total(), 65);
    assert_eq!(p.meta.records, 3);
    assert_eq!(p.meta.warnings.count, 1);
    assert_eq!(p.meta.warnings.first[0].line, 5);
    assert_eq!(p.samples.len(), 2);
    p.validate().unwrap();
}

#[test]
fn kinds_are_attributes() {
    let p = parse(b"java;foo_[j];bar_[k] 1\n").unwrap();
    let names: Vec<_> = (0..p.frames.len())
        .map(|i| p.frame_name(crate::FrameId(i as u32)))
        .collect();
    assert_eq!(names, ["java", "foo", "bar"]);
    assert_eq!(
        p.frames.kind,
        [FrameKind::User, FrameKind::Jit, FrameKind::Kernel]
    );
}

#[test]
fn two_counts_are_base_and_target() {
    let p = parse(b"a;b 12 40\na;c 1 2\na;d 5\n").unwrap();
    let names: Vec<_> = p.events.iter().map(|e| (e.name.as_str(), e.total)).collect();
    assert_eq!(names, [("base", 13), ("target", 47)]);
    assert_eq!(p.meta.default_event, 1);
    assert_eq!(p.meta.warnings.count, 0);
    p.validate().unwrap();
}

#[test]
fn empty_and_all_bad() {
    assert_eq!(parse(b"").unwrap_err().kind, ImportErrorKind::Empty);
    assert_eq!(parse(b"# only\n\n").unwrap_err().kind, ImportErrorKind::Empty);
    let e = parse(b"x\ny\n").unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::NoValidRecords);
    assert_eq!(e.line, Some(1));
}

#[test]
fn a_line_with_no_stack_is_a_sample_on_the_root() {
    // py-spy writes ` 7` for samples it could not unwind; flamegraph.pl and inferno count them in the total.
    let p = parse(b"a;b 3\n 7\n\t2\n").unwrap();
    assert_eq!(p.total(), 12);
    assert_eq!(p.meta.records, 3);
    assert_eq!(p.meta.warnings.count, 0);
    assert!(p.samples.stack.contains(&EMPTY_STACK));
    p.validate().unwrap();
    // The export writes it back the same way, so the total round-trips.
    let text = crate::export::to_folded(&p);
    assert_eq!(text, " 9\na;b 3\n");
    assert_eq!(parse(text.as_bytes()).unwrap().total(), 12);
    let view = crate::ViewOptions::default_for(&p);
    assert_eq!(crate::export::to_folded_view(&p, &view), text);
    // A count alone, with nothing before it, is still not a line.
    let p = parse(b"a;b 3\n7\n").unwrap();
    assert_eq!((p.total(), p.meta.warnings.count), (3, 1));
    // Only empty stacks: a profile, not an error.
    assert_eq!(parse(b" 5\n").unwrap().total(), 5);
    // Fractional, and in a two-count file.
    assert_eq!(parse(b"a 1.5\n 2\n").unwrap().total(), 35);
    let p = parse(b"a 1 2\n 3 4\n").unwrap();
    let totals: Vec<_> = p.events.iter().map(|e| e.total).collect();
    assert_eq!(totals, [1, 6]);
}

#[test]
fn only_one_space_separates_the_count() {
    // flamegraph.pl's `^(.*)\s+?(\d+)$`: the last frame keeps the other spaces.
    let p = parse(b"a;b  7\n  c;d 1\n").unwrap();
    let names: Vec<_> = (0..p.frames.len())
        .map(|i| p.frame_name(crate::FrameId(i as u32)))
        .collect();
    assert_eq!(names, ["a", "b ", "c", "d"]);
    assert_eq!(crate::export::to_folded(&p), "a;b  7\nc;d 1\n");
}

#[test]
fn overflow_is_an_error() {
    let e = parse(b"a 18446744073709551615\nb 1\n").unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::Overflow);
    assert_eq!(e.line, Some(2));
}
