//! Stack health (`scorch info`, `--json`'s `stack_health`, `--transform truncated:`) on real recordings made
//! here (`crates/core/tests/data/perf-made/health-*`, provenance in its README.md): the same C program with frame
//! pointers omitted (`-g`), recorded with `--call-graph dwarf`, and built with `-fno-omit-frame-pointer`; a Go
//! program; a Node program with and without its perf map. Every share, and the depth distribution, is checked
//! against an independent reading of the perf script text done here (not scorch's parser or model).

mod common;
use common::scorch;

fn data(rel: &str) -> String {
    format!("{}/../core/tests/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}

const NOFP: &str = "perf-made/health-c-nofp.txt";
const DWARF: &str = "perf-made/health-c-dwarf.txt";
const FP: &str = "perf-made/health-c-fp.txt";
const GO: &str = "perf-made/health-go.txt";
const NODE_NOMAP: &str = "perf-made/health-node-nomap.txt";
const NODE_MAP: &str = "perf-made/health-node-map.txt";
const ALL: [&str; 6] = [NOFP, DWARF, FP, GO, NODE_NOMAP, NODE_MAP];

/// One frame line of `perf script`: `    addr symbol+0xoff (dso)`.
struct Frame {
    sym: String,
    kernel: bool,
}

struct Sample {
    period: u64,
    /// Leaf first, as perf prints them.
    frames: Vec<Frame>,
}

fn read(text: &str) -> Vec<Sample> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut lines = block.lines().filter(|l| !l.trim().is_empty());
        let Some(head) = lines.next() else { continue };
        // `work-nofp 21716 12526.319344:    1001001 cpu-clock: `
        let fields: Vec<&str> = head.split_whitespace().collect();
        let ti = fields.iter().position(|f| f.ends_with(':')).unwrap();
        let period = fields[ti + 1].parse().unwrap();
        assert_eq!(fields[ti + 2], "cpu-clock:");
        let frames = lines
            .map(|l| {
                let l = l.trim();
                let (_addr, rest) = l.split_once(' ').unwrap();
                let open = rest.rfind(" (").unwrap();
                let (sym, dso) = (&rest[..open], &rest[open + 2..rest.len() - 1]);
                // `symbol+0x1a` → `symbol`; `[unknown]` has no offset.
                let sym = match sym.rfind("+0x") {
                    Some(i) => &sym[..i],
                    None => sym,
                };
                Frame {
                    sym: sym.split('@').next().unwrap().to_string(),
                    kernel: dso == "[kernel.kallsyms]",
                }
            })
            .collect();
        out.push(Sample { period, frames });
    }
    out
}

/// Where a walked-to-the-end stack begins: the core's list (docs/FORMATS.md's), one list for scorch and this
/// reading.
fn user_start(sym: &str) -> bool {
    scorch_core::analysis::health::is_entry_point(sym)
}

/// A stack reaches an entry point: a user frame that starts a process or thread anywhere on it, or a kernel-only
/// stack whose outermost frame is a kernel entry (`entry_SYSCALL_64…`, `asm_…`, `ret_from_fork…`, idle).
fn whole(s: &Sample) -> bool {
    if s.frames.iter().any(|f| !f.kernel && user_start(&f.sym)) {
        return true;
    }
    match s.frames.last() {
        Some(f) if f.kernel => {
            f.sym.starts_with("entry_SYSCALL")
                || f.sym.starts_with("asm_")
                || f.sym.starts_with("ret_from_fork")
                || f.sym.starts_with("secondary_startup_64")
                || f.sym == "start_kernel"
        }
        _ => false,
    }
}

/// A stack has an `[unknown]` frame, not counting those beyond (outer to) its outermost user entry point: the
/// garbage return address unwinders read past `_start` or `runtime.mstart`.
fn unnamed(s: &Sample) -> bool {
    let outermost_entry = s.frames.iter().rposition(|f| !f.kernel && user_start(&f.sym));
    let upto = match outermost_entry {
        Some(i) => i,
        None => s.frames.len(),
    };
    s.frames[..upto].iter().any(|f| f.sym == "[unknown]")
}

struct Expected {
    broken: f64,
    unsymbolized: f64,
    median: u64,
    p99: u64,
    max: u64,
}

/// The shares of the total period, and the depth distribution weighted by period (sorted, then the first depth
/// at which the running weight reaches half / 99 % of the total).
fn expected(samples: &[Sample]) -> Expected {
    let total: u64 = samples.iter().map(|s| s.period).sum();
    let broken: u64 = samples.iter().filter(|s| !whole(s)).map(|s| s.period).sum();
    let unsym: u64 = samples.iter().filter(|s| unnamed(s)).map(|s| s.period).sum();
    let mut depths: Vec<(u64, u64)> = samples
        .iter()
        .map(|s| (s.frames.len() as u64, s.period))
        .collect();
    depths.sort();
    let at = |q: u128| {
        let mut acc = 0u128;
        for &(d, w) in &depths {
            acc += w as u128;
            if acc * 100 >= total as u128 * q {
                return d;
            }
        }
        0
    };
    Expected {
        broken: broken as f64 / total as f64,
        unsymbolized: unsym as f64 / total as f64,
        median: at(50),
        p99: at(99),
        max: depths.last().unwrap().0,
    }
}

