//! perf.data read directly against perf's own reading of the same recordings (tests/data/perfdata/, made
//! here: see its README): `scorch fold FILE.data` equals `scorch fold` of `perf script`'s text of that file,
//! stack for stack, symbolized through the binaries kept beside the recordings (`SCORCH_SYMBOL_PATH`); and
//! `scorch info`'s events, sample counts, totals and lost counts equal `perf report`'s.
//!
//! Machine-dependent part, marked: perf resolved libc and the kernel on the recording machine. Where this
//! machine's libc (by build id) differs, or scorch does not use its kallsyms for the recordings' kernel (another
//! kernel by build id, else by release, or no `_text` to compare the load address with — the criterion of
//! `src/symbols.rs`), the oracle's names there are turned back into perf's `[unknown]` (which scorch names
//! `[DSO]`, as scorch does for an unresolved address), so the comparison still holds stack for stack. The
//! kallsyms read is `SCORCH_KALLSYMS` when set (scorch reads the same variable), else `/proc/kallsyms`; the
//! running kernel's build id `SCORCH_KERNEL_NOTES`, else `/sys/kernel/notes`. The unsymbolized comparison
//! (`--no-symbols` against perf's addresses) depends on nothing of this machine.

mod common;

use std::path::PathBuf;
use std::process::Command;

/// What the recording machine had (README): its kernel (release, build id, `_text` as the recordings' kernel
/// MMAP record says) and libc's build id.
const RECORDED_OS_RELEASE: &str = "6.18.44-fc-v657";
const RECORDED_KERNEL_BUILD_ID: &str = "48dc540c8b76393804ca8088dbfa7d42911a9444";
const LIBC: &str = "/usr/lib/x86_64-linux-gnu/libc.so.6";
const RECORDED_LIBC_BUILD_ID: &str = "93ac61ec5a8eb1396f9fbd350e3169a558528a40";
/// The dynamic loader, which a sample of `cxx.data` and one of `rsl.data` hit (its build id is recorded).
const LD: &str = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";
const RECORDED_LD_BUILD_ID: &str = "7ebc65e52f2bbea498b4040fa92f7238377aaba9";
/// Where the test programs were when they were recorded; copies are kept beside the recordings.
const KEPT: [&str; 7] = [
    "/tmp/pd/spin",
    "/tmp/pd/threads",
    "/tmp/pd/gospin",
    "/tmp/dm/cxx",
    "/tmp/dm/rsl",
    "/tmp/dm/rsv",
    "/tmp/dm/inl",
];

/// (recording, perf's outputs' stem): C, Go, the whole machine, threads, two events, pipe mode, gzip, a
/// tracepoint; C++ and Rust (legacy and v0 mangling: names perf demangles), C built with `-O2 -g` (inlining).
const RECORDINGS: [(&str, &str); 12] = [
    ("spin.data", "spin"),
    ("go.data", "go"),
    ("sys.data", "sys"),
    ("threads.data", "threads"),
    ("two.data", "two"),
    ("pipe.data", "pipe"),
    ("gz.data.gz", "gz"),
    ("sched.data", "sched"),
    ("cxx.data", "cxx"),
    ("rsl.data", "rsl"),
    ("rsv.data", "rsv"),
    ("inl.data", "inl"),
];

/// Recordings of the whole machine (`-a`): their binaries are this machine's at that moment (compilers, test
/// programs since rebuilt), so they are compared by address only (`--no-symbols` against perf's addresses), the kernel's names included in neither.
const BY_ADDRESS_ONLY: [&str; 1] = ["sys.data"];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/perfdata")
}

fn scorch(args: &[&str]) -> String {
    scorch_with_stderr(args).0
}

