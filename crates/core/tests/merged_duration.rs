//! A merged view (several files combined by `import::many`, as `scorch fold A B` and the app's several dropped
//! files) states the **sum of the files' own durations**, so the total's share of it stays ≤ 100 % (issue #40,
//! item 7b: it stated the first file's). Oracles, read in this test and not by scorch's decoders: a Go CPU
//! profile's `duration_nanos` (field 10 of the top-level `Profile` message, by a protobuf walk) and a perf
//! script's first and last sample timestamps (the `SECONDS.MICROS:` before the period, read as text).

mod common;
use common::{data, load};
use scorch_core::analysis::duration::{coverage, DurationSource};
use scorch_core::import::many::combine;
use scorch_core::view::{LabelFilter, ViewOptions};

fn duration_nanos(gz: &[u8]) -> u64 {
    common::pprof_top_varint(gz, 10)
}

/// Last sample's timestamp − first sample's, in ns, from a perf script's sample header lines (`comm pid
/// SECONDS.MICROS: period event:`): the word ending in `:` that is a decimal number.
fn perf_span_ns(text: &str) -> u64 {
    let mut times = Vec::new();
    for line in text.lines() {
        if line.starts_with(char::is_whitespace) {
            continue;
        }
        for w in line.split_whitespace() {
            let Some(t) = w.strip_suffix(':') else { continue };
            if let Some((s, f)) = t.split_once('.') {
                let digits = |x: &str| !x.is_empty() && x.bytes().all(|c| c.is_ascii_digit());
                if digits(s) && digits(f) && f.len() == 6 {
                    times.push(s.parse::<u64>().unwrap() * 1_000_000_000 + f.parse::<u64>().unwrap() * 1000);
                }
            }
        }
    }
    assert!(times.len() > 100, "{} timestamps", times.len());
    times.iter().max().unwrap() - times.iter().min().unwrap()
}

fn merged(dir: &str, names: &[&str]) -> scorch_core::Profile {
    let inputs = names
        .iter()
        .map(|f| (f.to_string(), load(&data(dir, f)).unwrap()))
        .collect();
    combine(inputs, None).unwrap().profile
}

#[test]
fn merged_pprof_states_the_sum_of_the_files_durations() {
    let names = ["v1-run1.pb.gz", "v2-run1.pb.gz"];
    let own: Vec<u64> = names.iter().map(|f| duration_nanos(&data("series", f))).collect();
    // Each file alone: its own stated duration, covered at most fully.
    for (f, &d) in names.iter().zip(&own) {
        let p = load(&data("series", f)).unwrap();
        let c = coverage(&p, &ViewOptions::default_for(&p)).unwrap();
        assert_eq!((c.duration_ns, c.source), (d, DurationSource::Stated), "{f}");
        assert!(c.percent.unwrap() <= 100.0, "{f}: {:?}", c.percent);
    }
    let p = merged("series", &names);
    let c = coverage(&p, &ViewOptions::default_for(&p)).unwrap();
    assert_eq!(c.duration_ns, own[0] + own[1]);
    assert_eq!(c.source, DurationSource::Stated);
    assert_eq!(c.files, Some(2));
    let pct = c.percent.unwrap();
    assert!(pct > 0.0 && pct <= 100.0, "{pct}");
    let text = c.describe(&ViewOptions::default_for(&p).unit(&p), p.meta.decimals);
    assert!(text.starts_with("2 files, total duration "), "{text}");
    // The merged profile's own stated figure is the sum too (the diff's facts and rates read it).
    assert_eq!(p.meta.duration_ns, Some(own[0] + own[1]));
    // One file kept by the `profile` label filter: that file's own duration and share.
    for (f, &d) in names.iter().zip(&own) {
        let v = ViewOptions {
            label: Some(LabelFilter::parse(&p, &format!("profile={f}")).unwrap()),
            ..ViewOptions::default_for(&p)
        };
        let c = coverage(&p, &v).unwrap();
        assert_eq!((c.duration_ns, c.files), (d, Some(1)), "{f}");
        let alone = load(&data("series", f)).unwrap();
        let a = coverage(&alone, &ViewOptions::default_for(&alone)).unwrap();
        assert!((c.percent.unwrap() - a.percent.unwrap()).abs() < 1e-9, "{f}");
    }
}

#[test]
fn merged_perf_states_the_sum_of_the_files_spans() {
    let names = ["periodic.txt", "threads.txt"];
    let own: Vec<u64> = names
        .iter()
        .map(|f| perf_span_ns(std::str::from_utf8(&data("perf-made", f)).unwrap()))
        .collect();
    for (f, &d) in names.iter().zip(&own) {
        let p = load(&data("perf-made", f)).unwrap();
        let c = coverage(&p, &ViewOptions::default_for(&p)).unwrap();
        assert_eq!((c.duration_ns, c.source), (d, DurationSource::Span), "{f}");
    }
    let p = merged("perf-made", &names);
    let c = coverage(&p, &ViewOptions::default_for(&p)).unwrap();
    // Not the span from the first file's first sample to the second file's last (recorded hours apart).
    assert_eq!(c.duration_ns, own[0] + own[1]);
    assert_eq!((c.source, c.files), (DurationSource::Span, Some(2)));
    let text = c.describe(&ViewOptions::default_for(&p).unit(&p), p.meta.decimals);
    assert!(text.starts_with("2 files, total duration "), "{text}");
    assert!(text.contains("first to last sample of each file"), "{text}");
}
