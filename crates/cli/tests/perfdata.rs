//! perf.data read directly against perf's own reading of the same recordings (tests/data/perfdata/, made
//! here: see its README): `scorch fold FILE.data` equals `scorch fold` of `perf script`'s text of that file,
//! stack for stack, symbolized through the binaries kept beside the recordings (`SCORCH_SYMBOL_PATH`); and
//! `scorch info`'s events, sample counts, totals and lost counts equal `perf report`'s.
//!
//! Machine-dependent part, marked: perf resolved libc and the kernel on the recording machine. Where this
//! machine's libc (by build id) or kernel (by release) differs, the oracle's names in them are turned back
//! into perf's `[unknown]` (which scorch names `[DSO]`, as scorch does for an unresolved address), so the
//! comparison still holds stack for stack. The unsymbolized comparison (`--no-symbols` against perf's
//! addresses) depends on nothing of this machine.

mod common;

use std::path::PathBuf;
use std::process::Command;

/// What the recording machine had (README): its kernel release and libc's build id.
const RECORDED_OS_RELEASE: &str = "6.18.44-fc-v657";
const LIBC: &str = "/usr/lib/x86_64-linux-gnu/libc.so.6";
const RECORDED_LIBC_BUILD_ID: &str = "93ac61ec5a8eb1396f9fbd350e3169a558528a40";
/// Where the test programs were when they were recorded; copies are kept beside the recordings.
const KEPT: [&str; 2] = ["/tmp/pd/spin", "/tmp/pd/threads"];

/// (recording, perf's outputs' stem)
const RECORDINGS: [(&str, &str); 6] = [
    ("spin.data", "spin"),
    ("threads.data", "threads"),
    ("two.data", "two"),
    ("pipe.data", "pipe"),
    ("gz.data.gz", "gz"),
    ("sched.data", "sched"),
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/perfdata")
}

fn scorch(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_scorch"))
        .args(args)
        .current_dir(dir())
        .env("SCORCH_SYMBOL_PATH", dir())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "scorch {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn scorch_stdin(args: &[&str], input: &str) -> String {
    let (code, out, err) = common::scorch_bytes(args, Some(input.as_bytes()));
    assert_eq!(code, 0, "{err}");
    String::from_utf8(out).unwrap()
}