/// Where scorch looks for binaries by name: beside the recordings; first, when this machine's libc is not the
/// recording's, a stand-in `libc.so.6` without symbols. The recordings hold no build id of libc (perf writes
/// those only for binaries hit by a sample's own address), so scorch, like perf, would name libc frames from
/// whatever libc this machine has — names no oracle here can predict; with the stand-in they stay
/// `[libc.so.6]`, what the oracle then expects.
fn symbol_path() -> std::ffi::OsString {
    static PATH: std::sync::OnceLock<std::ffi::OsString> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let mut dirs = vec![dir()];
        if !resolvable(LIBC) {
            let stand_in = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfdata-libc-stand-in");
            std::fs::create_dir_all(&stand_in).unwrap();
            // An ELF64 header alone: no segments, no symbols, no build id.
            let mut elf = b"\x7fELF\x02\x01\x01".to_vec();
            elf.resize(16, 0);
            for (v, n) in [
                (3u64, 2),
                (62, 2),
                (1, 4),
                (0, 8),
                (0, 8),
                (0, 8),
                (0, 4),
                (64, 2),
                (56, 2),
            ] {
                elf.extend_from_slice(&v.to_le_bytes()[..n]);
            }
            elf.extend_from_slice(&[0, 0, 64, 0, 0, 0, 0, 0]); // phnum, shentsize, shnum, shstrndx
            std::fs::write(stand_in.join("libc.so.6"), elf).unwrap();
            dirs.insert(0, stand_in);
        }
        std::env::join_paths(dirs).unwrap()
    })
    .clone()
}

