//! No input may cost more than its size: hostile shapes, each through every command, under a memory cap and a
//! time limit that grows with the input. Every run must end with exit 0 and the right total, or exit 1 with a
//! message that names the limit it hit: never a kill, an abort or a timeout.
//!
//! Shapes are generated into a temporary directory (nothing is checked in): a very deep stack (one folded line
//! `f;f;…;f 1`, and one with a distinct name per frame), a node with very many children (each a distinct
//! name), one huge frame name, perf script with very many events of one stack, perf script with 10,000 event
//! names, perf script spanning ten years, perf script of scheduler switch-outs that never switch back in, pprof
//! with one location per frame of a very deep location list, a gzip inside a gzip, and perf.data (written here
//! byte by byte, `perf_data`): very many samples of one callchain, very many mappings and forks across many
//! processes and threads (the mappings forks copy), and file headers whose sections claim huge sizes; and
//! callgrind call graphs whose expansion into stacks could outgrow them (`resources/graphs.rs`); V8 heap
//! profiles' nested node trees and DHAT's program points, very deep and very wide (`resources/heap.rs`);
//! cProfile's call graphs (`resources/graphs.rs`); JFR's deep stack trace, many samples (`resources/jfr.rs`);
//! the raw Gecko format's deep stack and never-paired interval markers (`resources/gecko.rs`).
//!
//! Size: the test binary runs the debug `scorch` (10–30× slower than release), so by default the shapes are a
//! fifth of the sizes (a 1,000,000-frame stack instead of 5,000,000, 200,000 children, 200,000 perf
//! events, a 10 MB name): large enough that any quadratic path (10^12 steps) or per-node path copy (terabytes)
//! runs into the limits, small enough for the whole suite to take about a minute on two cores. Full size:
//! `SCORCH_RESOURCES_SCALE=5 SCORCH_RESOURCES_BIN=target/release/scorch cargo test -p scorch-cli --test
//! resources` (after `cargo build --release -p scorch-cli`).
//!
//! The memory cap is an address-space limit of 2 GiB (`ulimit -v` in `sh`, so it holds without util-linux);
//! the time limit is 60 s plus 15 s per MB of input (debug), a tenth of that for a release binary: a hang
//! detector with room for a loaded machine (timings themselves belong in benchmarks, not tests).

#[path = "resources/gecko.rs"]
mod gecko;
#[path = "resources/graphs.rs"]
mod graphs;
#[path = "resources/heap.rs"]
mod heap;
#[path = "resources/jfr.rs"]
mod jfr;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Address-space cap, in KiB (for `ulimit -v`).
const CAP_KIB: u64 = 2 * 1024 * 1024;

fn scale() -> usize {
    std::env::var("SCORCH_RESOURCES_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

fn binary() -> (PathBuf, bool) {
    match std::env::var("SCORCH_RESOURCES_BIN") {
        Ok(b) if !b.is_empty() => (PathBuf::from(b), true),
        _ => (PathBuf::from(env!("CARGO_BIN_EXE_scorch")), false),
    }
}

struct Run {
    code: i32,
    out: Vec<u8>,
    err: String,
    took: Duration,
}

/// Runs `scorch ARGS` under the memory cap; kills it (and fails) past the time limit for `bytes` of input.
fn scorch(args: &[&str], bytes: u64) -> Run {
    let (bin, release) = binary();
    // A hang detector, not a benchmark: generous enough for a loaded 2-core CI machine (a run of the suite
    // beside two other builds took 206 s), far below what a quadratic path needs at these sizes (hours).
    let (base, per_mb) = if release { (6.0, 1.5) } else { (60.0, 15.0) };
    let limit = Duration::from_secs_f64(base + per_mb * bytes as f64 / 1e6);
    let dir = tempdir();
    let (out_path, err_path) = (dir.join("stdout"), dir.join("stderr"));
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {CAP_KIB} && exec \"$0\" \"$@\""))
        .arg(&bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("scorch {args:?} took more than {limit:?} ({bytes} bytes of input)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = start.elapsed();
    let run = Run {
        code: status.code().unwrap_or(-1),
        out: std::fs::read(&out_path).unwrap(),
        err: std::fs::read_to_string(&err_path).unwrap(),
        took,
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        run.code == 0 || run.code == 1,
        "scorch {args:?}: killed or aborted (status {status}): {}",
        run.err
    );
    run
}

fn tempdir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "scorch-resources-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The sum of the weights of folded lines.
fn folded_total(out: &[u8]) -> u64 {
    out.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let i = l.iter().rposition(|&b| b == b' ').expect("a weight");
            std::str::from_utf8(&l[i + 1..]).unwrap().parse::<u64>().unwrap()
        })
        .sum()
}

