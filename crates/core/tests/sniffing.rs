//! What the sniffer must not claim: text that is mostly not the format it asks about (issue #40, item 6).
//! The rule (docs/FORMATS.md): folded only when at least half of the sniffing window's non-blank, non-`#`
//! lines read as `stack COUNT` with a stack that is not a bare number.

mod common;

use common::{chunked, data, load};
use scorch_core::{ImportErrorKind, ImportOptions, Loader};

/// A real callgrind file (tests/data/callgrind/README.md): its cost lines end in a number, so most lines "have
/// a count" — yet the folded sniffer refuses it, and it is read as callgrind (its own first line), the same in
/// chunks of any size.
#[test]
fn a_callgrind_file_is_not_taken_for_folded_stacks() {
    let bytes = data("callgrind", "callgrind.out.test");
    let text = String::from_utf8(bytes.clone()).unwrap();
    let real: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let cost_lines = real
        .iter()
        .filter(|l| {
            let (pos, cost) = l.rsplit_once(' ').unwrap_or(("x", "x"));
            cost.bytes().all(|b| b.is_ascii_digit())
                && pos.bytes().all(|b| b.is_ascii_digit() || b"+-*".contains(&b))
        })
        .count();
    assert!(cost_lines * 2 > real.len(), "{cost_lines} of {}", real.len());
    use scorch_core::import::folded::FoldedFormat;
    use scorch_core::import::{Applicable, Importer};
    assert_eq!(
        FoldedFormat.is_applicable(&bytes[..bytes.len().min(65536)], true),
        Applicable::No
    );
    // Without its first line (older callgrind files have none) it is not folded either: its header says what it is.
    let headless = text.split_once('\n').unwrap().1;
    assert_eq!(
        FoldedFormat.is_applicable(headless.as_bytes(), true),
        Applicable::No
    );
    let p = common::same_however_cut("callgrind", "callgrind.out.test", scorch_core::Format::Callgrind);
    assert_eq!(load(headless.as_bytes()).unwrap().total(), p.total());
    // The file's own `summary:` line.
    let summary: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("summary: "))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(p.total(), summary);
    let mut l = Loader::new(ImportOptions::default());
    bytes.chunks(1000).try_for_each(|c| l.feed(c)).unwrap();
    assert_eq!(l.finish().unwrap().profile.total(), summary);
    assert_eq!(
        ImportErrorKind::UnknownFormat,
        load(b"not a profile\n").unwrap_err().kind
    );
}

/// The boundary: half the lines bad is still folded (with its warnings), more than half is refused.
#[test]
fn at_most_half_of_the_lines_may_be_something_else() {
    let mut half = String::new();
    for i in 0..5 {
        half.push_str(&format!("main;f{i} {}\nnot a stack line\n", i + 1));
    }
    let p = load(half.as_bytes()).unwrap();
    assert_eq!(p.total(), 15);
    assert_eq!(p.meta.warnings.count, 5);
    assert_eq!(chunked(half.as_bytes(), 7).total(), 15);

    let more = format!("{half}one more bad line\n");
    let e = load(more.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::UnknownFormat, "{e}");

    // Bare numbers before the count are not stacks: `30 18`, `+4 2`, `* 3`.
    let numbers = "main;a 3\n30 18\n+4 2\n* 3\n";
    assert_eq!(
        load(numbers.as_bytes()).unwrap_err().kind,
        ImportErrorKind::UnknownFormat
    );
}

/// Every folded file of the corpus is still read: its share of lines that are not stacks, counted here, is at
/// most a half (inf-bad-lines.txt: 2 of 9).
#[test]
fn the_folded_corpus_stays_folded() {
    let dir = format!("{}/tests/data/folded", env!("CARGO_MANIFEST_DIR"));
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name == "NOTICE.md" || name.contains("utf16") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let (mut real, mut bad) = (0, 0);
        for l in text.lines().map(str::trim) {
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            real += 1;
            let count = l.rsplit([' ', '\t']).next().unwrap_or("");
            if l.len() == count.len() || !count.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
                bad += 1;
            }
        }
        assert!(bad * 2 <= real, "{name}: {bad} of {real}");
        let p = load(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(p.meta.warnings.count >= bad as u64, "{name}");
    }
}

/// A V8 heap profile (`crates/cli/tests/data/heapprofile/PROVENANCE.md`) has `callFrame`s as a `.cpuprofile`
/// has, under `head` instead of `nodes`: it is read as a heap profile, the same in chunks of any size and
/// gzip'd, and its first bytes are not taken for a `.cpuprofile` or a trace.
#[test]
fn a_heap_profile_is_not_a_cpu_profile() {
    use scorch_core::import::v8::{ChromeTraceFormat, CpuProfileFormat};
    use scorch_core::import::{Applicable, Importer};
    let dir = "../../../cli/tests/data/heapprofile";
    let bytes = data(dir, "prog.heapprofile");
    let p = common::same_however_cut(dir, "prog.heapprofile", scorch_core::Format::V8HeapProfile);
    assert_eq!(p.events.len(), 2);
    for at_end in [false, true] {
        assert_ne!(
            CpuProfileFormat.is_applicable(&bytes[..4096], at_end),
            Applicable::Yes
        );
        assert_ne!(
            ChromeTraceFormat.is_applicable(&bytes[..4096], at_end),
            Applicable::Yes
        );
    }
    assert_eq!(CpuProfileFormat.is_applicable(&bytes, true), Applicable::No);
}

/// A cProfile file (`crates/cli/tests/data/cprofile/PROVENANCE.md`) is binary marshal: it is read as cProfile
/// (not pprof, not JSON, whose first byte `{` it shares without `FLAG_REF`), the same in chunks and gzip'd.
#[test]
fn a_pstats_file_is_read_as_cprofile() {
    let dir = "../../../cli/tests/data/cprofile";
    let p = common::same_however_cut(dir, "prog.prof", scorch_core::Format::Cprofile);
    assert_eq!(p.events.len(), 3);
    // Without `FLAG_REF` (marshal before version 3) its first byte is JSON's `{`: still cProfile.
    let mut old = data(dir, "prog.prof");
    old[0] &= 0x7f;
    old[1] &= 0x7f;
    let e = load(&old).unwrap_err();
    assert_eq!(e.format, Some(scorch_core::Format::Cprofile), "{e}");
}

/// A DHAT profile (`crates/cli/tests/data/dhat/PROVENANCE.md`) is JSON that names itself by its first key: read
/// as DHAT, the same in chunks and gzip'd.
#[test]
fn a_dhat_file_is_read_as_dhat() {
    let dir = "../../../cli/tests/data/dhat";
    let p = common::same_however_cut(dir, "dhat.out", scorch_core::Format::Dhat);
    assert_eq!(p.events.len(), 11);
}

/// A JFR recording (`crates/cli/tests/data/jfr/PROVENANCE.md`) starts with the chunk magic `FLR\0`: read as JFR,
/// the same in chunks and gzip'd; two recordings back to back (two chunks) are one recording of both.
#[test]
fn a_jfr_recording_is_read_as_jfr() {
    let dir = "../../../cli/tests/data/jfr";
    let p = common::same_however_cut(dir, "hot.jfr", scorch_core::Format::Jfr);
    assert_eq!(p.events.len(), 4);
    let mut two = data(dir, "hot.jfr");
    two.extend_from_slice(&data(dir, "hot.jfr"));
    let q = load(&two).unwrap();
    assert_eq!(q.samples.len(), 2 * p.samples.len());
    assert_eq!(q.events.len(), 4);
}
