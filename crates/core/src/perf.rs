//! `perf script` text: event header lines, each followed by its call chain (leaf first), samples separated by
//! blank lines.
//!
//! What scorch keeps per sample: the stack, the exact integer-nanosecond timestamp, comm, pid, tid, cpu, the
//! event (without modifiers) and the period (the weight; 1 when perf printed none). See docs/FORMATS.md.
//!
//! Two namings share one reader: scorch's own (kinds as attributes, the process as a pseudo root chosen when
//! the call tree is built) and inferno's (`--compat inferno`: `_[k]`/`_[j]`/`_[i]` suffixes and the process
//! name baked into the stack, exactly as `inferno-collapse-perf` 0.12.8 writes them).

use crate::error::{ImportError, ImportErrorKind, Warnings};
use crate::format::{trim_ascii, Format};
use crate::lines::split_around;
use crate::lines::{LinePos, LineSplitter};
use crate::model::{FrameId, FrameKind, FullSample, Profile, ProfileBuilder, StackId, EMPTY_STACK};
use crate::units::Unit;
use rustc_hash::FxHashMap;

/// How frames and roots are named.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Naming {
    /// scorch's conventions: kinds are attributes, the process root is chosen later.
    #[default]
    Scorch,
    /// `inferno-collapse-perf` with these flags.
    Inferno(InfernoFlags),
}

/// The `inferno-collapse-perf` flags that change names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InfernoFlags {
    pub pid: bool,
    pub tid: bool,
    pub kernel: bool,
    pub jit: bool,
    pub addrs: bool,
}

/// Options for the perf script importer.
#[derive(Debug, Clone, Default)]
pub struct PerfOptions {
    /// Longest accepted line in bytes. Default is 64 MiB (set by the loader).
    pub max_line: usize,
    /// Default is [`Naming::Scorch`].
    pub naming: Naming,
}

// ---------------------------------------------------------------------------------------------------------
// Header lines

/// A parsed event header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header<'a> {
    pub comm: &'a [u8],
    pub pid: Option<u32>,
    pub tid: u32,
    pub cpu: Option<u32>,
    pub time_ns: Option<u64>,
    pub period: Option<u64>,
    /// Event name without the trailing `:` and without modifiers; empty when perf printed none.
    pub event: &'a [u8],
    pub tracepoint: bool,
    /// What follows the event: a frame (single-line stacks) or a tracepoint payload.
    pub rest: &'a [u8],
}

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Whitespace-separated tokens with their byte ranges.
fn tokens(line: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(12);
    let mut i = 0;
    let at = |i: usize| line.get(i).copied();
    while i < line.len() {
        while at(i).is_some_and(is_space) {
            i += 1;
        }
        let start = i;
        while at(i).is_some_and(|b| !is_space(b)) {
            i += 1;
        }
        if i > start {
            out.push((start, i));
        }
    }
    out
}

