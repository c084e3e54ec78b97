//! Folded text: if it imports, its canonical export re-imports to the same export.
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::{export, folded};

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = folded::parse(data) {
        p.validate().expect("valid model");
        if p.events.is_empty() {
            let once = export::to_folded(&p);
            let again = folded::parse(once.as_bytes()).expect("export re-imports");
            assert_eq!(export::to_folded(&again), once);
        }
    }
});
