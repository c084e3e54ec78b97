use super::frame::parse_frame;
use super::frame::FrameLine;
use super::header::{parse_header, parse_time_ns};
use super::names::{fix_rust_symbol, inferno_names, scorch_names, tidy_generic};
use super::InfernoFlags;
use crate::import::kind::{is_jit_dso, is_kernel_dso};

#[test]
fn headers() {
    let h = parse_header(b"V8 WorkerThread 24636/25607 [000] 94564.109216: cycles:").unwrap();
    assert_eq!(
        (h.comm, h.pid, h.tid, h.cpu),
        (&b"V8 WorkerThread"[..], Some(24636), 25607, Some(0))
    );
    assert_eq!(
        (h.time_ns, h.period, h.event),
        (Some(94_564_109_216_000), None, &b"cycles"[..])
    );
    let h = parse_header(b"vote   913    72.176760:     257597 cycles:uppp:").unwrap();
    // The event keeps its modifiers (perf prints `cycles:uppp`); the base name drops them.
    assert_eq!(
        (h.pid, h.tid, h.period, h.event, h.base),
        (None, 913, Some(257597), &b"cycles:uppp"[..], &b"cycles"[..])
    );
    assert!(!h.tracepoint);
    let h = parse_header(b"func_ab 15294 cpu-clock: ").unwrap();
    assert_eq!((h.time_ns, h.event), (None, &b"cpu-clock"[..]));
    let h = parse_header(b"Gecko\t25122 [007] 115539.936601:\t\t1000000 task-clock:u:").unwrap();
    assert_eq!(
        (h.comm, h.cpu, h.period, h.event, h.base),
        (
            &b"Gecko"[..],
            Some(7),
            Some(1_000_000),
            &b"task-clock:u"[..],
            &b"task-clock"[..]
        )
    );
    let h = parse_header(
        b"perf 12 [000] 5.000000: sched:sched_switch: prev_comm=perf prev_pid=12 ==> next_comm=x",
    )
    .unwrap();
    assert!(h.tracepoint);
    assert_eq!(h.event, b"sched:sched_switch");
    assert_eq!(h.base, b"sched:sched_switch");
    let h = parse_header(
        b"   false 39654 19115.489713:          1 cycles:u:  ffffffff9b201293 [unknown] ([unknown])",
    )
    .unwrap();
    assert_eq!(h.rest, b"ffffffff9b201293 [unknown] ([unknown])");
    let h = parse_header(b"kworker/0:1 123 [001] 1.5: cycles:").unwrap();
    assert_eq!((h.comm, h.time_ns), (&b"kworker/0:1"[..], Some(1_500_000_000)));
    assert!(parse_header(b"a;b;c 12").is_none());
    assert!(parse_header(b"\t7f533952bc77 _dl_check+0x597 (/usr/lib/ld-2.28.so)").is_none());
}

#[test]
fn timestamps_are_exact() {
    assert_eq!(parse_time_ns(b"5086.200000:"), Some(5_086_200_000_000));
    assert_eq!(parse_time_ns(b"5086.200000000:"), Some(5_086_200_000_000));
    assert_eq!(parse_time_ns(b"0.000000001:"), Some(1));
    assert_eq!(parse_time_ns(b"5086.2:"), Some(5_086_200_000_000));
    assert_eq!(parse_time_ns(b"99999999999999999999.0:"), None);
}

#[test]
fn frames() {
    let f = parse_frame(b"\t7f533952bc77 _dl_check_map_versions+0x597 (/usr/lib/ld-2.28.so)").unwrap();
    assert_eq!(
        (f.sym, f.dso),
        (&b"_dl_check_map_versions+0x597"[..], &b"/usr/lib/ld-2.28.so"[..])
    );
    let f = parse_frame(b"7f00 foo bar (/usr/lib/my lib.so (deleted))").unwrap();
    assert_eq!(
        (f.sym, f.dso),
        (&b"foo bar"[..], &b"/usr/lib/my lib.so (deleted)"[..])
    );
    let f = parse_frame(b"        b3cea6c4\tLock::unlock() (/system/lib/libc.so)").unwrap();
    assert_eq!(
        (f.sym, f.dso),
        (&b"Lock::unlock()"[..], &b"/system/lib/libc.so"[..])
    );
    let f = parse_frame(b"7f1e2215d058  (/lib/x86_64-linux-gnu/libc-2.15.so)").unwrap();
    assert_eq!(f.sym, b"");
    assert!(parse_frame(b"7fa4c73bc184 start_thread (/lib/x86_64-linux-gnu").is_none());
    assert!(parse_frame(b"THIS_IS_A_WEIRD_LINE").is_none());
}