fn parse_u32(s: &[u8]) -> Option<u32> {
    if s.is_empty() || s.len() > 10 || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

fn parse_u64(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 20 || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// `SECONDS.FRACTION:` to exact integer nanoseconds (6 digits by default, 9 with `--ns`).
pub(crate) fn parse_time_ns(tok: &[u8]) -> Option<u64> {
    let t = tok.strip_suffix(b":")?;
    let (secs, frac) = match memchr::memchr(b'.', t) {
        Some(i) => split_around(t, i),
        None => (t, &[][..]),
    };
    let secs = parse_u64(secs)?;
    if !frac.iter().all(u8::is_ascii_digit) || frac.len() > 9 {
        return None;
    }
    let mut ns: u64 = 0;
    for i in 0..9 {
        ns = ns * 10 + frac.get(i).map_or(0, |d| u64::from(d - b'0'));
    }
    secs.checked_mul(1_000_000_000)?.checked_add(ns)
}

/// `pid/tid` or a single number (perf's tid).
fn parse_pid_tid(tok: &[u8]) -> Option<(Option<u32>, u32)> {
    match memchr::memchr(b'/', tok) {
        Some(i) => {
            let (pid, tid) = split_around(tok, i);
            Some((Some(parse_u32(pid)?), parse_u32(tid)?))
        }
        None => Some((None, parse_u32(tok)?)),
    }
}

/// Event modifiers perf appends after a colon (`cycles:uppp`).
fn is_modifier_suffix(s: &[u8]) -> bool {
    !s.is_empty() && s.len() <= 12 && s.iter().all(|b| b"ukhpPGHISDWebxR".contains(b))
}

/// Splits an event token (`cycles:uppp:`, `sched:sched_switch:`) into its name and whether it is a tracepoint.
fn event_name(tok: &[u8]) -> (&[u8], bool) {
    let mut name = tok.strip_suffix(b":").unwrap_or(tok);
    if let Some(i) = memchr::memrchr(b':', name) {
        let (head, suffix) = split_around(name, i);
        if is_modifier_suffix(suffix) {
            name = head;
        }
    }
    let tracepoint = memchr::memchr(b':', name).is_some();
    (name, tracepoint)
}

// Real header lines this reads (comm may hold spaces and digits; fields are separated by spaces or TABs):
//   java 25607 4794564.109216: cycles:
//   java 12688 [002] 6544038.708352: cpu-clock:
//   V8 WorkerThread 24636/25607 [000] 94564.109216: cycles:
//   vote   913    72.176760:     257597 cycles:uppp:
//   false 64414 20110.539270:      34467 cycles:u:  ffffffff9aa3c8de [unknown] ([unknown])
//   func_ab 15294 cpu-clock:
//   Gecko<TAB>25122 [007] 115539.936601:<TAB><TAB>1000000 task-clock:u:
//   perf 1234 [000] 5.000000: sched:sched_switch: prev_comm=perf prev_pid=1234 ==> next_comm=swapper/0
pub(crate) fn parse_header(line: &[u8]) -> Option<Header<'_>> {
    let toks = tokens(line);
    let tok = |i: usize| toks.get(i).and_then(|&(a, b)| line.get(a..b));
    for i in 0..toks.len() {
        let Some((pid, tid)) = tok(i).and_then(parse_pid_tid) else {
            continue;
        };
        let mut j = i + 1;
        let cpu = tok(j)
            .and_then(|t| t.strip_prefix(b"[")?.strip_suffix(b"]"))
            .and_then(parse_u32);
        if cpu.is_some() {
            j += 1;
        }
        let time_ns = tok(j).and_then(parse_time_ns);
        if time_ns.is_some() {
            j += 1;
        }
        let period = match (tok(j).and_then(parse_u64), tok(j + 1)) {
            (Some(p), Some(next)) if next.ends_with(b":") => Some(p),
            _ => None,
        };
        if period.is_some() {
            j += 1;
        }
        let (event, tracepoint) = match tok(j) {
            Some(t) if t.ends_with(b":") && t.len() > 1 && !t.starts_with(b"PERF_RECORD") => {
                j += 1;
                event_name(t)
            }
            _ => (&[][..], false),
        };
        if time_ns.is_none() && event.is_empty() {
            continue;
        }
        let rest_start = toks.get(j).map_or(line.len(), |&(a, _)| a);
        let comm_end = toks.get(i).map_or(0, |&(a, _)| a);
        return Some(Header {
            comm: trim_ascii(line.get(..comm_end).unwrap_or_default()),
            pid,
            tid,
            cpu,
            time_ns,
            period,
            event,
            tracepoint,
            rest: trim_ascii(line.get(rest_start..).unwrap_or_default()),
        });
    }
    None
}

/// Side-band records printed by `--show-task-events`, `--show-mmap-events`, …: not samples.
fn is_side_band(line: &[u8]) -> bool {
    memchr::memmem::find(line, b"PERF_RECORD_").is_some()
}

// ---------------------------------------------------------------------------------------------------------
// Frame lines

/// A parsed frame line: address, symbol (may be empty) and dso (the last parenthesised group).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FrameLine<'a> {
    pub addr: &'a [u8],
    pub sym: &'a [u8],
    pub dso: &'a [u8],
}

