//! perf script text (seeded from the corpus): never a panic; if it imports, the model is valid and every view
//! builds a tree whose total is what the samples weigh.
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::view::calltree::{CallTree, Order};
use scorch_core::import::perf::{PerfOptions, PerfParser};

fuzz_target!(|data: &[u8]| {
    let mut p = PerfParser::new(&PerfOptions { max_line: 1 << 20, ..Default::default() });
    if p.feed(data).is_err() {
        return;
    }
    if let Ok(profile) = p.finish() {
        profile.validate().expect("valid model");
        let v = scorch_core::ViewOptions::default_for(&profile);
        let t = CallTree::build(&profile, &v, Order::Weight);
        let want: u64 = (0..profile.samples.len()).filter_map(|i| v.weigh(&profile, i)).sum();
        assert_eq!(t.total[0], want);
    }
});
