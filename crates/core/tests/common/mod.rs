//! Helpers shared by the importer test files (`mod common;`): the recorded data, whole and chunked loads, gzip,
//! and what a load must keep whatever the chunking.
#![allow(dead_code)] // each test file uses its own subset

use scorch_core::export::to_folded;
use scorch_core::{import_bytes, Format, ImportError, ImportOptions, Loader, Profile};
use std::io::Write;

/// A file of `tests/data/DIR/`.
pub fn data(dir: &str, name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{dir}/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

pub fn load(bytes: &[u8]) -> Result<Profile, ImportError> {
    import_bytes(bytes, ImportOptions::default()).map(|i| i.profile)
}

/// The profile read in chunks of `size` bytes.
pub fn chunked(bytes: &[u8], size: usize) -> Profile {
    let mut l = Loader::new(ImportOptions::default());
    for c in bytes.chunks(size) {
        l.feed(c).unwrap();
    }
    l.finish().unwrap().profile
}

pub fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// What must not change with chunking: the folded stacks with their weights, and every sample's time.
pub fn fingerprint(p: &Profile) -> (String, Option<Vec<u64>>, u64) {
    (to_folded(p), p.samples.time_ns.clone(), p.total())
}

/// `tests/data/DIR/NAME` read whole, in chunks of 1, 7 and 4096 bytes and gzip'd: the same profile (by its
/// [`fingerprint`]), valid and of `format`. Returns the whole read.
pub fn same_however_cut(dir: &str, name: &str, format: Format) -> Profile {
    let bytes = data(dir, name);
    let whole = load(&bytes).unwrap();
    whole.validate().unwrap();
    assert_eq!(whole.meta.format, format, "{name}");
    let want = fingerprint(&whole);
    for size in [1, 7, 4096] {
        assert_eq!(
            fingerprint(&chunked(&bytes, size)),
            want,
            "{name} in chunks of {size}"
        );
    }
    let z = import_bytes(&gz(&bytes), ImportOptions::default()).unwrap();
    assert!(z.gzip);
    assert_eq!(fingerprint(&z.profile), want, "{name} gzip'd");
    whole
}

fn varint(b: &[u8], i: &mut usize) -> u64 {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let x = b[*i];
        *i += 1;
        v |= u64::from(x & 0x7f) << shift;
        if x & 0x80 == 0 {
            break;
        }
    }
    v
}

/// A varint field of the top-level `Profile` message of a gzip'd pprof file, read here without scorch (an
/// independent oracle): 9 is `time_nanos`, 10 `duration_nanos`.
pub fn pprof_top_varint(gz: &[u8], field: u64) -> u64 {
    use std::io::Read;
    let mut b = Vec::new();
    flate2::read::GzDecoder::new(gz).read_to_end(&mut b).unwrap();
    let (mut i, mut found) = (0, None);
    while i < b.len() {
        let key = varint(&b, &mut i);
        match key & 7 {
            0 => {
                let v = varint(&b, &mut i);
                if key >> 3 == field {
                    found = Some(v);
                }
            }
            1 => i += 8,
            2 => {
                let n = varint(&b, &mut i) as usize;
                i += n;
            }
            5 => i += 4,
            w => panic!("wire type {w}"),
        }
    }
    found.unwrap_or_else(|| panic!("field {field}"))
}
