//! Folded text: if it imports, its canonical export re-imports to the same export. Input in scorch's link dialect
//! (a `# scorch-unit:` line: one count per line, so a name may end in a number) is re-imported in that dialect:
//! plain folded cannot tell `name 2` + count `2` from a two-count line, which is why links carry the header.
//! A slice's part as a parse worker sends it (`SlicePart::encode_result`) decodes to the same profile; and the
//! input read as such a part's bytes is an error or a part, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::export;
use scorch_core::import::folded;
use scorch_core::import::split::{merge_slices, SliceParser, SlicePart};
use scorch_core::{Format, ImportOptions};

fuzz_target!(|data: &[u8]| {
    if let Ok(Ok(part)) = SlicePart::decode_result(data) {
        let _ = merge_slices(vec![Ok(part)]);
    }
    let parsed = folded::parse(data);
    if let Some(mut parser) = SliceParser::new(Format::Folded, &ImportOptions::default()) {
        let direct = parser.feed(data).and_then(|()| parser.finish());
        if let Ok(bytes) = SlicePart::encode_result(direct) {
            let back = SlicePart::decode_result(&bytes).expect("own part decodes");
            if let (Ok(Some(a)), Ok(p)) = (merge_slices(vec![back]), &parsed) {
                assert_eq!(export::to_folded(&a), export::to_folded(p), "a part over the wire");
            }
        }
    }
    if let Ok(p) = parsed {
        p.validate().expect("valid model");
        if p.events.is_empty() {
            let once = export::to_folded(&p);
            let dialect = data.windows(14).any(|w| w == b"# scorch-unit:");
            let text = if dialect { format!("# scorch-unit: samples\n{once}") } else { once.clone() };
            let again = folded::parse(text.as_bytes()).expect("export re-imports");
            assert_eq!(export::to_folded(&again), once);
        }
    }
});