// Real frame lines:
//   ffffffff8103ce3b native_safe_halt ([kernel.kallsyms])
//   7f533952bc77 _dl_check_map_versions+0x597 (/usr/lib/ld-2.28.so)
//   7f443cc8af43 __mmap64 (inlined)
//   7f89cc467bf0 Ljava/io/PrintStream;::println->Ljava/io/PrintStream;::print+0x0 (/tmp/perf-10487.map)
//   b3cea6c4<TAB>Lock::unlock() (/system/lib/libc.so)
//   7f1e2215d058  (/lib/x86_64-linux-gnu/libc-2.15.so)
//   7f00deadbeef foo (/usr/lib/libfoo.so (deleted))
pub(crate) fn parse_frame(line: &[u8]) -> Option<FrameLine<'_>> {
    let line = trim_ascii(line);
    let addr_end = line.iter().position(|&b| is_space(b))?;
    let (addr, rest) = line.split_at(addr_end);
    if !addr.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let rest = trim_ascii(rest);
    if !rest.ends_with(b")") {
        return None;
    }
    // Find the '(' that matches the final ')', so dsos like `(/lib/x.so (deleted))` stay whole.
    let mut depth = 0usize;
    let mut open = None;
    for (i, &b) in rest.iter().enumerate().rev() {
        match b {
            b')' => depth += 1,
            b'(' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    // The dso group is separated from the symbol by whitespace (or is all there is).
    if let Some(open) = open.filter(|&o| o == 0 || rest.get(o - 1).is_some_and(|&b| is_space(b))) {
        return Some(FrameLine {
            addr,
            sym: trim_ascii(rest.get(..open).unwrap_or_default()),
            dso: rest.get(open + 1..rest.len() - 1).unwrap_or_default(),
        });
    }
    // Unbalanced parentheses (a corrupted line such as `start_secondary ([kernel.kallsyms])/libpthread.so)`):
    // like inferno, take the last whitespace-separated token that starts with '(' as the dso.
    let start = rest.iter().rposition(|&b| is_space(b)).map_or(0, |i| i + 1);
    let (before, last) = rest.split_at(start.min(rest.len()));
    if last.len() >= 2 && last.starts_with(b"(") {
        return Some(FrameLine {
            addr,
            sym: trim_ascii(before),
            dso: last.get(1..last.len() - 1).unwrap_or_default(),
        });
    }
    None
}

/// inferno's reading of a frame line (`stack_line_parts`), kept exactly for `--compat inferno`.
fn parse_frame_inferno(line: &str) -> Option<(&str, &str, &str)> {
    let mut parts = line.trim_start().splitn(2, ' ');
    let pc = parts.next()?.trim_end();
    let mut rest = parts.next()?.rsplitn(2, ' ');
    let module = rest.next()?;
    if !module.starts_with('(') || !module.ends_with(')') || module.len() < 2 {
        return None;
    }
    let module = &module[1..module.len() - 1];
    let rawfunc = match rest.next()?.trim() {
        "" => " ",
        s => s,
    };
    Some((pc, rawfunc, module))
}

// ---------------------------------------------------------------------------------------------------------
// Names

fn strip_offset(sym: &str) -> &str {
    if let Some(i) = sym.rfind("+0x") {
        if sym[i + 3..].bytes().all(|b| b.is_ascii_hexdigit()) {
            return &sym[..i];
        }
    }
    sym
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `[unknown]` becomes `[dso basename]` when the dso is known (like stackcollapse-perf.pl and inferno).
fn unknown_fallback(func: &str, dso: &str, addr: &str, addrs: bool) -> String {
    if func != "[unknown]" {
        return func.to_string();
    }
    let name = match (dso, addrs) {
        ("[unknown]", true) => "unknown",
        ("[unknown]", false) => return func.to_string(),
        (dso, _) => basename(dso),
    };
    if addrs {
        format!("[{name} <{addr}>]")
    } else {
        format!("[{name}]")
    }
}

/// Removes argument lists (`foo(int)` → `foo`) but keeps Go methods (`pkg.(*T).M`), C++ anonymous
/// namespaces and parentheses inside templates or lambdas; `;` becomes `:` (as inferno and flamegraph.pl do).
pub(crate) fn tidy_generic(func: &str) -> String {
    let func = func.replace(';', ":");
    let mut depth: i64 = 0;
    let mut last_dot: Option<usize> = None;
    let mut cut = func.len();
    for (i, c) in func.char_indices() {
        match c {
            '<' | '{' | '[' => depth += 1,
            '>' | '}' | ']' | ')' => depth -= 1,
            '(' => {
                if depth == 0 {
                    let go = last_dot == Some(i);
                    let anon = func[i..].starts_with("(anonymous namespace)");
                    if !go && !anon {
                        cut = i;
                        break;
                    }
                }
                depth += 1;
            }
            '.' => last_dot = Some(i + 1),
            _ => {}
        }
    }
    let mut func = func;
    func.truncate(cut);
    func
}

/// `Ljava/lang/Thread;::run` → `java/lang/Thread:::run` (after [`tidy_generic`]), for Java processes.
fn tidy_java(mut func: String) -> String {
    if func.starts_with('L') && func.contains('/') {
        func.remove(0);
    }
    func
}

/// Kernel dso: `[kernel.kallsyms]`, `[nf_conntrack]`, `*.ko`, `vmlinux*` (not `[unknown]`).
pub(crate) fn is_kernel_dso(dso: &str) -> bool {
    let vmlinux = dso.rfind("vmlinux").is_some_and(|i| {
        dso[i..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
    });
    (dso.starts_with('[') || dso.ends_with(".ko") || vmlinux) && dso != "[unknown]"
}

/// JIT dso: perf-map-agent and friends (`/tmp/perf-PID.map`) or jitdump (`…/jitted-PID-N.so`).
pub(crate) fn is_jit_dso(dso: &str) -> bool {
    (dso.starts_with("/tmp/perf-") && dso.ends_with(".map"))
        || (dso.contains("/jitted-") && dso.ends_with(".so"))
}

const RUST_HASH_LEN: usize = 17;

/// Finishes demangling legacy Rust symbols perf left half-done (`_$LT$…$GT$::run::h0123456789abcdef`).
fn fix_rust_symbol(sym: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let bytes = sym.as_bytes();
    if sym.len() < RUST_HASH_LEN {
        return Cow::Borrowed(sym);
    }
    let hash = bytes.get(sym.len() - RUST_HASH_LEN..).unwrap_or_default();
    if hash.first() != Some(&b'h')
        || !hash.iter().skip(1).all(u8::is_ascii_hexdigit)
        || !sym.is_char_boundary(sym.len() - RUST_HASH_LEN)
    {
        return Cow::Borrowed(sym);
    }
    let mut rest = &sym[..sym.len() - RUST_HASH_LEN];
    rest = rest.strip_suffix("::").unwrap_or(rest);
    if rest.starts_with("_$") {
        rest = &rest[1..];
    }
    const CODES: [(&str, &str); 20] = [
        ("$SP$", "@"),
        ("$BP$", "*"),
        ("$RF$", "&"),
        ("$LT$", "<"),
        ("$GT$", ">"),
        ("$LP$", "("),
        ("$RP$", ")"),
        ("$C$", ","),
        ("$u7e$", "~"),
        ("$u20$", " "),
        ("$u27$", "'"),
        ("$u3d$", "="),
        ("$u5b$", "["),
        ("$u5d$", "]"),
        ("$u7b$", "{"),
        ("$u7d$", "}"),
        ("$u3b$", ";"),
        ("$u2b$", "+"),
        ("$u21$", "!"),
        ("$u22$", "\""),
    ];
    let mut out = String::with_capacity(rest.len());
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            if let Some(after2) = after.strip_prefix('.') {
                out.push_str("::");
                rest = after2;
            } else {
                out.push('.');
                rest = after;
            }
        } else if rest.starts_with('$') {
            match CODES.iter().find(|(code, _)| rest.starts_with(code)) {
                Some((code, text)) => {
                    out.push_str(text);
                    rest = &rest[code.len()..];
                }
                None => {
                    out.push_str(rest);
                    break;
                }
            }
        } else {
            let i = rest.find(['$', '.']).unwrap_or(rest.len());
            out.push_str(&rest[..i]);
            rest = &rest[i..];
        }
    }
    Cow::Owned(out)
}

/// scorch's names for one frame line: outermost first (a perf-map-agent `a->b->c` chain gives three).
fn scorch_names(f: &FrameLine<'_>, java: bool) -> Vec<(String, FrameKind)> {
    let sym = String::from_utf8_lossy(f.sym);
    let dso = String::from_utf8_lossy(f.dso);
    let addr = String::from_utf8_lossy(f.addr);
    let sym = strip_offset(&sym);
    if sym.starts_with('(') {
        return Vec::new();
    }
    let sym = if sym.is_empty() { "[unknown]" } else { sym };
    let sym = fix_rust_symbol(sym);
    let kind = if dso == "inlined" {
        FrameKind::Inline
    } else if is_kernel_dso(&dso) {
        FrameKind::Kernel
    } else if is_jit_dso(&dso) {
        FrameKind::Jit
    } else {
        FrameKind::User
    };
    sym.split("->")
        .enumerate()
        .map(|(i, part)| {
            let mut name = tidy_generic(&unknown_fallback(part.trim(), &dso, &addr, false));
            if java {
                name = tidy_java(name);
            }
            // No surrounding whitespace: folded text (exports, links) could not carry it at a stack's ends.
            (
                name.trim().to_string(),
                if i == 0 { kind } else { FrameKind::Inline },
            )
        })
        .collect()
}

/// inferno 0.12.8's names for one frame line (`on_stack_line`), outermost first.
fn inferno_names(line: &str, java: bool, flags: &InfernoFlags) -> Option<Vec<String>> {
    let (pc, rawfunc, module) = parse_frame_inferno(line)?;
    let rawfunc = strip_offset(rawfunc);
    if rawfunc.starts_with('(') {
        return Some(Vec::new());
    }
    let rawfunc = fix_rust_symbol(rawfunc);
    let mut out = Vec::new();
    for func in rawfunc.split("->") {
        let mut func = tidy_generic(&unknown_fallback(func, module, pc, flags.addrs));
        if java {
            func = tidy_java(func);
        }
        if !out.is_empty() {
            if !func.contains("_[i]") {
                func.push_str("_[i]");
            }
        } else if flags.kernel && is_kernel_dso(module) {
            func.push_str("_[k]");
        } else if flags.jit && is_jit_dso(module) && !func.contains("_[j]") {
            func.push_str("_[j]");
        }
        out.push(func);
    }
    Some(out)
}

// ---------------------------------------------------------------------------------------------------------
// The importer

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between samples: the next non-blank line should be a header.
    Between,
    /// Reading the call chain of the current sample.
    InSample,
    /// After a line that could not be read as a header: skip to the next blank line.
    Skipping,
}

