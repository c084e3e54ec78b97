//! The parallel parse's merge: an input cut into slices at record boundaries, each slice parsed on its own and
//! the parts merged in order, gives the profile a single parse gives — every table, column, count, warning
//! (with its line and byte) and meta fact, compared as the profile's JSON, and the folded export — for every
//! folded and perf script file of the test data and 1, 2, 4 and 16 slices, and on the edge cases: a cut
//! inside a `#` header, one record, empty slices, CRLF, a record longer than a slice, facts that span slices
//! (lost events, timestamp-less samples, fractional counts, a declared unit, event periods).
//!
//! The single parse is the oracle here; it is itself checked against the producing tools' output by the corpus
//! tests (folded_corpus.rs, perf_corpus.rs). `merge` (appending two unrelated profiles) is checked against a
//! plain-text oracle: the folded lines of both inputs, summed by stack.

use scorch_core::export::to_folded;
use scorch_core::import::split::{
    merge_slices, next_boundary, parse_sliced, split, SliceParser, SlicePart, StreamCutter,
};
use scorch_core::model::merge::merge;
use scorch_core::{import_bytes, Format, ImportError, ImportErrorKind, ImportOptions, Profile};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

fn json(p: &Profile) -> String {
    serde_json::to_string(p).unwrap()
}

/// Every file under tests/data, decompressed, with its single parse, when that is folded or perf script.
fn corpus() -> Vec<(String, Vec<u8>, Profile)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
        &mut files,
    );
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let mut bytes = std::fs::read(&f).unwrap();
        if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut d = Vec::new();
            flate2::read::MultiGzDecoder::new(&bytes[..])
                .read_to_end(&mut d)
                .unwrap();
            bytes = d;
        }
        if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
            continue; // UTF-16 is transcoded by the loader and never split
        }
        let Ok(imp) = import_bytes(&bytes, ImportOptions::default()) else {
            continue;
        };
        if matches!(imp.profile.meta.format, Format::Folded | Format::PerfScript) {
            out.push((f.display().to_string(), bytes, imp.profile));
        }
    }
    out
}

fn sliced(format: Format, input: &[u8], n: usize) -> Option<Profile> {
    parse_sliced(format, input, n, &ImportOptions::default()).unwrap()
}

/// What the browser's parse workers do: every slice's part travels as bytes (`SlicePart::encode`) to the
/// worker that merges, except the merging worker's own (`first_local`).
fn over_the_wire(
    format: Format,
    input: &[u8],
    n: usize,
    first_local: bool,
    opts: &ImportOptions,
) -> Result<Option<Profile>, ImportError> {
    let results = split(format, input, n)
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let mut p = SliceParser::new(format, opts).unwrap();
            let result = p.feed(&input[r]).and_then(|()| p.finish());
            if i == 0 && first_local {
                result
            } else {
                SlicePart::decode_result(&SlicePart::encode_result(result).unwrap()).unwrap()
            }
        })
        .collect();
    merge_slices(results)
}

fn sliced_over_the_wire(format: Format, input: &[u8], n: usize, first_local: bool) -> Option<Profile> {
    over_the_wire(format, input, n, first_local, &ImportOptions::default()).unwrap()
}

fn assert_same(name: &str, n: usize, single: &Profile, merged: &Profile) {
    merged.validate().unwrap();
    assert_eq!(to_folded(merged), to_folded(single), "{name}, {n} slices: folded");
    assert_eq!(json(merged), json(single), "{name}, {n} slices: profile");
}

