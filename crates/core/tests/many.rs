//! Several profiles combined (`import::many`): each input keeps its own time, named, so a series can be
//! ordered by it in the app as `scorch series --order time` does. Oracle: the `time_nanos` field (9) of each
//! Go CPU profile recorded here, read by a protobuf walk written in this test, not by scorch's decoder.

mod common;
use common::{data, load};
use scorch_core::import::many::{combine, profile_time, profile_times, TIME_INFO};

const GO3: [&str; 3] = ["v1-run1.pb.gz", "v2-run1.pb.gz", "v1-run2.pb.gz"];

fn time_nanos(gz: &[u8]) -> u64 {
    common::pprof_top_varint(gz, 9)
}

#[test]
fn each_input_keeps_its_own_time_through_the_merge() {
    let inputs: Vec<(String, scorch_core::Profile)> = GO3
        .iter()
        .map(|f| (f.to_string(), load(&data("series", f)).unwrap()))
        .collect();
    for (name, p) in &inputs {
        assert_eq!(profile_time(p), Some(time_nanos(&data("series", name))), "{name}");
    }
    let c = combine(inputs, None).unwrap();
    let mut times = profile_times(&c.profile);
    times.sort();
    let mut want: Vec<(String, u64)> = GO3
        .iter()
        .map(|f| (f.to_string(), time_nanos(&data("series", f))))
        .collect();
    want.sort();
    assert_eq!(times, want);
    // The ambiguous bare entry is gone: each time is named by its input.
    assert!(!c.profile.meta.info.iter().any(|(k, _)| k == TIME_INFO));
    // Recorded one after another: v1-run1, v1-run2, then v2-run1.
    let mut by_time = times.clone();
    by_time.sort_by_key(|t| t.1);
    let names: Vec<&str> = by_time.iter().map(|t| t.0.as_str()).collect();
    assert_eq!(names, ["v1-run1.pb.gz", "v1-run2.pb.gz", "v2-run1.pb.gz"]);
}
