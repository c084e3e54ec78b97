//! Bytes into the JFR (Java Flight Recorder) importer and its sniffer: an error or a valid profile whose total
//! is the sum of its events' totals, the same whether the input comes whole or in two pieces cut anywhere.
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::import::jfr::{JfrFormat, JfrOptions, JfrParser};
use scorch_core::import::Importer;

fn run(parts: &[&[u8]]) -> Result<String, String> {
    let mut p = JfrParser::new(&JfrOptions { max_bytes: 1 << 20 });
    for part in parts {
        p.feed(part).map_err(|e| e.to_string())?;
    }
    let profile = p.finish().map_err(|e| e.to_string())?;
    profile.validate().expect("valid model");
    let sum: u64 = profile.events.iter().map(|e| e.total).sum();
    assert_eq!(sum, profile.total(), "the events' totals add up to the total");
    Ok(scorch_core::export::to_folded(&profile))
}

fuzz_target!(|data: &[u8]| {
    let _ = JfrFormat.is_applicable(data, true);
    let _ = JfrFormat.is_applicable(data, false);
    let cut = data.first().map_or(0, |&b| (b as usize * 7919) % (data.len() + 1));
    let (a, b) = data.split_at(cut);
    assert_eq!(run(&[data]), run(&[a, b]), "the outcome depends on chunking");
});