#[test]
fn every_corpus_file_in_1_2_4_and_more_slices_locally_and_over_the_wire() {
    let files = corpus();
    let (mut folded, mut perf, mut whole) = (0, 0, Vec::new());
    for (name, bytes, single) in &files {
        let format = single.meta.format;
        let mut merged_any = false;
        for n in [1, 2, 4, 16] {
            match sliced(format, bytes, n) {
                Some(p) => {
                    assert_same(name, n, single, &p);
                    merged_any = true;
                    // 1, 2 and 4 workers; the first part local (the merging worker's own) or not.
                    for first_local in [true, false].into_iter().filter(|_| n <= 4) {
                        let wired = sliced_over_the_wire(format, bytes, n, first_local).unwrap();
                        assert_same(name, n, single, &wired);
                    }
                }
                None => assert_eq!(format, Format::Folded, "{name}: only folded falls back"),
            }
        }
        match (merged_any, format) {
            (true, Format::Folded) => folded += 1,
            (true, _) => perf += 1,
            (false, _) => whole.push(name.clone()),
        }
    }
    // Only differential (two-count) files and scorch's links are parsed whole.
    for name in &whole {
        let single = &files.iter().find(|f| &f.0 == name).unwrap().2;
        let link = single.meta.info.iter().any(|(k, _)| k.contains("left out"));
        assert!(
            !single.events.is_empty() || link || name.contains("link") || name.contains("fuzz"),
            "{name} was not merged"
        );
    }
    assert!(
        folded >= 20 && perf >= 20,
        "too few files: {folded} folded, {perf} perf"
    );
}

/// Cuts at every boundary the splitter can find from every byte: two slices, merged, equal the single parse.
fn every_cut(format: Format, input: &[u8]) -> usize {
    let single = import_bytes(input, ImportOptions::default()).unwrap().profile;
    let mut cuts = std::collections::BTreeSet::new();
    for p in 0..input.len() {
        if let Some(i) = next_boundary(format, &input[p..]) {
            cuts.insert(p + i);
        }
    }
    for &c in &cuts {
        let mut results = Vec::new();
        for part in [&input[..c], &input[c..]] {
            let mut sp = SliceParser::new(format, &ImportOptions::default()).unwrap();
            // Chunked: three bytes at a time.
            for ch in part.chunks(3) {
                sp.feed(ch).unwrap();
            }
            results.push(sp.finish());
        }
        let p = merge_slices(results).unwrap().unwrap();
        assert_same(&format!("cut at {c}"), 2, &single, &p);
    }
    cuts.len()
}

const PERF: &str = "# ========\n# captured on    : Mon Nov 23 10:00:00 2026\n\n#\n# cmdline : perf record -g\n# ========\n#\n\n\
work 100/100 [000] 5.100000000: 250000 cpu-clock:\n\tffffffff81000001 do_syscall_64+0x1 ([kernel.kallsyms])\n\t401000 main+0x10 (/bin/work)\n\n\
work 100/101 [001] 5.200000000:          cycles:u:\n\t401010 leaf+0x4 (/bin/work)\n\t401000 main+0x10 (/bin/work)\n\n\
perf 0 [000] 5.300000000: PERF_RECORD_LOST lost 7\n\n\
work 100/100 [000] 6.100000000: 250000 cpu-clock:\n\t401020 other+0x1 (/bin/work)\n\t401000 main+0x10 (/bin/work)\n\n\
not a header at all\n\n\
work 100/101 [001] 6.200000000: 1000 cycles:u:\n\t401010 leaf+0x4 (/bin/work)\n\t401000 main+0x10 (/bin/work)\n\n";

#[test]
fn perf_cut_anywhere_inside_and_after_the_header() {
    let single = import_bytes(PERF.as_bytes(), ImportOptions::default())
        .unwrap()
        .profile;
    // The oracle facts of the text above: 4 samples, one warning on line 20, 7 lost events, cycles has a period.
    assert_eq!(single.meta.records, 4);
    assert_eq!(single.meta.warnings.count, 1);
    assert_eq!(single.meta.warnings.first[0].line, 23);
    assert_eq!(single.meta.lost.as_ref().unwrap().events, 7);
    assert_eq!(single.events[1].unit, scorch_core::Unit::Other("events".into()));
    assert!(every_cut(Format::PerfScript, PERF.as_bytes()) >= 8);
}

