//! Demangling (`import::perfdata::demangle`) against libiberty's `cplus_demangle(name, DMGL_NO_OPTS)`, the call
//! perf 6.1 makes without libbfd (tests/data/demangle/, README there): every one of 5,057 names (libstdc++'s
//! dynamic symbols, the C++ and Rust test programs' symbols: C++, Rust legacy and v0) is named exactly as perf
//! names it. Of a sample of 765 names of LLVM 14 and Boost (template-heavy C++), cpp_demangle spells a few
//! differently (a function type's return type ending in `>` without libiberty's space, local names inside
//! template arguments, a substitution bug): they are counted, and must stay rare. C++ needs the `cpp-demangle`
//! feature, which the CLI turns on (`cargo test -p scorch-core -p scorch-cli`, as scripts/test.sh runs it).
#![cfg(feature = "cpp-demangle")]

use flate2::read::GzDecoder;
use scorch_core::import::perfdata::demangle::demangle;
use std::io::Read;

fn pairs(file: &str) -> Vec<(String, String)> {
    let path = format!("{}/tests/data/demangle/{file}", env!("CARGO_MANIFEST_DIR"));
    let mut text = String::new();
    GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text.lines()
        .map(|l| {
            let (name, want) = l.split_once('\t').unwrap();
            (name.to_string(), want.to_string())
        })
        .collect()
}

#[test]
fn every_name_is_demangled_as_perf_prints_it() {
    let pairs = pairs("names.tsv.gz");
    assert_eq!(pairs.len(), 5057);
    let wrong: Vec<String> = pairs
        .iter()
        .filter(|(name, want)| demangle(name) != *want)
        .map(|(name, want)| format!("{name}\n  perf: {want}\n  ours: {}", demangle(name)))
        .collect();
    assert!(wrong.is_empty(), "{} differ:\n{}", wrong.len(), wrong.join("\n"));
    // Each kind is there: C++, Rust legacy, Rust v0, a clone suffix, a thunk.
    for (name, want) in [
        ("_ZN4work3AccIlEpLERKS1_.isra.0", "work::Acc<long>::operator+="),
        ("_ZN2rs12generic_burn17h014be38341635ef2E", "rs::generic_burn"),
        (
            "_RNvMs_CsbFYJioi4cCO_2rsINtB4_3AccdE8add_manyB4_",
            "<rs::Acc<f64>>::add_many",
        ),
    ] {
        assert!(pairs.iter().any(|(n, w)| n == name && w == want), "{name}");
    }
    assert!(pairs
        .iter()
        .any(|(n, w)| n.starts_with("_ZTh") && w.starts_with("non-virtual thunk to ")));
}

#[test]
fn template_heavy_names_rarely_differ() {
    let pairs = pairs("llvm.tsv.gz");
    assert_eq!(pairs.len(), 765);
    let wrong = pairs
        .iter()
        .filter(|(name, want)| demangle(name) != *want)
        .count();
    // 51 of 765 (6.7 %) on 27 Nov 2026.
    assert!(wrong <= 51, "{wrong} of {} differ", pairs.len());
}
