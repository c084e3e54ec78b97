//! The `scorch` binary as users and CI pipelines call it.

use std::io::Write;
use std::process::{Command, Stdio};

fn scorch(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scorch"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or_default()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
    let (code, out, err) = scorch(&["fold", &data("inf-bad-lines.txt")], None);
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
    let first = out.lines().nth(4).unwrap();
    assert!(
        first.ends_with("crypto/sha256.block") && first.contains("+"),
        "{first}"
    );
    // sha256.block's self share grew by about 15 points: a 10-point gate fails (status 3), a 20-point gate passes.
    let (code, _, err) = scorch(&["diff", "--fail-if-grows", "10", &b, &t], None);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("regression:") && err.contains("crypto/sha256.block"),
        "{err}"
    );
    let (code, _, err) = scorch(&["diff", "--fail-if-grows", "20", &b, &t], None);
    assert_eq!(code, 0, "{err}");
    // Backwards, nothing grew that much: sort did, by less than 20 points.
    let (code, _, _) = scorch(&["diff", "--fail-if-grows", "20", &t, &b], None);
    assert_eq!(code, 0);
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
    let folded = scorch_core::share::decode(payload).unwrap();
    let (_, direct, _) = scorch(&["fold", &f], None);
    let (_, via_link, _) = scorch(&["fold", "-"], Some(&folded));
    assert_eq!(via_link, direct, "the link carries exactly the profile");
    let (code, _, err) = scorch(&["link", "--max", "300", &f], None);
    assert_eq!(code, 0);
    assert!(err.contains("smaller stacks") && err.contains("dropped"), "{err}");
}
