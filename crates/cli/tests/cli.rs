//! The `scorch` binary as users and CI pipelines call it.

mod common;

use common::scorch_input as scorch;

fn data(name: &str) -> String {
    format!("{}/../core/tests/data/folded/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn fold_sums_and_sorts() {
    let (code, out, err) = scorch(&["fold", "-"], Some(b"b;c 2\na 1\nb;c 3\r\n\nb 4\n"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "a 1\nb 4\nb;c 5\n");
}

#[test]
fn fold_warns_with_line_numbers() {
    // Every warning, one per line (by default, one line per kind: tests/warnings.rs).
    let (code, out, err) = scorch(&["fold", "--warnings", "all", &data("inf-bad-lines.txt")], None);
    assert_eq!(code, 0);
    assert!(err.contains("warning: line 3: no count"), "{err}");
    assert!(err.contains("warning: line 6: no count"), "{err}");
    assert_eq!(out.lines().count(), 6, "noploop;main appears twice and is summed");
    assert!(out.contains("noploop;main 548\n"));
}

#[test]
fn info_prints_the_facts() {
    let (code, out, _) = scorch(&["info", &data("inf-base-flames.txt")], None);
    assert_eq!(code, 0);
    for want in [
        "format:          folded\n",
        "samples:         427\n",
        "total:           598400 (598,400 samples)\n",
        "distinct stacks: 205\n",
        "max depth:       14\n",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
}

#[test]
fn errors_exit_non_zero_without_panicking() {
    let (code, out, err) = scorch(&["fold", "-"], Some(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"));
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("not a profile") && err.contains("PNG"), "{err}");
    let (code, _, err) = scorch(&["fold", "/nonexistent/file"], None);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/file"), "{err}");
    // A usage error (clap's): status 2, naming the subcommand.
    let (code, _, err) = scorch(&["frobnicate"], None);
    assert_eq!(code, 2);
    assert!(err.contains("unrecognized subcommand 'frobnicate'"), "{err}");
    let (code, _, err) = scorch(&["info", "-"], Some(b""));
    assert_eq!(code, 1);
    assert!(err.contains("empty"), "{err}");
}

fn core_data(rel: &str) -> String {
    format!("{}/../core/tests/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn perf_options_and_inferno_compat() {
    let f = core_data("perf/fg-perf-cycles-instructions-01.txt");
    let (code, out, err) = scorch(
        &["fold", "--event", "cycles", "--root", "pid", "--count", &f],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().all(|l| ["cksum-", "noploop-", "swapper-0;"]
            .iter()
            .any(|p| l.starts_with(p))),
        "{out}"
    );
    let total: u64 = out
        .lines()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 111, "cycles has 111 samples");
    let (code, out, _) = scorch(&["fold", "--compat", "inferno", "--all", &f], None);
    assert_eq!(code, 0);
    assert!(out.contains("_[k]") && out.starts_with("cksum;"), "{out}");
    let (code, _, err) = scorch(&["fold", "--event", "nope", &f], None);
    assert_eq!(code, 1);
    assert!(err.contains("instructions, cycles"), "{err}");
    let (code, _, err) = scorch(&["fold", "--bogus", &f], None);
    assert_eq!(code, 2, "a usage error");
    assert!(err.contains("unexpected argument '--bogus'"), "{err}");
}

#[test]
fn top_and_labels_on_pprof() {
    let f = core_data("pprof/parca-fib.pb.gz");
    let (code, out, err) = scorch(&["top", "--tsv", &f], None);
    assert_eq!(code, 0, "{err}");
    let first: Vec<&str> = out.lines().next().unwrap().split('\t').collect();
    assert_eq!(first, ["28610000000", "28610000000", "math/big.addVV"]);
    let (code, out, _) = scorch(&["top", "-n", "3", "--sample-type", "samples", &f], None);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("Showing 3 of 127 functions, 2,974 samples total (samples)"),
        "{out}"
    );
    let f = core_data("pprof/parca-labels.pb.gz");
    let (code, out, _) = scorch(&["fold", "--tagroot", "api", &f], None);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.starts_with("api=query;")), "{out}");
    let (code, _, err) = scorch(&["fold", "--tagfilter", "api=nothing", &f], None);
    assert_eq!(code, 1);
    assert!(err.contains("no sample has api=nothing"), "{err}");
}

#[test]
fn diff_movers_and_the_regression_gate() {
    let (b, t) = (
        core_data("diff/go-pair/before.pb.gz"),
        core_data("diff/go-pair/after.pb.gz"),
    );
    let (code, out, err) = scorch(&["diff", "-n", "3", &b, &t], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("shares of each profile's own total (normalised)"),
        "{out}"
    );
    let first = movers(&out)[0];
    assert!(
        first.ends_with("crypto/sha256.block") && first.contains("+"),
        "{first}"
    );
    // sha256.block's self share grew by about 15 points: a 10-point gate on self fails (status 3), a 20-point one
    // passes.
    let (code, _, err) = scorch(&["diff", "--on", "self", "--fail-if-grows", "10", &b, &t], None);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("regression:") && err.contains("crypto/sha256.block"),
        "{err}"
    );
    let (code, _, err) = scorch(&["diff", "--on", "self", "--fail-if-grows", "20", &b, &t], None);
    assert_eq!(code, 0, "{err}");
    // Backwards, nothing's self grew that much: sort did, by less than 20 points.
    let (code, _, _) = scorch(&["diff", "--on", "self", "--fail-if-grows", "20", &t, &b], None);
    assert_eq!(code, 0);
    // On total (the default), crypto/sha256.Sum256 grew by 20.45 points (`go tool pprof -top -diff_base
    // -normalize`'s cum %, tests/data/diff/go-pair): a 20-point gate fails naming it, a 20.5-point one passes.
    let (code, out, err) = scorch(&["diff", "--fail-if-grows", "20", &b, &t], None);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("of total share: crypto/sha256.Sum256 (+20.45 pp)\n"),
        "{err}"
    );
    assert!(
        out.contains("heaviest call path: runtime.main;main.main;main.hashWork;crypto/sha256.Sum256\n"),
        "{out}"
    );
    let (code, _, err) = scorch(&["diff", "--fail-if-grows", "20.5", &b, &t], None);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = scorch(&["diff", &b], None);
    assert_eq!(code, 1);
    assert!(err.contains("two files"), "{err}");
}