/// (comm, pid, tid) as printed.
type ThreadKey = (Box<[u8]>, Option<u32>, u32);

#[derive(Debug, Clone, Copy)]
struct Current {
    thread: u32,
    event: u16,
    time_ns: Option<u64>,
    period: Option<u64>,
    cpu: Option<u32>,
    java: bool,
    offset: u64,
}

/// Chunk-driven `perf script` importer.
pub struct PerfParser {
    lines: LineSplitter,
    b: ProfileBuilder,
    naming: Naming,
    warnings: Warnings,
    state: State,
    cur: Option<Current>,
    /// The current sample's frames, leaf first.
    frames: Vec<FrameId>,
    /// Frames per frame-line text after the address (`sym+off (dso)`), for Java and other processes.
    frame_cache: [FxHashMap<Box<[u8]>, Vec<FrameId>>; 2],
    /// Leaf stack per whole call chain (frame ids leaf first, then the inferno root if any): identical
    /// chains repeat, and one lookup replaces one per frame.
    stack_cache: FxHashMap<Box<[FrameId]>, StackId>,
    threads: FxHashMap<ThreadKey, u32>,
    /// Inferno naming: the process frame per thread.
    inferno_roots: Vec<FrameId>,
    events: FxHashMap<Box<[u8]>, u16>,
    event_has_period: Vec<bool>,
    records: u64,
    side_band: u64,
    untimed: u64,
    any_cpu: bool,
}

