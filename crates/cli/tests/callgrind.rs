//! Callgrind profiles (docs/FORMATS.md, "callgrind"), on recordings made here of `prog.c`
//! (`tests/data/callgrind/PROVENANCE.md`): scorch's per-function numbers against `callgrind_annotate`'s own
//! (`--inclusive=no` and `--inclusive=yes`, stored beside the recordings and parsed here).
//!
//! - Self (exclusive) cost per function equals callgrind_annotate's exactly, for every event of the
//!   13-event recording and in total (callgrind_annotate splits a function by the file of its inlined code,
//!   `fi=`; its rows are added up by function name here, as scorch names a function once).
//! - Inclusive cost equals callgrind_annotate's for every function of the program outside a cycle. Inside a
//!   cycle callgrind_annotate adds each nested level's calls again (fib'2: 261,029 Ir of a 340,310 Ir run);
//!   scorch counts each stack once, so the function where a cycle is entered holds the cost of the call into
//!   it (the caller's inclusive minus its self, as `prog.c` calls nothing else there) and the others less.

mod common;
use common::scorch;

use std::collections::BTreeMap;

fn data(name: &str) -> String {
    format!("{}/tests/data/callgrind/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// callgrind_annotate's function table: the event names and, per `file:function [object]` row, the function
/// name and its numbers (`.` is zero).
fn annotate(name: &str) -> (Vec<String>, Vec<(String, Vec<u64>)>) {
    let text = std::fs::read_to_string(data(name)).unwrap();
    let events: Vec<String> = text
        .lines()
        .find_map(|l| l.strip_prefix("Events shown:"))
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let mut lines = text.lines().skip_while(|l| !l.ends_with("file:function"));
    lines.next();
    lines.next(); // the dashes under the header
    let mut rows = Vec::new();
    for line in lines.take_while(|l| !l.trim().is_empty()) {
        let mut values = Vec::new();
        let mut rest = line.trim_start();
        while values.len() < events.len() {
            let (tok, after) = rest.split_once(' ').unwrap();
            if tok == "." {
                values.push(0);
            } else {
                values.push(tok.replace(',', "").parse::<u64>().unwrap());
            }
            rest = after.trim_start();
            // `(38.31%)`, written `( 0.10%)` for small shares
            if rest.starts_with('(') {
                rest = rest.split_once(')').unwrap().1.trim_start();
            }
        }
        let entry = match rest.rsplit_once(" [") {
            Some((e, obj)) if obj.ends_with(']') => e,
            _ => rest,
        };
        let function = entry.split_once(':').unwrap().1;
        rows.push((function.to_string(), values));
    }
    assert!(rows.len() > 100, "{name}: {} rows", rows.len());
    (events, rows)
}

/// scorch's function table for `event`: bare function name (scorch adds ` (file)` to a name two functions
/// share) → (self, total).
fn top(file: &str, event: &str) -> BTreeMap<String, (u64, u64)> {
    let (code, out, err) = scorch(&["top", "--json", "-n", "100000", "--event", event, &data(file)]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut m = BTreeMap::new();
    for f in v["functions"].as_array().unwrap() {
        let name = f["name"].as_str().unwrap();
        let bare = match name.rsplit_once(" (") {
            Some((n, _)) if name.ends_with(')') => n,
            _ => name,
        };
        let e: &mut (u64, u64) = m.entry(bare.to_string()).or_default();
        e.0 += f["flat"].as_u64().unwrap();
        e.1 += f["cum"].as_u64().unwrap();
    }
    m
}

/// Per function name, the sum of callgrind_annotate's rows for event `i`.
fn by_name(rows: &[(String, Vec<u64>)], i: usize) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for (f, v) in rows {
        *m.entry(f.clone()).or_default() += v[i];
    }
    m.retain(|_, v| *v > 0);
    m
}

#[test]
fn self_cost_per_function_equals_callgrind_annotate_for_every_event() {
    for (file, oracle) in [
        ("callgrind.out", "callgrind.out.annotate-exclusive.txt"),
        (
            "callgrind-instr.out.gz",
            "callgrind-instr.out.annotate-exclusive.txt",
        ),
    ] {
        let (events, rows) = annotate(oracle);
        for (i, event) in events.iter().enumerate() {
            let want = by_name(&rows, i);
            let mut got: BTreeMap<String, u64> =
                top(file, event).into_iter().map(|(k, v)| (k, v.0)).collect();
            got.retain(|_, v| *v > 0);
            assert_eq!(got, want, "{file}, event {event}");
        }
        assert_eq!(events.len(), if file.ends_with(".gz") { 13 } else { 1 });
    }
}

#[test]
fn totals_are_the_files_totals_line() {
    // The instr recording's `totals:` line (its cost lines' sum); its `summary:` says 340,312.
    let (code, out, _) = scorch(&["info", "--json", &data("callgrind-instr.out.gz")]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let text = String::from_utf8(
        std::process::Command::new("zcat")
            .arg(data("callgrind-instr.out.gz"))
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let totals: Vec<u64> = text
        .lines()
        .find_map(|l| l.strip_prefix("totals:"))
        .unwrap()
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let events = v["events"].as_array().unwrap();
    assert_eq!(events.len(), 13);
    for (e, t) in events.iter().zip(&totals) {
        assert_eq!(e["total"].as_u64().unwrap(), *t, "{e}");
    }
    assert_eq!(v["warnings"].as_array().map_or(0, Vec::len), 0, "{out}");
}

#[test]
fn inclusive_cost_equals_callgrind_annotate_outside_cycles() {
    let (_, rows) = annotate("callgrind.out.annotate-inclusive.txt");
    let (_, self_rows) = annotate("callgrind.out.annotate-exclusive.txt");
    let incl = by_name(&rows, 0);
    let excl = by_name(&self_rows, 0);
    let got = top("callgrind.out", "Ir");
    for f in [
        "main",
        "start",
        "end",
        "backup",
        "do_read",
        "do_write",
        "spin",
        "text_work",
        "fib",
        "is_even",
        "is_odd",
    ] {
        assert_eq!(got[f].1, incl[f], "inclusive {f}");
    }
    // The cycles' entries hold the call into them: fib calls only fib'2, is_odd only is_even'2.
    assert_eq!(got["fib'2"].1, incl["fib"] - excl["fib"]);
    assert_eq!(got["is_even'2"].1, incl["is_odd"] - excl["is_odd"]);
    for f in ["fib'2", "is_even'2", "is_odd'2"] {
        let (s, t) = got[f];
        assert_eq!(s, excl[f], "self {f}");
        assert!(
            s <= t && t < incl[f],
            "{f}: self {s}, total {t}, callgrind_annotate {}",
            incl[f]
        );
    }
    // A shared callee: backup's two callers each get its average split (speedscope's rule), so the fold has
    // both start;backup;do_write and end;backup;do_read, which never ran.
    let (code, out, err) = scorch(&["fold", &data("callgrind.out")]);
    assert_eq!(code, 0, "{err}");
    for path in [
        ";start;backup;do_read;spin ",
        ";start;backup;do_write;spin ",
        ";end;backup;do_read;spin ",
    ] {
        assert!(out.contains(path), "{path}");
    }
    // No stack holds a recursive function twice: the calls that close a cycle are not expanded.
    assert!(out.lines().all(|l| l.matches("fib'2").count() <= 1));
}
