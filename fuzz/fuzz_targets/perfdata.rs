//! perf.data bytes: an error or a valid profile, and a valid profile again once its frames are symbolized
//! (by a symbolizer that names every other address).
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::import::perfdata::{symbolize, Binary, PerfDataOptions, PerfDataParser, Symbolizer};

struct EveryOther;

impl Symbolizer for EveryOther {
    fn symbolize(&mut self, b: &Binary, address: u64) -> Option<String> {
        (address % 2 == 0).then(|| format!("f{}", address % 7 + b.name.len() as u64))
    }
}

fuzz_target!(|data: &[u8]| {
    let mut p = PerfDataParser::new(&PerfDataOptions { max_bytes: 1 << 20, keep_warnings: None });
    if p.feed(data).is_err() {
        return;
    }
    if let Ok(profile) = p.finish() {
        profile.validate().expect("valid model");
        let s = symbolize(&profile, &mut EveryOther);
        s.validate().expect("valid model after symbolizing");
        assert_eq!(s.total(), profile.total());
        let v = scorch_core::ViewOptions::default_for(&s);
        let _ = scorch_core::analysis::top::top(&s, &v);
    }
});
