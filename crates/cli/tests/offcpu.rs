//! Off-CPU time from `sched:sched_switch` (docs/FORMATS.md, "Off-CPU time") through the binary.
//!
//! - `scorch fold --event offcpu` on three real recordings equals `tests/oracles/offcpu.py`, an independent
//!   Python reading of the perf script text (its own header, payload and frame parsing), stack for stack and
//!   nanosecond for nanosecond, and `scorch info`'s warning count equals the oracle's unmatched switch-outs.
//! - On `perf-made/offcpu-sleep.txt.gz` (README.md there) the sleeping thread's stack holds the program's own
//!   CLOCK_MONOTONIC total of its 100 sleeps within 2 %.
//! - `scorch info` lists the derived events; wall-clock is on-CPU plus off-CPU; `offcpu-time` is read.

mod common;
use common::scorch;

use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

fn ok(args: &[&str]) -> String {
    let (code, out, err) = scorch(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn data(rel: &str) -> String {
    format!("{}/../core/tests/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}

const SLEEP: &str = "perf-made/offcpu-sleep.txt.gz";
/// The program's own measurement of its 100 sleeps (`slept_ns` it printed while recorded, README.md).
const SLEPT_NS: u64 = 1_231_597_830;

/// Folded text (`stack weight` lines) as a map; lines starting with `#` are the oracle's figures.
fn folded(text: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let (stack, w) = line.rsplit_once(' ').unwrap();
        *out.entry(stack.to_string()).or_insert(0) += w.parse::<u64>().unwrap();
    }
    out
}

fn oracle(rel: &str) -> (BTreeMap<String, u64>, u64, u64) {
    let script = format!("{}/../../tests/oracles/offcpu.py", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(script)
        .arg(data(rel))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let figure = |key: &str| -> u64 {
        let line = text.lines().find(|l| l.starts_with(key)).unwrap();
        line[key.len()..].trim().parse().unwrap()
    };
    (folded(&text), figure("# unmatched"), figure("# switch-outs"))
}

fn info(rel: &str) -> Value {
    serde_json::from_str(&ok(&["info", "--json", &data(rel)])).unwrap()
}

fn event<'a>(info: &'a Value, name: &str) -> &'a Value {
    info["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("no event {name}: {}", info["events"]))
}

#[test]
fn fold_offcpu_equals_the_python_oracle() {
    for rel in [SLEEP, "perf-made/offcpu.txt", "perf-made/offcpu-ns.txt"] {
        let (want, unmatched, outs) = oracle(rel);
        assert!(!want.is_empty(), "{rel}");
        let got = folded(&ok(&["fold", "--event", "offcpu", &data(rel)]));
        assert_eq!(got, want, "{rel}");
        // Every unmatched switch-out is one warning (these files have no other).
        let i = info(rel);
        assert_eq!(i["warnings"].as_u64(), Some(unmatched), "{rel}");
        let (_, _, err) = scorch(&["fold", "--event", "offcpu", &data(rel)]);
        assert!(
            err.contains(&format!("{unmatched} of {outs} switch-outs")),
            "{rel}: {err}"
        );
    }
}

#[test]
fn the_sleeping_stack_holds_the_programs_own_sleep_time() {
    let off = folded(&ok(&["fold", "--event", "offcpu", &data(SLEEP)]));
    let sleeping: Vec<(&String, &u64)> = off.iter().filter(|(s, _)| s.contains(";sleep_in_bed;")).collect();
    // One stack: the raw nanosleep system call made from sleep_in_bed.
    assert_eq!(sleeping.len(), 1, "{sleeping:?}");
    assert!(sleeping[0]
        .0
        .ends_with("do_nanosleep_[k];schedule_[k];__schedule_[k]"));
    let total = *sleeping[0].1;
    let off_by = (total as f64 - SLEPT_NS as f64).abs() / SLEPT_NS as f64;
    assert!(
        off_by < 0.02,
        "{total} ns against the program's {SLEPT_NS} ns: {:.3} %",
        off_by * 100.0
    );
    // The spinning thread is preempted, never asleep: its waits are R (runnable), the sleeper's S.
    let by_state = |state: &str| {
        let f = folded(&ok(&[
            "fold",
            "--event",
            "offcpu",
            "--tagfilter",
            &format!("state={state}"),
            &data(SLEEP),
        ]));
        f.iter()
            .filter(|(s, _)| s.contains(";sleep_in_bed;"))
            .map(|(_, w)| w)
            .sum::<u64>()
    };
    // All but one of the sleeper's waits are S; one (5,695 ns) is R: its timer fired between the task
    // marking itself asleep and switching out, so it left the CPU runnable.
    assert_eq!(by_state("S") + by_state("R"), total);
    assert!(by_state("S") as f64 > 0.999 * total as f64);
    let spin_s = folded(&ok(&[
        "fold",
        "--event",
        "offcpu",
        "--tagfilter",
        "state=S",
        &data(SLEEP),
    ]));
    assert!(!spin_s.keys().any(|s| s.contains(";spin_work;")), "{spin_s:?}");
    // The state as the root.
    let roots = folded(&ok(&[
        "fold",
        "--event",
        "offcpu",
        "--tagroot",
        "state",
        &data(SLEEP),
    ]));
    assert!(
        roots
            .keys()
            .any(|s| s.starts_with("state=S;start_thread;sleep_in_bed;")),
        "{roots:?}"
    );
    assert_eq!(roots.values().sum::<u64>(), off.values().sum::<u64>());
}

#[test]
fn info_lists_the_derived_events_and_wall_clock_adds_the_halves() {
    let i = info(SLEEP);
    let names: Vec<&str> = i["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "sched:sched_switch",
            "cpu-clock/freq=199/",
            "off-CPU time (from sched_switch)",
            "wall-clock (on-CPU + off-CPU)"
        ]
    );
    let on = event(&i, "cpu-clock/freq=199/");
    let off = event(&i, "off-CPU time (from sched_switch)");
    let wall = event(&i, "wall-clock (on-CPU + off-CPU)");
    for e in [on, off, wall] {
        assert_eq!(e["unit"], "nanoseconds", "{e}");
    }
    let (oracle_off, _, _) = oracle(SLEEP);
    assert_eq!(off["total"].as_u64(), Some(oracle_off.values().sum::<u64>()));
    assert_eq!(
        wall["total"].as_u64().unwrap(),
        on["total"].as_u64().unwrap() + off["total"].as_u64().unwrap()
    );
    // Each half under its label: cpu=on is the on-CPU event's total, cpu=off the waits'.
    let halves = folded(&ok(&[
        "fold",
        "--event",
        "wall-clock",
        "--tagroot",
        "cpu",
        "--root",
        "none",
        &data(SLEEP),
    ]));
    let half = |h: &str| {
        halves
            .iter()
            .filter(|(s, _)| s.starts_with(&format!("cpu={h}")))
            .map(|(_, w)| w)
            .sum::<u64>()
    };
    assert_eq!(Some(half("on")), on["total"].as_u64());
    assert_eq!(Some(half("off")), off["total"].as_u64());
    let text = ok(&["info", &data(SLEEP)]);
    assert!(text.contains("  off-CPU time (from sched_switch): "), "{text}");
    let (_, unmatched, outs) = oracle(SLEEP);
    assert!(
        text.contains(&format!(
            "({unmatched} of {outs} switch-outs never switched back in); wall-clock = cpu-clock/freq=199/"
        )),
        "{text}"
    );
    assert!(i["off_cpu"]
        .as_str()
        .unwrap()
        .contains("waits from sched:sched_switch"));
    // A profile without scheduler events has no derived event and `--event offcpu` names what it has.
    let (code, _, err) = scorch(&["fold", "--event", "offcpu", &data("perf-made/periodic.txt")]);
    assert_eq!(code, 1);
    assert!(
        err.contains("no event `offcpu`") && err.contains("cpu-clock"),
        "{err}"
    );
}

#[test]
fn perf_off_cpu_events_are_nanoseconds() {
    // `perf record --off-cpu` needs perf built with BPF skeletons (this machine's perf 6.1 is not): the
    // documented shape, one `offcpu-time` sample whose period is the time off the CPU in ns.
    let dir = std::env::temp_dir().join(format!("scorch-offcpu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("offcpu-time.txt");
    std::fs::write(
        &file,
        "sleep 40/40 [000] 2.000000000:   12345678 offcpu-time:\n\
         \tffffffff81000001 schedule+0x1 ([kernel.kallsyms])\n\
         \t1 nap+0x4 (/bin/sleep)\n\n\
         sleep 40/40 [000] 2.100000000:   20000000 offcpu-time:\n\
         \t1 nap+0x4 (/bin/sleep)\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    assert_eq!(
        ok(&["fold", "--event", "offcpu", f]),
        "sleep;nap 20000000\nsleep;nap;schedule_[k] 12345678\n"
    );
    let i = info_path(f);
    assert_eq!(event(&i, "offcpu-time")["unit"], "nanoseconds");
    std::fs::remove_dir_all(&dir).ok();
}

fn info_path(path: &str) -> Value {
    serde_json::from_str(&ok(&["info", "--json", path])).unwrap()
}
