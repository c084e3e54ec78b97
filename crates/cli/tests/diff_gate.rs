//! `scorch diff` as a CI gate over several runs per side, and comparable sides, on real Go CPU and heap profiles
//! (tests/data/diffgate, recorded by bench/diffgate; provenance in its README). Oracles: the program's own
//! construction (which function's work was doubled), `go tool pprof -top` for each run's shares, and the gate's
//! Welch test on those shares computed in Python with SciPy's Student t (tests/data/diffgate/oracle.txt, written
//! by oracle.py).

mod common;
use common::scorch;

use std::collections::HashMap;

fn data(name: &str) -> String {
    format!("{}/tests/data/diffgate/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn runs(kind: &str) -> Vec<String> {
    (1..=3).map(|i| data(&format!("{kind}{i}.pb.gz"))).collect()
}

/// `scorch diff ARGS --base base1..3 --target KIND1..3`.
fn gate(kind: &str, args: &[&str]) -> (i32, String, String) {
    let (b, t) = (runs("base"), runs(kind));
    let mut argv: Vec<&str> = vec!["diff"];
    argv.extend(args);
    argv.push("--base");
    argv.extend(b.iter().map(String::as_str));
    argv.push("--target");
    argv.extend(t.iter().map(String::as_str));
    scorch(&argv)
}

struct Oracle {
    /// (file, function) → share in percent.
    share: HashMap<(String, String), f64>,
    /// (target kind, function) → (Δ, t, p).
    welch: HashMap<(String, String), (f64, f64, f64)>,
}

fn oracle() -> Oracle {
    let text = std::fs::read_to_string(data("oracle.txt")).unwrap();
    let mut o = Oracle {
        share: HashMap::new(),
        welch: HashMap::new(),
    };
    for line in text.lines() {
        let c: Vec<&str> = line.split(' ').collect();
        match c[0] {
            "share" => {
                o.share.insert((c[1].into(), c[2].into()), c[3].parse().unwrap());
            }
            "welch" => {
                let v: Vec<f64> = c[3..6].iter().map(|x| x.parse().unwrap()).collect();
                o.welch.insert((c[1].into(), c[2].into()), (v[0], v[1], v[2]));
            }
            "records" => {}
            _ => panic!("bad oracle line {line:?}"),
        }
    }
    o
}

/// A failing function's printed numbers: (Δ, t, p, base runs, target runs, heaviest path).
struct Failure {
    delta: f64,
    t: f64,
    p: f64,
    base: Vec<f64>,
    target: Vec<f64>,
    path: String,
}

fn failures(out: &str) -> HashMap<String, Failure> {
    let lines: Vec<&str> = out.lines().collect();
    let mut found = HashMap::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(rest) = l.strip_prefix("FAIL ") else {
            continue;
        };
        let (name, nums) = rest.rsplit_once(": ").unwrap();
        // "+8.66 pp, t = 5.32, df = 3.2, p = 0.0055"
        let parts: Vec<&str> = nums.split(", ").collect();
        let num = |s: &str| s.rsplit(' ').next().unwrap().parse::<f64>().unwrap();
        let delta = parts[0].trim_end_matches(" pp").parse::<f64>().unwrap();
        let list = |l: &str| -> Vec<f64> {
            l.split(':')
                .nth(1)
                .unwrap()
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect()
        };
        found.insert(
            name.to_string(),
            Failure {
                delta,
                t: num(parts[1]),
                p: num(parts[3]),
                base: list(lines[i + 1]),
                target: list(lines[i + 2]),
                path: lines[i + 3]
                    .trim()
                    .trim_start_matches("heaviest call path: ")
                    .to_string(),
            },
        );
    }
    found
}

#[test]
fn an_unchanged_build_passes_at_the_default_setting() {
    let (code, out, err) = gate("same", &["--fail-if-grows", "1"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("over 3 base and 3 target runs") && out.contains("gate passed\n"),
        "{out}"
    );
    assert!(err.is_empty(), "{err}");
}

#[test]
fn a_build_that_doubles_one_function_fails_naming_it() {
    let (code, out, err) = gate("double", &["--fail-if-grows", "1"]);
    assert_eq!(code, 3, "{out}\n{err}");
    assert!(
        err.contains("regression:") && err.contains("main.stringWork (+"),
        "{err}"
    );
    let f = failures(&out);
    let sw = f.get("main.stringWork").unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        sw.path,
        "runtime.main;main.main;main.handle;main.process;main.stringWork"
    );
    // None of the functions whose work did not change fails.
    for other in ["main.hashWork", "main.sortWork", "main.mathWork"] {
        assert!(!f.contains_key(other), "{other} failed:\n{out}");
    }
}