/// What a shape is and what every command must find in it.
struct Shape {
    name: &'static str,
    file: PathBuf,
    /// The total of the default view.
    total: u64,
    /// A frame name on every stack (for --callers, search, transforms).
    frame: &'static str,
    /// Whether the input has timestamps (a heatmap).
    timed: bool,
}

/// Every command on a shape. A run that fails must fail with exit 1 and name a limit; none does today, so
/// these assert success and totals.
fn every_command(s: &Shape) {
    let file = s.file.to_str().unwrap();
    let bytes = std::fs::metadata(&s.file).unwrap().len();
    let total = s.total.to_string();
    let mut report = Vec::new();
    let mut ok = |args: &[&str]| -> Run {
        let r = scorch(args, bytes);
        report.push(format!("{:>7.2} s  {}", r.took.as_secs_f64(), args.join(" ")));
        assert_eq!(r.code, 0, "{}: scorch {args:?}: {}", s.name, r.err);
        r
    };

    let info = ok(&["info", file]);
    let text = String::from_utf8_lossy(&info.out);
    assert!(
        text.lines()
            .any(|l| l.starts_with("total:") && l.split_whitespace().nth(1) == Some(&total)),
        "{}: info: {text}",
        s.name
    );
    for extra in [
        &[][..],
        &["--count"][..],
        &["--root", "none"][..],
        &["--invert"][..],
        &["--callers", s.frame][..],
        &["--callees", s.frame][..],
    ] {
        let mut args = vec!["fold"];
        args.extend_from_slice(extra);
        args.push(file);
        let r = ok(&args);
        let want = if extra == ["--count"] { None } else { Some(s.total) };
        if let Some(want) = want {
            assert_eq!(folded_total(&r.out), want, "{}: fold {extra:?}", s.name);
        } else {
            assert!(folded_total(&r.out) > 0, "{}: fold --count", s.name);
        }
    }
    for t in [
        format!("rec:{}", s.frame),
        format!("drec:{}", s.frame),
        format!("merge:{}", s.frame),
        format!("focus:{}", s.frame),
        "hide::zzz".to_string(),
    ] {
        let r = ok(&["fold", "--transform", &t, file]);
        // Merging a function that is every frame leaves frameless samples: the weight stays either way.
        assert_eq!(folded_total(&r.out), s.total, "{}: fold --transform {t}", s.name);
    }
    let top = ok(&["top", "--tsv", file]);
    let text = String::from_utf8_lossy(&top.out);
    let cum = text
        .lines()
        .filter_map(|l| l.split('\t').nth(1)?.parse::<u64>().ok())
        .max();
    assert_eq!(cum, Some(s.total), "{}: top's largest cum is the total", s.name);
    let graph = ok(&["graph", "--json", file]);
    let json: serde_json::Value = serde_json::from_slice(&graph.out).unwrap();
    let cum = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["cum"].as_u64())
        .max();
    assert_eq!(cum, Some(s.total), "{}: graph's largest cum is the total", s.name);
    let search = ok(&["search", file, s.frame]);
    let text = String::from_utf8_lossy(&search.out);
    let nums: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(
        nums.get(..2),
        Some(&[total.as_str(), total.as_str()][..]),
        "{}: search: {text}",
        s.name
    );
    let heat = scorch(&["heatmap", file], bytes);
    if s.timed {
        assert_eq!(heat.code, 0, "{}: heatmap: {}", s.name, heat.err);
    } else {
        assert_eq!(heat.code, 1);
        assert!(
            heat.err.contains("no timestamps"),
            "{}: heatmap: {}",
            s.name,
            heat.err
        );
    }
    let svg = ok(&["export", "--to", "svg", file]);
    assert!(svg.out.ends_with(b"</svg>\n"), "{}: export --to svg", s.name);
    let pprof = ok(&["export", "--to", "pprof", file]);
    assert!(
        pprof.out.starts_with(&[0x1f, 0x8b]),
        "{}: export --to pprof",
        s.name
    );
    let link = ok(&["link", file]);
    assert!(link.out.starts_with(b"http"), "{}: link", s.name);
    let diff = ok(&["diff", file, file]);
    assert!(
        String::from_utf8_lossy(&diff.out).contains("target (after)"),
        "{}: diff",
        s.name
    );
    eprintln!("{} ({bytes} bytes):\n  {}", s.name, report.join("\n  "));
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn input_shape(name: &'static str, text: Vec<u8>, total: u64, frame: &'static str) {
    shape_of(name, text, total, frame, false);
}

