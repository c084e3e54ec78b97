//! Hostile and broken input, each with its expected outcome: a typed error or a profile, never a panic, never a
//! wrong number shown silently. The same cases run in the browser (tests/e2e/adversarial.test.mjs).

use scorch_core::view::calltree::{CallTree, Order};
use scorch_core::{export, import_bytes, FlameLayout, ImportErrorKind, ImportOptions, Profile, ViewOptions};
use std::io::Write;

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn ok(bytes: &[u8]) -> Profile {
    let p = import_bytes(bytes, ImportOptions::default()).unwrap().profile;
    p.validate().unwrap();
    // Everything downstream copes too.
    let v = ViewOptions::default_for(&p);
    let t = CallTree::build(&p, &v, Order::Alphabetical);
    let _ = FlameLayout::new(&t);
    let _ = export::to_folded_view(&p, &v);
    p
}

fn err(bytes: &[u8]) -> scorch_core::ImportError {
    import_bytes(bytes, ImportOptions::default())
        .map(|_| ())
        .unwrap_err()
}

#[test]
fn empty_tiny_random_and_binary() {
    assert_eq!(err(b"").kind, ImportErrorKind::Empty);
    assert_eq!(err(b"a").kind, ImportErrorKind::UnknownFormat);
    assert_eq!(err(b"\n\n  \r\n").kind, ImportErrorKind::Empty);
    let mut x: u64 = 42;
    let noise: Vec<u8> = (0..100_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    assert!(import_bytes(&noise, ImportOptions::default()).is_err());
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0";
    let e = err(png);
    assert!(e.message.contains("PNG"), "{e}");
}

#[test]
fn broken_and_hostile_gzip() {
    let z = gz(&b"main;a 1\n".repeat(10_000));
    assert_eq!(err(&z[..z.len() / 3]).kind, ImportErrorKind::Gzip);
    // A bomb: 100 MB of valid folded lines in ~100 KB; a 10 MB cap stops it with an error naming the limit.
    let bomb = gz(&b"a;b 1\n".repeat(100 << 20 >> 3));
    assert!(bomb.len() < 2 << 20);
    let e = import_bytes(
        &bomb,
        ImportOptions {
            max_decompressed: 10 << 20,
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::LimitExceeded);
    assert!(e.to_string().contains("limit of 10485760 bytes"), "{e}");
}

#[test]
fn counts_at_and_over_u64_max() {
    let p = ok(b"a 18446744073709551615\n");
    assert_eq!(p.total(), u64::MAX);
    let e = err(b"a 18446744073709551615\nb 1\n");
    assert_eq!(
        (e.kind, e.line),
        (ImportErrorKind::Overflow, Some(2)),
        "a sum past 2^64 is an error, not a wrapped number"
    );
    let e = err(b"a 18446744073709551616\n");
    assert_eq!(e.kind, ImportErrorKind::NoValidRecords, "{e}");
}

#[test]
fn a_100_000_frame_stack() {
    let frames: Vec<String> = (0..100_000).map(|i| format!("f{}", i % 97)).collect();
    let line = format!("{} 5\n", frames.join(";"));
    // No recursion follows the input: this runs on a small thread stack.
    let handle = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let p = ok(line.as_bytes());
            (p.max_depth(), p.total())
        })
        .unwrap();
    assert_eq!(handle.join().unwrap(), (100_000, 5));
}

#[test]
fn a_10_mb_line_nul_bytes_invalid_utf8_crlf() {
    let long = format!("main;{} 7\n", "x".repeat(10 << 20));
    let p = ok(long.as_bytes());
    assert_eq!(p.total(), 7);
    let p = ok(b"a\0b;c 1\r\nd\xff\xfe;e 2\r\n");
    assert_eq!(p.total(), 3);
    assert_eq!(
        p.meta.warnings.count, 1,
        "invalid UTF-8 is shown replaced and counted"
    );
    assert!(export::to_folded(&p).contains("d\u{fffd}\u{fffd};e 2"));
}

#[test]
fn names_are_data_not_markup() {
    let text = "<script>alert(1)</script>;\"quoted\" name;<img src=x onerror=alert(2)>;\u{202e}gnp.exe 3\n";
    let p = ok(text.as_bytes());
    let folded = export::to_folded(&p);
    assert_eq!(folded, text, "names come back byte for byte");
}

/// A file's profile goes into a link and comes back with the same folded stacks; returns the profile.
fn link_round_trips(path: &std::path::Path) -> Profile {
    let p = ok(&std::fs::read(path).unwrap());
    let v = ViewOptions::default_for(&p);
    let s = scorch_core::export::links::encode(&p, &v, scorch_core::export::links::DEFAULT_MAX);
    let back = ok(&scorch_core::export::links::decode(&s.payload).unwrap());
    assert_eq!(
        export::to_folded_view(&back, &ViewOptions::default_for(&back)),
        export::to_folded_view(&p, &v),
        "{}",
        path.display()
    );
    p
}

