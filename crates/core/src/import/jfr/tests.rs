//! The JFR reader on the recording made here (`crates/cli/tests/data/jfr/PROVENANCE.md`; the CLI test compares
//! it with `jfr print`) and on hostile versions of it: cut anywhere, bytes changed, sizes and counts that lie.
//! Each gives a profile or a typed error at an offset inside the input, never a panic.

use super::chunk::HEADER;
use super::read;
use crate::model::ImportErrorKind;

const HOT: &[u8] = include_bytes!("../../../../cli/tests/data/jfr/hot.jfr");

fn be64(data: &mut [u8], at: usize, v: i64) {
    data[at..at + 8].copy_from_slice(&v.to_be_bytes());
}

#[test]
fn the_recording_has_its_events_threads_and_times() {
    let p = read(HOT).unwrap();
    p.validate().unwrap();
    let names: Vec<&str> = p.events.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["samples", "allocation", "monitor enter", "thread park"]);
    let threads: Vec<&str> = (0..p.threads.len())
        .map(|i| p.strings.get(p.threads.comm[i]))
        .collect();
    for t in ["main", "locker-a", "locker-b", "waiter"] {
        assert!(threads.contains(&t), "{threads:?}");
    }
    // Times: nanoseconds since the epoch, inside the chunk's own start and duration (the header's longs).
    let long = |at: usize| i64::from_be_bytes(HOT[at..at + 8].try_into().unwrap()) as u64;
    let (start, dur) = (long(32), long(40));
    let times = p.samples.time_ns.as_ref().unwrap();
    assert!(
        times.iter().all(|&t| t >= start && t <= start + dur),
        "{start} {dur}"
    );
    assert!(start > 1_600_000_000_000_000_000, "{start}");
}

#[test]
fn every_cut_is_an_error_never_a_panic() {
    // The header byte by byte, then every 997th length.
    let cuts = (0..HEADER + 8).chain((HEADER..HOT.len()).step_by(997));
    for n in cuts {
        let e = read(&HOT[..n]).unwrap_err();
        assert!(e.offset <= HOT.len() as u64, "{n}: {e}");
    }
}

#[test]
fn changed_bytes_give_a_profile_or_a_typed_error() {
    // A fixed pseudo-random walk over the file: each step changes one byte (2,000 variants).
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut data = HOT.to_vec();
        let at = (x % data.len() as u64) as usize;
        data[at] = (x >> 32) as u8;
        match read(&data) {
            Ok(p) => p.validate().unwrap(),
            Err(e) => assert!(e.offset <= data.len() as u64, "byte {at}: {e}"),
        }
    }
}

#[test]
fn lying_header_fields_are_typed_errors() {
    let mut big = HOT.to_vec();
    be64(&mut big, 8, i64::MAX);
    let e = read(&big).unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::Malformed, "{e}");
    assert_eq!(e.offset, 8, "{e}");
    let mut small = HOT.to_vec();
    be64(&mut small, 8, 3);
    assert_eq!(read(&small).unwrap_err().offset, 8);
    let mut ticks = HOT.to_vec();
    be64(&mut ticks, 56, 0);
    let e = read(&ticks).unwrap_err();
    assert_eq!(e.offset, 56, "{e}");
    let mut version = HOT.to_vec();
    version[5] = 9;
    assert!(read(&version).unwrap_err().message.contains("version"));
    // Bytes after the last chunk that are not a chunk.
    let mut tail = HOT.to_vec();
    tail.extend_from_slice(b"garbage");
    assert_eq!(read(&tail).unwrap_err().offset, HOT.len() as u64);
    assert_eq!(read(b"").unwrap_err().kind, ImportErrorKind::Empty);
}

#[test]
fn an_event_of_size_zero_is_an_error_at_its_offset_not_a_loop() {
    // The first event after the header: its size (a compressed int) set to 0.
    let mut data = HOT.to_vec();
    data[HEADER] = 0;
    let e = read(&data).unwrap_err();
    assert_eq!(e.offset, HEADER as u64, "{e}");
}