/// Writes `text` as a file and runs every command on it (any format the loader sniffs); `timed`: samples have times.
fn shape_of(name: &'static str, text: Vec<u8>, total: u64, frame: &'static str, timed: bool) {
    let dir = tempdir();
    let s = Shape {
        name,
        file: write(&dir, name, &text),
        total,
        frame,
        timed,
    };
    drop(text);
    every_command(&s);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_deep_stack_of_one_name() {
    let depth = 1_000_000 * scale();
    let mut text = Vec::with_capacity(2 * depth + 4);
    for i in 0..depth {
        if i > 0 {
            text.push(b';');
        }
        text.push(b'f');
    }
    text.extend_from_slice(b" 1\n");
    input_shape("deep", text, 1, "f");
}

#[test]
fn a_deep_stack_of_distinct_names() {
    let depth = 200_000 * scale();
    let mut text = Vec::new();
    text.push(b'f');
    for i in 1..depth {
        write!(text, ";g{i}").unwrap();
    }
    text.extend_from_slice(b" 3\n");
    input_shape("deep-distinct", text, 3, "f");
}

#[test]
fn a_node_with_very_many_children_of_distinct_names() {
    let width = 200_000 * scale();
    let mut text = Vec::new();
    for i in 0..width {
        writeln!(text, "root;child{i} 2").unwrap();
    }
    input_shape("wide", text, 2 * width as u64, "root");
}

#[test]
fn a_huge_frame_name() {
    let mut text = vec![b'n'; 10_000_000];
    text.extend_from_slice(b";f 5\n");
    input_shape("huge-name", text, 5, "f");
    // Longer than the line limit (64 MiB): refused, and the message names the limit.
    if scale() > 1 {
        let dir = tempdir();
        let mut text = vec![b'n'; 70 << 20];
        text.extend_from_slice(b" 1\n");
        let file = write(&dir, "too-long", &text);
        let r = scorch(&["info", file.to_str().unwrap()], text.len() as u64);
        assert_eq!(r.code, 1);
        assert!(
            r.err.contains("a line is longer than the limit of 64 MiB"),
            "{}",
            r.err
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A perf script event of one stack.
fn perf_event(out: &mut Vec<u8>, t: &str, event: &str, stack: &[&str]) {
    writeln!(out, "prog 7 [000] {t}: 1 {event}:").unwrap();
    for f in stack.iter().rev() {
        writeln!(out, "\tffff {f} (/bin/prog)").unwrap();
    }
    out.push(b'\n');
}

fn perf_shape(name: &'static str, text: Vec<u8>, total: u64) {
    let dir = tempdir();
    let s = Shape {
        name,
        file: write(&dir, name, &text),
        total,
        frame: "main",
        timed: true,
    };
    drop(text);
    every_command(&s);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn perf_with_very_many_events_of_one_stack() {
    let n = 200_000 * scale();
    let mut text = Vec::new();
    for i in 0..n {
        perf_event(
            &mut text,
            &format!("{}.{:06}", i / 1000, i % 1000 * 1000),
            "cycles",
            &["main", "work"],
        );
    }
    perf_shape("perf-many", text, n as u64);
}

#[test]
fn perf_with_ten_thousand_event_names() {
    let mut text = Vec::new();
    for i in 0..10_000 {
        perf_event(&mut text, &format!("{i}.5"), &format!("ev{i}"), &["main", "work"]);
    }
    // The shown event is the first: one sample.
    perf_shape("perf-events", text, 1);
}

/// `sched:sched_switch` switch-outs, each of its own thread, none ever switching back in: 2 MB (10 MB at scale
/// 5) of waits that never end. Every one is an unmatched switch-out, counted; the off-CPU event stays empty;
/// the pending map and the label sets (one per thread) grow with the input, not beyond.
#[test]
fn perf_switch_outs_that_never_switch_in() {
    let mut text = Vec::new();
    let mut n = 0u64;
    while text.len() < 2_000_000 * scale() {
        n += 1;
        writeln!(
            text,
            "prog {n}/{n} [000] {}.{:06}: sched:sched_switch: prev_comm=prog prev_pid={n} prev_prio=120 \
             prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120",
            n / 1000,
            n % 1000 * 1000
        )
        .unwrap();
        writeln!(text, "\tffff work (/bin/prog)\n\tffff main (/bin/prog)\n").unwrap();
    }
    let dir = tempdir();
    let file = write(&dir, "switch-outs", &text);
    let f = file.to_str().unwrap();
    let bytes = text.len() as u64;
    let r = scorch(&["info", "--json", f], bytes);
    assert_eq!(r.code, 0, "{}", r.err);
    let info: serde_json::Value = serde_json::from_slice(&r.out).unwrap();
    assert_eq!(info["warnings"].as_u64(), Some(n));
    assert!(r.err.contains(&format!("{n} of {n} switch-outs")), "{}", r.err);
    let r = scorch(&["fold", "--event", "offcpu", f], bytes);
    assert_eq!((r.code, r.out.len()), (0, 0), "{}", r.err);
    let _ = std::fs::remove_dir_all(&dir);
    perf_shape("perf-switch-outs", text, n);
}

#[test]
fn perf_spanning_ten_years() {
    let mut text = Vec::new();
    for t in ["0.25", "10.5", "315360000.5", "315360000.75"] {
        perf_event(&mut text, t, "cycles", &["main", "work"]);
    }
    perf_shape("perf-ten-years", text.clone(), 4);
    let dir = tempdir();
    let file = write(&dir, "ten-years", &text);
    let r = scorch(&["heatmap", "--json", file.to_str().unwrap()], text.len() as u64);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.err
            .contains("the view is limited to the first 100000 seconds; 2 samples are outside it"),
        "{}",
        r.err
    );
    assert!(String::from_utf8_lossy(&r.out).contains("\"outside\":2"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Protocol buffers by hand: a varint, and a length-delimited field.
fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn field(out: &mut Vec<u8>, number: u64, body: &[u8]) {
    varint(out, number << 3 | 2);
    varint(out, body.len() as u64);
    out.extend_from_slice(body);
}

#[test]
fn pprof_with_a_location_per_frame_of_a_deep_sample() {
    let depth = 200_000 * scale() as u64;
    let mut msg = Vec::new();
    // sample_type { type: "samples", unit: "count" }
    let mut vt = Vec::new();
    varint(&mut vt, 1 << 3);
    varint(&mut vt, 1);
    varint(&mut vt, 2 << 3);
    varint(&mut vt, 2);
    field(&mut msg, 1, &vt);
    // sample { location_id: [1..=depth] (leaf first), value: [7] }
    let mut ids = Vec::new();
    for id in 1..=depth {
        varint(&mut ids, id);
    }
    let mut sample = Vec::new();
    field(&mut sample, 1, &ids);
    field(&mut sample, 2, &[7]);
    field(&mut msg, 2, &sample);
    // location { id, line { function_id: 1 for the root, 2 for every other } }
    for id in 1..=depth {
        let mut line = Vec::new();
        varint(&mut line, 1 << 3);
        varint(&mut line, if id == depth { 1 } else { 2 });
        let mut loc = Vec::new();
        varint(&mut loc, 1 << 3);
        varint(&mut loc, id);
        field(&mut loc, 4, &line);
        field(&mut msg, 4, &loc);
    }
    // function { id: 1, name: "main" }, function { id: 2, name: "work" }
    for (id, name) in [(1u64, 3u64), (2, 4)] {
        let mut f = Vec::new();
        varint(&mut f, 1 << 3);
        varint(&mut f, id);
        varint(&mut f, 2 << 3);
        varint(&mut f, name);
        field(&mut msg, 5, &f);
    }
    for s in ["", "samples", "count", "main", "work"] {
        field(&mut msg, 6, s.as_bytes());
    }
    let dir = tempdir();
    let s = Shape {
        name: "pprof-deep",
        file: write(&dir, "pprof-deep.pb", &msg),
        total: 7,
        frame: "main",
        timed: false,
    };
    every_command(&s);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_gzip_inside_a_gzip() {
    use flate2::write::GzEncoder;
    let gz = |b: &[u8]| {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(b).unwrap();
        e.finish().unwrap()
    };
    let inner = gz(&b"main;work 2\n".repeat(100_000));
    let outer = gz(&inner);
    let dir = tempdir();
    let file = write(&dir, "nested.gz", &outer);
    let r = scorch(&["info", file.to_str().unwrap()], inner.len() as u64);
    // One layer is inflated; the second is refused with a message that says what it is.
    assert_eq!(r.code, 1);
    assert!(r.err.contains("gzip data inside the gzip"), "{}", r.err);
    let _ = std::fs::remove_dir_all(&dir);
}

/// perf.data by hand, little-endian: one software cpu-clock event sampling `IP | TID | TIME | CALLCHAIN |
/// PERIOD`, `sample_id_all` off (the layout of the reader's own tests, `perfdata/tests.rs`).
mod perf_data {
    const SAMPLE_TYPE: u64 = 1 | 2 | 4 | 32 | 256;
    /// `PERF_RECORD_MISC_USER`, and the callchain's `PERF_CONTEXT_USER` marker.
    const USER: u16 = 2;
    const CONTEXT_USER: u64 = 0u64.wrapping_sub(512);
    /// Where the attribute and the data start in [`file`]'s output; offsets of the header's fields.
    pub const ATTRS_AT: usize = 104;
    pub const DATA_AT: usize = ATTRS_AT + 80;
    pub const ATTR_SIZE_FIELD: usize = 16;
    pub const ATTRS_SIZE_FIELD: usize = 32;
    pub const DATA_SIZE_FIELD: usize = 48;
    pub const FEATURE_BITS: usize = 72;
    /// The attribute's `ids` section (after its 64 bytes of `perf_event_attr`).
    pub const IDS_SIZE_FIELD: usize = ATTRS_AT + 64 + 8;

    /// Little-endian fields.
    #[derive(Default)]
    pub struct Le(pub Vec<u8>);

    impl Le {
        pub fn u32(&mut self, v: u32) -> &mut Le {
            self.0.extend_from_slice(&v.to_le_bytes());
            self
        }
        pub fn u64(&mut self, v: u64) -> &mut Le {
            self.0.extend_from_slice(&v.to_le_bytes());
            self
        }
        /// A NUL-terminated string.
        pub fn cstr(&mut self, s: &str) -> &mut Le {
            self.0.extend_from_slice(s.as_bytes());
            self.0.push(0);
            self
        }
    }

    /// The records of a data section.
    #[derive(Default)]
    pub struct Records(pub Vec<u8>);

    impl Records {
        /// A record: header, then `body`, padded to 8 bytes.
        fn record(&mut self, kind: u32, misc: u16, body: &Le) {
            let size = (8 + body.0.len()).div_ceil(8) * 8;
            let size16 = u16::try_from(size).expect("a record under 64 KiB");
            let out = &mut self.0;
            out.extend_from_slice(&kind.to_le_bytes());
            out.extend_from_slice(&misc.to_le_bytes());
            out.extend_from_slice(&size16.to_le_bytes());
            out.extend_from_slice(&body.0);
            out.resize(out.len() + size - 8 - body.0.len(), 0);
        }

        pub fn comm(&mut self, pid: u32, tid: u32, name: &str) {
            self.record(3, 0, Le::default().u32(pid).u32(tid).cstr(name));
        }

        /// MMAP2: `[addr, addr + len)` of `pid` shows `path` from file offset 0.
        pub fn mmap2(&mut self, pid: u32, addr: u64, len: u64, path: &str) {
            let mut b = Le::default();
            b.u32(pid).u32(pid).u64(addr).u64(len).u64(0);
            b.u32(0).u32(0).u64(0).u64(0).u32(5).u32(2); // maj, min, ino, ino_generation, prot, flags
            self.record(10, USER, b.cstr(path));
        }

        /// FORK at `time`: a new process (`pid != ppid`) or a new thread of `pid`.
        pub fn fork(&mut self, pid: u32, ppid: u32, tid: u32, ptid: u32, time: u64) {
            self.record(
                7,
                0,
                Le::default().u32(pid).u32(ppid).u32(tid).u32(ptid).u64(time),
            );
        }

        /// A user-space sample of weight 1 whose callchain is `chain`, leaf first.
        pub fn sample(&mut self, pid: u32, tid: u32, time: u64, chain: &[u64]) {
            let mut b = Le::default();
            b.u64(chain[0]).u32(pid).u32(tid).u64(time).u64(1);
            b.u64(chain.len() as u64 + 1).u64(CONTEXT_USER);
            for &ip in chain {
                b.u64(ip);
            }
            self.record(9, USER, &b);
        }
    }

    /// A file-mode recording: header, the attribute (with no sample ids), the data section.
    pub fn file(recs: &Records) -> Vec<u8> {
        let mut w = Le::default();
        w.0.extend_from_slice(b"PERFILE2");
        w.u64(104).u64(80); // header size, attribute entry size
        w.u64(ATTRS_AT as u64).u64(80);
        w.u64(DATA_AT as u64).u64(recs.0.len() as u64);
        w.u64(0).u64(0); // event types
        w.u64(0).u64(0).u64(0).u64(0); // feature bits
        w.u32(1).u32(64).u64(0).u64(4000).u64(SAMPLE_TYPE); // cpu-clock, every 4000 ns
        w.0.resize(ATTRS_AT + 64, 0);
        w.u64(0).u64(0); // the attribute's ids section
        assert_eq!(w.0.len(), DATA_AT);
        w.0.extend_from_slice(&recs.0);
        w.0
    }

    /// Overwrites the u64 at `at`.
    pub fn set(file: &mut [u8], at: usize, v: u64) {
        file[at..at + 8].copy_from_slice(&v.to_le_bytes());
    }
}

/// A perf.data shape through every command (its frames are named from made-up binaries: the symbolizer finds
/// none and names each frame `[BASENAME]`, quietly), then `--no-symbols` (frames `BASENAME+0xOFFSET`) with the
/// same total. `stderr` checks what `info` prints on standard error.
fn perfdata_shape(name: &'static str, file: Vec<u8>, total: u64, frame: &'static str, stderr: &dyn Fn(&str)) {
    let dir = tempdir();
    let s = Shape {
        name,
        file: write(&dir, name, &file),
        total,
        frame,
        timed: true,
    };
    let bytes = file.len() as u64;
    drop(file);
    every_command(&s);
    let f = s.file.to_str().unwrap();
    let r = scorch(&["info", f], bytes);
    assert_eq!(r.code, 0, "{name}: {}", r.err);
    stderr(&r.err);
    let r = scorch(&["fold", "--no-symbols", f], bytes);
    assert_eq!((r.code, folded_total(&r.out)), (0, total), "{name}: {}", r.err);
    assert!(
        String::from_utf8_lossy(&r.out).contains("prog+0x"),
        "{name}: fold --no-symbols"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// 50,000 samples (250,000 at scale 5) of one 32-frame callchain: 15 MB of records whose cost is linear in
/// the frames read (a callchain walked per sample, its stack interned once). Deeper callchains cost the debug
/// binary the same per frame: 100,000 of 64 frames took 10–20 s a command on a loaded machine.
#[test]
fn perfdata_with_very_many_samples_of_one_deep_callchain() {
    let n = 50_000 * scale() as u64;
    let depth = 32u64;
    let mut recs = perf_data::Records::default();
    recs.comm(7, 7, "prog");
    recs.mmap2(7, 0x40_0000, 0x10_0000, "/nonexistent-scorch/bin/prog");
    let chain: Vec<u64> = (0..depth).map(|i| 0x40_1000 + 0x10 * (depth - i)).collect();
    for i in 0..n {
        recs.sample(7, 7, 1_000_000 + 1000 * i, &chain);
    }
    let quiet = |err: &str| assert_eq!(err, "", "perfdata-many: info's stderr");
    perfdata_shape("perfdata-many", perf_data::file(&recs), n, "[prog]", &quiet);
}

/// One process with 5,000 mappings (25,000 at scale 5), then 20,000 (100,000) processes forked from it, each
/// with a name, a mapping of its own, a second thread, and a sample on each thread: 8 MB (40 MB). perf copies a
/// parent's mappings into each new process: here that would be 10^8 mappings (2.5·10^9 at scale 5), quadratic
/// in the input, so the reader copies no more than one per 16 bytes of input (one per byte took 1.7 GB at
/// scale 1), and the processes past that start with none: their samples' leaves are `[unknown]`, counted, with
/// one warning for the forks that copied nothing.
#[test]
fn perfdata_with_very_many_mappings_and_forks() {
    let maps = 5_000 * scale() as u32;
    let procs = 20_000 * scale() as u32;
    let lib_at = |k: u32| 0x7f00_0000_0000 + u64::from(k) * 0x1_0000;
    let mut recs = perf_data::Records::default();
    let mut time = 1_000_000u64;
    recs.comm(1, 1, "init");
    for k in 0..maps {
        recs.mmap2(
            1,
            lib_at(k),
            0x1_0000,
            &format!("/nonexistent-scorch/lib/lib{}.so", k % 100),
        );
    }
    for i in 0..procs {
        let (pid, thread) = (2 + i, 2 + procs + i);
        time += 1000;
        recs.fork(pid, 1, pid, 1, time);
        recs.comm(pid, pid, &format!("w{i}"));
        recs.mmap2(pid, 0x40_0000, 0x10_0000, "/nonexistent-scorch/bin/prog");
        recs.fork(pid, pid, thread, pid, time);
        recs.comm(pid, thread, &format!("t{i}"));
        let chain = [lib_at(i % maps) + 0x10, 0x40_1000];
        recs.sample(pid, pid, time, &chain);
        recs.sample(pid, thread, time, &chain);
    }
    // Two warnings: the forks that copied nothing, and the leaves of their samples (two each).
    let warned = |err: &str| {
        let first_of = |line: &str, what: &str| -> u64 {
            let n = line
                .split("(the first of ")
                .nth(1)
                .and_then(|t| t.split(what).next());
            let n = n.unwrap_or_else(|| panic!("perfdata-forks: {line}"));
            n.trim().replace(',', "").parse().unwrap()
        };
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "perfdata-forks: {err}");
        assert!(lines[0]
            .starts_with("warning: more forks of mapped processes than the input's size allows to copy"));
        assert!(lines[1].contains("lies in no mapping of its process; named [unknown]"));
        let forks = first_of(lines[0], "malformed records");
        assert!(forks > 0 && forks < u64::from(procs), "{err}");
        assert_eq!(first_of(lines[1], "addresses"), 2 * forks, "{err}");
    };
    perfdata_shape(
        "perfdata-forks",
        perf_data::file(&recs),
        2 * u64::from(procs),
        "[prog]",
        &warned,
    );
}

/// Headers whose sections claim more than the input holds: refused with a message that says which (an error,
/// not an allocation of the claimed size); a feature section that does is skipped with a warning.
#[test]
fn perfdata_headers_that_claim_huge_sections() {
    use perf_data::*;
    let mut recs = Records::default();
    recs.mmap2(7, 0x40_0000, 0x10_0000, "/nonexistent-scorch/bin/prog");
    recs.sample(7, 7, 1000, &[0x40_1000]);
    let good = file(&recs);
    let dir = tempdir();
    let huge = [u64::MAX, u64::MAX / 2, 1 << 40];
    let mut cases: Vec<(String, Vec<u8>, &str)> = Vec::new();
    for v in huge {
        for (field, what) in [
            (ATTRS_SIZE_FIELD, "the attributes section"),
            (ATTRS_SIZE_FIELD - 8, "the attributes section"),
            (DATA_SIZE_FIELD, "the data section"),
            (IDS_SIZE_FIELD, "the sample ids section"),
            (ATTR_SIZE_FIELD, "an attribute entry of"),
            (8, "a file header of"),
        ] {
            let mut f = good.clone();
            set(&mut f, field, v);
            cases.push((format!("field at {field} = {v}"), f, what));
        }
    }
    for (label, f, what) in &cases {
        let path = write(&dir, "huge-header", f);
        let r = scorch(&["info", path.to_str().unwrap()], f.len() as u64);
        assert_eq!(r.code, 1, "{label}: {}", r.err);
        assert!(r.err.contains(what), "{label}: wanted {what:?} in {}", r.err);
    }
    // The BUILD_ID feature's section (after the data) claims 2^63 bytes: skipped, counted.
    let mut f = good.clone();
    set(&mut f, FEATURE_BITS, 1 << 2);
    let end = f.len() as u64;
    f.extend_from_slice(&end.to_le_bytes());
    f.extend_from_slice(&(1u64 << 63).to_le_bytes());
    let path = write(&dir, "huge-feature", &f);
    let r = scorch(&["info", path.to_str().unwrap()], f.len() as u64);
    assert_eq!(r.code, 0, "{}", r.err);
    let text = String::from_utf8_lossy(&r.out);
    assert!(
        text.lines()
            .any(|l| l.starts_with("total:") && l.split_whitespace().nth(1) == Some("1")),
        "{text}"
    );
    assert!(
        r.err.contains("feature section 2 could not be read; skipped"),
        "{}",
        r.err
    );
    let _ = std::fs::remove_dir_all(&dir);
}
