//! profile.proto bytes: an error or a valid profile whose every sample type builds.
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::import::pprof::{PprofOptions, PprofParser};

fuzz_target!(|data: &[u8]| {
    let mut p = PprofParser::new(&PprofOptions { max_bytes: 1 << 20 });
    if p.feed(data).is_err() {
        return;
    }
    if let Ok(profile) = p.finish() {
        profile.validate().expect("valid model");
        for e in 0..profile.events.len() {
            let v = scorch_core::ViewOptions { event: Some(e as u16), ..scorch_core::ViewOptions::default_for(&profile) };
            let _ = scorch_core::analysis::top::top(&profile, &v);
        }
    }
});