/// Inputs the fuzzers found (`fuzz/`), kept as regression tests: each must survive the check its target makes.
#[test]
fn fuzz_findings() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    // perfdata (30-minute run, 2026-11-27): an MMAP record's page offset near 2^64 overflowed the file offset
    // of an address in that mapping (`ip - start + pgoff`). It wraps now, as perf's own `map__map_ip` does.
    let data = std::fs::read(dir.join("perfdata-mapping-offset-overflow.data")).unwrap();
    let _ = scorch_core::import_bytes(&data, scorch_core::ImportOptions::default());

    // link: a mutated perf frame line gave a name with a trailing space, which folded text (a link) cannot
    // carry: the profile did not come back the same. Names are now trimmed.
    link_round_trips(&dir.join("link-trailing-space.perf"));

    // link: a perf header whose timestamp did not parse left a process named `dd 29776 666709.78206`; in the
    // link's folded text `dd 29776 666709.78206 1` read back as a two-count line. scorch's own links (marked by
    // their `# scorch-unit:` header) have one count per line, so a name ending in numbers stays a name.
    link_round_trips(&dir.join("link-name-ending-in-numbers.perf"));

    // link (30-minute run, 2026-11-23): two stacks of a mutated perf file read the same as folded text
    // (`dd;[unknown];write;…`), so the view's folded text had that line twice while its link summed them.
    // A view's folded entries now hold each text once, weights summed.
    let p = link_round_trips(&dir.join("link-two-stacks-same-text.perf"));
    // The whole-profile export (`scorch fold`) and the signed view export hold each text once too, and keep
    // every sample's weight.
    let v = ViewOptions::default_for(&p);
    let view_total = export::folded_entries(&p, &v).iter().map(|e| e.1).sum::<u64>();
    for (text, total) in [
        (export::to_folded(&p), p.total()),
        (export::to_folded_signed(&p, &v), view_total),
    ] {
        let lines: Vec<(&str, u64)> = text
            .lines()
            .map(|l| l.rsplit_once(' ').unwrap())
            .map(|(s, w)| (s, w.parse().unwrap()))
            .collect();
        let distinct: std::collections::HashSet<&str> = lines.iter().map(|l| l.0).collect();
        assert_eq!(distinct.len(), lines.len(), "a stack's text is written once");
        assert_eq!(lines.iter().map(|l| l.1).sum::<u64>(), total);
    }

    // link: a folded stack whose first frame reads like a perf header (`dd 29776 666709.792207:  …`) came back
    // from its link as perf script. scorch's own payloads are now recognised by their `# scorch-unit:` line.
    // The file itself is mostly not folded (one stack among eight lines) and is refused since issue #40
    // (docs/FORMATS.md); its stack line, alone, is folded and must come back from its link.
    let data = std::fs::read(dir.join("link-stack-like-perf-header.bin")).unwrap();
    let whole = scorch_core::import_bytes(&data, scorch_core::ImportOptions::default());
    assert_eq!(
        whole.unwrap_err().kind,
        scorch_core::ImportErrorKind::UnknownFormat
    );
    let text = String::from_utf8_lossy(&data);
    let line = text
        .lines()
        .find(|l| l.starts_with("dd 29776 666709.792207:"))
        .unwrap();
    let data = format!("{line}\n").into_bytes();
    if let Ok(imp) = scorch_core::import_bytes(&data, scorch_core::ImportOptions::default()) {
        let p = imp.profile;
        let v = ViewOptions::default_for(&p);
        let s = scorch_core::export::links::encode(&p, &v, scorch_core::export::links::DEFAULT_MAX);
        let back = ok(&scorch_core::export::links::decode(&s.payload).unwrap());
        assert_eq!(
            export::to_folded_view(&back, &ViewOptions::default_for(&back)),
            export::to_folded_view(&p, &v)
        );
    } else {
        panic!("the fuzz input imports");
    }

    // link: a stack that is a lone frame named `#` (`# 1` in folded text) vanished from its link as a comment.
    // A payload's header now ends with `# scorch-data`; every line after it is a stack.
    let p = link_round_trips(&dir.join("link-frame-named-hash.bin"));
    let v = ViewOptions::default_for(&p);
    assert!(export::to_folded_view(&p, &v).lines().any(|l| l.starts_with('#')));

    // link: a name with leading spaces (from perf's fallback for a mangled frame line) lost them in its link,
    // whose lines were trimmed. A link's stacks (after `# scorch-data`) are now read exactly.
    link_round_trips(&dir.join("link-name-with-leading-spaces.bin"));

    // link: a stack whose first frame has an empty name lost that frame's separator in the view's folded text
    // (`;a;b` written as `a;b`), so its link came back different. An empty name is still a frame.
    link_round_trips(&dir.join("link-empty-first-frame.bin"));

    // folded: input in the link dialect (it has a `# scorch-unit:` line) keeps `X 2` as a name with count 2; its
    // plain export `X 2 2` is a two-count line to any folded reader. In the dialect it round-trips.
    let data = std::fs::read(dir.join("folded-link-dialect-name-ending-in-number.folded")).unwrap();
    let p = scorch_core::import::folded::parse(&data).unwrap();
    assert!(p.events.is_empty(), "one count per line in the link dialect");
    let text = format!("# scorch-unit: samples\n{}", export::to_folded(&p));
    let again = scorch_core::import::folded::parse(text.as_bytes()).unwrap();
    assert_eq!(export::to_folded(&again), export::to_folded(&p));

    // folded: `n 1<TAB><TAB>0` read as one frame `n 1` with count 0, but its export `n 1 0` read back as two
    // counts. The second count is now looked for after trimming, so both read as a differential line.
    let data = std::fs::read(dir.join("folded-tab-before-count.folded")).unwrap();
    let p = scorch_core::import::folded::parse(&data).unwrap();
    assert_eq!(p.events.len(), 2, "two counts: base and target");
    let again = scorch_core::import::folded::parse(export::to_folded(&p).as_bytes()).unwrap();
    assert_eq!(export::to_folded(&again), export::to_folded(&p));
}

