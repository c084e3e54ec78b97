//! Golden tests over 35 real `perf script` files: inferno compatibility against inferno 0.12.8's own output,
//! exact timestamps, chunk independence, scorch's naming and kinds, and the documented places where inferno
//! is wrong.

use scorch_core::export::to_folded_view;
use scorch_core::import::perf::{InfernoFlags, Naming};
use scorch_core::view::{RootMode, ViewOptions};
use scorch_core::{import_bytes, FrameKind, ImportOptions, Loader, Profile};
use std::io::Read;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/perf")
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.file_name().unwrap() != "NOTICE.md")
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    assert_eq!(v.len(), 35, "the perf corpus copy is incomplete");
    v
}

/// The oracle's name for an input: without `.gz`, then without `.txt`.
fn stem(name: &str) -> &str {
    let n = name.strip_suffix(".gz").unwrap_or(name);
    n.strip_suffix(".txt").unwrap_or(n)
}

fn oracle(stem: &str, mode: &str) -> String {
    let mut s = String::new();
    let f = std::fs::File::open(dir().join(format!("inferno-oracle/{stem}.{mode}.folded.gz"))).unwrap();
    flate2::read::GzDecoder::new(f).read_to_string(&mut s).unwrap();
    s
}

fn sorted(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.lines().map(str::to_string).collect();
    v.sort();
    v
}

fn flags(mode: &str) -> InfernoFlags {
    let mut f = InfernoFlags::default();
    match mode {
        "pid" => f.pid = true,
        "tid" => f.tid = true,
        "kernel" => f.kernel = true,
        "jit" => f.jit = true,
        "all" => (f.kernel, f.jit) = (true, true),
        "addrs" => f.addrs = true,
        _ => {}
    }
    f
}

/// `scorch fold --compat inferno` for one input and mode, as the CLI does it.
fn compat(bytes: &[u8], mode: &str, event: Option<&str>) -> String {
    let opts = ImportOptions {
        perf_naming: Naming::Inferno(flags(mode)),
        ..Default::default()
    };
    let p = match import_bytes(bytes, opts) {
        Ok(imp) => imp.profile,
        Err(_) => return String::new(),
    };
    let mut v = ViewOptions {
        root: RootMode::None,
        ..ViewOptions::default_for(&p)
    };
    if let Some(e) = event {
        v.event = p.events.iter().position(|x| x.name == e).map(|i| i as u16);
    }
    to_folded_view(&p, &v)
}

const MODES: [&str; 7] = ["default", "pid", "tid", "kernel", "jit", "all", "addrs"];

