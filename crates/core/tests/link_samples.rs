//! A link that carries timestamps comes back with the linked profile's sample count, not its number of stack
//! lines (issue #40, item 7c).

mod common;

use common::{data, load};
use scorch_core::export::links;
use scorch_core::{import_bytes, ImportOptions, ViewOptions};

#[test]
fn a_timed_link_counts_samples() {
    let bytes = data("perf-made", "periodic.txt");
    // Counted here: perf script's samples are its unindented, non-blank lines.
    let text = String::from_utf8_lossy(&bytes);
    let samples = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(char::is_whitespace) && !l.starts_with('#'))
        .count() as u64;
    assert_eq!(samples, 1113, "README: 1,113 cpu-clock samples");

    let p = load(&bytes).unwrap();
    let v = ViewOptions::default_for(&p);
    let shared = links::encode_timed(&p, &v, links::DEFAULT_MAX).unwrap();
    let q = import_bytes(&links::decode(&shared.payload).unwrap(), ImportOptions::default())
        .unwrap()
        .profile;
    assert_eq!(q.meta.records, samples);
    assert_eq!(q.record_noun(), "samples");
    assert_eq!(q.samples.time_ns.as_ref().map(Vec::len), Some(samples as usize));

    // A link without timestamps holds stack lines, and says so.
    let flat = links::encode(&p, &v, links::DEFAULT_MAX);
    let f = import_bytes(&links::decode(&flat.payload).unwrap(), ImportOptions::default())
        .unwrap()
        .profile;
    assert_eq!(f.record_noun(), "stack lines");
    assert_eq!(
        f.meta.records,
        scorch_core::export::to_folded(&f).lines().count() as u64
    );
}