#[test]
fn link_carries_the_profile() {
    let f = data("inf-base-flames.txt");
    let (code, out, err) = scorch(
        &["link", "--base-url", "https://intranet/tools/scorch/", &f],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let url = out.trim();
    assert!(url.starts_with("https://intranet/tools/scorch/#p="), "{url}");
    assert!(err.contains("characters, 205 distinct stacks"), "{err}");
    let payload = url.split("#p=").nth(1).unwrap();
    let folded = scorch_core::export::links::decode(payload).unwrap();
    let (_, direct, _) = scorch(&["fold", &f], None);
    let (_, via_link, _) = scorch(&["fold", "-"], Some(&folded));
    assert_eq!(via_link, direct, "the link carries exactly the profile");
    let (code, _, err) = scorch(&["link", "--max", "300", &f], None);
    assert_eq!(code, 0);
    assert!(err.contains("smaller stacks") && err.contains("dropped"), "{err}");
}

/// A fresh directory for this test's files.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("scorch-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every subcommand with options its `--help` must list.
const SUBCOMMANDS: [(&str, &[&str]); 8] = [
    (
        "fold",
        &[
            "--event",
            "--sample-type",
            "--root",
            "--count",
            "--tagfilter",
            "--tagroot",
            "--range",
            "--transform",
            "--invert",
            "--callers",
            "--callees",
            "--compat",
            "--pid",
            "--tid",
            "--kernel",
            "--jit",
            "--addrs",
            "--all",
            "--event-filter",
            "<FILE>",
        ],
    ),
    (
        "top",
        &["--event", "--sample-type", "-n", "--tsv", "--tagfilter", "<FILE>"],
    ),
    (
        "search",
        &[
            "--event",
            "--sample-type",
            "--regex",
            "--case",
            "--transform",
            "--tagfilter",
            "<FILE>",
            "<PATTERN>",
        ],
    ),
    ("info", &["<FILE>"]),
    (
        "graph",
        &[
            "--dot",
            "--json",
            "--nodefraction",
            "--edgefraction",
            "--nodecount",
            "--focus",
            "--event",
            "--sample-type",
            "--tagfilter",
            "--transform",
            "<FILE>",
        ],
    ),
    (
        "heatmap",
        &[
            "--rows",
            "--all-events",
            "--no-idle-filter",
            "--json",
            "--event",
            "<FILE>",
        ],
    ),
    (
        "link",
        &[
            "--base-url",
            "--max",
            "--no-times",
            "--scrub",
            "--redact",
            "--show",
            "--note",
            "--tagfilter",
            "--root",
            "--event",
            "--sample-type",
            "<FILE>",
        ],
    ),
    (
        "diff",
        &[
            "--event",
            "--sample-type",
            "--absolute",
            "-n",
            "--folded",
            "--normalize",
            "--fail-if-grows",
            "--on",
            "--alpha",
            "--match",
            "--allow-mismatch",
            "--base",
            "--target",
            "[BASE]",
            "[TARGET]",
        ],
    ),
];

#[test]
fn help_exits_zero_and_lists_every_option() {
    let (code, out, err) = scorch(&["--help"], None);
    assert_eq!(code, 0, "{err}");
    for (sub, _) in SUBCOMMANDS {
        assert!(
            out.contains(&format!("\n  {sub} ")),
            "scorch --help lacks {sub}:\n{out}"
        );
    }
    assert!(out.contains("Exit status"), "{out}");
    for (sub, options) in SUBCOMMANDS {
        for help in ["--help", "-h"] {
            let (code, out, err) = scorch(&[sub, help], None);
            assert_eq!(code, 0, "scorch {sub} {help}: {err}");
            assert!(err.is_empty(), "scorch {sub} {help} wrote to stderr: {err}");
            assert!(out.contains(&format!("Usage: scorch {sub} ")), "{out}");
            for o in options {
                // Each option on its own line, followed by its one-line description.
                let line = out
                    .lines()
                    .find(|l| l.trim_start().starts_with(o))
                    .unwrap_or_else(|| panic!("scorch {sub} {help} lacks {o}:\n{out}"));
                assert!(line.len() > o.len() + 12, "{o} has no description: {line:?}");
            }
        }
        let (code, out, _) = scorch(&["help", sub], None);
        assert_eq!(code, 0);
        assert!(out.contains(&format!("Usage: scorch {sub} ")), "{out}");
    }
    let (code, out, _) = scorch(&["--version"], None);
    assert_eq!(code, 0);
    assert_eq!(out, format!("scorch {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn usage_errors_exit_two_and_name_the_culprit() {
    let f = data("inf-base-flames.txt");
    for (sub, args) in [
        ("fold", vec!["--frobnicate"]),
        ("top", vec!["--tagroot", "api"]),
        ("search", vec!["--invert", "main"]),
        ("info", vec!["--event", "x"]),
        ("heatmap", vec!["--frobnicate"]),
        ("link", vec!["--frobnicate"]),
        ("diff", vec!["--frobnicate", "A"]),
    ] {
        let mut argv = vec![sub];
        argv.extend(&args);
        argv.push(&f);
        let (code, out, err) = scorch(&argv, None);
        assert_eq!(code, 2, "scorch {argv:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(
            err.contains(&format!("unexpected argument '{}'", args[0])),
            "{err}"
        );
    }
    let perf = core_data("perf/fg-perf-cycles-instructions-01.txt");
    for (argv, names) in [
        (vec!["top", "-n", "x", &f], "'-n <N>'"),
        (vec!["heatmap", "--rows", "7", &f], "'--rows <N>'"),
        (vec!["fold", "--root", "bogus", &f], "'--root <MODE>'"),
        (vec!["fold", "--transform", "bogus", &f], "'--transform <T>'"),
        (
            vec!["fold", "--range", "x", "2", &f],
            "'--range <START_S> <END_S>'",
        ),
        (vec!["fold", "--compat", "foo", &f], "'--compat <TOOL>'"),
        (
            vec!["fold", "--compat", "inferno", "--event", "cycles", &perf],
            "'--event <NAME>'",
        ),
        (vec!["fold", "--pid", &perf], "--compat <TOOL>"),
        (
            vec!["diff", "--fail-if-grows", "-1", &f, &f],
            "'--fail-if-grows <PCT>'",
        ),
        (
            vec!["diff", "--fail-if-grows", "x", &f, &f],
            "'--fail-if-grows <PCT>'",
        ),
        (vec!["diff", &f, &f, &f], "unexpected argument"),
        (vec!["search", &f], "<PATTERN>"),
        (vec!["fold"], "<FILE>"),
        (vec!["search", "--regex", &f, "("], "regular expression"),
    ] {
        let (code, _, err) = scorch(&argv, None);
        assert_eq!(code, 2, "scorch {argv:?}: {err}");
        assert!(err.contains(names), "scorch {argv:?}: {err}");
    }
    // No subcommand: the help, on stderr, as a usage error.
    let (code, out, err) = scorch(&[], None);
    assert_eq!(code, 2);
    assert!(
        out.is_empty() && err.contains("Usage: scorch [OPTIONS] <COMMAND>"),
        "{err}"
    );
}

#[test]
fn a_missing_file_exits_one_and_is_named() {
    let missing = "/nonexistent/profile.txt";
    for argv in [
        vec!["fold", missing],
        vec!["fold", "--compat", "inferno", missing],
        vec!["top", missing],
        vec!["search", missing, "main"],
        vec!["info", missing],
        vec!["heatmap", missing],
        vec!["link", missing],
        vec!["diff", missing, missing],
        vec!["diff", missing],
    ] {
        let (code, out, err) = scorch(&argv, None);
        assert_eq!(code, 1, "scorch {argv:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(&format!("scorch: {missing}: ")), "{err}");
    }
    let (code, _, err) = scorch(&["diff", &data("inf-base-flames.txt"), missing], None);
    assert_eq!(code, 1);
    assert!(err.contains(missing), "{err}");
}

/// The rows of a movers table: the lines after its column header, up to the first blank line.
fn movers(out: &str) -> Vec<&str> {
    out.lines()
        .skip_while(|l| !(l.contains("Δ self") && l.ends_with("function")))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect()
}

/// The Δ columns of a movers table: (Δ self, Δ total) per function.
fn deltas(table: &str) -> Vec<(String, String)> {
    movers(table)
        .into_iter()
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            (cols[2].to_string(), cols[5].to_string())
        })
        .collect()
}

#[test]
fn diff_of_a_profile_with_itself_is_all_zero() {
    for f in [
        core_data("diff/go-pair/before.pb.gz"),
        data("inf-base-flames.txt"),
        core_data("perf/fg-perf-cycles-instructions-01.txt"),
    ] {
        for gate in [&[][..], &["--fail-if-grows", "0"][..]] {
            let mut argv = vec!["diff", "-n", "0"];
            argv.extend(gate);
            argv.extend([f.as_str(), f.as_str()]);
            let (code, out, err) = scorch(&argv, None);
            assert_eq!(code, 0, "scorch {argv:?}: {err}");
            assert!(!err.contains("regression"), "{err}");
            let d = deltas(&out);
            assert!(d.len() > 3, "{out}");
            assert!(d.iter().all(|(s, t)| s == "+0.00pp" && t == "+0.00pp"), "{out}");
        }
        let (code, out, err) = scorch(&["diff", "-n", "0", "--absolute", &f, &f], None);
        assert_eq!(code, 0, "{err}");
        assert!(deltas(&out).iter().all(|(s, t)| s == "+0" && t == "+0"), "{out}");
        let (code, out, _) = scorch(&["diff", "--folded", &f, &f], None);
        assert_eq!(code, 0);
        assert!(
            out.lines().all(|l| {
                let c: Vec<&str> = l.rsplitn(3, ' ').collect();
                c[0] == c[1]
            }),
            "{out}"
        );
    }
    // Standard input, named twice, is read once and compared with itself.
    let (code, out, err) = scorch(
        &["diff", "--fail-if-grows", "0", "-", "-"],
        Some(b"main;a 3\nmain;b 1\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(deltas(&out).len(), 3, "{out}");
}

#[test]
fn a_regression_exits_three_after_the_table() {
    let dir = temp_dir("regression");
    let (base, target) = (dir.join("base.folded"), dir.join("target.folded"));
    std::fs::write(&base, "main;parse 50\nmain;render 50\n").unwrap();
    std::fs::write(&target, "main;parse 80\nmain;render 20\n").unwrap();
    let (base, target) = (base.to_str().unwrap(), target.to_str().unwrap());
    // parse's self share grew by 30 points.
    let (code, out, err) = scorch(&["diff", "--fail-if-grows", "10", base, target], None);
    assert_eq!(code, 3, "{err}");
    assert!(
        out.contains("+30.00pp  parse"),
        "the table is printed first: {out}"
    );
    assert_eq!(
        err,
        "scorch: regression: 1 function(s) grew by more than 10 percentage points of total share: \
         parse (+30.00 pp)\n"
    );
    let (code, _, err) = scorch(&["diff", "--fail-if-grows", "30.5", base, target], None);
    assert_eq!(code, 0, "{err}");
    // render shrank: the other way round, parse is the one that did.
    let (code, _, err) = scorch(&["diff", "--fail-if-grows", "0", target, base], None);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("render (+30.00 pp)") && !err.contains("parse"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn heatmap_json_is_the_grid() {
    let f = core_data("perf/fs-perf.test01");
    let (code, out, err) = scorch(&["heatmap", "--json", "--rows", "10", &f], None);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys.len(), 5, "{keys:?}");
    let num = |k: &str| j[k].as_u64().unwrap_or_else(|| panic!("{k}: {out}"));
    let counts = j["counts"].as_array().unwrap();
    assert_eq!(num("rows"), 10);
    assert_eq!(counts.len() as u64, num("columns"));
    let cells: Vec<u64> = counts
        .iter()
        .flat_map(|c| {
            let c = c.as_array().unwrap();
            assert_eq!(c.len(), 10);
            c.iter().map(|x| x.as_u64().unwrap())
        })
        .collect();
    assert_eq!(cells.iter().max().copied(), Some(num("max")));
    // Exactly the text the hand-written JSON had: compact, keys in this order, one line.
    let rebuilt = format!(
        "{{\"origin_ns\":{},\"rows\":{},\"columns\":{},\"max\":{},\"counts\":[{}]}}\n",
        num("origin_ns"),
        num("rows"),
        num("columns"),
        num("max"),
        counts
            .iter()
            .map(|c| format!(
                "[{}]",
                c.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ))
            .collect::<Vec<_>>()
            .join(",")
    );
    assert_eq!(out, rebuilt);
    // The same grid as the text view: its top-left cell is column 0's last row.
    let (_, text, _) = scorch(&["heatmap", "--rows", "10", &f], None);
    let top_row: Vec<u64> = text
        .lines()
        .nth(1)
        .unwrap()
        .split('|')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    let last_rows: Vec<u64> = counts.iter().map(|c| c[9].as_u64().unwrap()).collect();
    assert_eq!(top_row, last_rows);
}

/// Every percentage in a printed table, per row (last column: the function's name).
fn percents(table: &str) -> Vec<(String, Vec<f64>)> {
    table
        .lines()
        .filter(|l| l.contains('%') && !l.contains("shares of"))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            let name = cols.last().unwrap().to_string();
            let pcts = cols
                .iter()
                .filter_map(|c| c.strip_suffix('%')?.parse::<f64>().ok())
                .collect();
            (name, pcts)
        })
        .filter(|(_, pcts): &(String, Vec<f64>)| !pcts.is_empty())
        .collect()
}

#[test]
fn a_function_twice_in_a_stack_is_counted_once_by_diff_and_top() {
    // Recursion through an inlined copy (`f` and `f_[i]` in one stack): f's total is 3 of 4 samples.
    // `scorch diff` printed 150 % for it while `scorch top` said 75 %.
    let dir = temp_dir("aggregation");
    let (base, target) = (dir.join("base.txt"), dir.join("target.txt"));
    std::fs::write(&base, "main;f;f_[i] 1\nmain;g 1\n").unwrap();
    std::fs::write(&target, "main;f;f_[i] 3\nmain;g 1\n").unwrap();
    let (base, target) = (base.to_str().unwrap(), target.to_str().unwrap());

    let (code, diff, err) = scorch(&["diff", base, target], None);
    assert_eq!(code, 0, "{err}");
    let rows = percents(&diff);
    assert_eq!(rows.len(), 3, "{diff}");
    for (name, pcts) in &rows {
        // base self, target self, base total, target total (the Δ columns end in pp).
        assert_eq!(pcts.len(), 4, "{diff}");
        assert!(
            pcts.iter().all(|&x| (0.0..=100.0).contains(&x)),
            "{name}: {pcts:?}\n{diff}"
        );
    }
    let f = &rows.iter().find(|(n, _)| n == "f").unwrap().1;
    assert_eq!(f, &[50.0, 75.0, 50.0, 75.0], "{diff}");

    let (code, top, err) = scorch(&["top", target], None);
    assert_eq!(code, 0, "{err}");
    let rows = percents(&top);
    for (name, pcts) in &rows {
        assert!(
            pcts.iter().all(|&x| (0.0..=100.0).contains(&x)),
            "{name}: {pcts:?}\n{top}"
        );
    }
    // flat %, sum %, cum %: f's cum equals the diff's target total.
    let f = &rows.iter().find(|(n, _)| n == "f").unwrap().1;
    assert_eq!((f[0], f[2]), (75.0, 75.0), "{top}");
}

/// pprof's percentage: `(98.62%)`, `( 5.77%)`, `(3.2e-05%)` — two decimals from 1 % up, two significant digits
/// below (`measurement.Percentage`); `  100%` near 100.
fn pprof_percent(header: &str) -> Option<(f64, f64)> {
    let inner = header.rsplit_once('(')?.1.strip_suffix("%)")?.trim();
    let v: f64 = inner.parse().ok()?;
    // Half a unit of the last printed digit.
    let tol = if inner.contains('e') || v < 1.0 {
        let digits = if v == 0.0 { 0.0 } else { v.abs().log10().floor() };
        0.5 * 10f64.powf(digits - 1.0)
    } else {
        0.005
    };
    Some((v, tol))
}

#[test]
fn info_json_duration_matches_go_tool_pprof() {
    let list = std::fs::read_to_string(core_data("pprof/oracle-go/durations.txt")).unwrap();
    let mut checked = 0;
    for line in list.lines().filter(|l| !l.starts_with('#')) {
        let (file, header) = line.split_once('\t').unwrap();
        let (code, out, err) = scorch(&["info", "--json", &core_data(&format!("pprof/{file}"))], None);
        assert_eq!(code, 0, "{file}: {err}");
        let j: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(j["duration_source"], "stated", "{file}");
        // "Duration: 30.16s": pprof rounds to what its unit shows; the file's exact value is in the JSON.
        let d = j["duration_ns"].as_u64().unwrap() as f64;
        let shown = header
            .strip_prefix("Duration: ")
            .unwrap()
            .split(',')
            .next()
            .unwrap();
        let (num, scale) = if let Some(h) = shown.strip_suffix("hrs") {
            (h, 3600e9)
        } else {
            (shown.strip_suffix('s').unwrap(), 1e9)
        };
        let num: f64 = num.parse().unwrap();
        let decimals = num.to_string().split('.').nth(1).map_or(0, str::len) as i32;
        assert!(
            (d / scale - num).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-9,
            "{file}: duration {d} ns vs {shown}"
        );
        match pprof_percent(header) {
            Some((want, tol)) => {
                let got = j["duration_percent"]
                    .as_f64()
                    .unwrap_or_else(|| panic!("{file}: no percent\n{out}"));
                assert!(
                    (got - want).abs() <= tol,
                    "{file}: {got} % vs pprof's {want} % (±{tol})"
                );
                checked += 1;
            }
            // A count, not a time: pprof prints no share, and neither does scorch.
            None => assert!(j["duration_percent"].is_null(), "{file}: {out}"),
        }
        // The text says the same.
        let (_, text, _) = scorch(&["info", &core_data(&format!("pprof/{file}"))], None);
        assert!(
            text.contains("duration:") && text.contains("stated in the file"),
            "{file}: {text}"
        );
    }
    assert!(checked >= 8, "only {checked} percentages checked");
}

#[test]
fn help_names_every_format_the_loader_reads() {
    let (code, out, err) = scorch(&["--help"], None);
    assert_eq!(code, 0, "{err}");
    let formats = scorch_core::import::formats();
    assert_eq!(formats.len(), 14, "the formats the loader sniffs");
    let first = out.lines().next().unwrap_or_default();
    for f in formats {
        assert!(
            first.contains(f.description()),
            "{f:?} ({}) missing from {first:?}",
            f.description()
        );
    }
}