#[test]
fn compat_inferno_equals_the_oracle() {
    let mut compared = 0;
    for (name, bytes) in inputs() {
        let stem = stem(&name);
        for mode in MODES {
            let ours = compat(&bytes, mode, None);
            let theirs = oracle(stem, mode);
            match stem {
                // Exception 1: inferno 0.12.8 panics on TAB-separated (simpleperf-style) text and writes nothing;
                // scorch reads it (see `tab_separated_simpleperf_text_is_read`).
                "ff-simple-perf" => {
                    assert!(theirs.is_empty());
                    assert!(!ours.is_empty(), "{name} {mode}");
                }
                // Exception 2: inferno cuts the comm `FS Broker 5906` at its first all-digit word (and then prints
                // the pid as `?`); scorch keeps the whole comm. Nothing else differs.
                "ff-test.perf" => {
                    let norm = |s: &str, re: &[&str]| {
                        sorted(
                            &s.lines()
                                .map(|l| {
                                    let mut l = l.to_string();
                                    if let Some(rest) = re.iter().find_map(|r| l.strip_prefix(r)) {
                                        l = format!("FS_Broker@{rest}");
                                    }
                                    l + "\n"
                                })
                                .collect::<String>(),
                        )
                    };
                    assert!(ours.contains("FS_Broker_5906"), "{mode}");
                    assert_eq!(
                        norm(
                            &ours,
                            &[
                                "FS_Broker_5906-7564/7598",
                                "FS_Broker_5906-7564",
                                "FS_Broker_5906"
                            ]
                        ),
                        norm(&theirs, &["FS_Broker-?/5906", "FS_Broker-?", "FS_Broker"]),
                        "{name} {mode}"
                    );
                }
                _ => assert_eq!(sorted(&ours), sorted(&theirs), "{name} --{mode}"),
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 35 * 7);
}

#[test]
fn compat_event_filter_equals_the_oracle() {
    let bytes = std::fs::read(dir().join("fg-perf-cycles-instructions-01.txt")).unwrap();
    for ev in ["cycles", "instructions"] {
        for mode in ["default", "all"] {
            let theirs = oracle(&format!("fg-perf-cycles-instructions-01.event-{ev}"), mode);
            assert!(!theirs.is_empty());
            assert_eq!(
                sorted(&compat(&bytes, mode, Some(ev))),
                sorted(&theirs),
                "{ev} {mode}"
            );
        }
    }
    // Without a filter, the first event in the file (instructions) is the one folded, as inferno does.
    assert_eq!(
        compat(&bytes, "default", None),
        compat(&bytes, "default", Some("instructions"))
    );
}

fn load(bytes: &[u8]) -> Profile {
    import_bytes(bytes, ImportOptions::default()).unwrap().profile
}

#[test]
fn every_file_reads_and_chunking_does_not_matter() {
    for (name, bytes) in inputs() {
        if name == "inf-no-events.txt" {
            let e = import_bytes(&bytes, ImportOptions::default()).unwrap_err();
            assert_eq!(e.kind, scorch_core::ImportErrorKind::Empty, "{name}");
            continue;
        }
        let whole = load(&bytes);
        whole.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(whole.meta.format, scorch_core::Format::PerfScript, "{name}");
        let v = ViewOptions::default_for(&whole);
        let want = to_folded_view(&whole, &v);
        assert!(!want.is_empty(), "{name}");
        for chunk in [1usize, 7, 65536] {
            let mut l = Loader::new(ImportOptions::default());
            for c in bytes.chunks(chunk) {
                l.feed(c).unwrap();
            }
            let p = l.finish().unwrap().profile;
            assert_eq!(to_folded_view(&p, &v), want, "{name}, chunks of {chunk}");
            assert_eq!(
                p.samples.time_ns, whole.samples.time_ns,
                "{name}, chunks of {chunk}"
            );
            assert_eq!(p.meta.warnings, whole.meta.warnings, "{name}, chunks of {chunk}");
            assert_eq!(p.events, whole.events, "{name}, chunks of {chunk}");
        }
    }
}

#[test]
fn timestamps_are_exact_and_ns_input_is_the_same() {
    let text = std::fs::read_to_string(dir().join("fs-perf.test01")).unwrap();
    let p = load(text.as_bytes());
    let times = p.samples.time_ns.as_ref().unwrap();
    // FlameScope's float arithmetic puts this sample in the 180 ms row; it is exactly 5086.2 s.
    assert!(times.contains(&5_086_200_000_000));
    assert!(times.contains(&5_076_100_000_000));
    // The same file as `perf script --ns` prints it: 9 fractional digits.
    let ns: String = text
        .lines()
        .map(|l| {
            let mut out = String::new();
            for (i, tok) in l.split(' ').enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                match tok.strip_suffix(':') {
                    Some(t) if t.contains('.') && t.chars().all(|c| c.is_ascii_digit() || c == '.') => {
                        out.push_str(&format!("{t}000:"));
                    }
                    _ => out.push_str(tok),
                }
            }
            out + "\n"
        })
        .collect();
    assert!(ns.contains("5086.200000000:"));
    let q = load(ns.as_bytes());
    assert_eq!(q.samples.time_ns, p.samples.time_ns);
    assert_eq!(
        to_folded_view(&q, &ViewOptions::default_for(&q)),
        to_folded_view(&p, &ViewOptions::default_for(&p))
    );
}

#[test]
fn events_are_listed_with_counts_and_units() {
    let p = load(&std::fs::read(dir().join("fg-perf-cycles-instructions-01.txt")).unwrap());
    let names: Vec<_> = p.events.iter().map(|e| (e.name.as_str(), e.samples)).collect();
    let total: u64 = p.events.iter().map(|e| e.samples).sum();
    assert_eq!(names.len(), 2);
    assert_eq!(names[0].0, "instructions");
    assert_eq!(names[1].0, "cycles");
    assert_eq!(total, p.meta.records);
    // cpu-clock periods are nanoseconds; no period means samples.
    let p = load(&std::fs::read(dir().join("fg-perf-dd-stacks-01.txt")).unwrap());
    assert_eq!(p.events[0].unit, scorch_core::Unit::Nanoseconds);
    assert_eq!(p.total(), p.meta.records * 10_101_010);
    let p = load(&std::fs::read(dir().join("fg-perf-java-stacks-01.txt")).unwrap());
    assert_eq!(p.events[0].unit, scorch_core::Unit::Samples);
}

#[test]
fn kinds_are_attributes_and_roots_follow_the_grouping() {
    let p = load(&std::fs::read(dir().join("fg-perf-java-stacks-01.txt")).unwrap());
    let kind_of = |name: &str| {
        (0..p.frames.len())
            .map(|i| scorch_core::FrameId(i as u32))
            .find(|&f| p.frame_name(f) == name)
            .map(|f| p.frame_kind(f))
    };
    assert_eq!(kind_of("native_write_msr_safe"), Some(FrameKind::Kernel));
    assert_eq!(kind_of("Interpreter"), Some(FrameKind::Jit));
    assert_eq!(kind_of("start_thread"), Some(FrameKind::User));
    // perf-map-agent chains: the outer name keeps its kind, the inner ones are inline.
    let p = load(&std::fs::read(dir().join("inf-java-inline.txt")).unwrap());
    let folded = to_folded_view(&p, &ViewOptions::default_for(&p));
    assert!(
        folded.contains("java/io/BufferedWriter:::flushBuffer_[j];java/io/OutputStreamWriter:::write_[i]")
    );
    // `(inlined)` frames from perf --inline are inline.
    let p = load(&std::fs::read(dir().join("inf-cpp-stacks-std-function.txt")).unwrap());
    assert!(to_folded_view(&p, &ViewOptions::default_for(&p)).contains("_dl_start_final_[i]"));
    // Grouping: comm (with its spaces kept), comm-pid, comm-pid/tid, none.
    let p = load(&std::fs::read(dir().join("fg-perf-iperf-stacks-pidtid-01.txt")).unwrap());
    let first = |root| {
        let v = ViewOptions {
            root,
            ..ViewOptions::default_for(&p)
        };
        to_folded_view(&p, &v)
            .lines()
            .next()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(first(RootMode::Comm), "iperf");
    assert_eq!(first(RootMode::Pid), "iperf-27409");
    assert!(first(RootMode::Tid).starts_with("iperf-27409/"));
    assert_eq!(first(RootMode::None), "[unknown]");
}

#[test]
fn tab_separated_simpleperf_text_is_read() {
    let bytes = std::fs::read(dir().join("ff-simple-perf.txt.gz")).unwrap();
    let p = load(&bytes);
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .unwrap();
    let headers = text.lines().filter(|l| l.contains(" task-clock:u:")).count();
    assert!(headers > 100);
    assert_eq!(p.meta.records as usize, headers);
    assert_eq!(p.meta.warnings.count, 0);
    // The event is named as perf prints it, its modifier included.
    assert_eq!(p.events[0].name, "task-clock:u");
    assert_eq!(p.events[0].unit, scorch_core::Unit::Nanoseconds);
    let folded = to_folded_view(&p, &ViewOptions::default_for(&p));
    // Frames are TAB-separated from their address; argument lists are tidied as for perf.
    assert!(
        folded
            .lines()
            .any(|l| l.starts_with("Gecko;") && l.contains(";Lock::unlock ")),
        "{}",
        &folded[..500]
    );
}

#[test]
fn malformed_lines_are_counted_warnings_with_line_numbers() {
    let p = load(&std::fs::read(dir().join("inf-weird-stack-line.txt")).unwrap());
    assert_eq!(p.meta.warnings.count, 1);
    assert_eq!(p.meta.warnings.first[0].line, 5);
    let p = load(&std::fs::read(dir().join("fs-perf.test01")).unwrap());
    assert_eq!(
        p.meta.warnings.first.iter().map(|w| w.line).collect::<Vec<_>>(),
        [122]
    );
}

fn made(name: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/perf-made")
            .join(name),
    )
    .unwrap()
}

#[test]
fn tracepoints_ns_and_task_events_from_a_real_recording() {
    let p = load(&made("offcpu.txt"));
    // A recording of one command (no -a) sees its threads switch in only from each other: 76 of its 81
    // switch-outs never switch back in (tests/oracles/offcpu.py says the same), each a warning; the 5 others
    // are off-CPU waits (crates/cli/tests/offcpu.rs checks them against the oracle).
    assert_eq!(p.meta.warnings.count, 76, "{:?}", p.meta.warnings.first);
    let events: Vec<_> = p.events.iter().map(|e| (e.name.as_str(), e.samples)).collect();
    assert_eq!(
        events,
        [
            ("cpu-clock", 76),
            ("sched:sched_switch", 81),
            ("off-CPU time (from sched_switch)", 5),
            ("wall-clock (on-CPU + off-CPU)", 81)
        ]
    );
    assert_eq!(p.events[0].unit, scorch_core::Unit::Nanoseconds);
    assert_eq!(p.events[1].unit, scorch_core::Unit::Samples);
    // The tracepoint payload is not a frame: every sched_switch stack ends in the scheduler.
    let v = ViewOptions {
        event: Some(1),
        ..ViewOptions::default_for(&p)
    };
    let folded = to_folded_view(&p, &v);
    assert!(!folded.contains("prev_comm"), "payload read as a frame");
    for line in folded.lines() {
        let stack = line.rsplit_once(' ').unwrap().0;
        assert!(stack.ends_with("__schedule_[k]"), "{line}");
    }
    // --ns prints the same samples with 9 digits (the default truncates to µs); --show-task-events adds
    // PERF_RECORD_* lines that are no samples.
    let ns = load(&made("offcpu-ns.txt"));
    let ns_times = ns.samples.time_ns.as_ref().unwrap();
    assert!(
        ns_times.iter().any(|t| t % 1000 != 0),
        "--ns keeps sub-microsecond digits"
    );
    let truncated: Vec<u64> = ns_times.iter().map(|t| t / 1000 * 1000).collect();
    assert_eq!(Some(&truncated), p.samples.time_ns.as_ref());
    assert_eq!(to_folded_view(&ns, &v), folded);
    // The same in --compat inferno mode, where inferno itself writes nothing for this event.
    assert_eq!(
        compat(&made("offcpu.txt"), "default", Some("sched:sched_switch"))
            .lines()
            .count(),
        25
    );
    let te = load(&made("offcpu-task-events.txt"));
    assert_eq!(te.meta.warnings.count, 76);
    assert_eq!(te.meta.records, p.meta.records);
    assert_eq!(to_folded_view(&te, &v), folded);
}

/// A number in the oracle file after `key` (on the line that holds it).
fn after(text: &str, key: &str) -> u64 {
    let line = text
        .lines()
        .find(|l| l.contains(key))
        .unwrap_or_else(|| panic!("{key}"));
    let rest = &line[line.find(key).unwrap() + key.len()..];
    rest.trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn lost_events_equal_perfs_own_report() {
    let bytes = made("lost.txt");
    let oracle = String::from_utf8(made("lost-oracle.txt")).unwrap();
    let p = load(&bytes);
    p.validate().unwrap();
    assert_eq!(p.meta.warnings.count, 0, "{:?}", p.meta.warnings.first);
    let lost = p.meta.lost.clone().expect("lost events");
    // "Processed 1063 events and lost 16 chunks!", "# Total Lost Samples: 600", "# Samples: 965".
    assert_eq!(lost.records, after(&oracle, "events and lost"));
    assert_eq!(lost.events, after(&oracle, "Total Lost Samples:"));
    assert_eq!(p.meta.records, after(&oracle, "# Samples:"));
    // "Processed 1565 samples and lost 38.34%!": samples + lost, and the share.
    let processed = oracle.lines().find(|l| l.contains("samples and lost")).unwrap();
    let all: u64 = processed.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert_eq!(p.meta.records + lost.events, all);
    let pct = processed.rsplit(' ').next().unwrap().trim_end_matches("%!");
    assert_eq!(format!("{:.2}", lost.share(p.meta.records) * 100.0), pct);
    // Per second: the awk sums.
    let per_second: Vec<(u64, u64)> = oracle
        .lines()
        .skip_while(|l| !l.contains("per whole second"))
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut it = l.split_whitespace().map(|x| x.parse::<u64>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    assert_eq!(per_second.len(), 3);
    assert_eq!(lost.per_second, per_second);
    // The heatmap's columns with losses: its origin is the first sample's second.
    let h = scorch_core::analysis::heatmap::heatmap(&p, &ViewOptions::default_for(&p), &Default::default())
        .unwrap();
    let cols = scorch_core::analysis::lost::lost_columns(&lost, h.origin_ns, h.columns);
    let want: Vec<(u32, u64)> = per_second
        .iter()
        .map(|&(s, n)| ((s - h.origin_ns / 1_000_000_000) as u32, n))
        .collect();
    assert_eq!(cols, want);
    assert_eq!(cols.first().map(|c| c.0), Some(0));
    // However the input is cut.
    for chunk in [1usize, 7, 65536] {
        let mut l = Loader::new(ImportOptions::default());
        for c in bytes.chunks(chunk) {
            l.feed(c).unwrap();
        }
        assert_eq!(
            l.finish().unwrap().profile.meta.lost,
            Some(lost.clone()),
            "chunks of {chunk}"
        );
    }
}

#[test]
fn events_keep_their_modifiers_but_inferno_naming_groups_them_as_inferno_does() {
    // `cycles:u:` then `cycles:` (inferno's own test input): two events, as perf prints them.
    let bytes = std::fs::read(dir().join("inf-single-line-stacks.txt")).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let count = |ev: &str| text.lines().filter(|l| l.contains(&format!(" {ev}: "))).count() as u64;
    let p = load(&bytes);
    let events: Vec<(&str, u64)> = p.events.iter().map(|e| (e.name.as_str(), e.samples)).collect();
    assert_eq!(
        events,
        [("cycles:u", count("cycles:u")), ("cycles", count("cycles"))]
    );
    // inferno takes the text up to the second colon as the event, so both are its one event `cycles`: its
    // oracle folds both samples (compat_inferno_equals_the_oracle), and so does `--compat inferno`.
    let inferno = import_bytes(
        &bytes,
        ImportOptions {
            perf_naming: Naming::Inferno(InfernoFlags::default()),
            ..Default::default()
        },
    )
    .unwrap()
    .profile;
    let events: Vec<(&str, u64)> = inferno
        .events
        .iter()
        .map(|e| (e.name.as_str(), e.samples))
        .collect();
    assert_eq!(events, [("cycles", 2)]);
}

/// A function's frame lines differ by their offset, and the parser keeps one set of frames per name key (the
/// symbol without its offset, and the dso): lines that name the same frames share them, lines that do not stay
/// apart — an offset that is not hex is part of the name, `[unknown]` in two dsos is two frames, the same symbol
/// in a Java process is tidied as Java, and a symbol's invalid UTF-8 is read as before.
#[test]
fn frame_lines_of_one_function_at_other_offsets_name_the_same_frames() {
    let mut text = Vec::new();
    let samples: [(&str, &[&[u8]]); 4] = [
        ("app", &[b"1 work+0x10 (/bin/app)", b"2 main+0x5 (/bin/app)"]),
        (
            "app",
            &[
                b"3 work+0x2f (/bin/app)",
                b"4 main (/bin/app)",
                b"5 [unknown] (/lib/a.so)",
            ],
        ),
        (
            "app",
            &[
                b"6 work+0x1g (/bin/app)",
                b"7 main+0x6 (/bin/app)",
                b"8 [unknown] (/lib/b.so)",
                b"9 caf\xe9+0x1 (/bin/app)",
                b"a caf\xe9+0x2 (/bin/app)",
            ],
        ),
        (
            "java",
            &[
                b"b Ljava/lang/Thread;::run+0x10 (/tmp/perf-1.map)",
                b"c Ljava/lang/Thread;::run+0x20 (/tmp/perf-1.map)",
            ],
        ),
    ];
    for (i, (comm, frames)) in samples.iter().enumerate() {
        text.extend_from_slice(format!("{comm} 1/1 [000] {}.000000: 1 cpu-clock:\n", i + 1).as_bytes());
        for f in frames.iter() {
            text.extend_from_slice(b"\t");
            text.extend_from_slice(f);
            text.extend_from_slice(b"\n");
        }
        text.extend_from_slice(b"\n");
    }
    let p = import_bytes(&text, ImportOptions::default()).unwrap().profile;
    let v = ViewOptions {
        root: RootMode::None,
        ..ViewOptions::default_for(&p)
    };
    let mut lines: Vec<String> = to_folded_view(&p, &v).lines().map(str::to_string).collect();
    lines.sort();
    // As the parser before this cache read the same text (`scorch fold` of 2026-12-06's `8c11070`).
    assert_eq!(
        lines,
        [
            "[a.so];main;work 1",
            "caf\u{fffd};caf\u{fffd};[b.so];main;work+0x1g 1",
            "java/lang/Thread:::run_[j];java/lang/Thread:::run_[j] 1",
            "main;work 1",
        ]
    );
}
