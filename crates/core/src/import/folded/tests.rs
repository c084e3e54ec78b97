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

/// Lines that share a prefix with the one before in every way (repeats, prefixes, extensions, a frame that is a
/// prefix of another, empty frames, a trailing `;`, paths revisited out of order, invalid UTF-8): each sample's
/// path is its line's, summed per path as a plain split of the lines gives, and no (parent, frame) row twice.
#[test]
fn lines_sharing_prefixes_keep_their_paths() {
    let input: &[u8] = b"a;b;c 1\na;b;c 2\na;b 3\na;b;c;d 4\na;bc 5\na;b;cd 6\na;;b 7\na;; 8\na; 9\n\
        x;y 10\na;b;c 11\na 12\nab;c 13\na;\xff;z 14\na;\xfe;z 15\n";
    let p = parse(input).unwrap();
    p.validate().unwrap();
    let mut want: std::collections::BTreeMap<String, u64> = Default::default();
    for line in input.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let sp = line.iter().rposition(|&b| b == b' ').unwrap();
        let count: u64 = std::str::from_utf8(&line[sp + 1..]).unwrap().parse().unwrap();
        *want
            .entry(String::from_utf8_lossy(&line[..sp]).into_owned())
            .or_default() += count;
    }
    let mut got: std::collections::BTreeMap<String, u64> = Default::default();
    for i in 0..p.samples.len() {
        let mut names = Vec::new();
        let mut s = Some(p.samples.stack[i]);
        while let Some(st) = s {
            names.push(p.frame_name(p.stacks.frame[st.idx()]).to_string());
            s = p.stacks.parent(st);
        }
        names.reverse();
        *got.entry(names.join(";")).or_default() += p.samples.weight[i];
    }
    assert_eq!(got, want);
    let mut rows = std::collections::HashSet::new();
    for (par, f) in p.stacks.parent.iter().zip(&p.stacks.frame) {
        assert!(rows.insert((*par, *f)), "row ({par}, {f:?}) twice");
    }
}
