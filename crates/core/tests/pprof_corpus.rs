//! Golden tests over 22 real pprof files: folded output per sample type against the official profile.proto
//! (Python protobuf) oracle, flat/cum per function against `go tool pprof -raw`, default sample types, inline
//! frames, labels, and broken input.

use scorch_core::analysis::top::top;
use scorch_core::export::to_folded_signed;
use scorch_core::view::{label_key, LabelFilter, RootMode, ViewOptions};
use scorch_core::{import_bytes, FrameKind, ImportErrorKind, ImportOptions, Profile};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pprof")
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "gz" || e == "pb"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    assert_eq!(v.len(), 22, "the pprof corpus copy is incomplete");
    v
}

fn gunzip(path: PathBuf) -> String {
    let mut s = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path:?}: {e}")))
        .read_to_string(&mut s)
        .unwrap();
    s
}

fn load(bytes: &[u8]) -> Profile {
    import_bytes(bytes, ImportOptions::default()).unwrap().profile
}

/// scorch's canonical folded text with the documented naming differences undone: kinds written as `_[i]`/`_[k]`
/// suffixes, and unsymbolized frames named `0xADDR (mapping)` where the oracle writes `0xADDR`.
fn normalise(folded: &str) -> Vec<String> {
    let mut out: Vec<String> = folded
        .lines()
        .map(|l| {
            let (stack, w) = l.rsplit_once(' ').unwrap();
            let frames: Vec<String> = stack
                .split(';')
                .map(|f| {
                    let f = f
                        .strip_suffix("_[i]")
                        .or_else(|| f.strip_suffix("_[k]"))
                        .unwrap_or(f);
                    match f.split_once(" (") {
                        Some((addr, _)) if addr.starts_with("0x") => addr.to_string(),
                        _ => f.to_string(),
                    }
                })
                .collect();
            format!("{} {w}", frames.join(";"))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_sample_type_folds_like_the_official_proto() {
    let mut compared = 0;
    for (name, bytes) in inputs() {
        let p = load(&bytes);
        p.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let meta = gunzip(dir().join(format!("oracle-official/{name}.meta.json.gz")));
        let types: Vec<String> = {
            let start = meta.find("\"sample_type\": [").unwrap();
            let list = &meta[start..meta[start..].find(']').unwrap() + start];
            list.split('"').skip(3).step_by(2).map(str::to_string).collect()
        };
        assert_eq!(
            p.events.iter().filter(|e| e.negative_of.is_none()).count(),
            types.len(),
            "{name}"
        );
        for (t, ty) in types.iter().enumerate() {
            let oracle = gunzip(dir().join(format!("oracle-official/{name}.{ty}.folded.gz")));
            let v = ViewOptions {
                event: Some(t as u16),
                ..ViewOptions::default_for(&p)
            };
            let ours = normalise(&to_folded_signed(&p, &v));
            let mut theirs: Vec<String> = oracle.lines().map(str::to_string).collect();
            theirs.sort();
            assert_eq!(ours, theirs, "{name} {ty}");
            compared += 1;
        }
        // Default sample type: default_sample_type when set, else the last.
        let default = meta
            .split("\"default_sample_type\": \"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let want = if default.is_empty() {
            types.len() - 1
        } else {
            types
                .iter()
                .position(|t| t.starts_with(&format!("{default}_")))
                .unwrap()
        };
        assert_eq!(
            ViewOptions::default_for(&p).event,
            Some(want as u16),
            "{name}: default sample type"
        );
    }
    assert_eq!(compared, 42);
}

/// flat and cum per function, derived from `go tool pprof -raw`: exact sample values and location ids.
fn go_top(raw: &str, t: usize) -> (BTreeMap<String, (i128, i128)>, i128) {
    let mut lines = raw.lines();
    let mut samples: Vec<(i128, Vec<u64>)> = Vec::new();
    let mut locs: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let mut section = "";
    let mut current = 0u64;
    for line in lines.by_ref() {
        match line {
            "Samples:" => section = "samples-header",
            "Locations" => section = "locations",
            "Mappings" => section = "mappings",
            _ => match section {
                "samples-header" => section = "samples",
                "samples" => {
                    if let Some((vals, ids)) = line.split_once(':') {
                        let vals: Vec<i128> =
                            vals.split_whitespace().filter_map(|x| x.parse().ok()).collect();
                        if vals.is_empty() || !ids.trim().chars().all(|c| c.is_ascii_digit() || c == ' ') {
                            continue; // a label line
                        }
                        let ids = ids.split_whitespace().map(|x| x.parse().unwrap()).collect();
                        samples.push((vals[t], ids));
                    }
                }
                "locations" => {
                    let body = line.trim_start();
                    let (text, new_id) = match body.split_once(": 0x") {
                        Some((id, rest)) if id.chars().all(|c| c.is_ascii_digit()) => {
                            let (addr, rest) = rest.split_once(' ').unwrap_or((rest, ""));
                            let rest = rest.trim_start();
                            let rest = if rest.starts_with("M=") {
                                rest.split_once(' ').map_or("", |(_, r)| r)
                            } else {
                                rest
                            };
                            current = id.parse().unwrap();
                            locs.insert(current, Vec::new());
                            if rest.trim().is_empty() {
                                locs.get_mut(&current).unwrap().push(format!("0x{addr}"));
                                continue;
                            }
                            (rest.to_string(), true)
                        }
                        _ => (body.to_string(), false),
                    };
                    let _ = new_id;
                    // `func file:line s=N`: the function is everything before the last ` file:line`.
                    let text = text.rsplit_once(" s=").map_or(text.as_str(), |(a, _)| a);
                    let func = text.rsplit_once(' ').map_or("", |(a, _)| a);
                    // Documented naming: a function without a name is `??`; control characters print as \xNN.
                    let func = if func.is_empty() {
                        "??".to_string()
                    } else {
                        escape(func)
                    };
                    locs.get_mut(&current).unwrap().push(func);
                }
                _ => {}
            },
        }
    }
    let mut out: BTreeMap<String, (i128, i128)> = BTreeMap::new();
    let mut total = 0;
    for (v, ids) in samples {
        total += v;
        let frames: Vec<&String> = ids.iter().flat_map(|id| locs[id].iter()).collect(); // leaf first
        if let Some(leaf) = frames.first() {
            out.entry((*leaf).clone()).or_default().0 += v;
        }
        let mut seen = std::collections::HashSet::new();
        for f in frames {
            if seen.insert(f) {
                out.entry(f.clone()).or_default().1 += v;
            }
        }
    }
    out.retain(|_, (f, c)| *f != 0 || *c != 0);
    (out, total)
}

fn escape(s: &str) -> String {
    s.chars()
        .map(|c| {
            if (c as u32) < 0x20 || c as u32 == 0x7f {
                format!("\\x{:02x}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[test]
fn top_equals_go_tool_pprof() {
    let mut compared = 0;
    for (name, bytes) in inputs() {
        let p = load(&bytes);
        let raw = gunzip(dir().join(format!("oracle-go/{name}.raw.txt.gz")));
        for t in 0..p.events.iter().filter(|e| e.negative_of.is_none()).count() {
            let (want, want_total) = go_top(&raw, t);
            let v = ViewOptions {
                event: Some(t as u16),
                ..ViewOptions::default_for(&p)
            };
            let (rows, total) = top(&p, &v);
            let got: BTreeMap<String, (i128, i128)> = rows
                .into_iter()
                .map(|r| {
                    let name = match r.name.split_once(" (") {
                        Some((addr, _)) if addr.starts_with("0x") => addr.to_string(),
                        _ => r.name,
                    };
                    (name, (r.flat, r.cum))
                })
                .collect();
            assert_eq!(total, want_total, "{name} type {t}: total");
            assert_eq!(got, want, "{name} type {t}");
            compared += 1;
        }
    }
    assert_eq!(compared, 42);
}

#[test]
fn inlined_lines_are_frames_marked_inline() {
    // parca-alloc_objects has 300 locations with inlined lines (up to 4 each); every line is a frame, all but
    // the outermost of a location inline.
    let p = load(&std::fs::read(dir().join("parca-alloc_objects.pb.gz")).unwrap());
    let inline = (0..p.frames.len())
        .filter(|&i| p.frames.kind[i] == FrameKind::Inline)
        .count();
    assert!(inline >= 100, "{inline} inline frames");
    let p = load(&std::fs::read(dir().join("gp-sample.cpu.pb.gz")).unwrap());
    let v = ViewOptions::default_for(&p);
    let folded = to_folded_signed(&p, &v);
    assert!(
        folded.contains("runtime.mapassign_fast64;runtime.tooManyOverflowBuckets_[i]"),
        "{folded}"
    );
}

#[test]
fn labels_filter_and_group() {
    let p = load(&std::fs::read(dir().join("parca-labels.pb.gz")).unwrap());
    let base = ViewOptions::default_for(&p);
    let api = label_key(&p, "api").unwrap();
    let grouped = ViewOptions {
        root: RootMode::Label(api),
        ..base.clone()
    };
    let lines = to_folded_signed(&p, &grouped);
    let labelled: std::collections::BTreeSet<&str> = lines
        .lines()
        .filter_map(|l| l.split(';').next().filter(|r| r.starts_with("api=")))
        .collect();
    assert_eq!(labelled.iter().copied().collect::<Vec<_>>(), ["api=query"]);
    // Filtering by each value partitions the labelled samples; together with the unlabelled ones, the whole.
    let (_, all) = top(&p, &base);
    let mut parts = 0;
    for root in &labelled {
        let f = LabelFilter::parse(&p, root).unwrap();
        let (_, t) = top(
            &p,
            &ViewOptions {
                label: Some(f),
                ..base.clone()
            },
        );
        assert!(t > 0);
        parts += t;
    }
    assert!(parts < all && parts > 0);
    assert!(LabelFilter::parse(&p, "nope=1").unwrap_err().contains("api"));
    // Numeric labels with units and ranges (pprof's bytes label on heap profiles).
    let p = load(&std::fs::read(dir().join("gp-java.heap.derived.pb.gz")).unwrap());
    let v = ViewOptions::default_for(&p);
    let (_, all) = top(&p, &v);
    let small = LabelFilter::parse(&p, "bytes=:1kb").unwrap();
    let large = LabelFilter::parse(&p, "bytes=1025:").unwrap();
    let (_, a) = top(
        &p,
        &ViewOptions {
            label: Some(small),
            ..v.clone()
        },
    );
    let (_, b) = top(
        &p,
        &ViewOptions {
            label: Some(large),
            ..v
        },
    );
    assert_eq!(a + b, all, "the two ranges split the samples");
    assert!(a > 0 && b > 0);
}

#[test]
fn drop_frames_are_applied_and_reported() {
    let p = load(&std::fs::read(dir().join("gp-java.heap.derived.pb.gz")).unwrap());
    let info: BTreeMap<_, _> = p.meta.info.iter().cloned().collect();
    assert!(info["drop_frames"].contains("applied as pprof does"), "{info:?}");
    assert!(info.contains_key("keep_frames"));
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn broken_input_gives_clear_errors() {
    let good = std::fs::read(dir().join("gp-sample.cpu.pb")).unwrap();
    let kind = |bytes: &[u8]| {
        import_bytes(bytes, ImportOptions::default())
            .map(|_| ())
            .unwrap_err()
    };
    // Truncated: the message ends inside a field.
    let e = kind(&good[..good.len() / 2]);
    assert_eq!(e.format, Some(scorch_core::Format::Pprof));
    assert_eq!(e.kind, ImportErrorKind::Malformed, "{e}");
    // Wrong wire type: field 2 (sample) as a varint.
    let mut bad = good.clone();
    bad.extend_from_slice(&[0x10, 0x01]);
    assert_eq!(kind(&bad).kind, ImportErrorKind::Malformed);
    // Out-of-range location id in a sample: sample { location_id: 999999, value: 1 } after one sample type.
    let msg = [
        0x0a, 0x04, 0x08, 0x01, 0x10, 0x02, 0x12, 0x06, 0x08, 0xbf, 0x84, 0x3d, 0x10, 0x01, 0x32, 0x00, 0x32,
        0x01, b'a', 0x32, 0x01, b'b',
    ];
    let e = kind(&msg);
    assert!(e.message.contains("location 999999"), "{e}");
    // A string index out of range.
    let msg = [0x0a, 0x04, 0x08, 0x09, 0x10, 0x02, 0x32, 0x00];
    assert!(kind(&msg).message.contains("string 9"), "{}", kind(&msg));
    // A huge declared length.
    let msg = [0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x08];
    assert!(
        kind(&msg).message.contains("broken or truncated pprof"),
        "{}",
        kind(&msg)
    );
    // Random bytes.
    let mut x: u64 = 0x9e3779b97f4a7c15;
    let noise: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    assert!(import_bytes(&noise, ImportOptions::default()).is_err());
    // A gzip bomb: a stream that inflates past the pprof limit stops with an error that names the limit.
    let bomb = gz(&[&good[..], &vec![0u8; 4 << 20][..]].concat());
    let e = import_bytes(
        &bomb,
        ImportOptions {
            max_whole_input_bytes: 1 << 20,
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::LimitExceeded, "{e}");
    assert!(e.to_string().contains("limit"), "{e}");
}
