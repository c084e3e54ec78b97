//! Golden tests over real folded files: the canonical export is the input's multiset of stacks with weights
//! summed, bad lines become warnings with their line numbers, and chunk boundaries change nothing.

use scorch_core::export::{to_folded, to_folded_view};
use scorch_core::{import_bytes, ImportOptions, Loader, Profile, ViewOptions};

/// What `scorch fold` writes: the raw stacks, or for a two-count (differential) file its default (target) view.
fn canonical(p: &Profile) -> String {
    if p.events.is_empty() {
        to_folded(p)
    } else {
        to_folded_view(p, &ViewOptions::default_for(p))
    }
}
use std::collections::BTreeMap;
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/folded")
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "NOTICE.md")
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    assert!(files.len() >= 26, "the corpus copy is incomplete");
    files
}

/// An independent reading of folded text, written plainly: stack → summed count, and the bad line numbers.
struct Oracle {
    stacks: BTreeMap<String, f64>,
    bad_lines: Vec<u64>,
    integer: bool,
}

fn is_number(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_digit() || c == '.')
        && s.matches('.').count() <= 1
        && s != "."
}

fn oracle(bytes: &[u8]) -> Oracle {
    let text = if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        let le = bytes[0] == 0xFF;
        let units: Vec<u16> = bytes[2..]
            .chunks_exact(2)
            .map(|c| {
                if le {
                    u16::from_le_bytes([c[0], c[1]])
                } else {
                    u16::from_be_bytes([c[0], c[1]])
                }
            })
            .collect();
        String::from_utf16_lossy(&units)
    } else {
        String::from_utf8_lossy(bytes).into_owned()
    };
    let mut o = Oracle {
        stacks: BTreeMap::new(),
        bad_lines: Vec::new(),
        integer: true,
    };
    for (i, line) in text.split('\n').enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((mut stack, count)) = line
            .rsplit_once([' ', '\t'])
            .filter(|(s, c)| is_number(c) && !s.trim().is_empty())
        else {
            o.bad_lines.push(i as u64 + 1);
            continue;
        };
        if let Some((s2, _)) = stack
            .rsplit_once([' ', '\t'])
            .filter(|(s, c)| is_number(c) && !s.trim().is_empty())
        {
            stack = s2;
        }
        o.integer &= !count.contains('.');
        // One separator only (flamegraph.pl's `^(.*)\s+?(\d+)$`): a last frame's trailing space is its own.
        *o.stacks.entry(stack.trim_start().to_string()).or_default() += count.parse::<f64>().unwrap();
    }
    o
}

fn exported(p: &Profile) -> BTreeMap<String, f64> {
    canonical(p)
        .lines()
        .map(|l| {
            let (s, c) = l.rsplit_once(' ').unwrap();
            (s.to_string(), c.parse::<f64>().unwrap())
        })
        .collect()
}

#[test]
fn export_is_the_input_multiset() {
    for (name, bytes) in corpus() {
        let p = import_bytes(&bytes, ImportOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .profile;
        p.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = oracle(&bytes);
        let got = exported(&p);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.stacks.keys().collect::<Vec<_>>(),
            "{name}: stacks"
        );
        for (k, w) in &want.stacks {
            let g = got[k];
            if want.integer {
                assert_eq!(g, *w, "{name}: weight of {k}");
            } else {
                // Counts with more than 9 decimals are cut (documented); everything else is exact.
                assert!(
                    (g - w).abs() <= 1e-8 * w.max(1.0),
                    "{name}: weight of {k}: {g} vs {w}"
                );
            }
        }
        let warned: Vec<u64> = p
            .meta
            .warnings
            .first
            .iter()
            .filter(|w| w.message.starts_with("no count"))
            .map(|w| w.line)
            .collect();
        assert_eq!(warned, want.bad_lines, "{name}: warned lines");
    }
}

#[test]
fn known_files_have_known_numbers() {
    let p = import_bytes(
        &std::fs::read(data_dir().join("inf-bad-lines.txt")).unwrap(),
        ImportOptions::default(),
    )
    .unwrap()
    .profile;
    assert_eq!(p.meta.warnings.count, 2);
    assert_eq!(
        p.meta.warnings.first.iter().map(|w| w.line).collect::<Vec<_>>(),
        [3, 6]
    );
    let p = import_bytes(
        &std::fs::read(data_dir().join("inf-fractional.txt")).unwrap(),
        ImportOptions::default(),
    )
    .unwrap()
    .profile;
    assert_eq!(p.total_weight().to_string(), "334.618");
    let p = import_bytes(
        &std::fs::read(data_dir().join("inf-base-flames.txt")).unwrap(),
        ImportOptions::default(),
    )
    .unwrap()
    .profile;
    assert_eq!((p.meta.records, p.total()), (427, 598_400));
}

#[test]
fn chunk_size_does_not_matter() {
    for (name, bytes) in corpus() {
        let whole = import_bytes(&bytes, ImportOptions::default()).unwrap().profile;
        for chunk in [1usize, 7, 65536] {
            let mut l = Loader::new(ImportOptions::default());
            for c in bytes.chunks(chunk) {
                l.feed(c).unwrap();
            }
            let p = l.finish().unwrap().profile;
            assert_eq!(to_folded(&p), to_folded(&whole), "{name}, chunks of {chunk}");
            assert_eq!(p.meta.warnings, whole.meta.warnings, "{name}, chunks of {chunk}");
            assert_eq!(p.meta.records, whole.meta.records, "{name}, chunks of {chunk}");
        }
    }
}

#[test]
fn export_reimports_to_the_same_profile() {
    for (name, bytes) in corpus() {
        let p = import_bytes(&bytes, ImportOptions::default()).unwrap().profile;
        let once = canonical(&p);
        let again = import_bytes(once.as_bytes(), ImportOptions::default())
            .unwrap()
            .profile;
        assert_eq!(canonical(&again), once, "{name}");
        assert_eq!(
            again.frames.kind.len(),
            p.frames.kind.len(),
            "{name}: frame kinds survive"
        );
    }
}