#[test]
fn perf_crlf_and_untimed_samples_across_slices() {
    let crlf = PERF.replace('\n', "\r\n");
    assert!(every_cut(Format::PerfScript, crlf.as_bytes()) >= 8);
    // The first slice timed, the second not: the times are dropped and one warning says so at the end.
    let untimed = format!("{PERF}work 100/100 [000]: 250000 cpu-clock:\n\t401000 main+0x10 (/bin/work)\n\n");
    let single = import_bytes(untimed.as_bytes(), ImportOptions::default())
        .unwrap()
        .profile;
    assert!(single.samples.time_ns.is_none());
    assert!(single
        .meta
        .warnings
        .first
        .iter()
        .any(|w| w.message.contains("1 of 5 samples")));
    every_cut(Format::PerfScript, untimed.as_bytes());
}

#[test]
fn perf_lost_records_of_both_kinds_in_different_slices() {
    // PERF_RECORD_LOST_SAMPLES counts only when no PERF_RECORD_LOST line is in the whole input.
    let text = format!("{PERF}perf 0 [000] 0.000000000: PERF_RECORD_LOST_SAMPLES lost 100\n\n");
    let single = import_bytes(text.as_bytes(), ImportOptions::default())
        .unwrap()
        .profile;
    assert_eq!(single.meta.lost.as_ref().unwrap().events, 7);
    every_cut(Format::PerfScript, text.as_bytes());
}

const FOLDED: &str =
    "# a comment\nmain;a;b 3\nmain;a;c 4\r\n 5\nno count here\nmain;a;b 2\n# unit: us\nmain;d 1\n";

#[test]
fn folded_cut_anywhere_with_crlf_frameless_lines_and_a_unit() {
    let single = import_bytes(FOLDED.as_bytes(), ImportOptions::default())
        .unwrap()
        .profile;
    assert_eq!(to_folded(&single), " 5\nmain;a;b 5\nmain;a;c 4\nmain;d 1\n");
    assert_eq!(single.total(), 15);
    assert_eq!(single.meta.unit, scorch_core::Unit::Microseconds);
    assert!(every_cut(Format::Folded, FOLDED.as_bytes()) >= 7);
}

#[test]
fn folded_fractional_counts_after_integer_ones() {
    let text = "main;a 3\nmain;b 1\nmain;a 0.25\nmain;c 2.5\n";
    let single = import_bytes(text.as_bytes(), ImportOptions::default())
        .unwrap()
        .profile;
    assert_eq!(single.meta.decimals, 2);
    assert_eq!(to_folded(&single), "main;a 3.25\nmain;b 1\nmain;c 2.5\n");
    every_cut(Format::Folded, text.as_bytes());
}

#[test]
fn one_record_empty_slices_and_a_record_longer_than_a_slice() {
    // One record: nowhere to cut, one slice.
    let one = "work 1/1 [000] 1.000000000: cpu-clock:\n\t401000 main+0x10 (/bin/work)\n";
    assert_eq!(split(Format::PerfScript, one.as_bytes(), 4).len(), 1);
    let single = import_bytes(one.as_bytes(), ImportOptions::default())
        .unwrap()
        .profile;
    assert_same(
        "one record",
        4,
        &single,
        &sliced(Format::PerfScript, one.as_bytes(), 4).unwrap(),
    );
    // Empty slices between and around real ones change nothing.
    let single = import_bytes(PERF.as_bytes(), ImportOptions::default())
        .unwrap()
        .profile;
    let ranges = split(Format::PerfScript, PERF.as_bytes(), 2);
    assert_eq!(ranges.len(), 2);
    let mut results = Vec::new();
    for r in [0..0, ranges[0].clone(), 0..0, ranges[1].clone(), 0..0] {
        let mut sp = SliceParser::new(Format::PerfScript, &ImportOptions::default()).unwrap();
        sp.feed(&PERF.as_bytes()[r]).unwrap();
        results.push(sp.finish());
    }
    assert_same(
        "empty slices",
        5,
        &single,
        &merge_slices(results).unwrap().unwrap(),
    );
    // A sample of 3,000 frames, much longer than a slice of 16: the cuts skip it.
    let mut long = String::from(PERF);
    long.push_str("deep 9/9 [000] 7.000000000: 1 cpu-clock:\n");
    for i in 0..3000 {
        long.push_str(&format!("\t{:x} f{i}+0x1 (/bin/deep)\n", 0x500000 + i));
    }
    long.push('\n');
    long.push_str(PERF.split("#\n").last().unwrap());
    let single = import_bytes(long.as_bytes(), ImportOptions::default())
        .unwrap()
        .profile;
    let ranges = split(Format::PerfScript, long.as_bytes(), 16);
    assert!(ranges.len() < 16 && ranges.len() > 2, "{}", ranges.len());
    assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
    assert_same(
        "long record",
        16,
        &single,
        &sliced(Format::PerfScript, long.as_bytes(), 16).unwrap(),
    );
}