/// The worker's buffer brings back the same profile, for every corpus format; a damaged buffer is an error.
#[test]
fn wire_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut seen = 0;
    let files = ["perf", "pprof", "folded", "perf-made"]
        .iter()
        .flat_map(|d| std::fs::read_dir(dir.join(d)).unwrap())
        .map(|e| e.unwrap().path());
    for path in files {
        if !path.is_file() {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let Ok(imported) = scorch_core::import_bytes(&bytes, scorch_core::ImportOptions::default()) else {
            continue;
        };
        let buf = scorch_core::model::wire::encode(&imported).unwrap();
        let back = scorch_core::model::wire::decode(&buf).unwrap();
        back.profile.validate().unwrap();
        // The big columns apart (as the worker sends them), then back.
        let mut rest = imported.clone();
        let cols = scorch_core::model::wire::take_columns(&mut rest);
        let mut joined =
            scorch_core::model::wire::decode(&scorch_core::model::wire::encode(&rest).unwrap()).unwrap();
        // The same, made from a profile that keeps its columns (the page's profile sent to the view engine).
        let copied: Vec<Vec<u32>> = (0..scorch_core::model::wire::U32_COLUMNS)
            .map(|i| scorch_core::model::wire::u32_column(&imported, i).into_owned())
            .collect();
        assert_eq!(copied, cols.u32s);
        assert_eq!(
            scorch_core::model::wire::encode_rest(&imported).unwrap(),
            scorch_core::model::wire::encode(&rest).unwrap()
        );
        let mut short = cols.clone();
        short.u64s[0].push(1);
        assert!(scorch_core::model::wire::put_columns(&mut joined.clone(), short).is_err());
        let mut bad_kind = cols.clone();
        if let Some(k) = bad_kind.u32s[4].first_mut() {
            *k = 9;
            assert!(scorch_core::model::wire::put_columns(&mut joined.clone(), bad_kind).is_err());
        }
        let mut short = cols.clone();
        short.u32s[3].push(0);
        assert!(scorch_core::model::wire::put_columns(&mut joined.clone(), short).is_err());
        scorch_core::model::wire::put_columns(&mut joined, cols).unwrap();
        joined.profile.validate().unwrap();
        assert_eq!(joined.profile.samples.stack, imported.profile.samples.stack);
        assert_eq!(joined.profile.stacks.parent, imported.profile.stacks.parent);
        let view = scorch_core::ViewOptions::default_for(&imported.profile);
        assert_eq!(
            scorch_core::export::folded_entries(&joined.profile, &view),
            scorch_core::export::folded_entries(&imported.profile, &view),
            "{}",
            path.display()
        );
        assert_eq!(
            scorch_core::export::folded_entries(&back.profile, &view),
            scorch_core::export::folded_entries(&imported.profile, &view),
            "{}",
            path.display()
        );
        assert_eq!(back.profile.samples.time_ns, imported.profile.samples.time_ns);
        assert_eq!(back.profile.meta.info, imported.profile.meta.info);
        assert_eq!(back.profile.events, imported.profile.events);
        assert_eq!((back.gzip, back.bytes), (imported.gzip, imported.bytes));
        if imported.profile.meta.format != scorch_core::Format::Pprof {
            // Text goes as its distinct content: far smaller than the input.
            assert!(
                buf.len() as u64 <= imported.bytes / 2 + 4096,
                "{}",
                path.display()
            );
        }
        // Truncated or from another version: an error, never a panic.
        for cut in [0, 1, buf.len() / 2, buf.len() - 1] {
            assert!(scorch_core::model::wire::decode(&buf[..cut]).is_err());
        }
        let mut other = buf.clone();
        *other.last_mut().unwrap() = 99;
        assert!(scorch_core::model::wire::decode(&other)
            .unwrap_err()
            .to_string()
            .contains("another version"));
        seen += 1;
    }
    assert!(seen >= 5, "only {seen} profiles round-tripped");
}
