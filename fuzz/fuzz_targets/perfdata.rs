//! perf.data bytes: an error or a valid profile, and a valid profile again once its frames are symbolized
//! (by a symbolizer that names every other address with a name cut from the input, so the demangler reads
//! hostile names too) and once inlined frames are added (a few per address, some mangled).
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::import::perfdata::{
    expand_inlined, symbolize, Binary, PerfDataOptions, PerfDataParser, Symbolizer,
};

struct EveryOther<'a>(&'a [u8]);

impl EveryOther<'_> {
    /// Up to 64 bytes of the input from a place the address picks, as a name.
    fn name(&self, address: u64) -> String {
        let at = (address as usize) % self.0.len().max(1);
        let end = (at + 1 + (address as usize) % 64).min(self.0.len());
        format!("_Z{}", String::from_utf8_lossy(self.0.get(at..end).unwrap_or_default()))
    }
}

impl Symbolizer for EveryOther<'_> {
    fn symbolize(&mut self, b: &Binary, address: u64) -> Option<String> {
        (address % 2 == 0).then(|| match address % 3 {
            0 => self.name(address),
            _ => format!("f{}", address % 7 + b.name.len() as u64),
        })
    }

    fn inlined(&mut self, _b: &Binary, address: u64, call: bool) -> Vec<String> {
        let n = (address % 4) as usize + usize::from(call);
        (0..n).map(|i| self.name(address.wrapping_add(i as u64))).collect()
    }
}

fuzz_target!(|data: &[u8]| {
    let mut p = PerfDataParser::new(&PerfDataOptions { max_bytes: 1 << 20, keep_warnings: None });
    if p.feed(data).is_err() {
        return;
    }
    if let Ok(profile) = p.finish() {
        profile.validate().expect("valid model");
        let s = symbolize(&profile, &mut EveryOther(data));
        s.validate().expect("valid model after symbolizing");
        assert_eq!(s.total(), profile.total());
        let v = scorch_core::ViewOptions::default_for(&s);
        let _ = scorch_core::analysis::top::top(&s, &v);
        let i = symbolize(&expand_inlined(&profile, &mut EveryOther(data)), &mut EveryOther(data));
        i.validate().expect("valid model after adding inlined frames");
        assert_eq!(i.total(), profile.total());
    }
});
