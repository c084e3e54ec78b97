//! Declared units (`--unit`, `# unit:`): folded counts say nothing about what they count; a user (or the file)
//! says it, and every number is then shown in that unit. Checked against sums computed here from the file text.

mod common;

use common::scorch_input as scorch;

/// BCC's `offcputime -f 5` output, from BCC's own example file: off-CPU time in microseconds.
fn bcc() -> String {
    format!(
        "{}/../core/tests/data/folded/bcc-offcputime-us.folded",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The file's counts summed, read plainly.
fn bcc_sum() -> u64 {
    std::fs::read_to_string(bcc())
        .unwrap()
        .lines()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum()
}

/// The `total:` line of `scorch info`: `184680988 (3 min 4.7 s)` → the text in parentheses.
fn shown_total(info: &str) -> String {
    let line = info.lines().find(|l| l.starts_with("total:")).unwrap();
    line.split_once('(').unwrap().1.trim_end_matches(')').to_string()
}

#[test]
fn microseconds_read_as_time() {
    let sum = bcc_sum();
    let (code, out, err) = scorch(&["info", "--unit", "us", &bcc()], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("unit:            microseconds\n"), "{out}");
    // 184,680,988 µs = 3 min 4.680988 s.
    let secs = sum as f64 / 1e6;
    let want = format!("{} min {:.1} s", (secs / 60.0).trunc(), secs % 60.0);
    assert_eq!(shown_total(&out), want);

    let (code, json, _) = scorch(&["info", "--json", "--unit", "us", &bcc()], None);
    assert_eq!(code, 0);
    assert!(json.contains(&format!("\"total\": {sum},")), "{json}");
    assert!(json.contains("\"unit\": \"microseconds\""), "{json}");

    // The function table: `schedule` is every stack's leaf, so its flat time is the whole total.
    let (code, top, _) = scorch(&["top", "--unit", "us", "-n", "1", &bcc()], None);
    assert_eq!(code, 0);
    assert!(top.contains(&format!("{want} total")), "{top}");
    assert!(
        top.lines().last().unwrap().trim_start().starts_with(&want),
        "{top}"
    );

    // Without a unit the same counts are samples.
    let (_, plain, _) = scorch(&["info", &bcc()], None);
    assert!(plain.contains("unit:            samples\n"), "{plain}");
}

#[test]
fn bytes_read_as_kib_and_mib() {
    let sum = bcc_sum() as f64;
    let (code, out, err) = scorch(&["info", "--unit", "bytes", &bcc()], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(shown_total(&out), format!("{:.2} MiB", sum / 1048576.0));
    let (_, small, _) = scorch(&["info", "--unit", "bytes", "-"], Some(b"main;alloc 3072\n"));
    assert_eq!(shown_total(&small), "3.00 KiB");
}

#[test]
fn a_unit_line_in_the_file_declares_it() {
    let (code, out, err) = scorch(&["info", "-"], Some(b"# unit: usecs\nmain;read 1500\nmain 500\n"));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("unit:            microseconds\n"), "{out}");
    assert_eq!(shown_total(&out), "2.00 ms");
    // An unknown unit is a counted warning, and the counts stay samples.
    let (code, out, err) = scorch(&["info", "-"], Some(b"# unit: furlongs\nmain 5\n"));
    assert_eq!(code, 0);
    assert!(err.contains("unknown `# unit:`"), "{err}");
    assert!(out.contains("unit:            samples\n"), "{out}");
}

#[test]
fn a_unit_is_refused_for_inputs_that_state_theirs() {
    let pprof = format!(
        "{}/../core/tests/data/pprof/parca-fib.pb.gz",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, _, err) = scorch(&["top", "--unit", "us", &pprof], None);
    assert_eq!(code, 1);
    assert!(err.contains("--unit is for folded counts"), "{err}");
    assert!(err.contains("nanoseconds"), "{err}");
    let (code, _, err) = scorch(&["info", "--unit", "furlongs", &bcc()], None);
    assert_eq!(code, 2, "a usage error");
    assert!(err.contains("samples, ns, us, ms, s, bytes or count"), "{err}");
}
