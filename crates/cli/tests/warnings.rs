//! Warnings on standard error (issue 40): one line per kind, with its count and first example; `--warnings all`
//! lists every one.
//!
//! `perf-made/sched-one.txt.gz` (README.md there) is a recording of one command's `sched:sched_switch` events,
//! so most switch-outs never switch back in within the file. Their number is counted without scorch, by
//! `tests/oracles/offcpu.py` (its own reading of the text).

mod common;
use common::{core_data, scorch};

use std::process::Command;

const ONE: &str = "perf-made/sched-one.txt.gz";

/// The oracle's count of switch-outs never followed by their thread's switch-in.
fn unmatched(rel: &str) -> u64 {
    let script = format!("{}/../../tests/oracles/offcpu.py", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(script)
        .arg(core_data(rel))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.starts_with("# unmatched")).unwrap();
    line["# unmatched".len()..].trim().parse().unwrap()
}

fn warning_lines(err: &str) -> Vec<&str> {
    err.lines().filter(|l| l.starts_with("warning: ")).collect()
}

#[test]
fn warnings_of_one_kind_are_one_line() {
    let n = unmatched(ONE);
    assert!(n > 100, "more than were ever kept with their text: {n}");
    let file = core_data(ONE);
    for cmd in [
        vec!["info", file.as_str()],
        vec!["fold", file.as_str()],
        vec!["top", file.as_str()],
        vec!["heatmap", file.as_str()],
    ] {
        let (code, _, err) = scorch(&cmd);
        assert_eq!(code, 0, "{cmd:?}: {err}");
        let lines = warning_lines(&err);
        assert_eq!(lines.len(), 1, "{cmd:?}: one kind, one line:\n{err}");
        assert!(
            lines[0].contains("sched_switch at "),
            "the first example: {}",
            lines[0]
        );
        assert!(
            lines[0].contains(&format!("the first of {n} ")),
            "the count: {}",
            lines[0]
        );
    }
}

#[test]
fn warnings_all_lists_every_one() {
    let n = unmatched(ONE);
    let (code, _, err) = scorch(&["info", "--warnings", "all", &core_data(ONE)]);
    assert_eq!(code, 0, "{err}");
    let lines = warning_lines(&err);
    assert_eq!(lines.len() as u64, n, "{err}");
    assert!(lines
        .iter()
        .all(|l| l.contains("switched out and was never seen switching back in")));
    // Each thread's switch-out is named once with its time: no line is repeated.
    let mut distinct = lines.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), lines.len());
}

#[test]
fn one_kind_of_folded_warning() {
    // Two lines without a count in a folded file: one kind, two warnings; `--warnings all` names both lines.
    let file = core_data("folded/inf-bad-lines.txt");
    let (code, _, err) = scorch(&["fold", &file]);
    assert_eq!(code, 0);
    assert_eq!(
        warning_lines(&err),
        ["warning: line 3: no count at the end of the line; skipped (the first of 2 unreadable lines skipped)"]
    );
    let (code, _, err) = scorch(&["fold", "--warnings", "all", &file]);
    assert_eq!(code, 0);
    assert_eq!(
        warning_lines(&err),
        [
            "warning: line 3: no count at the end of the line; skipped",
            "warning: line 6: no count at the end of the line; skipped"
        ]
    );
}