fn build_id(path: &str) -> Option<String> {
    use object::Object;
    let data = std::fs::read(path).ok()?;
    let id = object::File::parse(&*data).ok()?.build_id().ok()??;
    Some(id.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether this machine resolves `dso` as the recording machine did.
fn resolvable(dso: &str) -> bool {
    match dso {
        "[kernel.kallsyms]" => {
            let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
            let kallsyms = std::fs::read_to_string("/proc/kallsyms").unwrap_or_default();
            release.trim() == RECORDED_OS_RELEASE
                && kallsyms.lines().any(|l| !l.starts_with("0000000000000000"))
        }
        LIBC => build_id(LIBC).as_deref() == Some(RECORDED_LIBC_BUILD_ID),
        "[unknown]" => true,
        d => KEPT.contains(&d),
    }
}

/// A frame line of perf script: (indent and address, symbol, dso).
fn split_frame(line: &str) -> Option<(&str, &str, &str)> {
    let body = line.strip_suffix(')')?;
    let (head, dso) = body.rsplit_once(" (")?;
    let t = head.trim_start();
    let addr_end = t.find(' ')?;
    let cut = head.len() - t.len() + addr_end;
    Some((&head[..cut], head[cut..].trim(), dso))
}

/// perf's script text with the names this machine cannot resolve as perf did turned back into `[unknown]`.
fn oracle_script(stem: &str) -> String {
    let text = std::fs::read_to_string(dir().join(format!("{stem}.script"))).unwrap();
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        match split_frame(line) {
            Some((head, _, dso)) if line.starts_with('\t') && !resolvable(dso) => {
                out.push_str(&format!("{head} [unknown] ({dso})"));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

#[test]
fn fold_of_the_recording_equals_fold_of_perf_script_stack_for_stack() {
    for (file, stem) in RECORDINGS {
        let mine = scorch(&["fold", file]);
        let theirs = scorch_stdin(&["fold", "-"], &oracle_script(stem));
        assert!(!mine.is_empty());
        assert_eq!(mine, theirs, "{file}");
    }
    // The second event of a two-event recording too.
    let mine = scorch(&["fold", "--event", "task-clock", "two.data"]);
    let theirs = scorch_stdin(&["fold", "--event", "task-clock", "-"], &oracle_script("two"));
    assert_eq!(mine, theirs);
}

#[test]
fn unsymbolized_frames_are_modules_and_the_addresses_perf_prints() {
    for (file, stem) in RECORDINGS {
        let mine = scorch(&["fold", "--no-symbols", file]).replace("+0x", "@0x");
        // perf's address column for a user frame is the module's file offset; for a kernel frame the address.
        let text = std::fs::read_to_string(dir().join(format!("{stem}.script"))).unwrap();
        let mut script = String::new();
        for line in text.lines() {
            match split_frame(line) {
                Some((head, _, dso)) if line.starts_with('\t') && dso != "[unknown]" => {
                    let base = dso.rsplit('/').next().unwrap_or(dso);
                    let addr = head.trim();
                    script.push_str(&format!("{head} {base}@0x{addr} ({dso})\n"));
                }
                _ => {
                    script.push_str(line);
                    script.push('\n');
                }
            }
        }
        let theirs = scorch_stdin(&["fold", "-"], &script);
        assert_eq!(mine, theirs, "{file}");
    }
}

#[test]
fn info_counts_equal_perf_report() {
    for (file, stem) in RECORDINGS {
        let info: serde_json::Value = serde_json::from_str(&scorch(&["info", "--json", file])).unwrap();
        let report = std::fs::read_to_string(dir().join(format!("{stem}.report"))).unwrap();
        let mut event = String::new();
        let mut checked = 0;
        for line in report.lines() {
            if let Some(rest) = line.strip_prefix("# Total Lost Samples: ") {
                let lost = info["lost_events"].as_u64().unwrap_or(0);
                assert_eq!(lost.to_string(), rest.trim(), "{file}: lost");
            } else if let Some(rest) = line.strip_prefix("# Samples: ") {
                let (n, name) = rest.split_once("of event '").unwrap();
                event = name.trim_end_matches('\'').to_string();
                let e = info["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|e| e["name"] == event.as_str());
                let e = e.unwrap_or_else(|| panic!("{file}: no event {event} in {info}"));
                assert_eq!(
                    e["samples"].as_u64().unwrap().to_string(),
                    n.trim(),
                    "{file}: {event}"
                );
                checked += 1;
            } else if let Some(rest) = line.strip_prefix("# Event count (approx.): ") {
                let e = info["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|e| e["name"] == event.as_str());
                assert_eq!(
                    e.unwrap()["total"].as_u64().unwrap().to_string(),
                    rest.trim(),
                    "{file}"
                );
            }
        }
        assert!(checked > 0, "{file}");
        // Threads, time span and totals as the perf script importer reads perf's text of the same file.
        let text: serde_json::Value =
            serde_json::from_str(&scorch_stdin(&["info", "--json", "-"], &oracle_script(stem))).unwrap();
        for key in ["samples", "total", "threads", "unit", "distinct_stacks"] {
            assert_eq!(info[key], text[key], "{file}: {key}");
        }
        // perf script prints microseconds; the recording holds nanoseconds.
        let span = |v: &serde_json::Value| v["time_span_ns"].as_u64().unwrap();
        assert!(span(&info).abs_diff(span(&text)) < 1000, "{file}: {info} {text}");
    }
}

#[test]
fn the_format_is_listed() {
    let (code, out, _) = common::scorch(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("perf.data"), "{out}");
}
