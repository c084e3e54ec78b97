//! perf script without its `cpu` field (issue #40, item 7a): the number of CPUs is unknown, so the coverage
//! states no CPU count and no share of an invented CPU time.

mod common;

use common::{data, load};
use scorch_core::analysis::duration::{coverage, DurationSource};
use scorch_core::ViewOptions;

#[test]
fn without_a_cpu_column_the_cpus_are_unknown() {
    let bytes = data("perf-made", "no-cpu-column.txt");
    let text = String::from_utf8(bytes.clone()).unwrap();
    // Read here: header lines are the unindented ones; none has a `[NNN]` field; their times and periods.
    let headers: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(char::is_whitespace))
        .collect();
    assert!(headers.iter().all(|h| !h.contains('[')));
    let times: Vec<u64> = headers
        .iter()
        .map(|h| {
            let t = h
                .split_whitespace()
                .find(|w| w.ends_with(':') && w.contains('.'))
                .unwrap();
            let (s, f) = t.trim_end_matches(':').split_once('.').unwrap();
            s.parse::<u64>().unwrap() * 1_000_000_000 + f.parse::<u64>().unwrap() * 1000
        })
        .collect();
    let span = times.iter().max().unwrap() - times.iter().min().unwrap();

    let p = load(&bytes).unwrap();
    let c = coverage(&p, &ViewOptions::default_for(&p)).unwrap();
    assert_eq!((c.source, c.duration_ns), (DurationSource::Span, span));
    assert_eq!(c.cpus, None);
    assert!(c.cpus_unknown);
    assert_eq!(c.percent, None, "no share against an invented CPU count");
    let s = c.describe(&p.meta.unit, p.meta.decimals);
    assert!(!s.contains("1 CPU") && !s.contains('%'), "{s}");
    assert!(s.contains("unknown number of CPUs"), "{s}");
}

/// With the field (perf's default), the CPUs are counted as before.
#[test]
fn with_a_cpu_column_the_cpus_are_counted() {
    let bytes = data("perf", "ss-system-wide.linux-perf.txt");
    let text = String::from_utf8_lossy(&bytes);
    // The distinct `[NNN]` fields of its header lines, counted here.
    let mut cpus: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(char::is_whitespace))
        .filter_map(|l| {
            l.split_whitespace()
                .find(|w| w.starts_with('[') && w.ends_with(']'))
        })
        .collect();
    cpus.sort_unstable();
    cpus.dedup();
    let p = load(&bytes).unwrap();
    let v = ViewOptions {
        event: None,
        ..ViewOptions::default_for(&p)
    };
    let c = coverage(&p, &v).unwrap();
    assert_eq!(c.cpus, Some(cpus.len() as u32), "{c:?}");
    assert!(!c.cpus_unknown);
}
