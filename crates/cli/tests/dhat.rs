//! DHAT profiles (docs/FORMATS.md, "DHAT"), on a recording made here of `prog.c` with `valgrind --tool=dhat`
//! (`tests/data/dhat/PROVENANCE.md`): scorch against an independent reading of the JSON
//! (`tests/oracles/dhat.py`) and against the totals valgrind printed when the program ended (stored beside the
//! recording).
//!
//! - Every event (`total bytes`, `t-gmax bytes`, …, one per number DHAT writes per program point): `scorch
//!   fold --event E` per stack = the program points' number per stack (frames root first, by function).
//! - `scorch top` (total bytes): per function, flat and cum = the oracle's sums.
//! - `scorch info`: each event's total = the sum over the program points = valgrind's own `Total:`, `At
//!   t-gmax:`, `At t-end:`, `Reads:` and `Writes:` lines.

mod common;
use common::scorch;

use std::collections::BTreeMap;
use std::process::Command;

/// DHAT's field and scorch's event for it.
const EVENTS: [(&str, &str); 11] = [
    ("tb", "total bytes"),
    ("tbk", "total blocks"),
    ("gb", "t-gmax bytes"),
    ("gbk", "t-gmax blocks"),
    ("eb", "t-end bytes"),
    ("ebk", "t-end blocks"),
    ("mb", "max bytes"),
    ("mbk", "max blocks"),
    ("rb", "reads"),
    ("wb", "writes"),
    ("tl", "lifetimes"),
];

fn root() -> String {
    format!("{}/../..", env!("CARGO_MANIFEST_DIR"))
}

fn data(name: &str) -> String {
    format!("{}/tests/data/dhat/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The oracle's lines, split at their last `n` spaces into a key and numbers.
fn oracle(args: &[&str], n: usize) -> BTreeMap<String, Vec<u64>> {
    let out = Command::new("python3")
        .arg(format!("{}/tests/oracles/dhat.py", root()))
        .arg(data("dhat.out"))
        .args(args)
        .output()
        .expect("python3 runs the oracle");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut m: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let mut rest = line;
        let mut nums = vec![0; n];
        for k in (0..n).rev() {
            let (r, x) = rest.rsplit_once(' ').unwrap();
            nums[k] = x.parse().unwrap();
            rest = r;
        }
        let e = m.entry(rest.to_string()).or_insert_with(|| vec![0; n]);
        for (a, b) in e.iter_mut().zip(nums) {
            *a += b;
        }
    }
    m
}

#[test]
fn fold_per_stack_equals_the_program_points_for_every_event() {
    for (field, event) in EVENTS {
        let want: BTreeMap<String, u64> = oracle(&["stacks", field], 1)
            .into_iter()
            .map(|(k, v)| (k, v[0]))
            .collect();
        let (code, out, err) = scorch(&["fold", "--event", event, &data("dhat.out")]);
        assert_eq!(code, 0, "{err}");
        let mut got = BTreeMap::new();
        for line in out.lines() {
            let (s, n) = line.rsplit_once(' ').unwrap();
            *got.entry(s.to_string()).or_insert(0u64) += n.parse::<u64>().unwrap();
        }
        assert_eq!(got, want, "{event}");
    }
    let want = oracle(&["stacks", "tb"], 1);
    assert!(want.contains_key("main;churn;dup_of;make;malloc"), "{want:?}");
}

#[test]
fn top_per_function_equals_the_oracle() {
    let want: BTreeMap<String, (u64, u64)> = oracle(&["functions", "tb"], 2)
        .into_iter()
        .map(|(k, v)| (k, (v[0], v[1])))
        .collect();
    let (code, out, err) = scorch(&["top", "--json", "-n", "1000", &data("dhat.out")]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let got: BTreeMap<String, (u64, u64)> = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["name"].as_str().unwrap().to_string(),
                (f["flat"].as_u64().unwrap(), f["cum"].as_u64().unwrap()),
            )
        })
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        got["malloc"].0, got["main"].1,
        "every byte is allocated by malloc, under main"
    );
}

#[test]
fn totals_equal_the_sums_and_valgrinds_own_lines() {
    let sums = oracle(&["totals"], 1);
    let (code, out, err) = scorch(&["info", "--json", &data("dhat.out")]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "dhat");
    let events = v["events"].as_array().unwrap();
    assert_eq!(events.len(), EVENTS.len());
    let total = |name: &str| {
        events
            .iter()
            .find(|e| e["name"] == name)
            .and_then(|e| e["total"].as_u64())
            .unwrap()
    };
    for (field, event) in EVENTS {
        assert_eq!(total(event), sums[field][0], "{event}");
    }
    assert_eq!(v["total"].as_u64(), Some(total("total bytes")));
    // valgrind's lines: `Total:     278,822 bytes in 185 blocks`, `At t-gmax: …`, `At t-end: …`, `Reads: …`.
    let text = std::fs::read_to_string(data("dhat.out.valgrind.txt")).unwrap();
    let line = |label: &str| -> Vec<u64> {
        let l = text
            .lines()
            .find_map(|l| l.split_once(label).map(|x| x.1))
            .unwrap();
        l.split_whitespace()
            .filter_map(|w| w.replace(',', "").parse().ok())
            .collect()
    };
    assert_eq!(line("Total:"), vec![total("total bytes"), total("total blocks")]);
    assert_eq!(
        line("At t-gmax:"),
        vec![total("t-gmax bytes"), total("t-gmax blocks")]
    );
    assert_eq!(
        line("At t-end:"),
        vec![total("t-end bytes"), total("t-end blocks")]
    );
    assert_eq!(line("Reads:"), vec![total("reads")]);
    assert_eq!(line("Writes:"), vec![total("writes")]);
}
