//! The differential engine: inferno-diff-folded compatibility, go tool pprof -diff_base figures, and the
//! properties that keep a diff from being read backwards.

use scorch_core::analysis::diff::{Diff, Side, Widths};
use scorch_core::export::diff_folded;
use scorch_core::view::calltree::{NodeId, Order};
use scorch_core::{import_bytes, ImportOptions, Profile, ViewOptions};
use std::io::Read;
use std::path::PathBuf;

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn load_path(p: PathBuf) -> Profile {
    let mut bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
    if p.extension().is_some_and(|e| e == "gz") && !p.to_string_lossy().ends_with(".pb.gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .unwrap();
        bytes = out;
    }
    import_bytes(&bytes, ImportOptions::default()).unwrap().profile
}

fn side(p: &Profile) -> Side<'_> {
    Side {
        profile: p,
        view: ViewOptions::default_for(p),
    }
}

fn sorted(s: &str) -> Vec<&str> {
    let mut v: Vec<&str> = s.lines().collect();
    v.sort();
    v
}

#[test]
fn folded_diff_equals_inferno() {
    let cases = [
        (
            "diff/inf-diff-before.txt",
            "diff/inf-diff-after.txt",
            false,
            "inf-diff.default",
        ),
        (
            "diff/inf-diff-before.txt",
            "diff/inf-diff-after.txt",
            true,
            "inf-diff.normalize",
        ),
        (
            "diff/inf-diff-before-fractionals.txt",
            "diff/inf-diff-after.txt",
            false,
            "inf-diff-fractionals.default",
        ),
        (
            "diff/inf-diff-bad-before.txt",
            "diff/inf-diff-after.txt",
            false,
            "inf-diff-bad-before.default",
        ),
        (
            "diff/ap-sample1.collapsed",
            "diff/ap-sample2.collapsed",
            false,
            "ap-sample1-vs-sample2.default",
        ),
        (
            "diff/ap-sample1.collapsed",
            "diff/ap-sample2.collapsed",
            true,
            "ap-sample1-vs-sample2.normalize",
        ),
        (
            "diff/ap-sample2.collapsed",
            "diff/ap-sample1.collapsed",
            false,
            "ap-sample2-vs-sample1.default",
        ),
        (
            "perf/inferno-oracle/fg-perf-cycles-instructions-01.event-cycles.all.folded.gz",
            "perf/inferno-oracle/fg-perf-cycles-instructions-01.event-instructions.all.folded.gz",
            false,
            "fg-perf-cycles-instructions-01.cycles-vs-instructions.all",
        ),
        (
            "perf/inferno-oracle/ss-simple-with-header.linux-perf.default.folded.gz",
            "perf/inferno-oracle/ss-simple-with-pid.linux-perf.default.folded.gz",
            true,
            "ss-simple-with-header-vs-with-pid.normalize",
        ),
    ];
    for (b, t, normalize, oracle) in cases {
        let (bp, tp) = (load_path(data(b)), load_path(data(t)));
        let ours = diff_folded(side(&bp), side(&tp), normalize);
        let theirs = std::fs::read_to_string(data(&format!("diff/inferno-oracle/{oracle}.folded"))).unwrap();
        assert_eq!(sorted(&ours), sorted(&theirs), "{oracle}");
    }
}

