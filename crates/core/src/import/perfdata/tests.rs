//! Table tests of the perf.data reader on small recordings built here byte by byte: both byte orders, pipe
//! mode, and hostile inputs (truncated, mis-sized records, huge headers) that must give typed errors with
//! their byte offsets, never a panic.

use super::{read, recorded_kernel, symbolize, Binary, RecordedKernel, Symbolizer};
use crate::model::{FrameKind, ImportErrorKind, Profile, WarningKind};

const IP: u64 = 1;
const TID: u64 = 2;
const TIME: u64 = 4;
const CALLCHAIN: u64 = 32;
const PERIOD: u64 = 256;
const SAMPLE_TYPE: u64 = IP | TID | TIME | CALLCHAIN | PERIOD;

/// Bytes in one byte order.
struct W {
    big: bool,
    b: Vec<u8>,
}

impl W {
    fn new(big: bool) -> W {
        W { big, b: Vec::new() }
    }
    fn u16(&mut self, v: u16) -> &mut W {
        let x = if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.b.extend_from_slice(&x);
        self
    }
    fn u32(&mut self, v: u32) -> &mut W {
        let x = if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.b.extend_from_slice(&x);
        self
    }
    fn u64(&mut self, v: u64) -> &mut W {
        let x = if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.b.extend_from_slice(&x);
        self
    }
    fn bytes(&mut self, v: &[u8]) -> &mut W {
        self.b.extend_from_slice(v);
        self
    }
    /// A record: header, then `body`, padded to 8 bytes.
    fn record(&mut self, kind: u32, misc: u16, body: &[u8]) -> &mut W {
        let size = (8 + body.len()).div_ceil(8) * 8;
        self.u32(kind).u16(misc).u16(size as u16).bytes(body);
        self.b.resize(self.b.len() + size - 8 - body.len(), 0);
        self
    }
}

/// A 64-byte `perf_event_attr`: software cpu-clock with `sample_type`, `sample_id_all` off.
fn attr(big: bool, sample_type: u64) -> Vec<u8> {
    let mut w = W::new(big);
    w.u32(1).u32(64).u64(0).u64(4000).u64(sample_type).u64(0).u64(0);
    w.b.resize(64, 0);
    w.b
}

fn records(big: bool) -> Vec<u8> {
    let body = |f: &dyn Fn(&mut W)| {
        let mut w = W::new(big);
        f(&mut w);
        w.b
    };
    let mut w = W::new(big);
    // COMM: pid 7, tid 7, "prog".
    w.record(
        3,
        0,
        &body(&|w| {
            w.u32(7).u32(7).bytes(b"prog\0\0\0\0");
        }),
    );
    // MMAP: pid 7, [0x1000, 0x2000) of /bin/prog at file offset 0x100.
    w.record(
        1,
        2,
        &body(&|w| {
            w.u32(7)
                .u32(7)
                .u64(0x1000)
                .u64(0x1000)
                .u64(0x100)
                .bytes(b"/bin/prog\0\0\0\0\0\0\0");
        }),
    );
    // Two samples: leaf 0x1010 called from 0x1020 (user context), at t = 2 s then 1 s (out of order).
    for (t, period) in [(2_000_000_000u64, 250u64), (1_000_000_000, 750)] {
        w.record(
            9,
            2,
            &body(&|w| {
                w.u64(0x1010).u32(7).u32(7).u64(t).u64(period);
                w.u64(3).u64(0u64.wrapping_sub(512)).u64(0x1010).u64(0x1020);
            }),
        );
    }
    w.b
}

/// A file-mode recording with one event and the records of [`records`].
fn file(big: bool, recs: &[u8]) -> Vec<u8> {
    let attr = attr(big, SAMPLE_TYPE);
    let attrs_at = 104u64;
    let data_at = attrs_at + 80;
    let mut w = W::new(big);
    w.bytes(if big { b"2ELIFREP" } else { b"PERFILE2" });
    w.u64(104).u64(80);
    w.u64(attrs_at).u64(80); // attrs
    w.u64(data_at).u64(recs.len() as u64); // data
    w.u64(0).u64(0); // event types
    w.u64(0).u64(0).u64(0).u64(0); // feature bits
    w.bytes(&attr).u64(0).u64(0); // the attr and its (empty) ids section
    assert_eq!(w.b.len() as u64, data_at);
    w.bytes(recs);
    w.b
}

