//! Sampling error and lost events as `scorch top --json` and `scorch info --json` print them, against independent
//! oracles: `tests/oracles/wilson.py` (its own reading of the samples, statsmodels' Wilson intervals) and perf's
//! own report of a recording that lost events (`crates/core/tests/data/perf-made/lost-oracle.txt`).

use serde_json::Value;
use std::process::Command;

fn scorch_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_scorch"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn core_data(rel: &str) -> String {
    format!("{}/../core/tests/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn close(a: &Value, b: &Value, what: &str) {
    let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
    assert!((a - b).abs() < 1e-12, "{what}: {a} against {b}");
}

#[test]
fn top_json_intervals_equal_the_independent_oracle() {
    for name in ["folded-dtrace", "pprof-gp-sample", "pprof-parca-fib", "perf-lost"] {
        let path = format!("{}/tests/data/wilson/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let oracle: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let profile = core_data(oracle["profile"].as_str().unwrap());
        let top = scorch_json(&["top", "--json", &profile]);
        assert_eq!(top["samples"], oracle["samples"], "{name}");
        let want = oracle["functions"].as_object().unwrap();
        let rows = top["functions"].as_array().unwrap();
        assert_eq!(rows.len(), want.len(), "{name}: the same functions");
        for r in rows {
            let fname = r["name"].as_str().unwrap();
            let w = &want
                .get(fname)
                .unwrap_or_else(|| panic!("{name}: {fname} not in the oracle"));
            let what = format!("{name}: {fname}");
            assert_eq!(r["flat_samples"], w["flat_samples"], "{what}");
            assert_eq!(r["cum_samples"], w["cum_samples"], "{what}");
            for iv in ["flat_interval", "cum_interval"] {
                for end in ["lo", "hi"] {
                    close(&r[iv][end], &w[iv][end], &format!("{what} {iv}.{end}"));
                }
            }
        }
    }
}

#[test]
fn top_text_has_the_half_width_and_the_few_samples_notice() {
    let out = Command::new(env!("CARGO_BIN_EXE_scorch"))
        .args(["top", "-n", "2", &core_data("pprof/gp-sample.cpu.pb.gz")])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // 176 samples: the widest interval (88 of 176, statsmodels: 0.4269–0.5731) is ± 7.3 pp; mapiternext's cum
    // share rests on 137 of 176 samples (statsmodels: 0.71147–0.83345, ± 6.1 pp).
    assert!(
        text.lines()
            .next()
            .unwrap()
            .ends_with("few samples (176): shares are ± 7.3 pp"),
        "{text}"
    );
    let row = text.lines().nth(2).unwrap();
    assert!(row.contains(" ±6.1  runtime.mapiternext"), "{text}");
}

#[test]
fn info_json_lost_events_equal_perfs_report() {
    let oracle = std::fs::read_to_string(core_data("perf-made/lost-oracle.txt")).unwrap();
    let number_after = |key: &str| -> u64 {
        let line = oracle.lines().find(|l| l.contains(key)).unwrap();
        let rest = &line[line.find(key).unwrap() + key.len()..];
        rest.trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let info = scorch_json(&["info", "--json", &core_data("perf-made/lost.txt")]);
    assert_eq!(info["lost_events"], number_after("Total Lost Samples:"));
    assert_eq!(info["lost_chunks"], number_after("events and lost"));
    // "Processed 1565 samples and lost 38.34%!"
    let pct = oracle
        .lines()
        .find(|l| l.contains("samples and lost"))
        .and_then(|l| l.rsplit(' ').next())
        .unwrap()
        .trim_end_matches("%!");
    assert_eq!(format!("{:.2}", info["lost_percent"].as_f64().unwrap()), pct);
    let per_second: Vec<(u64, u64)> = serde_json::from_value(info["lost_per_second"].clone()).unwrap();
    assert_eq!(per_second, [(11305, 184), (11306, 74), (11307, 342)]);
    // perf record -F 50000: a 20,000 ns period, a round rate.
    assert_eq!(info["sampling"]["source"], "period");
    assert_eq!(info["sampling"]["hz"].as_f64(), Some(50_000.0));
    assert_eq!(info["sampling"]["round"], true);
    assert_eq!(info["share_samples"], 965);
    assert!(info["few_samples_pp"].as_f64().unwrap() > 3.0);
    // A profile without lost lines says nothing about losses.
    let info = scorch_json(&["info", "--json", &core_data("perf-made/offcpu.txt")]);
    assert_eq!(info["lost_events"], Value::Null);
    // pprof's period: 10 ms of CPU, 100 Hz (the Go default), a round rate.
    let info = scorch_json(&["info", "--json", &core_data("pprof/gp-sample.cpu.pb.gz")]);
    assert_eq!(info["sampling"]["hz"].as_f64(), Some(100.0));
    assert_eq!(info["sampling"]["round"], true);
}