#[test]
fn names() {
    assert_eq!(
        tidy_generic("go/build.(*importReader).readByte"),
        "go/build.(*importReader).readByte"
    );
    assert_eq!(tidy_generic("foo<Vec::<usize>>(Vec<usize>)"), "foo<Vec::<usize>>");
    assert_eq!(
        tidy_generic("(anonymous namespace)::myBar()"),
        "(anonymous namespace)::myBar"
    );
    assert_eq!(
        tidy_generic("{lambda(int, int)#2}::operator()"),
        "{lambda(int, int)#2}::operator"
    );
    assert_eq!(
        fix_rust_symbol("_$LT$grep..ReadByLine$LT$$u27$s$C$$u20$M$GT$$GT$::run::h30ecedc997ad7e32"),
        "<grep::ReadByLine<'s, M>>::run"
    );
    // A C++ function in an anonymous namespace is a frame (perf prints it first on the line); other
    // parenthesised symbols are not; inferno drops both.
    let line = |sym: &'static [u8]| FrameLine {
        addr: b"142c",
        sym,
        dso: b"/tmp/dm/cxx",
    };
    let names = scorch_names(&line(b"(anonymous namespace)::hidden"), false);
    assert_eq!(names.len(), 1);
    assert_eq!(names[0].0, "(anonymous namespace)::hidden");
    assert!(scorch_names(&line(b"(process)"), false).is_empty());
    let inferno = inferno_names(
        "\t142c (anonymous namespace)::hidden (/tmp/dm/cxx)",
        false,
        &InfernoFlags::default(),
    );
    assert_eq!(inferno, Some(Vec::new()));
    assert!(is_kernel_dso("[kernel.kallsyms]") && is_kernel_dso("/lib/modules/4.3/build/vmlinux"));
    assert!(!is_kernel_dso("[unknown]"));
    assert!(is_jit_dso("/tmp/perf-10487.map") && is_jit_dso("/tmp/jitted-31714-4145673320.so"));
}

#[test]
fn lost_lines() {
    use super::header::{parse_lost, LostKind};
    assert_eq!(
        parse_lost(b"spin  5639 11290.654198: PERF_RECORD_LOST lost 3"),
        Some((LostKind::Chunk, Some(11_290_654_198_000), 3))
    );
    assert_eq!(
        parse_lost(b"bash 3282/3282 [001] 11219.276156: PERF_RECORD_LOST lost 132"),
        Some((LostKind::Chunk, Some(11_219_276_156_000), 132))
    );
    assert_eq!(
        parse_lost(b"11305614358491 0x1258 [0x28]: PERF_RECORD_LOST: id:357: lost:144"),
        Some((LostKind::Chunk, None, 144))
    );
    assert_eq!(
        parse_lost(b"0 0x1ea58 [0x20]: PERF_RECORD_LOST_SAMPLES: id:18446744073709551615: lost samples :506"),
        Some((LostKind::Samples, None, 506))
    );
    assert_eq!(parse_lost(b"PERF_RECORD_LOST lost"), None);
    assert_eq!(parse_lost(b"a 1 2.0: PERF_RECORD_LOSTX lost 3"), None);
    assert_eq!(parse_lost(b"a 1 2.0: PERF_RECORD_COMM: a:1/1"), None);
    assert_eq!(
        parse_lost(b"a 1 2.0: PERF_RECORD_LOST lost 99999999999999999999999"),
        None
    );
}

#[test]
fn lost_records_are_counted_not_sampled() {
    use crate::import::{import_bytes, ImportOptions};
    let text = b"a 1 10.100000: 1 cpu-clock:\n\t1 f (/bin/a)\n\n\
a 1 10.200000: PERF_RECORD_LOST lost 7\n\
a 1 10.300000: 1 cpu-clock:\n\t1 f (/bin/a)\n\
a 1 12.000000: PERF_RECORD_LOST lost 5\n\
a 1 12.100000: 1 cpu-clock:\n\t1 g (/bin/a)\n\n\
0 0 0.000000: PERF_RECORD_LOST_SAMPLES lost 12\n";
    let p = import_bytes(text, ImportOptions::default()).unwrap().profile;
    assert_eq!(p.meta.records, 3);
    let lost = p.meta.lost.unwrap();
    assert_eq!(
        (lost.events, lost.records),
        (12, 2),
        "LOST_SAMPLES repeats the LOST counts"
    );
    assert_eq!(lost.per_second, vec![(10, 7), (12, 5)]);
    // Only the summary: it counts, without a time.
    let p = import_bytes(
        b"a 1 10.1: 1 cpu-clock:\n\t1 f (/bin/a)\n\n0 0 0.0: PERF_RECORD_LOST_SAMPLES lost 4\n",
        ImportOptions::default(),
    )
    .unwrap()
    .profile;
    let lost = p.meta.lost.unwrap();
    assert_eq!((lost.events, lost.per_second.len()), (4, 0));
    let p = import_bytes(
        b"a 1 10.1: 1 cpu-clock:\n\t1 f (/bin/a)\n",
        ImportOptions::default(),
    )
    .unwrap()
    .profile;
    assert_eq!(p.meta.lost, None);
}