#[test]
fn errors_are_positioned_in_the_whole_input() {
    let opts = ImportOptions {
        max_line: 40,
        ..ImportOptions::default()
    };
    let mut text = "main;a 1\n".repeat(50);
    text.push_str(&format!("main;{} 1\n", "x".repeat(60)));
    text.push_str(&"main;b 1\n".repeat(50));
    let single = import_bytes(text.as_bytes(), opts.clone()).unwrap_err();
    for n in [2, 3, 4, 8] {
        let e = parse_sliced(Format::Folded, text.as_bytes(), n, &opts).unwrap_err();
        assert_eq!(
            (e.kind.clone(), e.line, e.offset),
            (single.kind.clone(), single.line, single.offset)
        );
        assert_eq!(e.line, Some(51));
        // The same when the slices' results travel as bytes (the browser's parse workers).
        let e = over_the_wire(Format::Folded, text.as_bytes(), n, true, &opts).unwrap_err();
        assert_eq!(e, single);
    }
    // No record in any slice: the error a single parse of the slices' format gives, at the first skipped line.
    let bad = "no count\n".repeat(40);
    let e = parse_sliced(Format::Folded, bad.as_bytes(), 4, &ImportOptions::default()).unwrap_err();
    assert_eq!(
        (e.kind.clone(), e.line, e.offset),
        (ImportErrorKind::NoValidRecords, Some(1), 0)
    );
    assert!(e.message.contains("(40 lines skipped)"), "{e}");
}

#[test]
fn merging_two_unrelated_profiles_sums_their_stacks() {
    let a = "main;a;b 3\nmain;c 4\n";
    let b = "main;c 1\nother;x 2\n";
    let pa = import_bytes(a.as_bytes(), ImportOptions::default())
        .unwrap()
        .profile;
    let pb = import_bytes(b.as_bytes(), ImportOptions::default())
        .unwrap()
        .profile;
    let m = merge(pa, pb).unwrap();
    m.validate().unwrap();
    // Oracle: both texts' lines, summed by stack.
    let mut want: BTreeMap<&str, u64> = BTreeMap::new();
    for l in a.lines().chain(b.lines()) {
        let (s, c) = l.rsplit_once(' ').unwrap();
        *want.entry(s).or_default() += c.parse::<u64>().unwrap();
    }
    let want: String = want.iter().map(|(s, c)| format!("{s} {c}\n")).collect();
    assert_eq!(to_folded(&m), want);
    assert_eq!(m.total(), 10);
    assert_eq!(m.meta.records, 4);
}