#[test]
fn the_numbers_equal_pprof_and_scipy() {
    let o = oracle();
    // A gate loose enough that every main.* function that grew at all is printed with its numbers.
    for kind in ["same", "double"] {
        let (code, out, err) = gate(kind, &["--fail-if-grows", "0", "--alpha", "0.9999"]);
        assert!(code == 3 || code == 0, "{err}");
        let f = failures(&out);
        let mut checked = 0;
        for fun in [
            "main.stringWork",
            "main.hashWork",
            "main.sortWork",
            "main.mathWork",
        ] {
            let (delta, t, p) = o.welch[&(kind.to_string(), fun.to_string())];
            let Some(got) = f.get(fun) else {
                // Not printed: it did not grow (or p >= 0.9999).
                assert!(
                    delta <= 0.0 || p >= 0.9999,
                    "{fun} {kind}: oracle Δ {delta}, p {p}\n{out}"
                );
                continue;
            };
            checked += 1;
            for (i, (&b, &tg)) in got.base.iter().zip(&got.target).enumerate() {
                let want_b = o.share[&(format!("base{}.pb.gz", i + 1), fun.to_string())];
                let want_t = o.share[&(format!("{kind}{}.pb.gz", i + 1), fun.to_string())];
                assert!(
                    (b - want_b).abs() <= 0.0051,
                    "{fun} base{}: {b} vs pprof {want_b}",
                    i + 1
                );
                assert!(
                    (tg - want_t).abs() <= 0.0051,
                    "{fun} {kind}{}: {tg} vs pprof {want_t}",
                    i + 1
                );
            }
            assert!(
                (got.delta - delta).abs() <= 0.0051,
                "{fun}: Δ {} vs {delta}",
                got.delta
            );
            assert!((got.t - t).abs() <= 0.0051, "{fun}: t {} vs scipy {t}", got.t);
            assert!(
                (got.p - p).abs() <= 0.00005 + 0.05 * p,
                "{fun}: p {} vs scipy {p}",
                got.p
            );
        }
        assert!(checked >= 1, "{kind}: nothing to check\n{out}");
    }
}

#[test]
fn one_run_per_side_is_the_threshold_alone() {
    let (b, t) = (data("base1.pb.gz"), data("double1.pb.gz"));
    let (code, out, err) = scorch(&["diff", "--fail-if-grows", "1", &b, &t]);
    assert_eq!(code, 3, "{err}");
    assert!(
        out.contains("one run on a side so no spread to test against"),
        "{out}"
    );
    assert!(err.contains("main.stringWork"), "{err}");
    // The same pair without a gate is the movers table alone.
    let (code, out, _) = scorch(&["diff", &b, &t]);
    assert_eq!(code, 0);
    assert!(!out.contains("\ngate:"), "{out}");
}

#[test]
fn cpu_against_heap_is_an_error_naming_both_sample_types() {
    let (cpu, heap) = (data("base1.pb.gz"), data("heap.pb.gz"));
    let (code, out, err) = scorch(&["diff", &cpu, &heap]);
    assert_eq!(code, 1, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("sample types differ")
            && err.contains("is cpu (nanoseconds)")
            && err.contains("is inuse_space (bytes)")
            && err.contains("--allow-mismatch"),
        "{err}"
    );
    // Several runs: the heap profile among the target runs is caught the same way.
    let b = runs("base");
    let mut argv = vec!["diff", "--base"];
    argv.extend(b.iter().map(String::as_str));
    argv.extend(["--target", &cpu, &heap]);
    let (code, _, err) = scorch(&argv);
    assert_eq!(code, 1);
    assert!(
        err.contains("cpu (nanoseconds)") && err.contains("inuse_space (bytes)"),
        "{err}"
    );
    // Overridden, the header marks what differs.
    let (code, out, err) = scorch(&["diff", "--allow-mismatch", "-n", "1", &cpu, &heap]);
    assert_eq!(code, 0, "{err}");
    for row in ["≠ sample type  cpu ", "≠ unit         nanoseconds ", "≠ period "] {
        assert!(out.lines().any(|l| l.starts_with(row)), "no {row:?} in\n{out}");
    }
    assert!(out.contains("inuse_space") && out.contains("bytes"), "{out}");
}

