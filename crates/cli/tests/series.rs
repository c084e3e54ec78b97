//! Several profiles at once: `scorch fold A B C` (merged) and `scorch series` (shares per profile, trends, the
//! `--fail-if-trend` gate), on real Go CPU profiles recorded here (crates/core/tests/data/series, provenance in
//! its README) and the perf corpus.
//!
//! Oracles: the sum of the single-file folds, added up line by line in this test (an independent path from the
//! merge); the profile `go tool pprof -proto A B C` wrote when merging (stored, and re-made when `go` is
//! installed); each file's own `scorch top --json` shares; `go tool pprof -top`'s flat% of each recording (quoted
//! below) and the least-squares slope computed by Python's `statistics.linear_regression` on those.

mod common;
use common::scorch;

use std::collections::BTreeMap;
use std::process::Command;

fn ok(args: &[&str]) -> String {
    let (code, out, err) = scorch(args);
    assert_eq!(code, 0, "scorch {args:?}: {err}");
    out
}

fn series(name: &str) -> String {
    format!("{}/../core/tests/data/series/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn perf(name: &str) -> String {
    format!("{}/../core/tests/data/perf/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Folded text as stack → weight.
fn parse_folded(text: &str) -> BTreeMap<String, i128> {
    let mut m = BTreeMap::new();
    for line in text.lines() {
        let (stack, w) = line.rsplit_once(' ').unwrap();
        *m.entry(stack.to_string()).or_insert(0) += w.parse::<i128>().unwrap();
    }
    m
}

/// The sum of the single folds of each (file, extra args).
fn summed(files: &[(&str, &[&str])]) -> BTreeMap<String, i128> {
    let mut m = BTreeMap::new();
    for (f, extra) in files {
        let mut args = vec!["fold"];
        args.extend(extra.iter());
        args.push(f);
        for (s, w) in parse_folded(&ok(&args)) {
            *m.entry(s).or_insert(0) += w;
        }
    }
    m.retain(|_, w| *w != 0);
    m
}

fn merged(files: &[&str], extra: &[&str]) -> BTreeMap<String, i128> {
    let mut args = vec!["fold"];
    args.extend(extra);
    args.extend(files);
    parse_folded(&ok(&args))
}

const GO3: [&str; 3] = ["v1-run1.pb.gz", "v1-run2.pb.gz", "v2-run1.pb.gz"];

#[test]
fn fold_of_go_profiles_is_the_sum_and_what_go_merges() {
    let files: Vec<String> = GO3.iter().map(|f| series(f)).collect();
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    let m = merged(&refs, &[]);
    let singles: Vec<(&str, &[&str])> = refs.iter().map(|f| (*f, &[][..])).collect();
    assert_eq!(m, summed(&singles));
    assert!(m.len() >= 4, "{m:?}");
    // What `go tool pprof -proto a b c` wrote when merging (stored), folded.
    let go = series("go-merged-v1-run1-v1-run2-v2-run1.pb.gz");
    assert_eq!(m, parse_folded(&ok(&["fold", &go])));
    // And made afresh where Go is installed.
    let dir = std::env::temp_dir().join(format!("scorch-series-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("merged.pb.gz");
    if let Ok(o) = Command::new("go")
        .args(["tool", "pprof", "-proto"])
        .args(&refs)
        .output()
    {
        if o.status.success() {
            std::fs::write(&out, &o.stdout).unwrap();
            assert_eq!(m, parse_folded(&ok(&["fold", out.to_str().unwrap()])));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fold_of_perf_files_is_the_sum() {
    let a = perf("fg-perf-funcab-cmd-01.txt");
    let b = perf("fg-perf-funcab-pid-01.txt");
    let c = perf("fg-perf-dd-stacks-01.txt");
    let m = merged(&[&a, &b, &c], &[]);
    assert_eq!(m, summed(&[(&a, &[]), (&b, &[]), (&c, &[])]));
    // Same with the pid root (thread columns kept through the merge).
    let m = merged(&[&a, &b, &c], &["--root", "pid"]);
    let r: &[&str] = &["--root", "pid"];
    assert_eq!(m, summed(&[(&a, r), (&b, r), (&c, r)]));
}

#[test]
fn events_are_matched_by_name_and_a_file_without_it_is_left_out() {
    // cycles: the first file's event; the third file also records instructions (its default).
    let a = perf("fg-perf-java-stacks-01.txt");
    let b = perf("fg-perf-java-stacks-02.txt");
    let c = perf("fg-perf-cycles-instructions-01.txt");
    let m = merged(&[&a, &b, &c], &[]);
    let ev: &[&str] = &["--event", "cycles"];
    assert_eq!(m, summed(&[(&a, &[]), (&b, &[]), (&c, ev)]));
    // A page-faults recording has no cycles: left out, with a warning naming it and its events.
    let f = perf("fg-perf-java-faults-01.txt");
    let (code, out, err) = scorch(&["fold", &a, &f]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(parse_folded(&out), summed(&[(&a, &[])]));
    assert!(err.contains("fg-perf-java-faults-01.txt left out"), "{err}");
    assert!(err.contains("page-faults"), "{err}");
    // No file has the event asked for: an input error naming the files and their events.
    let (code, _, err) = scorch(&["fold", "--event", "nope", &a, &f]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("fg-perf-java-faults-01.txt has page-faults"),
        "{err}"
    );
    assert!(err.contains("fg-perf-java-stacks-01.txt has cycles"), "{err}");
}

#[test]
fn the_profile_label_groups_and_filters() {
    let files: Vec<String> = GO3.iter().map(|f| series(f)).collect();
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    let grouped = merged(&refs, &["--tagroot", "profile"]);
    for f in &refs {
        let single = parse_folded(&ok(&["fold", f]));
        // Group by profile: the file's own stacks under its root.
        let prefix = format!("profile={f};");
        let mine: BTreeMap<String, i128> = grouped
            .iter()
            .filter_map(|(s, &w)| Some((s.strip_prefix(&prefix)?.to_string(), w)))
            .collect();
        assert_eq!(mine, single, "{f}");
        // The profile filter: that file alone.
        let filter = format!("profile={f}");
        assert_eq!(merged(&refs, &["--tagfilter", &filter]), single, "{f}");
    }
    assert!(grouped.keys().all(|s| s.starts_with("profile=")));
}

/// function → (self shares, total shares).
type Shares = BTreeMap<String, (Vec<f64>, Vec<f64>)>;

/// `scorch series --tsv`: the header and the shares.
fn series_tsv(files: &[&str], extra: &[&str]) -> (Vec<String>, Shares) {
    let mut args = vec!["series", "--tsv"];
    args.extend(extra);
    args.extend(files);
    let out = ok(&args);
    let mut lines = out.lines();
    let head: Vec<String> = lines.next().unwrap().split('\t').map(str::to_string).collect();
    let n = (head.len() - 2) / 2;
    let mut rows = BTreeMap::new();
    for l in lines {
        let c: Vec<&str> = l.split('\t').collect();
        let num = |s: &&str| s.parse::<f64>().unwrap();
        rows.insert(
            c[0].to_string(),
            (
                c[1..=n].iter().map(num).collect(),
                c[n + 1..=2 * n].iter().map(num).collect(),
            ),
        );
    }
    (head, rows)
}

#[test]
fn series_shares_are_each_files_top_shares() {
    let names = ["v1-run1.pb.gz", "v1-run2.pb.gz", "v2-run1.pb.gz", "v2-run2.pb.gz"];
    let files: Vec<String> = names.iter().map(|f| series(f)).collect();
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    let (head, rows) = series_tsv(&refs, &[]);
    assert_eq!(head[1], format!("self {}", refs[0]));
    assert!(rows.contains_key("main.a") && rows.contains_key("main.b"));
    for (k, f) in refs.iter().enumerate() {
        let top: serde_json::Value = serde_json::from_str(&ok(&["top", "--json", f])).unwrap();
        let fns = top["functions"].as_array().unwrap();
        // The shares from top's exact integers (its printed fractions went through a JSON float parse).
        let total = top["total"].as_i64().unwrap() as f64;
        for (name, (selfs, totals)) in &rows {
            let row = fns.iter().find(|r| r["name"] == name.as_str());
            let (fs, cs) = row.map_or((0.0, 0.0), |r| {
                let (fl, cu) = (r["flat"].as_i64().unwrap(), r["cum"].as_i64().unwrap());
                assert!((fl as f64 / total - r["flat_share"].as_f64().unwrap()).abs() < 1e-15);
                (fl as f64 / total, cu as f64 / total)
            });
            assert_eq!(selfs[k], fs, "{name} in {f}");
            assert_eq!(totals[k], cs, "{name} in {f}");
        }
        assert_eq!(fns.len(), rows.len());
    }
    // go tool pprof -top: main.b flat 100ms of 260ms, 72 of 206, 58 of 92, 86 of 152.
    let b = &rows["main.b"].0;
    for (x, (n, d)) in b
        .iter()
        .zip([(100.0, 260.0), (72.0, 206.0), (58.0, 92.0), (86.0, 152.0)])
    {
        assert!((x - n / d).abs() < 1e-12, "{x} vs {n}/{d}");
    }
}

#[test]
fn series_sorts_by_latest_spread_and_slope() {
    let names = ["v1-run1.pb.gz", "v1-run2.pb.gz", "v2-run1.pb.gz", "v2-run2.pb.gz"];
    let files: Vec<String> = names.iter().map(|f| series(f)).collect();
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    // Python: statistics.linear_regression([0,1,2,3], [100/260, 72/206, 58/92, 86/152]).slope
    // = 0.08244424867083772; latest = -0.06464530892448517; spread = 0.28092021950189955.
    for (sort, want) in [
        ("slope", 0.08244424867083772),
        ("latest", -0.06464530892448517),
        ("spread", 0.28092021950189955),
    ] {
        let out = ok(&[
            "series", "--tsv", "--sort", sort, refs[0], refs[1], refs[2], refs[3],
        ]);
        let line = out.lines().find(|l| l.starts_with("main.b\t")).unwrap();
        let key: f64 = line.rsplit('\t').next().unwrap().parse().unwrap();
        assert!((key - want).abs() < 1e-12, "{sort}: {key} vs {want}");
        // Rows are in decreasing |key| order.
        let keys: Vec<f64> = out
            .lines()
            .skip(1)
            .map(|l| l.rsplit('\t').next().unwrap().parse::<f64>().unwrap().abs())
            .collect();
        assert!(keys.windows(2).all(|w| w[0] >= w[1]), "{sort}: {keys:?}");
    }
    // --order name puts the columns in name order whatever the command line's order.
    let (head, _) = series_tsv(&[refs[3], refs[0]], &["--order", "name"]);
    assert_eq!(head[1], format!("self {}", refs[0]));
    // pprof time_nanos: v1-run1 was recorded before v2-run2.
    let (head, _) = series_tsv(&[refs[3], refs[0]], &["--order", "time"]);
    assert_eq!(head[1], format!("self {}", refs[0]));
}

#[test]
fn fail_if_trend_fails_on_growth_and_passes_on_a_flat_series() {
    let grow: Vec<String> = ["v1-run1.pb.gz", "v1-run2.pb.gz", "v2-run1.pb.gz", "v2-run2.pb.gz"]
        .iter()
        .map(|f| series(f))
        .collect();
    let mut args = vec!["series", "--fail-if-trend", "10"];
    args.extend(grow.iter().map(String::as_str));
    let (code, out, err) = scorch(&args);
    assert_eq!(code, 3, "{err}");
    assert!(out.contains("main.b"));
    // go tool pprof -top flat% of main.b in the four runs.
    assert!(
        err.contains("main.b +18.12 points (38.46% → 34.95% → 63.04% → 56.58%)"),
        "{err}"
    );
    assert!(!err.contains("main.a"), "{err}");
    let flat: Vec<String> = ["v1-run1.pb.gz", "v1-run2.pb.gz", "v1-run3.pb.gz"]
        .iter()
        .map(|f| series(f))
        .collect();
    let mut args = vec!["series", "--fail-if-trend", "10"];
    args.extend(flat.iter().map(String::as_str));
    let (code, _, err) = scorch(&args);
    assert_eq!(code, 0, "{err}");
    // Total shares: main.b's total grew 45.38% → 68.42% (go tool pprof -top cum%), 23.04 points.
    let mut args = vec!["series", "--on", "total", "--fail-if-trend", "23"];
    args.extend(grow.iter().map(String::as_str));
    assert_eq!(scorch(&args).0, 3);
    let mut args = vec!["series", "--on", "total", "--fail-if-trend", "23.1"];
    args.extend(grow.iter().map(String::as_str));
    assert_eq!(scorch(&args).0, 0);
}

/// `scorch info A B` merges as `fold` does and states the sum of the files' own durations (issue #40, item 7b:
/// a merged view stated the first file's), so the merged total's share stays ≤ 100 %. Oracle: each file's own
/// `scorch info --json` alone.
#[test]
fn info_of_several_files_states_the_sum_of_their_durations() {
    let files = [series("v1-run1.pb.gz"), series("v2-run1.pb.gz")];
    let json = |args: &[&str]| -> serde_json::Value { serde_json::from_str(&ok(args)).unwrap() };
    let own: Vec<serde_json::Value> = files.iter().map(|f| json(&["info", "--json", f])).collect();
    let d = |v: &serde_json::Value| v["duration_ns"].as_u64().unwrap();
    let t = |v: &serde_json::Value| v["total"].as_u64().unwrap();
    let m = json(&["info", "--json", &files[0], &files[1]]);
    assert_eq!(d(&m), d(&own[0]) + d(&own[1]));
    assert_eq!(t(&m), t(&own[0]) + t(&own[1]));
    assert_eq!(m["duration_files"], 2);
    assert_eq!(m["duration_source"], "stated");
    let pct = m["duration_percent"].as_f64().unwrap();
    let want = t(&m) as f64 / d(&m) as f64 * 100.0;
    assert!((pct - want).abs() < 1e-9 && pct <= 100.0, "{pct} vs {want}");
    let text = ok(&["info", &files[0], &files[1]]);
    assert!(
        text.contains("duration:        2 files, total duration "),
        "{text}"
    );
}