impl PerfParser {
    /// Samples built so far.
    pub fn samples(&self) -> usize {
        self.b.samples_len()
    }

    pub fn new(opts: &PerfOptions) -> Self {
        PerfParser {
            lines: LineSplitter::new(Format::PerfScript, opts.max_line),
            b: ProfileBuilder::new(Format::PerfScript),
            naming: opts.naming.clone(),
            warnings: Warnings::default(),
            state: State::Between,
            cur: None,
            frames: Vec::with_capacity(128),
            frame_cache: [FxHashMap::default(), FxHashMap::default()],
            stack_cache: FxHashMap::default(),
            threads: FxHashMap::default(),
            inferno_roots: Vec::new(),
            events: FxHashMap::default(),
            event_has_period: Vec::new(),
            records: 0,
            side_band: 0,
            untimed: 0,
            any_cpu: false,
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        let mut lines = std::mem::replace(&mut self.lines, LineSplitter::new(Format::PerfScript, 0));
        let r = lines.feed(chunk, |line, pos| self.line(line, pos));
        self.lines = lines;
        r
    }

    pub fn finish(mut self) -> Result<Profile, ImportError> {
        let mut lines = std::mem::replace(&mut self.lines, LineSplitter::new(Format::PerfScript, 0));
        lines.finish(|line, pos| self.line(line, pos))?;
        let end = lines.position();
        self.end_sample()?;
        if self.records == 0 {
            let (kind, msg) = if self.warnings.is_empty() {
                (
                    ImportErrorKind::Empty,
                    "no samples: the input holds no event lines".to_string(),
                )
            } else {
                (
                    ImportErrorKind::NoValidRecords,
                    format!("no sample could be read ({} lines skipped)", self.warnings.count),
                )
            };
            let line = self.warnings.first.first().map(|w| w.line);
            let offset = self.warnings.first.first().map_or(0, |w| w.offset);
            return Err(ImportError::new(
                Some(Format::PerfScript),
                kind,
                offset,
                line,
                msg,
            ));
        }
        if self.untimed > 0 && self.untimed < self.records {
            self.warnings.push(
                end.line,
                end.offset,
                format!(
                    "{} of {} samples have no timestamp: the timeline is unavailable",
                    self.untimed, self.records
                ),
            );
        }
        if self.untimed > 0 {
            self.b.drop_times();
        }
        let unit = self.b.event_unit(0).unwrap_or(Unit::Samples);
        Ok(self.b.build(unit, 0, self.records, self.warnings))
    }

    fn line(&mut self, raw: &[u8], pos: LinePos) -> Result<(), ImportError> {
        if raw.first() == Some(&b'#') {
            return Ok(()); // `perf script --header` comment block
        }
        let line = trim_ascii(raw);
        if line.is_empty() {
            self.end_sample()?;
            self.state = State::Between;
            return Ok(());
        }
        match self.state {
            State::Skipping => Ok(()),
            State::InSample => {
                if self.cached_frame(line) {
                    return Ok(());
                }
                if let Some(f) = parse_frame(line) {
                    self.frame(raw, &f, pos);
                    return Ok(());
                }
                // perf without blank separators, or a side-band record: a header ends the sample.
                if is_side_band(line) {
                    self.end_sample()?;
                    self.side_band += 1;
                    self.state = State::Between;
                    return Ok(());
                }
                if let Some(h) = parse_header(line) {
                    self.end_sample()?;
                    return self.header(h, pos);
                }
                self.warnings.push(
                    pos.line,
                    pos.offset,
                    "unreadable frame line (expected `address symbol (dso)`); skipped",
                );
                Ok(())
            }
            State::Between => {
                if is_side_band(line) {
                    self.side_band += 1;
                    return Ok(());
                }
                match parse_header(line) {
                    Some(h) => self.header(h, pos),
                    None => {
                        let what = if parse_frame(line).is_some() {
                            "frame line outside a sample (after a blank line); skipped up to the next blank line"
                        } else {
                            "not a perf script event line; skipped up to the next blank line"
                        };
                        self.warnings.push(pos.line, pos.offset, what);
                        self.state = State::Skipping;
                        Ok(())
                    }
                }
            }
        }
    }

    fn header(&mut self, h: Header<'_>, pos: LinePos) -> Result<(), ImportError> {
        let thread = self.thread_of(&h);
        let event = match self.events.get(h.event) {
            Some(&e) => e,
            None => {
                if self.b.event_count() >= usize::from(u16::MAX) {
                    return Err(ImportError::new(
                        Some(Format::PerfScript),
                        ImportErrorKind::LimitExceeded,
                        pos.offset,
                        Some(pos.line),
                        "more than 65,535 distinct events",
                    ));
                }
                let name = if h.event.is_empty() {
                    "(unnamed)".into()
                } else {
                    String::from_utf8_lossy(h.event)
                };
                let e = self.b.event(&name, Unit::Samples);
                self.events.insert(h.event.into(), e);
                self.event_has_period.push(false);
                e
            }
        };
        if h.period.is_some() && !self.event_has_period.get(event as usize).copied().unwrap_or(true) {
            if let Some(flag) = self.event_has_period.get_mut(event as usize) {
                *flag = true;
            }
            let name = String::from_utf8_lossy(h.event);
            let unit = if name == "cpu-clock" || name == "task-clock" {
                Unit::Nanoseconds
            } else {
                Unit::Other("events".into())
            };
            self.b.set_event_unit(event, unit);
        }
        self.any_cpu |= h.cpu.is_some();
        // inferno (and so scorch) tidies Java names when the process is a JVM.
        let java = h.comm.starts_with(b"java");
        self.cur = Some(Current {
            thread,
            event,
            time_ns: h.time_ns,
            period: h.period,
            cpu: h.cpu,
            java,
            offset: pos.offset,
        });
        self.frames.clear();
        self.state = State::InSample;
        // A frame printed on the header line itself (perf without a call chain). Tracepoint payloads are not frames.
        if !h.tracepoint && !h.rest.is_empty() {
            if let Some(f) = parse_frame(h.rest) {
                let rest = h.rest;
                self.frame(rest, &f, pos);
            }
        }
        Ok(())
    }

    fn thread_of(&mut self, h: &Header<'_>) -> u32 {
        let key = (Box::<[u8]>::from(h.comm), h.pid, h.tid);
        if let Some(&t) = self.threads.get(&key) {
            return t;
        }
        let comm = String::from_utf8_lossy(h.comm).into_owned();
        let t = self.b.thread(&comm, h.pid, h.tid);
        if let Naming::Inferno(flags) = &self.naming {
            // inferno: spaces become '_', a lone number is the tid and the pid prints as '?'.
            let mut pname = comm.replace(' ', "_");
            let pid = h.pid.map_or("?".to_string(), |p| p.to_string());
            if flags.tid {
                pname.push_str(&format!("-{pid}/{}", h.tid));
            } else if flags.pid {
                pname.push_str(&format!("-{pid}"));
            }
            let f = self.b.frame(&pname, FrameKind::User);
            self.inferno_roots.push(f);
        }
        self.threads.insert(key, t);
        t
    }

    /// The fast path: a frame line seen before (same text after the address) needs no parsing.
    fn cached_frame(&mut self, line: &[u8]) -> bool {
        let Some(cur) = self.cur else { return false };
        if matches!(&self.naming, Naming::Inferno(fl) if fl.addrs) {
            return false; // the address is part of the name
        }
        let Some(i) = line.iter().position(|&b| is_space(b)) else {
            return false;
        };
        let cache = self.frame_cache.get(usize::from(cur.java));
        match cache.and_then(|c| c.get(line.get(i..).unwrap_or_default())) {
            Some(ids) => {
                self.frames.extend(ids.iter().rev());
                true
            }
            None => false,
        }
    }

    fn frame(&mut self, raw: &[u8], f: &FrameLine<'_>, pos: LinePos) {
        let Some(cur) = self.cur else { return };
        let key_bytes = trim_ascii(raw);
        // The address matters only for inferno's --addrs names.
        let cacheable = !matches!(&self.naming, Naming::Inferno(fl) if fl.addrs);
        let key = key_bytes
            .iter()
            .position(|&b| is_space(b))
            .map_or(&[][..], |i| key_bytes.get(i..).unwrap_or_default());
        let ids: Vec<FrameId> = match &self.naming {
            Naming::Scorch => scorch_names(f, cur.java)
                .into_iter()
                .map(|(n, k)| self.b.frame(&n, k))
                .collect(),
            Naming::Inferno(flags) => {
                let text = String::from_utf8_lossy(key_bytes);
                match inferno_names(&text, cur.java, flags) {
                    Some(names) => names
                        .into_iter()
                        .map(|n| self.b.frame(&n, FrameKind::User))
                        .collect(),
                    None => {
                        self.warnings
                            .push(pos.line, pos.offset, "unreadable frame line; skipped");
                        return;
                    }
                }
            }
        };
        self.frames.extend(ids.iter().rev());
        if cacheable && !key.is_empty() {
            if let Some(c) = self.frame_cache.get_mut(usize::from(cur.java)) {
                c.insert(key.into(), ids);
            }
        }
    }

    fn end_sample(&mut self) -> Result<(), ImportError> {
        let Some(cur) = self.cur.take() else { return Ok(()) };
        let inferno = matches!(self.naming, Naming::Inferno(_));
        if inferno && self.frames.is_empty() {
            // inferno drops samples without frames.
            self.records += 1;
            return Ok(());
        }
        if inferno {
            if let Some(&root) = self.inferno_roots.get(cur.thread as usize) {
                self.frames.push(root);
            }
        }
        let leaf = match self.stack_cache.get(self.frames.as_slice()) {
            Some(&s) => Some(s),
            None => {
                let mut parent: Option<StackId> = None;
                for &f in self.frames.iter().rev() {
                    parent = Some(self.b.stack(parent, f));
                }
                if let Some(s) = parent {
                    self.stack_cache.insert(self.frames.as_slice().into(), s);
                }
                parent
            }
        };
        self.frames.clear();
        if cur.time_ns.is_none() {
            self.untimed += 1;
        }
        self.records += 1;
        self.b.push_full_sample(
            FullSample {
                stack: leaf.unwrap_or(EMPTY_STACK),
                weight: cur.period.unwrap_or(1),
                time_ns: Some(cur.time_ns.unwrap_or(0)),
                thread: Some(cur.thread),
                event: Some(cur.event),
                cpu: Some(cur.cpu.unwrap_or(u32::MAX)),
                labels: None,
            },
            cur.offset,
        )
    }
}

/// Does the input start like `perf script` output? Looks at the first non-comment lines.
pub(crate) fn looks_like_perf(prefix: &[u8], at_end: bool) -> Option<bool> {
    let mut rest = prefix;
    let mut header_seen = false;
    while !rest.is_empty() {
        let (line, next, complete) = match memchr::memchr(b'\n', rest) {
            Some(i) => {
                let (line, next) = split_around(rest, i);
                (line, next, true)
            }
            None => (rest, &[][..], at_end),
        };
        if !complete {
            return None;
        }
        rest = next;
        if line.first() == Some(&b'#') {
            continue;
        }
        let line = trim_ascii(line);
        if line.is_empty() {
            continue;
        }
        if is_side_band(line) {
            continue;
        }
        if !header_seen {
            match parse_header(line) {
                Some(h) => {
                    if !h.tracepoint && parse_frame(h.rest).is_some() {
                        return Some(true);
                    }
                    header_seen = true;
                }
                None => return Some(false),
            }
        } else {
            return Some(parse_frame(line).is_some() || parse_header(line).is_some());
        }
    }
    if header_seen && at_end {
        return Some(true);
    }
    if at_end {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            (h.pid, h.tid, h.period, h.event),
            (None, 913, Some(257597), &b"cycles"[..])
        );
        let h = parse_header(b"func_ab 15294 cpu-clock: ").unwrap();
        assert_eq!((h.time_ns, h.event), (None, &b"cpu-clock"[..]));
        let h = parse_header(b"Gecko\t25122 [007] 115539.936601:\t\t1000000 task-clock:u:").unwrap();
        assert_eq!(
            (h.comm, h.cpu, h.period, h.event),
            (&b"Gecko"[..], Some(7), Some(1_000_000), &b"task-clock"[..])
        );
        let h = parse_header(
            b"perf 12 [000] 5.000000: sched:sched_switch: prev_comm=perf prev_pid=12 ==> next_comm=x",
        )
        .unwrap();
        assert!(h.tracepoint);
        assert_eq!(h.event, b"sched:sched_switch");
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
        assert!(is_kernel_dso("[kernel.kallsyms]") && is_kernel_dso("/lib/modules/4.3/build/vmlinux"));
        assert!(!is_kernel_dso("[unknown]"));
        assert!(is_jit_dso("/tmp/perf-10487.map") && is_jit_dso("/tmp/jitted-31714-4145673320.so"));
    }
}