#[test]
fn the_header_lists_both_sides() {
    let (code, out, err) = gate("same", &["-n", "1"]);
    assert_eq!(code, 0, "{err}");
    let row = |name: &str| -> &str {
        out.lines()
            .find(|l| l.get(2..).is_some_and(|r| r.starts_with(name)))
            .unwrap_or_else(|| panic!("no {name} row in\n{out}"))
    };
    assert!(row("sample type").starts_with("  sample type  cpu "), "{out}");
    assert!(row("unit").contains("nanoseconds"), "{out}");
    assert!(row("period").contains("10000000 cpu/nanoseconds"), "{out}");
    assert!(
        out.lines().next().unwrap().contains("base (before) (3 runs)"),
        "{out}"
    );
    // Per run: three sample counts on each side.
    assert_eq!(row("samples").split(", ").count(), 5, "{out}");
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("scorch-diffgate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn an_inlining_flip_is_a_changed_kind() {
    let b = temp("flip-base.txt", "main;f;g 5\nmain;h 5\n");
    let t = temp("flip-target.txt", "main;f_[i];g 5\nmain;h 5\n");
    let (code, out, err) = scorch(&["diff", "-n", "0", "--fail-if-grows", "0", &b, &t]);
    assert_eq!(code, 0, "{err}");
    let f = out
        .lines()
        .find(|l| l.contains("  f  "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(f.ends_with("  f  (changed kind: user → inline)"), "{f}");
    assert_eq!(f.matches("+0.00pp").count(), 2, "{f}");
    // By name and kind: f is gone and f_[i] new.
    let (code, out, err) = scorch(&[
        "diff",
        "-n",
        "0",
        "--match",
        "name+kind",
        "--fail-if-grows",
        "0",
        &b,
        &t,
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(err.contains("f_[i] (+50.00 pp)"), "{err}");
    assert!(out.lines().any(|l| l.ends_with("-50.00pp  f")), "{out}");
}

#[test]
fn usage_of_the_run_lists() {
    let b = data("base1.pb.gz");
    for (argv, want) in [
        (vec!["diff", "--base", &b], "--target"),
        (vec!["diff", "--target", &b], "--base"),
        (vec!["diff", "--base", &b, "--target", &b, "--on", "both"], "both"),
        (vec!["diff", "--alpha", "1.5", &b, &b], "between 0 and 1"),
        (vec!["diff", "--match", "kind", &b, &b], "kind"),
    ] {
        let (code, _, err) = scorch(&argv);
        assert_eq!(code, 2, "scorch {argv:?}: {err}");
        assert!(err.contains(want), "scorch {argv:?}: {err}");
    }
    // X against X, three times each: nothing moves, nothing fails.
    let (code, out, err) = scorch(&[
        "diff",
        "--fail-if-grows",
        "0",
        "--base",
        &b,
        &b,
        &b,
        "--target",
        &b,
        &b,
        &b,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("gate passed"), "{out}");
}

#[test]
fn a_label_slice_against_another() {
    // One profile, two threads' slices. Oracle: `go tool pprof -top -nodefraction=0
    // -tagfocus='thread_id=^2764734$' FILE` (and 2756170): slice totals 103 and 101 samples; runtime.mallocgc
    // flat 13 and 3, cum 19 and 14 (it shows as `runtime.mallocgc (partial-inline)`); runtime.memmove 8 and 3.
    let f = format!(
        "{}/../core/tests/data/pprof/parca-profile-with-labels.pb.gz",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, out, err) = scorch(&[
        "diff",
        "-n",
        "0",
        "--base-filter",
        "thread_id=2764734",
        "--target-filter",
        "thread_id=2756170",
        &f,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("[thread_id=2764734]") && out.contains("[thread_id=2756170]"),
        "{out}"
    );
    let total = out.lines().find(|l| l.starts_with("  total ")).unwrap();
    assert!(
        total.contains("103 samples") && total.contains("101 samples"),
        "{total}"
    );
    let row = |name: &str| -> Vec<f64> {
        let l = out
            .lines()
            .find(|l| l.ends_with(&format!("  {name}")))
            .unwrap_or_else(|| panic!("no {name} in\n{out}"));
        l.split_whitespace()
            .filter_map(|c| c.strip_suffix('%')?.parse().ok())
            .collect()
    };
    let pct = |x: f64, of: f64| (x / of * 10000.0).round() / 100.0;
    assert_eq!(
        row("runtime.mallocgc"),
        [
            pct(13.0, 103.0),
            pct(3.0, 101.0),
            pct(19.0, 103.0),
            pct(14.0, 101.0)
        ]
    );
    assert_eq!(
        row("runtime.memmove"),
        [pct(8.0, 103.0), pct(3.0, 101.0), pct(8.0, 103.0), pct(3.0, 101.0)]
    );
    // A label the profile lacks names the ones it has.
    let (code, _, err) = scorch(&["diff", "--base-filter", "tenant=acme", &f]);
    assert_eq!(code, 1);
    assert!(
        err.contains("no label \"tenant\"; the profile has: thread_id, thread_name"),
        "{err}"
    );
}
