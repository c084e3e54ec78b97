//! Any bytes through the streaming loader, cut into chunks by the first byte: an error or a valid profile, and
//! the same result however the input is cut.
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::{export, ImportOptions, Loader};

fuzz_target!(|data: &[u8]| {
    let Some((&cut, input)) = data.split_first() else { return };
    let whole = scorch_core::import_bytes(input, ImportOptions::default());
    let mut l = Loader::new(ImportOptions::default());
    let chunk = usize::from(cut).max(1);
    let mut chunked = Ok(());
    for c in input.chunks(chunk) {
        chunked = l.feed(c);
        if chunked.is_err() {
            break;
        }
    }
    let chunked = chunked.and_then(|_| l.finish());
    match (whole, chunked) {
        (Ok(a), Ok(b)) => {
            a.profile.validate().expect("valid model");
            let v = scorch_core::ViewOptions::default_for(&a.profile);
            assert_eq!(export::to_folded_view(&a.profile, &v), export::to_folded_view(&b.profile, &v));
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!("chunking changed the outcome: {:?} vs {:?}", a.map(|_| ()), b.map(|_| ())),
    }
});
