//! Links that carry a profile with its timestamps: the receiver gets the same heatmap, and a time range selected
//! on it holds the same stacks as on the original.

use scorch_core::analysis::heatmap::{heatmap, HeatmapOptions};
use scorch_core::export::links::{decode, encode, encode_timed, DEFAULT_MAX};
use scorch_core::export::to_folded_view;
use scorch_core::{import_bytes, ImportOptions, Profile, ViewOptions};

fn load(path: &str) -> Profile {
    let bytes = std::fs::read(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    import_bytes(&bytes, ImportOptions::default()).unwrap().profile
}

#[test]
fn timestamps_travel_and_the_heatmap_comes_back() {
    let p = load("www/demo/service.perf.gz");
    let v = ViewOptions::default_for(&p);
    let s = encode_timed(&p, &v, DEFAULT_MAX).expect("the demo fits with its timestamps");
    assert!(s.times);
    let back = import_bytes(&decode(&s.payload).unwrap(), ImportOptions::default())
        .unwrap()
        .profile;
    back.validate().unwrap();
    assert_eq!(back.samples.len(), p.samples.len(), "one sample per timestamp");
    let bv = ViewOptions::default_for(&back);
    assert_eq!(to_folded_view(&back, &bv), to_folded_view(&p, &v));
    let opts = HeatmapOptions::default();
    let (a, b) = (
        heatmap(&p, &v, &opts).unwrap(),
        heatmap(&back, &bv, &opts).unwrap(),
    );
    assert_eq!((a.origin_ns, a.columns, a.rows), (b.origin_ns, b.columns, b.rows));
    assert_eq!(a.counts, b.counts, "cell for cell");
    // A range selected on either holds the same stacks.
    let range = a.range((2, 30), (3, 39));
    let cut = |p: &Profile, v: &ViewOptions| {
        to_folded_view(
            p,
            &ViewOptions {
                time_range: Some(range),
                ..v.clone()
            },
        )
    };
    assert_eq!(cut(&back, &bv), cut(&p, &v));
    // Without room, no timed link (the untimed one is the way).
    assert!(encode_timed(&p, &v, 100).is_none());
    // Profiles without timestamps have no timed link.
    let folded = import_bytes(b"a;b 3\n", ImportOptions::default())
        .unwrap()
        .profile;
    assert!(encode_timed(&folded, &ViewOptions::default_for(&folded), DEFAULT_MAX).is_none());
}

#[test]
fn a_reduced_link_says_what_it_left_out() {
    let text = b"main;a 500\nmain;b 300\nmain;c 150\nmain;d 50\n";
    let p = import_bytes(text, ImportOptions::default()).unwrap().profile;
    let v = ViewOptions::default_for(&p);
    let full = encode(&p, &v, DEFAULT_MAX).payload.len();
    // The largest budget that leaves something out but keeps a stack.
    let r = (1..full)
        .rev()
        .map(|max| encode(&p, &v, max))
        .find(|r| r.dropped_stacks > 0)
        .unwrap();
    assert!(r.stacks > 0, "{r:?}");
    let back = import_bytes(&decode(&r.payload).unwrap(), ImportOptions::default())
        .unwrap()
        .profile;
    let note = back
        .meta
        .info
        .iter()
        .find(|(k, _)| k == "left out of the link")
        .expect("the note");
    assert!(
        note.1
            .starts_with(&format!("{} smallest stacks", r.dropped_stacks)),
        "{}",
        note.1
    );
}

#[test]
fn broken_timestamps_are_a_warning_not_a_wrong_profile() {
    // The times do not split the count evenly: the line keeps its weight, the times are dropped.
    let text = b"# scorch-unit: samples\n# scorch-times\nmain;a 10 @5,1,1\nmain;b 2 @7,1\n";
    let p = import_bytes(text, ImportOptions::default()).unwrap().profile;
    assert!(p.samples.time_ns.is_none());
    assert_eq!(p.total(), 12);
    assert_eq!(p.meta.warnings.count, 1);
    // Well-formed: one sample per time, times are running sums of the gaps.
    let text = b"# scorch-unit: samples\n# scorch-times\nmain;a 9 @5,1,1\nmain;b 2 @7:1,1:1\n";
    let p = import_bytes(text, ImportOptions::default()).unwrap().profile;
    let mut times = p.samples.time_ns.clone().unwrap();
    times.sort_unstable();
    assert_eq!(times, vec![5, 6, 7, 7, 8]);
    assert_eq!(p.total(), 11);
}
