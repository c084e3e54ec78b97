//! Folded text: if it imports, its canonical export re-imports to the same export. Input in scorch's link dialect
//! (a `# scorch-unit:` line: one count per line, so a name may end in a number) is re-imported in that dialect:
//! plain folded cannot tell `name 2` + count `2` from a two-count line, which is why links carry the header.
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::export;
use scorch_core::import::folded;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = folded::parse(data) {
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
