//! Heatmap bands (the same offsets in every second of a span) against FlameScope's own heatmaps: the samples a
//! band selects are exactly those of FlameScope's cells in the band's rectangle.

use scorch_core::analysis::heatmap::{heatmap, idle_samples, HeatmapOptions};
use scorch_core::export::links;
use scorch_core::view::calltree::{CallTree, Order};
use scorch_core::{import_bytes, ImportOptions, Profile, ViewOptions, WeightMode};
use std::path::PathBuf;

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn load(rel: &str) -> Profile {
    import_bytes(&std::fs::read(data(rel)).unwrap(), ImportOptions::default())
        .unwrap()
        .profile
}

#[test]
fn a_band_selects_exactly_flamescopes_cells_in_its_rectangle() {
    let cases = [
        ("fs-perf.test01", 50, ""),
        ("fg-example-perf-stacks.txt.gz", 50, ""),
        ("fg-example-perf-stacks.txt.gz", 100, ".rows100"),
        ("ff-gzip.perf.gz", 50, ""),
        ("ss-rust-mangled.linux-perf.txt", 50, ""),
    ];
    for (name, rows, suffix) in cases {
        let p = load(&format!("perf/{name}"));
        let fs: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(data(&format!("flamescope/{name}.heatmap{suffix}.json"))).unwrap(),
        )
        .unwrap();
        // FlameScope lists a column's rows from the top; row r (from the start of the second) is entry rows-1-r.
        let mut cols: Vec<Vec<u64>> = fs["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                c.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap())
                    .collect()
            })
            .collect();
        if name == "fs-perf.test01" {
            // FlameScope's float rounding puts 5086.200000 s in row 9 of column 10 and 5106.400000 s in row 19 of
            // column 30 (tests/heatmap.rs); their timestamps say rows 10 and 20. Moved back, these two samples on
            // row boundaries check that a band's offsets are half-open.
            for (c, from, to) in [(10, 9, 10), (30, 19, 20)] {
                cols[c][(rows - 1 - from) as usize] -= 1;
                cols[c][(rows - 1 - to) as usize] += 1;
            }
        }
        let theirs = |c: u32, r: u32| cols[c as usize][(rows - 1 - r) as usize];
        let v = ViewOptions {
            event: None,
            weight: WeightMode::Count,
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
        let idle = idle_samples(&p);
        let last = h.columns - 1;
        let mut nonzero = 0;
        for (a, b) in [
            ((0, 0), (last, rows - 1)),
            ((0, 10), (last, 14)),
            ((0, 0), (last, 9)),
            ((0, 15), (last, 19)),
            ((last.min(20), 20), (last, 25)),
            ((1.min(last), 30), (last.min(4), 30)),
            ((last, rows - 1), (0, rows / 2)),
            ((last / 2, 3), (last / 2, 7)),
        ] {
            let (range, offsets) = h.band(a, b);
            let band = ViewOptions {
                time_range: Some(range),
                offsets: Some(offsets),
                ..v.clone()
            };
            let ours = (0..p.samples.len())
                .filter(|&i| band.weigh(&p, i).is_some() && !idle[i])
                .count() as u64;
            let (c1, c2, r1, r2) = (a.0.min(b.0), a.0.max(b.0), a.1.min(b.1), a.1.max(b.1));
            let want: u64 = (c1..=c2)
                .flat_map(|c| (r1..=r2).map(move |r| (c, r)))
                .map(|(c, r)| theirs(c, r))
                .sum();
            assert_eq!(ours, want, "{name} rows {rows}: band {a:?}..{b:?}");
            assert_eq!(h.band_cells(range, offsets), Some(((c1, r1), (c2, r2))));
            nonzero += usize::from(want > 0);
            // The flame graph of the band holds its samples (idle ones too: the flame graph has no idle filter).
            let all = (0..p.samples.len())
                .filter(|&i| band.weigh(&p, i).is_some())
                .count() as u64;
            assert_eq!(CallTree::build(&p, &band, Order::Alphabetical).total[0], all);
        }
        assert!(nonzero >= 2, "{name}: the bands should hold samples");
    }
}

#[test]
fn a_link_bakes_a_band_in_or_carries_timestamps_without_it() {
    let p = load("perf-made/periodic.txt");
    let v = ViewOptions {
        weight: WeightMode::Count,
        offsets: Some((200_000_000, 300_000_000)),
        ..ViewOptions::default_for(&p)
    };
    let total = |q: &Profile| CallTree::build(q, &ViewOptions::default_for(q), Order::Alphabetical).total[0];
    let back = |s: &links::Shared| {
        import_bytes(&links::decode(&s.payload).unwrap(), ImportOptions::default())
            .unwrap()
            .profile
    };
    // Without timestamps: the band's 376 samples, baked in.
    let flat = back(&links::encode(&p, &v, links::DEFAULT_MAX));
    assert_eq!(total(&flat), 376);
    // With timestamps: every sample, and the band stays view state for the receiver.
    let timed = links::encode_timed(&p, &v, links::DEFAULT_MAX).unwrap();
    let q = back(&timed);
    assert_eq!(total(&q), 1113);
    let band_q = ViewOptions {
        offsets: v.offsets,
        ..ViewOptions::default_for(&q)
    };
    assert_eq!(CallTree::build(&q, &band_q, Order::Alphabetical).total[0], 376);
}