#[test]
fn movers_equal_go_tool_pprof_diff_base_normalized() {
    let base = load_path(data("diff/go-pair/before.pb.gz"));
    let target = load_path(data("diff/go-pair/after.pb.gz"));
    let d = Diff::new(side(&base), side(&target));
    let text = std::fs::read_to_string(data("diff/go-pair/pprof-top-diff_base-normalize.txt")).unwrap();
    let total: f64 = text
        .split("of ")
        .nth(1)
        .unwrap()
        .split("ns total")
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // pprof -normalize scales the target to the base's total, so its total is the base's.
    assert_eq!(total as u64, d.base_sum, "pprof's total is the base's");
    let movers: std::collections::HashMap<String, _> =
        d.movers().into_iter().map(|m| (m.name.clone(), m)).collect();
    let mut checked = 0;
    for line in text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("flat"))
        .skip(1)
    {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let ns = |s: &str| s.trim_end_matches("ns").parse::<f64>().unwrap();
        let name = cols[5..].join(" ");
        // pprof marks functions seen only inlined with ` (inline)`: display, not part of the name.
        let name = name.strip_suffix(" (inline)").unwrap_or(&name).to_string();
        let (flat, cum) = (ns(cols[0]), ns(cols[3]));
        let m = &movers[&name];
        // pprof: target × (base total / target total) − base; scorch: Δ share × base total.
        assert!(
            (m.self_delta() / 100.0 * total - flat).abs() <= 1.0,
            "{name}: flat {flat} vs {}",
            m.self_delta()
        );
        assert!(
            (m.total_delta() / 100.0 * total - cum).abs() <= 1.0,
            "{name}: cum {cum} vs {}",
            m.total_delta()
        );
        checked += 1;
    }
    assert!(checked >= 50, "{checked} functions compared");
    // The biggest mover is sha256 (more hashing after).
    assert_eq!(d.movers()[0].name, "crypto/sha256.block");
}

#[test]
fn a_profile_against_itself_is_all_zero_and_shares_sum_to_one() {
    let p = load_path(data("pprof/parca-fib.pb.gz"));
    let d = Diff::new(side(&p), side(&p));
    for m in d.movers() {
        assert_eq!(m.self_delta(), 0.0, "{}", m.name);
        assert_eq!(m.total_delta(), 0.0, "{}", m.name);
    }
    let sum: f64 = d.movers().iter().map(|m| m.target_self).sum();
    assert!((sum - 1.0).abs() < 1e-9, "self shares sum to {sum}");
    assert_eq!(
        diff_folded(side(&p), side(&p), false)
            .lines()
            .filter(|l| {
                let v: Vec<&str> = l.rsplitn(3, ' ').collect();
                v[0] != v[1]
            })
            .count(),
        0
    );
}

#[test]
fn swapping_negates_every_delta() {
    let (b, t) = (
        load_path(data("diff/ap-sample1.collapsed")),
        load_path(data("diff/ap-sample2.collapsed")),
    );
    let fwd: std::collections::BTreeMap<String, (f64, f64)> = Diff::new(side(&b), side(&t))
        .movers()
        .into_iter()
        .map(|m| (m.name.clone(), (m.self_delta(), m.total_delta())))
        .collect();
    let back: std::collections::BTreeMap<String, (f64, f64)> = Diff::new(side(&t), side(&b))
        .movers()
        .into_iter()
        .map(|m| (m.name.clone(), (m.self_delta(), m.total_delta())))
        .collect();
    assert_eq!(fwd.len(), back.len());
    for (k, (s, c)) in &fwd {
        let (s2, c2) = back[k];
        assert!((s + s2).abs() < 1e-9 && (c + c2).abs() < 1e-9, "{k}");
    }
}

#[test]
fn frames_only_in_the_base_stay_reachable() {
    // `0x234f2abc` … exists only in the base (inf-diff-before has it, after does not).
    let (b, t) = (
        load_path(data("diff/inf-diff-before.txt")),
        load_path(data("diff/inf-diff-after.txt")),
    );
    let d = Diff::new(side(&b), side(&t));
    let m = d
        .movers()
        .into_iter()
        .find(|m| m.name == "0xF1BDE348")
        .expect("in the movers table");
    assert!(m.base_self > 0.0 && m.target_self == 0.0);
    let names = |widths| {
        let tree = d.tree(widths, Order::Alphabetical);
        (1..tree.len())
            .map(|n| d.merged.frame_name(tree.frame[n]).to_string())
            .collect::<Vec<_>>()
    };
    assert!(
        !names(Widths::Target).contains(&"0xF1BDE348".to_string()),
        "no width in the target"
    );
    assert!(
        names(Widths::Base).contains(&"0xF1BDE348".to_string()),
        "visible with base widths"
    );
    // A frame only in the target: its base numbers are zero.
    let tree = d.tree(Widths::Target, Order::Alphabetical);
    let fget = (1..tree.len())
        .find(|&n| d.merged.frame_name(tree.frame[n]) == "__fget_light")
        .unwrap();
    let nd = d.node(&tree, NodeId(fget as u32));
    assert_eq!((nd.base_total, nd.target_total), (0, 12));
}
