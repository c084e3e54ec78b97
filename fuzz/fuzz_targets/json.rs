//! Bytes into the JSON importers (V8 `.cpuprofile`, Chrome trace, speedscope, Firefox Profiler) and bpftrace's
//! stack maps, and all their sniffers: an error or a valid profile, the same whether the input comes whole or
//! in two pieces cut anywhere (the trace and bpftrace stream; the others hold the input).
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::import::bpftrace::{BpftraceFormat, BpftraceOptions, BpftraceParser};
use scorch_core::import::gecko::{GeckoFormat, GeckoOptions, GeckoParser};
use scorch_core::import::speedscope::{SpeedscopeFormat, SpeedscopeOptions, SpeedscopeParser};
use scorch_core::import::v8::{ChromeTraceFormat, CpuProfileFormat, CpuProfileParser, TraceParser, V8Options};
use scorch_core::import::Importer;

type Outcome = Result<(String, Option<Vec<u64>>), String>;

fn outcome(r: Result<scorch_core::Profile, scorch_core::ImportError>) -> Outcome {
    match r {
        Ok(p) => {
            p.validate().expect("valid model");
            Ok((scorch_core::export::to_folded(&p), p.samples.time_ns.clone()))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Feeds `parts` to a parser made by `new` and returns its outcome.
macro_rules! run {
    ($new:expr, $parts:expr) => {{
        let mut p = $new;
        let mut r: Outcome = Err(String::new());
        let mut ok = true;
        for part in $parts {
            if let Err(e) = p.feed(part) {
                r = Err(e.to_string());
                ok = false;
                break;
            }
        }
        if ok {
            r = outcome(p.finish());
        }
        r
    }};
}

fuzz_target!(|data: &[u8]| {
    let _ = CpuProfileFormat.is_applicable(data, true);
    let _ = ChromeTraceFormat.is_applicable(data, false);
    let _ = SpeedscopeFormat.is_applicable(data, true);
    let _ = GeckoFormat.is_applicable(data, false);
    let _ = BpftraceFormat.is_applicable(data, true);
    let opts = V8Options { max_bytes: 1 << 20 };
    let cut = data.first().map_or(0, |&b| (b as usize * 7919) % (data.len() + 1));
    let (a, b) = data.split_at(cut);
    let whole: &[&[u8]] = &[data];
    let halves: &[&[u8]] = &[a, b];
    assert_eq!(
        run!(TraceParser::new(&opts), whole),
        run!(TraceParser::new(&opts), halves),
        "the trace's outcome depends on chunking"
    );
    let bo = BpftraceOptions { max_line: 1 << 20, ..Default::default() };
    assert_eq!(
        run!(BpftraceParser::new(&bo), whole),
        run!(BpftraceParser::new(&bo), halves),
        "bpftrace's outcome depends on chunking"
    );
    let so = SpeedscopeOptions { max_bytes: 1 << 20 };
    assert_eq!(
        run!(SpeedscopeParser::new(&so), whole),
        run!(SpeedscopeParser::new(&so), halves),
        "speedscope's outcome depends on chunking"
    );
    let go = GeckoOptions { max_bytes: 1 << 20 };
    let _ = run!(GeckoParser::new(&go), whole);
    let _ = run!(CpuProfileParser::new(&opts), whole);
});