fn health_json(rel: &str) -> serde_json::Value {
    let (code, out, err) = scorch(&["info", "--json", &data(rel)]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["stack_health"].clone()
}

#[test]
fn shares_and_depth_equal_an_independent_reading() {
    for rel in ALL {
        let text = std::fs::read_to_string(data(rel)).unwrap();
        let want = expected(&read(&text));
        let h = health_json(rel);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(
            close(h["broken_share"].as_f64().unwrap(), want.broken),
            "{rel}: {h} vs {}",
            want.broken
        );
        assert!(
            close(h["unsymbolized_share"].as_f64().unwrap(), want.unsymbolized),
            "{rel}: {h} vs {}",
            want.unsymbolized
        );
        assert_eq!(h["depth"]["median"], want.median, "{rel}");
        assert_eq!(h["depth"]["p99"], want.p99, "{rel}");
        assert_eq!(h["depth"]["max"], want.max, "{rel}");
        assert_eq!(h["truncation_basis"], "entry_points", "{rel}");
    }
}

#[test]
fn frame_pointers_omitted_is_broken_dwarf_and_frame_pointers_are_not() {
    let share = |rel: &str, key: &str| health_json(rel)[key].as_f64().unwrap();
    assert!(share(NOFP, "broken_share") > 0.5);
    assert!(share(DWARF, "broken_share") < 0.05);
    assert!(share(FP, "broken_share") < 0.05);
    assert!(share(GO, "broken_share") < 0.05);
    // Node's JIT frames are named only with its perf map.
    assert!(share(NODE_NOMAP, "unsymbolized_share") > 0.5);
    assert!(share(NODE_MAP, "unsymbolized_share") < 0.05);
}

#[test]
fn info_prints_the_advice_for_what_it_sees() {
    let text = |rel: &str| scorch(&["info", &data(rel)]).1;
    let nofp = text(NOFP);
    assert!(nofp.contains("truncated:       100.0 % of the total"), "{nofp}");
    assert!(nofp.contains("-fno-omit-frame-pointer") && nofp.contains("--call-graph dwarf"));
    let dwarf = text(DWARF);
    assert!(
        dwarf.contains("truncated:       0 %") && !dwarf.contains("advice:"),
        "{dwarf}"
    );
    let node = text(NODE_NOMAP);
    assert!(
        node.contains("--perf-basic-prof") && !node.contains("-fno-omit-frame-pointer"),
        "{node}"
    );
    assert!(!text(NODE_MAP).contains("advice:"));
}

#[test]
fn go_pprof_is_complete_by_construction() {
    let (code, out, _) = scorch(&["info", &data("pprof/gp-sample.cpu.pb.gz")]);
    assert_eq!(code, 0);
    assert!(out.contains("complete by construction"), "{out}");
    let (_, json, _) = scorch(&["info", "--json", &data("pprof/gp-sample.cpu.pb.gz")]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["stack_health"]["truncation_basis"], "go_runtime");
    assert_eq!(v["stack_health"]["broken_share"], 0.0);
}

#[test]
fn v8_profiles_are_complete_by_construction() {
    // No JavaScript stack names a C entry point: judged by names, every one would read as truncated.
    for rel in ["v8/node-small.cpuprofile", "v8/chromium-trace.json"] {
        let h = health_json(rel);
        assert_eq!(h["truncation_basis"], "v8_profiler", "{rel}");
        assert_eq!(h["broken_share"], 0.0, "{rel}");
    }
}

/// `(stack, weight)` lines of folded text.
fn lines(folded: &str) -> Vec<(String, u64)> {
    folded
        .lines()
        .map(|l| {
            let (s, w) = l.rsplit_once(' ').unwrap();
            (s.to_string(), w.parse().unwrap())
        })
        .collect()
}

#[test]
fn the_truncated_transform_moves_exactly_the_broken_stacks() {
    for rel in [NOFP, NODE_NOMAP, DWARF] {
        let text = std::fs::read_to_string(data(rel)).unwrap();
        let samples = read(&text);
        let total: u64 = samples.iter().map(|s| s.period).sum();
        let broken: u64 = samples.iter().filter(|s| !whole(s)).map(|s| s.period).sum();
        let (code, plain, _) = scorch(&["fold", &data(rel)]);
        assert_eq!(code, 0);
        let (code, moved, _) = scorch(&["fold", "--transform", "truncated:", &data(rel)]);
        assert_eq!(code, 0);
        let moved = lines(&moved);
        // The weight under the synthetic root (below the process root) is the broken weight; the total is kept.
        let under: u64 = moved
            .iter()
            .filter(|(s, _)| s.split(';').nth(1) == Some("[truncated stack]"))
            .map(|(_, w)| w)
            .sum();
        assert_eq!(under, broken, "{rel}");
        assert_eq!(moved.iter().map(|(_, w)| w).sum::<u64>(), total, "{rel}");
        // Taking the root out again gives the stacks as they were.
        let mut back: Vec<(String, u64)> = moved
            .into_iter()
            .map(|(s, w)| (s.replacen(";[truncated stack]", "", 1), w))
            .collect();
        back.sort();
        let mut plain = lines(&plain);
        plain.sort();
        assert_eq!(back, plain, "{rel}");
    }
    let (code, _, err) = scorch(&["fold", "--transform", "truncated:x", &data(NOFP)]);
    assert_eq!(code, 2, "{err}");
}
