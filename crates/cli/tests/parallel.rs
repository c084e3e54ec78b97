//! The parallel parse of large plain inputs: `scorch fold` and `scorch info --json` print the same bytes with
//! 1, 2, 3 and 4 threads, on generated folded and perf script files over the 8 MiB threshold that carry what
//! crosses slices (threads, events with and without periods, lost events, bad lines, CRLF, fractional counts
//! after integer ones, a declared unit). The oracle is the single-threaded run (itself checked against the
//! producing tools by the corpus tests); `SCORCH_TRACE_PARSE` shows that the slices were really used.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

fn scorch(args: &[&str], threads: usize) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_scorch"))
        .args(args)
        .arg("--threads")
        .arg(threads.to_string())
        .env("SCORCH_TRACE_PARSE", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A small deterministic generator (xorshift), so the test needs no files.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const TARGET: usize = 9 << 20;

fn folded() -> String {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut s = String::from("# generated for the parallel parse test\n");
    let mut i = 0u64;
    while s.len() < TARGET {
        i += 1;
        let depth = 1 + r.below(24);
        let frames: Vec<String> = (0..depth)
            .map(|d| format!("mod{}::fn_{}", d % 5, r.below(40 + d * 3)))
            .collect();
        let end = if i.is_multiple_of(97) { "\r\n" } else { "\n" };
        match i % 1013 {
            0 => s.push_str("a line without a count\n"),
            500 => s.push_str(" 3\n"), // a sample without frames
            _ if s.len() > TARGET / 2 && i.is_multiple_of(7) => {
                let _ = write!(s, "{} {}.{}{end}", frames.join(";"), r.below(50), r.below(100));
            }
            _ => {
                let _ = write!(s, "{} {}{end}", frames.join(";"), 1 + r.below(1000));
            }
        }
        if i == 200_000 {
            s.push_str("# unit: us\n");
        }
    }
    s
}

fn perf() -> String {
    let mut r = Rng(0xD1B5_4A32_D192_ED03);
    let mut s = String::from("# ========\n# captured on    : generated\n# ========\n#\n");
    let mut t = 1_000_000_000_000u64;
    let mut i = 0u64;
    while s.len() < TARGET {
        i += 1;
        t += 1 + r.below(2_000_000);
        let tid = 100 + r.below(12);
        let comm = if tid.is_multiple_of(3) { "java" } else { "worker" };
        let (period, event) = if r.below(3) == 0 {
            (String::new(), "cycles:u")
        } else {
            (format!("{} ", 250_000 + r.below(10)), "cpu-clock:")
        };
        let _ = writeln!(
            s,
            "{comm} 99/{tid} [{:03}] {}.{:09}: {period}{event}",
            r.below(4),
            t / 1_000_000_000,
            t % 1_000_000_000
        );
        for d in 0..1 + r.below(30) {
            if r.below(9) == 0 {
                let _ = writeln!(
                    s,
                    "\tffffffff81{:06x} k_{}+0x1 ([kernel.kallsyms])",
                    d,
                    r.below(20)
                );
            } else {
                let _ = writeln!(
                    s,
                    "\t{:x} f_{}_{}+0x{:x} (/usr/bin/app)",
                    0x400000 + d,
                    d % 4,
                    r.below(50),
                    d
                );
            }
        }
        s.push('\n');
        if i.is_multiple_of(5_000) {
            let _ = writeln!(
                s,
                "perf 0 [000] {}.000000000: PERF_RECORD_LOST lost {}\n",
                t / 1_000_000_000,
                r.below(9)
            );
        }
        if i.is_multiple_of(7_919) {
            s.push_str("garbage that is not a header\n\tff frame (x)\n\n");
        }
    }
    s
}

fn check(name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let mut runs = vec![vec!["fold", p], vec!["info", "--json", p]];
    if name.ends_with(".perf") {
        runs.push(vec!["fold", "--compat", "inferno", "--all", p]);
    }
    for args in runs {
        let (one, err1) = scorch(&args, 1);
        assert!(!err1.contains("slices"), "{err1}");
        assert!(one.len() > 100, "{args:?}: {one}");
        assert!(err1.contains("warning: line "), "{args:?}: {err1}");
        for n in [2, 3, 4] {
            let (out, err) = scorch(&args, n);
            assert!(
                err.contains(&format!("in {n} slices")),
                "{args:?}, {n} threads: {err}"
            );
            assert!(!err.contains("read whole"), "{args:?}, {n} threads: {err}");
            // Warnings too: the same lines and bytes.
            let strip = |e: &str| {
                e.lines()
                    .filter(|l| !l.starts_with("scorch: "))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            assert_eq!(strip(&err), strip(&err1), "{args:?}, {n} threads: warnings");
            assert!(out == one, "{args:?}, {n} threads: output differs");
        }
    }
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn folded_output_is_the_same_on_1_to_4_threads() {
    check("parallel.folded", &folded());
}

#[test]
fn perf_output_is_the_same_on_1_to_4_threads() {
    check("parallel.perf", &perf());
}
