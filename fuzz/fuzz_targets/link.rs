//! The `p=` link payload decoder (input from a URL anyone can craft): an error or bytes that import or fail
//! cleanly; and any profile encoded into a link decodes back to the same folded text (with and without
//! timestamps).
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::export::{self, links as share};
use scorch_core::{ImportOptions, ViewOptions};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(bytes) = share::decode(text) {
            let _ = scorch_core::import_bytes(&bytes, ImportOptions::default());
        }
    }
    if let Ok(imp) = scorch_core::import_bytes(data, ImportOptions::default()) {
        let v = ViewOptions::default_for(&imp.profile);
        let s = share::encode(&imp.profile, &v, share::DEFAULT_MAX);
        // A profile with nothing in the view (every sample filtered out) has nothing to carry. (Samples with no
        // frames are carried: their folded line is ` WEIGHT`.)
        if export::to_folded_view(&imp.profile, &v).is_empty() {
            return;
        }
        if s.dropped_stacks == 0 {
            let back = scorch_core::import_bytes(&share::decode(&s.payload).expect("own link decodes"), ImportOptions::default())
                .expect("own link imports");
            let v2 = ViewOptions::default_for(&back.profile);
            assert_eq!(export::to_folded_view(&back.profile, &v2), export::to_folded_view(&imp.profile, &v));
        }
        // A link with timestamps brings back every sample at its time.
        if let Some(t) = share::encode_timed(&imp.profile, &v, share::DEFAULT_MAX) {
            let back = scorch_core::import_bytes(&share::decode(&t.payload).expect("own link decodes"), ImportOptions::default())
                .expect("own timed link imports");
            let v2 = ViewOptions::default_for(&back.profile);
            assert_eq!(export::to_folded_view(&back.profile, &v2), export::to_folded_view(&imp.profile, &v));
            let mut a: Vec<u64> = imp.profile.samples.time_ns.clone().unwrap_or_default();
            let mut b: Vec<u64> = back.profile.samples.time_ns.clone().unwrap_or_default();
            a.sort_unstable();
            b.sort_unstable();
            assert!(b.len() <= a.len());
        }
    }
});