fn folded(p: &Profile) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = (0..p.samples.len())
        .map(|i| {
            let frames = p.stack_frames(p.samples.stack[i]);
            let names: Vec<&str> = frames.iter().map(|&f| p.frame_name(f)).collect();
            (names.join(";"), p.samples.weight[i])
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_small_recording_reads_in_both_byte_orders() {
    for big in [false, true] {
        let p = read(&file(big, &records(big)), 10).unwrap();
        p.validate().unwrap();
        assert_eq!(p.total(), 1000);
        assert_eq!(p.meta.records, 2);
        assert_eq!(p.events[0].name, "cpu-clock");
        assert_eq!(p.events[0].unit, crate::model::Unit::Nanoseconds);
        // User addresses are file offsets in their module: 0x1010 − 0x1000 + 0x100.
        assert_eq!(
            folded(&p),
            vec![
                ("prog+0x120;prog+0x110".to_string(), 250),
                ("prog+0x120;prog+0x110".to_string(), 750)
            ]
        );
        // Replayed in time order.
        assert_eq!(
            p.samples.time_ns.as_deref(),
            Some(&[1_000_000_000, 2_000_000_000][..])
        );
        assert_eq!(p.strings.get(p.threads.comm[0]), "prog");
        assert_eq!(p.threads.tid[0], 7);
        assert!(p.meta.info.iter().any(|(k, v)| k == "binary" && v == "/bin/prog"));
    }
}

#[test]
fn pipe_mode_takes_its_attributes_from_records() {
    let big = false;
    let mut w = W::new(big);
    w.bytes(b"PERFILE2").u64(16);
    let mut a = attr(big, SAMPLE_TYPE);
    a.extend_from_slice(&42u64.to_le_bytes()); // its id
    w.record(64, 0, &a);
    w.bytes(&records(big));
    let p = read(&w.b, 10).unwrap();
    assert_eq!(p.total(), 1000);
    assert_eq!(folded(&p)[0].0, "prog+0x120;prog+0x110");
}

#[test]
fn an_address_in_no_mapping_is_unknown_and_counted() {
    let mut recs = W::new(false);
    recs.record(9, 2, &{
        let mut w = W::new(false);
        w.u64(0x9000).u32(7).u32(7).u64(5).u64(1).u64(1).u64(0x9000);
        w.b
    });
    let p = read(&file(false, &recs.b), 10).unwrap();
    assert_eq!(folded(&p), vec![("[unknown]".to_string(), 1)]);
    assert_eq!(p.strings.get(p.threads.comm[0]), ":7");
    let kinds = &p.meta.warnings.kinds;
    assert!(kinds
        .iter()
        .any(|k| k.kind == WarningKind::UnmappedAddress && k.count == 1));
}

#[test]
fn every_truncation_is_an_error_or_a_profile_never_a_panic() {
    let data = file(false, &records(false));
    for n in 0..data.len() {
        match read(&data[..n], 10) {
            Ok(p) => p.validate().unwrap(),
            Err(e) => assert!(e.offset <= data.len() as u64, "{n}: {e}"),
        }
    }
}

#[test]
fn a_record_of_size_zero_is_an_error_at_its_offset_not_a_loop() {
    let mut recs = records(false);
    recs[6] = 0;
    recs[7] = 0;
    let e = read(&file(false, &recs), 10).unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::Malformed);
    assert_eq!(e.offset, 184);
    assert!(e.message.contains("a record of 0 bytes"), "{e}");
}

#[test]
fn a_record_past_the_end_of_the_data_is_an_error_at_its_offset() {
    let mut data = file(false, &records(false));
    // The first record (at the data's start, byte 184) claims 32,767 bytes.
    data[184 + 6] = 0xff;
    data[184 + 7] = 0x7f;
    let e = read(&data, 10).unwrap_err();
    assert_eq!(e.offset, 184);
    assert!(e.message.contains("runs past the end"), "{e}");
}

#[test]
fn huge_headers_and_sections_are_errors_with_offsets() {
    let good = file(false, &records(false));
    // The header's size.
    let mut d = good.clone();
    d[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
    let e = read(&d, 10).unwrap_err();
    assert_eq!((e.kind.clone(), e.offset), (ImportErrorKind::Malformed, 8));
    // The data section's size.
    let mut d = good.clone();
    d[48..56].copy_from_slice(&(u64::MAX - 10).to_le_bytes());
    let e = read(&d, 10).unwrap_err();
    assert_eq!(e.offset, 40);
    // The attribute entry's size.
    let mut d = good.clone();
    d[16..24].copy_from_slice(&(1u64 << 40).to_le_bytes());
    assert_eq!(read(&d, 10).unwrap_err().offset, 16);
    // A tracing-data record whose payload claims 4 GiB.
    let mut w = W::new(false);
    w.bytes(b"PERFILE2")
        .u64(16)
        .record(66, 0, &[0xff, 0xff, 0xff, 0xff]);
    let e = read(&w.b, 10).unwrap_err();
    assert_eq!(e.offset, 16);
    // No samples at all.
    let e = read(&file(false, &[]), 10).unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::Empty);
    // Not perf.data.
    assert_eq!(read(b"PERFILE3xxxxxxxx", 10).unwrap_err().offset, 0);
}

#[test]
fn a_callchain_longer_than_its_record_is_skipped_and_counted() {
    let mut recs = W::new(false);
    recs.record(9, 2, &{
        let mut w = W::new(false);
        w.u64(0x1010)
            .u32(7)
            .u32(7)
            .u64(5)
            .u64(1)
            .u64(u64::MAX / 4)
            .u64(0x1010);
        w.b
    });
    recs.bytes(&records(false));
    let p = read(&file(false, &recs.b), 10).unwrap();
    assert_eq!(p.meta.records, 2);
    assert!(p
        .meta
        .warnings
        .kinds
        .iter()
        .any(|k| k.kind == WarningKind::MalformedRecord));
}

struct Fake;

impl Symbolizer for Fake {
    fn symbolize(&mut self, b: &Binary, address: u64) -> Option<String> {
        assert_eq!((b.path.as_str(), b.name.as_str()), ("/bin/prog", "prog"));
        (address == 0x120).then(|| "main".to_string())
    }
}

#[test]
fn symbolizing_renames_frames_and_names_the_unresolved_by_their_binary() {
    let p = read(&file(false, &records(false)), 10).unwrap();
    let s = symbolize(&p, &mut Fake);
    s.validate().unwrap();
    assert_eq!(s.total(), p.total());
    assert_eq!(folded(&s)[0].0, "main;[prog]");
    assert!(s.frames.kind.contains(&FrameKind::User));
}

#[test]
fn the_kernel_mmap_record_says_where_the_kernel_was_loaded() {
    for big in [false, true] {
        // MMAP of the kernel (cpumode kernel, pid -1): `[kernel.kallsyms]_text`, pgoff = `_text`'s address.
        let mut w = W::new(big);
        let mut body = W::new(big);
        body.u32(u32::MAX)
            .u32(0)
            .u64(0xffff_ffff_8100_0000)
            .u64(0x120_9988)
            .u64(0xffff_ffff_8100_0000)
            .bytes(b"[kernel.kallsyms]_text\0\0");
        w.record(1, 1, &body.b);
        w.bytes(&records(big));
        let p = read(&file(big, &w.b), 10).unwrap();
        assert_eq!(
            recorded_kernel(&p),
            RecordedKernel {
                build_id: None,
                os_release: None,
                text: Some(("_text".to_string(), 0xffff_ffff_8100_0000)),
            }
        );
        // No kernel record: nothing said.
        let p = read(&file(big, &records(big)), 10).unwrap();
        assert_eq!(recorded_kernel(&p), RecordedKernel::default());
    }
}

/// A pipe-mode recording of `sched:sched_switch` (a tracepoint attribute named by `EVENT_UPDATE`, raw
/// payloads): thread 7 switches out to 8 at 1 s and back in at 3 s, and a third switch's payload is cut short.
/// `format`: the tracing data's format text (none: the kernel's layout is assumed); `next_pid_at`: where the
/// payloads hold `next_pid`.
fn switches(format: Option<&str>, next_pid_at: usize) -> Profile {
    let mut w = W::new(false);
    w.bytes(b"PERFILE2").u64(16);
    let mut a = attr(false, IP | TID | TIME | PERIOD | super::header::st::RAW);
    a[0..4].copy_from_slice(&2u32.to_le_bytes()); // PERF_TYPE_TRACEPOINT
    a.extend_from_slice(&42u64.to_le_bytes());
    w.record(64, 0, &a);
    let mut name = W::new(false);
    name.u64(2).u64(42).bytes(b"sched:sched_switch\0");
    w.record(78, 0, &name.b);
    if let Some(text) = format {
        let mut data = text.as_bytes().to_vec();
        data.resize(data.len().div_ceil(8) * 8, 0);
        w.record(66, 0, &(data.len() as u32).to_le_bytes());
        w.bytes(&data);
    }
    let payload = |prev: i32, state: u64, next: i32| {
        let mut raw = vec![0u8; 64];
        raw[24..28].copy_from_slice(&prev.to_le_bytes());
        raw[32..40].copy_from_slice(&state.to_le_bytes());
        raw[next_pid_at..next_pid_at + 4].copy_from_slice(&next.to_le_bytes());
        raw
    };
    for (t, tid, raw) in [
        (1_000_000_000u64, 7, payload(7, 1, 8)),
        (3_000_000_000, 8, payload(8, 0, 7)),
        (4_000_000_000, 7, payload(7, 1, 8)[..20].to_vec()),
    ] {
        let mut s = W::new(false);
        s.u64(0x1010).u32(tid).u32(tid).u64(t).u64(1);
        s.u32(raw.len() as u32).bytes(&raw);
        w.record(9, 1, &s.b);
    }
    crate::import::perf::derive_offcpu(read(&w.b, 10).unwrap())
}

#[test]
fn sched_switch_payloads_give_off_cpu_time_through_the_format_text_or_the_assumed_layout() {
    let offcpu = |p: &Profile| {
        let e = p.events.iter().position(|e| e.name.starts_with("off-CPU"));
        let e = e.unwrap_or_else(|| panic!("no off-CPU event: {:?}", p.meta.info)) as u16;
        (0..p.samples.len())
            .filter(|&i| p.samples.event.as_ref().is_some_and(|ev| ev[i] == e))
            .map(|i| p.samples.weight[i])
            .collect::<Vec<_>>()
    };
    let fact = |p: &Profile| p.meta.info.iter().any(|(k, _)| k == super::SCHED_SWITCH_INFO);
    let unread = |p: &Profile| {
        p.meta
            .warnings
            .kinds
            .iter()
            .any(|k| k.kind == WarningKind::MalformedRecord && k.count == 1)
    };
    // No tracing data: the kernel's layout, said in the facts; the short payload counted.
    let p = switches(None, 56);
    assert_eq!(offcpu(&p), vec![2_000_000_000]);
    assert!(fact(&p) && unread(&p), "{:?}", p.meta);
    // `next_pid` where only the format text says (60): read there, nothing assumed.
    let format = "name: sched_switch\nID: 316\nformat:\n\
        \tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n\
        \tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n\
        \tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n\
        \tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n\
        \tfield:pid_t next_pid;\toffset:60;\tsize:4;\tsigned:1;\n\n\
        print fmt: \"…\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }\n";
    let p = switches(Some(format), 60);
    assert_eq!(offcpu(&p), vec![2_000_000_000]);
    assert!(!fact(&p) && unread(&p), "{:?}", p.meta);
}

/// Names an address's inlined functions after the address and whether it was asked as a call's return address.
struct Inlines;

impl Symbolizer for Inlines {
    fn symbolize(&mut self, _b: &Binary, address: u64) -> Option<String> {
        Some(format!("f{address:x}"))
    }

    fn inlined(&mut self, _b: &Binary, address: u64, call: bool) -> Vec<String> {
        let how = if call { "call" } else { "at" };
        // Innermost first.
        vec![format!("in{address:x}_{how}"), format!("out{address:x}_{how}")]
    }
}

#[test]
fn inlined_frames_go_under_their_function_a_return_address_asked_as_a_call() {
    use crate::model::{ProfileBuilder, Unit, Warnings};
    let mut b = ProfileBuilder::new(crate::model::Format::PerfData);
    b.add_info(super::BINARY_INFO, "/bin/prog".to_string());
    b.add_info(super::BINARY_INFO, super::KERNEL_MODULE.to_string());
    let outer = b.frame("prog+0x10", FrameKind::User);
    let leaf = b.frame("prog+0x20", FrameKind::User);
    let kernel = b.frame("[kernel.kallsyms]+0x1", FrameKind::Kernel);
    let s1 = b.stack(None, outer);
    let s2 = b.stack(Some(s1), leaf);
    let s3 = b.stack(Some(s2), kernel);
    // A user leaf; the same path into the kernel; the outer frame alone as a leaf.
    for s in [s2, s3, s1] {
        b.push_sample(s, 1, 0).unwrap();
    }
    // A path 100,000 frames deep: no recursion.
    let mut deep = b.stack(None, outer);
    for _ in 0..100_000 {
        deep = b.stack(Some(deep), leaf);
    }
    b.push_sample(deep, 1, 0).unwrap();
    let p = b.build(Unit::Samples, 0, 4, Warnings::default());
    let s = symbolize(&super::expand_inlined(&p, &mut Inlines), &mut Inlines);
    s.validate().unwrap();
    assert_eq!(s.total(), p.total());
    let got = folded(&s);
    let f10_call = "f10;out10_call;in10_call";
    let want = [
        // The leaf's address as it is, the kernel's entry point as it is, the caller's as a call.
        format!("{f10_call};f20;out20_at;in20_at"),
        format!("{f10_call};f20;out20_at;in20_at;f1"),
        "f10;out10_at;in10_at".to_string(),
    ];
    for w in &want {
        assert!(got.iter().any(|(stack, n)| stack == w && *n == 1), "{w}: {got:?}");
    }
    let deepest = got
        .iter()
        .map(|(stack, _)| stack.matches(';').count())
        .max()
        .unwrap();
    assert_eq!(deepest + 1, 3 * 100_001);
    assert!(s.frames.kind.contains(&FrameKind::Inline));
}