/// scorch's output and its warnings.
fn scorch_with_stderr(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_scorch"))
        .args(args)
        .current_dir(dir())
        .env("SCORCH_SYMBOL_PATH", symbol_path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "scorch {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn scorch_stdin(args: &[&str], input: &str) -> String {
    let (code, out, err) = common::scorch_bytes(args, Some(input.as_bytes()));
    assert_eq!(code, 0, "{err}");
    String::from_utf8(out).unwrap()
}

fn build_id(path: &str) -> Option<String> {
    use object::Object;
    let data = std::fs::read(path).ok()?;
    let id = object::File::parse(&*data).ok()?.build_id().ok()??;
    Some(id.iter().map(|b| format!("{b:02x}")).collect())
}

/// The running kernel's GNU build id: the `NT_GNU_BUILD_ID` note (type 3, name `GNU`) among the ELF notes of
/// `/sys/kernel/notes` (`u32 namesz, descsz, type`, name and descriptor each padded to 4 bytes).
fn running_kernel_build_id() -> Option<String> {
    let path = std::env::var("SCORCH_KERNEL_NOTES").unwrap_or_else(|_| "/sys/kernel/notes".into());
    let data = std::fs::read(path).ok()?;
    let word = |at: usize| Some(u32::from_ne_bytes(data.get(at..at + 4)?.try_into().ok()?) as usize);
    let mut at = 0;
    while at + 12 <= data.len() {
        let (namesz, descsz, kind) = (word(at)?, word(at + 4)?, word(at + 8)?);
        let desc = at + 12 + namesz.div_ceil(4) * 4;
        if kind == 3 && data.get(at + 12..at + 12 + namesz)? == b"GNU\0" {
            let id = data.get(desc..desc + descsz)?;
            return Some(id.iter().map(|b| format!("{b:02x}")).collect());
        }
        at = desc + descsz.div_ceil(4) * 4;
    }
    None
}

/// Whether scorch names the recordings' kernel frames from this machine's kallsyms: the same kernel (by build
/// id, else by release: every recording with kernel frames holds the kernel's build id) and a `_text` address
/// there to shift the recorded addresses by (the recordings' kernel MMAP record names `_text`).
fn kernel_symbols_used() -> bool {
    static USED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *USED.get_or_init(kernel_symbols_used_uncached)
}

fn kernel_symbols_used_uncached() -> bool {
    let same_kernel = match running_kernel_build_id() {
        Some(id) => id == RECORDED_KERNEL_BUILD_ID,
        None => {
            let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
            release.trim() == RECORDED_OS_RELEASE
        }
    };
    let path = std::env::var("SCORCH_KALLSYMS").unwrap_or_else(|_| "/proc/kallsyms".into());
    let kallsyms = std::fs::read_to_string(path).unwrap_or_default();
    let text = kallsyms.lines().any(|l| {
        let f: Vec<&str> = l.split_ascii_whitespace().collect();
        matches!(f[..], [addr, "t" | "T", "_text", ..] if u64::from_str_radix(addr, 16).is_ok_and(|a| a != 0))
    });
    same_kernel && text
}

/// Whether this machine resolves `dso` as the recording machine did.
fn resolvable(dso: &str) -> bool {
    match dso {
        "[kernel.kallsyms]" => kernel_symbols_used(),
        LIBC => build_id(LIBC).as_deref() == Some(RECORDED_LIBC_BUILD_ID),
        LD => build_id(LD).as_deref() == Some(RECORDED_LD_BUILD_ID),
        "[unknown]" | "inlined" => true,
        d => KEPT.contains(&d),
    }
}

/// A frame line of perf script: (indent and address, symbol, dso). The dso is the last parenthesised group,
/// parentheses inside it balanced (`(/memfd:sealed-1 (deleted))`).
fn split_frame(line: &str) -> Option<(&str, &str, &str)> {
    let body = line.strip_suffix(')')?;
    let mut depth = 0usize;
    let open = body.char_indices().rev().find_map(|(i, c)| match c {
        ')' => {
            depth += 1;
            None
        }
        '(' if depth == 0 => Some(i),
        '(' => {
            depth -= 1;
            None
        }
        _ => None,
    })?;
    let (head, dso) = (body.get(..open)?.strip_suffix(' ')?, body.get(open + 1..)?);
    let t = head.trim_start();
    let addr_end = t.find(' ')?;
    let cut = head.len() - t.len() + addr_end;
    Some((&head[..cut], head[cut..].trim(), dso))
}

/// perf's script text with the names this machine cannot resolve as perf did turned back into `[unknown]`.
fn oracle_script(stem: &str) -> String {
    oracle_text(&std::fs::read_to_string(dir().join(format!("{stem}.script"))).unwrap())
}

/// [`oracle_script`] of a text.
fn oracle_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        match split_frame(line) {
            Some((head, _, dso)) if line.starts_with('\t') && !resolvable(dso) => {
                out.push_str(&format!("{head} [unknown] ({dso})"));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

#[test]
fn fold_of_the_recording_equals_fold_of_perf_script_stack_for_stack() {
    let used = kernel_symbols_used();
    for (file, stem) in RECORDINGS {
        if BY_ADDRESS_ONLY.contains(&file) {
            continue;
        }
        let (mine, warnings) = scorch_with_stderr(&["fold", file]);
        let theirs = scorch_stdin(&["fold", "-"], &oracle_script(stem));
        assert!(!mine.is_empty());
        assert_eq!(mine, theirs, "{file}");
        // Kernel frames left unresolved say why, once; resolved ones say nothing.
        let kernel_frames = std::fs::read_to_string(dir().join(format!("{stem}.script")))
            .unwrap()
            .contains("([kernel.kallsyms])");
        let said = warnings.matches("kernel symbols not used: ").count();
        assert_eq!(said, usize::from(kernel_frames && !used), "{file}: {warnings}");
        if kernel_frames && !used {
            assert!(mine.contains("[[kernel.kallsyms]]"), "{file}");
        }
    }
    // The second event of a two-event recording too.
    let mine = scorch(&["fold", "--event", "task-clock", "two.data"]);
    let theirs = scorch_stdin(&["fold", "--event", "task-clock", "-"], &oracle_script("two"));
    assert_eq!(mine, theirs);
}

/// The C++ and Rust recordings' names are perf's demangled ones (the fold test compares them stack for stack):
/// no mangled name is left, and a name of each kind is there as perf prints it.
#[test]
fn cxx_and_rust_names_are_demangled_as_perf_prints_them() {
    for (file, names) in [
        (
            "cxx.data",
            &[
                "work::Acc<long>::operator+=",
                "(anonymous namespace)::hidden",
                "work::burn",
            ][..],
        ),
        (
            "rsl.data",
            &[
                "rs::Acc<T>::add_many",
                "<rs::Square as rs::Shape>::area",
                "std::rt::lang_start_internal",
            ],
        ),
        (
            "rsv.data",
            &[
                "rs::generic_burn::<u32>",
                "<rs::Acc<f64>>::add_many",
                "std::rt::lang_start::<()>::{closure#0}",
            ],
        ),
    ] {
        let mine = scorch(&["fold", file]);
        assert!(!mine.contains("_ZN") && !mine.contains(";_R"), "{file}: {mine}");
        for name in names {
            assert!(
                mine.contains(&format!(";{name};")) || mine.contains(&format!(";{name} ")),
                "{file}: {name}"
            );
        }
    }
}

/// `--inline`: the functions inlined at each address of the C program built with `-O2 -g` (`inl.c`: `step`
/// inlined into `mix` into `work`, and `churn` into `work` around a call, so a return address lies in inlined
/// code) as inline frames, equal to binutils' `addr2line -i` of the same addresses (`tests/oracles/perf_inline.py`
/// adds them to perf's text: perf 6.1 shows none for frame-pointer chains, `--inline` or not, so the default
/// fold has none and equals perf script's), the program's DWARF from the kept binary and libc's from its debug
/// file by build id (libc6-dbg) where this machine's libc is the recording's.
#[test]
fn inline_frames_equal_addr2line() {
    let mut args = vec![
        format!(
            "{}/../../tests/oracles/perf_inline.py",
            env!("CARGO_MANIFEST_DIR")
        ),
        dir().join("inl.script").display().to_string(),
        format!("/tmp/dm/inl={}", dir().join("inl").display()),
    ];
    let libc_debug = format!(
        "/usr/lib/debug/.build-id/{}/{}.debug",
        &RECORDED_LIBC_BUILD_ID[..2],
        &RECORDED_LIBC_BUILD_ID[2..]
    );
    if resolvable(LIBC) && std::path::Path::new(&libc_debug).exists() {
        args.push(format!("{LIBC}={libc_debug}"));
    }
    let out = Command::new("python3").args(&args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.matches(" (inlined)").count() > 100, "{text}");
    let theirs = scorch_stdin(&["fold", "-"], &oracle_text(&text));
    let mine = scorch(&["fold", "--inline", "inl.data"]);
    assert_eq!(mine, theirs);
    // The inlined functions, the one around a call among them, are there; without `--inline`, none.
    for frame in [";work;mix_[i];step_[i] ", ";work;churn_[i];leaf "] {
        assert!(mine.contains(frame), "{frame}: {mine}");
    }
    let plain = scorch(&["fold", "inl.data"]);
    assert!(!plain.contains("_[i]"), "{plain}");
    assert_eq!(plain, scorch_stdin(&["fold", "-"], &oracle_script("inl")));
}

/// perf's script text with every frame of a known dso named `BASENAME@0xADDRESS`: perf's address column is a
/// user frame's file offset and a kernel frame's address, what `scorch fold --no-symbols` names them by.
/// (`" (deleted)"` is left out of the names, on both sides: the perf script reader cuts a symbol there.)
fn address_script(stem: &str) -> String {
    let text = std::fs::read_to_string(dir().join(format!("{stem}.script"))).unwrap();
    let mut script = String::new();
    for line in text.lines() {
        match split_frame(line) {
            Some((head, _, dso)) if line.starts_with('\t') && dso != "[unknown]" => {
                let base = dso.rsplit('/').next().unwrap_or(dso).replace(" (deleted)", "");
                let addr = head.trim();
                script.push_str(&format!("{head} {base}@0x{addr} ({dso})\n"));
            }
            _ => {
                script.push_str(line);
                script.push('\n');
            }
        }
    }
    script
}

/// `scorch fold --no-symbols` in the form of [`address_script`]'s names.
fn fold_by_address(args: &[&str]) -> String {
    let mut all = vec!["fold", "--no-symbols"];
    all.extend_from_slice(args);
    scorch(&all).replace("+0x", "@0x").replace(" (deleted)", "")
}

#[test]
fn unsymbolized_frames_are_modules_and_the_addresses_perf_prints() {
    for (file, stem) in RECORDINGS {
        let theirs = scorch_stdin(&["fold", "-"], &address_script(stem));
        assert_eq!(fold_by_address(&[file]), theirs, "{file}");
    }
}

#[test]
fn info_counts_equal_perf_report() {
    for (file, stem) in RECORDINGS {
        let info: serde_json::Value = serde_json::from_str(&scorch(&["info", "--json", file])).unwrap();
        let report = std::fs::read_to_string(dir().join(format!("{stem}.report"))).unwrap();
        let mut event = String::new();
        let mut checked = 0;
        for line in report.lines() {
            if let Some(rest) = line.strip_prefix("# Total Lost Samples: ") {
                let lost = info["lost_events"].as_u64().unwrap_or(0);
                assert_eq!(lost.to_string(), rest.trim(), "{file}: lost");
            } else if let Some(rest) = line.strip_prefix("# Samples: ") {
                let (n, name) = rest.split_once("of event '").unwrap();
                event = name.trim_end_matches('\'').to_string();
                let e = info["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|e| e["name"] == event.as_str());
                let e = e.unwrap_or_else(|| panic!("{file}: no event {event} in {info}"));
                assert_eq!(
                    e["samples"].as_u64().unwrap().to_string(),
                    n.trim(),
                    "{file}: {event}"
                );
                checked += 1;
            } else if let Some(rest) = line.strip_prefix("# Event count (approx.): ") {
                let e = info["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|e| e["name"] == event.as_str());
                assert_eq!(
                    e.unwrap()["total"].as_u64().unwrap().to_string(),
                    rest.trim(),
                    "{file}"
                );
            }
        }
        assert!(checked > 0, "{file}");
        // Threads, time span and totals as the perf script importer reads perf's text of the same file.
        let (info, text) = if BY_ADDRESS_ONLY.contains(&file) {
            let info = scorch(&["info", "--json", "--no-symbols", file]).replace(" (deleted)", "");
            let text = scorch_stdin(&["info", "--json", "-"], &address_script(stem));
            (serde_json::from_str(&info).unwrap(), text)
        } else {
            (info, scorch_stdin(&["info", "--json", "-"], &oracle_script(stem)))
        };
        let text: serde_json::Value = serde_json::from_str(&text).unwrap();
        for key in ["samples", "total", "threads", "unit", "distinct_stacks"] {
            assert_eq!(info[key], text[key], "{file}: {key}");
        }
        // perf script prints microseconds; the recording holds nanoseconds.
        let span = |v: &serde_json::Value| v["time_span_ns"].as_u64().unwrap();
        assert!(span(&info).abs_diff(span(&text)) < 1000, "{file}: {info} {text}");
    }
}

/// Off-CPU time from the `sched:sched_switch` payloads of the system-wide recording (read from the raw
/// payload through the format in its tracing data) equals what the perf script reader derives from perf's text
/// of the same payloads: the derived events, their totals, and their stacks (by address: see
/// `BY_ADDRESS_ONLY`).
#[test]
fn off_cpu_time_from_the_recordings_switches_equals_perf_scripts() {
    let script = address_script("sys");
    for event in ["offcpu", "wall-clock"] {
        let theirs = scorch_stdin(&["fold", "--event", event, "-"], &script);
        assert!(!theirs.is_empty(), "{event}");
        assert_eq!(
            fold_by_address(&["--event", event, "sys.data"]),
            theirs,
            "{event}"
        );
    }
    let info: serde_json::Value =
        serde_json::from_str(&scorch(&["info", "--json", "--no-symbols", "sys.data"])).unwrap();
    let text: serde_json::Value =
        serde_json::from_str(&scorch_stdin(&["info", "--json", "-"], &script)).unwrap();
    for key in ["events", "off_cpu", "samples", "total", "threads"] {
        assert_eq!(info[key], text[key], "{key}");
    }
}

#[test]
fn the_format_is_listed() {
    let (code, out, _) = common::scorch(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("perf.data"), "{out}");
}

/// `scorch pack`: the recording symbolized here as gzip'd pprof; `scorch fold` and `scorch info` of the packed
/// file say what they say of the recording — every event, thread, time and stack. Not carried (FORMATS.md):
/// CPU numbers, the sampling period, lost-event counts, the recording's facts and warnings.
#[test]
fn a_packed_recording_folds_and_counts_as_the_recording() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("perfdata-pack");
    std::fs::create_dir_all(&out).unwrap();
    for (file, stem) in RECORDINGS {
        let packed = out.join(format!("{stem}.pb.gz"));
        let packed = packed.to_str().unwrap();
        scorch(&["pack", file, "-o", packed]);
        assert_eq!(scorch(&["fold", file]), scorch(&["fold", packed]), "{file}");
        let info =
            |f: &str| serde_json::from_str::<serde_json::Value>(&scorch(&["info", "--json", f])).unwrap();
        let (mine, packed_info) = (info(file), info(packed));
        assert_eq!(packed_info["format"], "pprof");
        for key in [
            "samples",
            "total",
            "unit",
            "events",
            "threads",
            "distinct_stacks",
            "call_tree_nodes",
            "max_depth",
            "time_span_ns",
            "duration_ns",
            "off_cpu",
        ] {
            assert_eq!(mine[key], packed_info[key], "{file}: {key}");
        }
        // The same stack health; what it is judged against may differ (a pprof naming Go's runtime is judged
        // as Go's own profiles are).
        for key in ["broken_share", "unsymbolized_share", "depth"] {
            assert_eq!(
                mine["stack_health"][key], packed_info["stack_health"][key],
                "{file}: {key}"
            );
        }
        for event in mine["events"].as_array().unwrap() {
            let name = event["name"].as_str().unwrap();
            let by = |f: &str| scorch(&["fold", "--event", name, f]);
            assert_eq!(by(file), by(packed), "{file}: {name}");
        }
    }
}

/// Per binary (perf's dso column, by its file name), the weight of the samples perf script prints with at least
/// one frame in it: what `scorch info --no-symbols` must name as the binaries without symbols.
fn dso_weights(stem: &str) -> Vec<(String, u64)> {
    let text = std::fs::read_to_string(dir().join(format!("{stem}.script"))).unwrap();
    let mut out: std::collections::BTreeMap<String, u64> = Default::default();
    let (mut period, mut seen) = (0u64, std::collections::BTreeSet::<String>::new());
    let mut flush = |period: u64, seen: &mut std::collections::BTreeSet<String>| {
        for d in std::mem::take(seen) {
            *out.entry(d).or_default() += period;
        }
    };
    for line in text.lines() {
        if line.starts_with('\t') {
            let (_, _, dso) = split_frame(line).unwrap();
            if dso != "[unknown]" {
                seen.insert(dso.rsplit('/').next().unwrap().replace(" (deleted)", ""));
            }
        } else if !line.trim().is_empty() {
            flush(period, &mut seen);
            // `COMM TID TIME: PERIOD EVENT:` — the period is the token before the event.
            let t: Vec<&str> = line.split_ascii_whitespace().collect();
            period = t[t.len() - 2].parse().unwrap();
        }
    }
    flush(period, &mut seen);
    let mut v: Vec<(String, u64)> = out.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

#[test]
fn without_symbols_the_stack_health_names_the_binaries_perf_script_shows() {
    for (file, stem) in [
        ("spin.data", "spin"),
        ("threads.data", "threads"),
        ("go.data", "go"),
        ("pipe.data", "pipe"),
    ] {
        let info: serde_json::Value =
            serde_json::from_str(&scorch(&["info", "--json", "--no-symbols", file])).unwrap();
        let h = &info["stack_health"];
        let got: Vec<(String, u64)> = serde_json::from_value(h["unresolved"].clone()).unwrap();
        assert_eq!(got, dso_weights(stem), "{file}");
        // Every stack has an address not named yet, and none is judged cut short for it: a frame not named may
        // be an entry point (a stack is judged once its binaries name it).
        assert_eq!(h["unsymbolized_share"], 1.0, "{file}");
        assert_eq!(h["broken_share"], 0.0, "{file}");
        let text = scorch(&["info", "--no-symbols", file]);
        let names: Vec<&str> = got.iter().map(|(m, _)| m.as_str()).collect();
        assert!(
            text.contains(&format!("no symbols for:  {}", names.join(", "))),
            "{file}: {text}"
        );
    }
}