#[test]
fn a_profile_with_repeated_frame_names_merges_into_one_prefix_tree() {
    // `add_frame` after an analysis pushes a string without interning it; two frames of B then map to one.
    let a = import_bytes(b"main;x 1\n", ImportOptions::default())
        .unwrap()
        .profile;
    let mut b = import_bytes(b"main;y 2\n", ImportOptions::default())
        .unwrap()
        .profile;
    let main2 = {
        let s = b.strings.push("main");
        b.frames.name.push(s);
        b.frames.kind.push(scorch_core::FrameKind::User);
        scorch_core::FrameId((b.frames.len() - 1) as u32)
    };
    let root = b.stacks.len() as u32;
    b.stacks.parent.push(scorch_core::model::NO_PARENT);
    b.stacks.frame.push(main2);
    b.stacks.parent.push(root);
    b.stacks.frame.push(
        b.frames
            .name
            .iter()
            .position(|&n| b.strings.get(n) == "y")
            .map(|i| scorch_core::FrameId(i as u32))
            .unwrap(),
    );
    b.validate().unwrap();
    let m = merge(a, b).unwrap();
    m.validate().unwrap();
    assert_eq!(m.stacks.len(), 3, "main, main;x, main;y");
    assert_eq!(to_folded(&m), "main;x 1\nmain;y 2\n");
}

mod random {
    //! Random inputs built from pieces of both formats, good and broken, cut at random boundaries.
    use super::*;
    use proptest::prelude::*;

    fn perf_piece() -> impl Strategy<Value = String> {
        prop_oneof![
            (0u32..4, 0u32..3, 1u64..5, prop::option::of(1u64..1000)).prop_map(|(c, e, t, p)| {
                let ev = ["cpu-clock:", "cycles:u:", "page-faults:"][e as usize];
                let per = p.map_or(String::new(), |p| format!("{p} "));
                format!("comm{c} 1/{c} [000] {t}.000000001: {per}{ev}\n")
            }),
            (0u32..6).prop_map(|f| format!("\t40{f:04x} f{f}+0x1 (/bin/x)\n")),
            (0u32..3).prop_map(|f| format!("\tffffffff8100{f:04x} k{f} ([kernel.kallsyms])\n")),
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("   \n".to_string()),
            Just("# comment\n".to_string()),
            Just("perf 0 [000] 3.0: PERF_RECORD_LOST lost 4\n".to_string()),
            Just("perf 0 [000] 0.0: PERF_RECORD_LOST_SAMPLES lost 9\n".to_string()),
            Just("comm9 7 2.5: cpu-clock:\n".to_string()),
            Just("garbage line\n".to_string()),
            Just("\tzz broken (frame\n".to_string()),
        ]
    }

    fn folded_piece() -> impl Strategy<Value = String> {
        prop_oneof![
            (prop::collection::vec(0u32..5, 1..6), 0u64..100).prop_map(|(fs, c)| {
                let s: Vec<String> = fs.iter().map(|f| format!("f{f}")).collect();
                format!("{} {c}\n", s.join(";"))
            }),
            (0u32..5, 0u64..100, 1u32..99).prop_map(|(f, c, d)| format!("main;f{f} {c}.{d}\n")),
            Just(" 3\n".to_string()),
            Just("main;x 2\r\n".to_string()),
            Just("\n".to_string()),
            Just("# unit: ms\n".to_string()),
            Just("# unit: parsecs\n".to_string()),
            Just("no count\n".to_string()),
        ]
    }

