//! JSON bytes into both V8 importers (`.cpuprofile`, Chrome trace) and their sniffers: an error or a valid
//! profile, the same whether the input comes whole or in two pieces cut anywhere (the trace streams).
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::import::v8::{ChromeTraceFormat, CpuProfileFormat, CpuProfileParser, TraceParser, V8Options};
use scorch_core::import::Importer;

fn outcome(r: Result<scorch_core::Profile, scorch_core::ImportError>) -> Result<(String, Option<Vec<u64>>), String> {
    match r {
        Ok(p) => {
            p.validate().expect("valid model");
            Ok((scorch_core::export::to_folded(&p), p.samples.time_ns.clone()))
        }
        Err(e) => Err(e.to_string()),
    }
}

fuzz_target!(|data: &[u8]| {
    let _ = CpuProfileFormat.is_applicable(data, true);
    let _ = ChromeTraceFormat.is_applicable(data, false);
    let opts = V8Options { max_bytes: 1 << 20 };
    let cut = data.first().map_or(0, |&b| (b as usize * 7919) % (data.len() + 1));
    let (a, b) = data.split_at(cut);
    let trace = |parts: &[&[u8]]| {
        let mut p = TraceParser::new(&opts);
        for part in parts {
            p.feed(part).map_err(|e| e.to_string())?;
        }
        outcome(p.finish())
    };
    assert_eq!(trace(&[data]), trace(&[a, b]), "the trace's outcome depends on chunking");
    let mut c = CpuProfileParser::new(&opts);
    if c.feed(data).is_ok() {
        let _ = outcome(c.finish());
    }
});
