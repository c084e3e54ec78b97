//! The heatmap against FlameScope's own output, and the range arithmetic the viewer relies on.

use scorch_core::analysis::heatmap::{heatmap, HeatmapOptions};
use scorch_core::view::calltree::{CallTree, Order};
use scorch_core::{import_bytes, ImportOptions, Profile, ViewOptions, WeightMode};
use std::path::PathBuf;

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn load(name: &str) -> Profile {
    import_bytes(
        &std::fs::read(data(&format!("perf/{name}"))).unwrap(),
        ImportOptions::default(),
    )
    .unwrap()
    .profile
}

#[test]
fn equals_flamescope_except_its_float_rounding() {
    let cases = [
        ("fs-perf.test01", 50, ""),
        ("fg-example-perf-stacks.txt.gz", 50, ""),
        ("fg-example-perf-stacks.txt.gz", 100, ".rows100"),
        ("ff-gzip.perf.gz", 50, ""),
        ("fg-perf-funcab-cmd-01.txt", 50, ""),
        ("ss-rust-mangled.linux-perf.txt", 50, ""),
    ];
    for (name, rows, suffix) in cases {
        let p = load(name);
        // FlameScope counts every event (there is no event filter) with its idle filter on.
        let v = ViewOptions {
            event: None,
            ..ViewOptions::default_for(&p)
        };
        let h = heatmap(
            &p,
            &v,
            &HeatmapOptions {
                rows,
                idle_filter: true,
            },
        )
        .unwrap();
        let fs: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(data(&format!("flamescope/{name}.heatmap{suffix}.json"))).unwrap(),
        )
        .unwrap();
        let values = fs["values"].as_array().unwrap();
        assert_eq!(h.columns as usize, values.len(), "{name}: columns");
        let mut differ = Vec::new();
        for (c, col) in values.iter().enumerate() {
            let col = col.as_array().unwrap();
            assert_eq!(col.len(), rows as usize);
            for r in 0..rows {
                // FlameScope lists rows from the top (980 ms first); scorch's row 0 is the start of the second.
                let theirs = col[(rows - 1 - r) as usize].as_u64().unwrap() as u32;
                if theirs != h.count(c as u32, r) {
                    differ.push((c, r, theirs, h.count(c as u32, r)));
                }
            }
        }
        if name == "fs-perf.test01" {
            // FlameScope computes the row from a float: 5086.200000 s lands in the 180 ms row (9) instead of
            // 200 ms (10), and 5106.400000 s in 380 ms (19) instead of 400 ms (20). scorch reads timestamps as
            // exact integer nanoseconds, so both samples are where their timestamps say.
            assert_eq!(
                differ,
                [(10, 9, 1, 0), (10, 10, 0, 1), (30, 19, 1, 0), (30, 20, 0, 1)],
                "{name}"
            );
        } else {
            assert!(differ.is_empty(), "{name}: {differ:?}");
        }
    }
}

#[test]
fn selections_are_half_open_and_flame_graphs_hold_exactly_their_samples() {
    let p = load("fg-example-perf-stacks.txt.gz");
    let v = ViewOptions {
        weight: WeightMode::Count,
        ..ViewOptions::default_for(&p)
    };
    let h = heatmap(&p, &v, &HeatmapOptions::default()).unwrap();
    let total_in = |range: (u64, u64)| {
        let t = CallTree::build(
            &p,
            &ViewOptions {
                time_range: Some(range),
                ..v.clone()
            },
            Order::Alphabetical,
        );
        t.total[0]
    };
    let brute = |(a, b): (u64, u64)| {
        p.samples
            .time_ns
            .as_ref()
            .unwrap()
            .iter()
            .filter(|&&t| a <= t && t < b)
            .count() as u64
    };
    // Second 2, first half and second half, then the whole second.
    let a = h.range((2, 0), (2, 24));
    let b = h.range((2, 25), (2, 49));
    let whole = h.range((2, 0), (2, 49));
    assert_eq!(a.1, b.0, "adjacent selections meet");
    assert_eq!((whole.0, whole.1), (a.0, b.1));
    assert_eq!(total_in(a), brute(a));
    assert_eq!(total_in(a) + total_in(b), total_in(whole), "no sample in both");
    assert!(total_in(a) > 0 && total_in(b) > 0);
    // Across columns, in either order.
    let r = h.range((7, 40), (3, 5));
    assert_eq!(r, h.range((3, 5), (7, 40)));
    assert_eq!(total_in(r), brute(r));
}

#[test]
fn no_timestamps_no_heatmap() {
    let p = load("fg-perf-funcab-pid-01.txt");
    assert!(heatmap(&p, &ViewOptions::default_for(&p), &HeatmapOptions::default()).is_none());
}

/// A capture longer than the grid: the first `MAX_COLUMNS` seconds are shown, the samples past them are counted
/// and named in the note; a span past u32 seconds (centuries) is still a heatmap, not "no timestamps".
#[test]
fn a_span_past_the_column_cap_counts_what_falls_outside() {
    use scorch_core::analysis::heatmap::MAX_COLUMNS;
    let event = |t: &str| format!("prog 1 [000] {t}: 1 cycles:\n\t1 main (/bin/prog)\n\n");
    // Ten years after the first sample, and (for the second profile) 500 years after it.
    for (late, label) in [("315360000.5", "ten years"), ("15768000000.5", "500 years")] {
        let text = [event("0.25"), event("10.5"), event(late), event(late)].concat();
        let p = import_bytes(text.as_bytes(), ImportOptions::default())
            .unwrap()
            .profile;
        let h = heatmap(&p, &ViewOptions::default_for(&p), &HeatmapOptions::default()).expect(label);
        assert_eq!(h.columns, MAX_COLUMNS, "{label}");
        assert_eq!((h.count(0, 12), h.count(10, 25), h.outside), (1, 1, 2), "{label}");
        assert_eq!(
            h.note().as_deref(),
            Some(
                "more than 100000 columns in the heatmap: the view is limited to the first 100000 seconds; \
                 2 samples are outside it"
            )
        );
    }
    let p = load("fs-perf.test01");
    let h = heatmap(&p, &ViewOptions::default_for(&p), &HeatmapOptions::default()).unwrap();
    assert_eq!((h.outside, h.note()), (0, None));
}