    fn check(format: Format, text: &str, n: usize) -> Result<(), TestCaseError> {
        let single = import_bytes(text.as_bytes(), ImportOptions::default());
        let sliced = parse_sliced(format, text.as_bytes(), n, &ImportOptions::default());
        match (single, sliced) {
            (Ok(s), Ok(Some(p))) if s.profile.meta.format == format => {
                prop_assert_eq!(json(&p), json(&s.profile));
            }
            // Sniffed as another format (or not at all): rejected (proptest fails when too many are).
            (Ok(s), _) if s.profile.meta.format != format => prop_assume!(false),
            (Err(e), _) if e.format != Some(format) => prop_assume!(false),
            (Err(e), Err(f)) => prop_assert_eq!((e.kind, e.line, e.offset), (f.kind, f.line, f.offset)),
            (a, b) => prop_assert!(
                false,
                "single {:?}, sliced {:?}",
                a.map(|_| ()),
                b.map(|p| p.is_some())
            ),
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn random_perf_sliced_equals_single(pieces in prop::collection::vec(perf_piece(), 1..80), n in 1usize..9) {
            let head = "comm0 1/0 [000] 1.000000001: cpu-clock:\n\t400000 f0+0x1 (/bin/x)\n\n";
            check(Format::PerfScript, &format!("{head}{}", pieces.concat()), n)?;
        }

        #[test]
        fn random_folded_sliced_equals_single(pieces in prop::collection::vec(folded_piece(), 1..60), n in 1usize..9) {
            check(Format::Folded, &format!("main;f0 1\n{}", pieces.concat()), n)?;
        }
    }
}

/// A download cut as it arrives (`StreamCutter`, the browser's parse workers) gives the slices `split` gives
/// the whole input, whatever the chunk sizes.
#[test]
fn streamed_cuts_equal_the_whole_inputs_cuts() {
    let files = corpus();
    let mut checked = 0;
    for (name, bytes, single) in &files {
        let format = single.meta.format;
        if !matches!(format, Format::Folded | Format::PerfScript) {
            continue;
        }
        for n in [2, 3, 4] {
            let want: Vec<&[u8]> = split(format, bytes, n).into_iter().map(|r| &bytes[r]).collect();
            for chunk in [1, 7, 4096, 1 << 20]
                .into_iter()
                .filter(|&c| c > 1 || bytes.len() < 200_000)
            {
                let mut cutter = StreamCutter::new(format, bytes.len() as u64, n);
                let mut got: Vec<Vec<u8>> = vec![Vec::new(); n];
                let mut out = |slice: usize, piece: &[u8]| -> Result<(), ()> {
                    got[slice].extend_from_slice(piece);
                    Ok(())
                };
                for (i, c) in bytes.chunks(chunk).enumerate() {
                    // Every other chunk offered whole first, as the browser's import worker does.
                    match (i % 2 == 0).then(|| cutter.take_whole(c.len())).flatten() {
                        Some(slice) => out(slice, c).unwrap(),
                        None => cutter.push(c, &mut out).unwrap(),
                    }
                }
                cutter.finish(&mut out).unwrap();
                // `split` leaves out a cut at the very end; the cutter hands the next slice nothing there.
                while got.len() > want.len() && got.last().is_some_and(Vec::is_empty) {
                    got.pop();
                }
                let got: Vec<&[u8]> = got.iter().map(Vec::as_slice).collect();
                assert_eq!(got, want, "{name}: {n} slices, chunks of {chunk}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 40, "{checked} files");
}

/// A part's bytes cut short anywhere, or with a byte changed, is an error or a part, never a panic; and a part
/// whose columns were cut, or that claims more values than it holds, is not taken as a shorter one.
#[test]
fn a_damaged_part_is_an_error_not_a_panic() {
    let input = b"main;work;leaf 3\nmain;idle 1\nmain;work 2\n";
    let mut p = SliceParser::new(Format::Folded, &ImportOptions::default()).unwrap();
    p.feed(input).unwrap();
    let bytes = SlicePart::encode_result(p.finish()).unwrap();
    let whole = SlicePart::decode_result(&bytes).unwrap().unwrap();
    let merged = merge_slices(vec![Ok(whole)]).unwrap().unwrap();
    assert_eq!(to_folded(&merged), "main;idle 1\nmain;work 2\nmain;work;leaf 3\n");
    for cut in 0..bytes.len() - 1 {
        // Each prefix (short of the whole) keeps the version byte at its end, so the shape is what is checked.
        let mut short = bytes[..cut].to_vec();
        short.push(*bytes.last().unwrap());
        assert!(
            SlicePart::decode_result(&short).is_err(),
            "cut at {cut} of {}",
            bytes.len()
        );
    }
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[i] ^= flip;
            let _ = SlicePart::decode_result(&bad);
        }
    }
    // The first column (stack parents) claiming 2^40 values: refused before anything is allocated.
    let mut huge = bytes.clone();
    huge[4..12].copy_from_slice(&(1u64 << 40).to_le_bytes());
    assert!(SlicePart::decode_result(&huge).is_err());
}
