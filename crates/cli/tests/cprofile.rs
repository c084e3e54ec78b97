//! Python cProfile output (docs/FORMATS.md, "Python cProfile"), on a recording made here of `prog.py`
//! (`tests/data/cprofile/PROVENANCE.md`): scorch's per-function numbers against Python's own `pstats` reading
//! of the file (`tests/oracles/cprofile.py`, which prints `pstats.Stats(FILE).stats` per function). Times are
//! whole nanoseconds: pstats' seconds × 10^9, rounded half to even (Python's `round`).
//!
//! - Self time per function (`scorch top`'s flat, event `time`) = pstats' tottime, for every function.
//! - Calls per function (events `calls` and `primitive calls`) = pstats' ncalls (`8361/1`: 8361 and 1).
//! - Cumulative time (`scorch top`'s cum) = pstats' cumtime for every function outside a cycle (above one
//!   too: `main` calls the mutual recursion `is_even`/`is_odd`); inside one it lies between self and cumtime
//!   (cProfile counts a cycle's nested levels again in its callees' cumtime, scorch counts each stack once).
//! - The total = pstats' total_tt (`… in 0.181 seconds`).

mod common;
use common::scorch;

use std::collections::BTreeMap;
use std::process::Command;

fn root() -> String {
    format!("{}/../..", env!("CARGO_MANIFEST_DIR"))
}

fn data(name: &str) -> String {
    format!("{}/tests/data/cprofile/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// pstats' reading: per function (ncalls, primitive calls, tottime ns, cumtime ns, recursive), and total_tt.
#[allow(clippy::type_complexity)]
fn pstats() -> (BTreeMap<String, (u64, u64, u64, u64, bool)>, u64) {
    let out = Command::new("python3")
        .arg(format!("{}/tests/oracles/cprofile.py", root()))
        .arg(data("prog.prof"))
        .output()
        .expect("python3 runs the oracle");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut m = BTreeMap::new();
    let mut total = 0;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f[0] == "TOTAL" {
            total = f[1].parse().unwrap();
            continue;
        }
        let n = |i: usize| f[i].parse::<u64>().unwrap();
        m.insert(f[0].to_string(), (n(1), n(2), n(3), n(4), f[5] == "1"));
    }
    assert_eq!(m.len(), 20);
    (m, total)
}

/// `scorch top --json` for an event: function → (flat, cum).
fn top(event: &str) -> BTreeMap<String, (u64, u64)> {
    let (code, out, err) = scorch(&[
        "top",
        "--json",
        "-n",
        "100000",
        "--event",
        event,
        &data("prog.prof"),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["name"].as_str().unwrap().to_string(),
                (f["flat"].as_u64().unwrap(), f["cum"].as_u64().unwrap()),
            )
        })
        .collect()
}

#[test]
fn self_time_and_calls_per_function_equal_pstats() {
    let (want, _) = pstats();
    let time = top("time");
    let calls = top("calls");
    let primitive = top("primitive calls");
    for (name, &(nc, cc, tt, _, _)) in &want {
        assert_eq!(time.get(name).map_or(0, |x| x.0), tt, "tottime of {name}");
        assert_eq!(calls.get(name).map(|x| x.0), Some(nc), "ncalls of {name}");
        assert_eq!(
            primitive.get(name).map(|x| x.0),
            Some(cc),
            "primitive calls of {name}"
        );
    }
    assert_eq!(time.len(), want.len());
    assert_eq!((want["fib"].0, want["fib"].1), (8361, 1));
}

#[test]
fn cumulative_time_equals_pstats_outside_cycles() {
    let (want, total) = pstats();
    let time = top("time");
    for (name, &(_, _, tt, ct, recursive)) in &want {
        let (flat, cum) = time[name];
        if recursive {
            assert!(
                flat <= cum && cum <= ct,
                "{name}: self {flat}, cum {cum}, cumtime {ct}"
            );
        } else {
            assert_eq!(cum, ct, "cumtime of {name}");
        }
        assert_eq!(flat, tt);
    }
    // Direct recursion and the cycle's entry hold the cycle's time: fib and is_even equal their cumtime.
    assert_eq!(time["fib"].1, want["fib"].3);
    assert_eq!(time["is_even"].1, want["is_even"].3);
    let (code, out, err) = scorch(&["info", "--json", &data("prog.prof")]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "cprofile");
    assert_eq!(v["events"][0]["total"].as_u64(), Some(total));
    assert_eq!(v["events"][0]["unit"], "nanoseconds");
    assert_eq!(v["warnings"].as_u64(), Some(0), "{out}");
}

#[test]
fn the_graph_becomes_stacks_from_the_profilers_root() {
    let (code, out, err) = scorch(&["fold", &data("prog.prof")]);
    assert_eq!(code, 0, "{err}");
    // Every stack starts where profiling began (`exec` under `-m cProfile`), or at the profiler's own
    // `disable`; a function called only inside a cycle is never a root.
    for line in out.lines() {
        assert!(
            line.starts_with("{built-in method builtins.exec}") || line.starts_with("{method 'disable'"),
            "{line}"
        );
    }
    // `sum` is shared by `start` and `end` (each sums its own generator expression, prog.py:25 and :29): the
    // graph cannot tell which caller's `sum` ran which, so each caller gets its average split and both show
    // both generators (paths that never ran, the documented caveat), and below the shared `backup`, both
    // `do_read` and `do_write`.
    for caller in ["start", "end"] {
        for g in ["25", "29"] {
            let path =
                format!(";main;{caller};{{built-in method builtins.sum}};<genexpr> (prog.py:{g});backup;");
            assert!(out.contains(&path), "{path}");
        }
    }
    assert!(out.contains(";main;is_even;is_odd "), "{out}");
    assert!(out.contains(";backup;do_read;spin "), "{out}");
    assert!(out.contains(";backup;do_write;spin "), "{out}");
}
