//! Event header lines: `comm pid/tid [cpu] time: period event: …`.

use crate::import::lines::{split_around, trim_ascii};

/// A parsed event header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Header<'a> {
    pub comm: &'a [u8],
    pub pid: Option<u32>,
    pub tid: u32,
    pub cpu: Option<u32>,
    pub time_ns: Option<u64>,
    pub period: Option<u64>,
    /// Event name as perf prints it, modifiers included (`cycles:u`), without the trailing `:`; empty when
    /// perf printed none.
    pub event: &'a [u8],
    /// The event name without its modifiers (`cycles` for `cycles:u`).
    pub base: &'a [u8],
    pub tracepoint: bool,
    /// What follows the event: a frame (single-line stacks) or a tracepoint payload.
    pub rest: &'a [u8],
}

pub(super) fn is_space(b: u8) -> bool {
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
pub(super) fn parse_time_ns(tok: &[u8]) -> Option<u64> {
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

/// A pid or tid; perf prints `-1` (with the comm `:-1`) for a task it could not tell, e.g. one in another pid
/// namespace seen by a system-wide recording: that is `u32::MAX`.
fn parse_id(s: &[u8]) -> Option<u32> {
    if s == b"-1" {
        return Some(u32::MAX);
    }
    parse_u32(s)
}

/// `pid/tid` or a single number (perf's tid).
fn parse_pid_tid(tok: &[u8]) -> Option<(Option<u32>, u32)> {
    match memchr::memchr(b'/', tok) {
        Some(i) => {
            let (pid, tid) = split_around(tok, i);
            Some((Some(parse_id(pid)?), parse_id(tid)?))
        }
        None => Some((None, parse_id(tok)?)),
    }
}

/// Event modifiers perf appends after a colon (`cycles:uppp`).
fn is_modifier_suffix(s: &[u8]) -> bool {
    !s.is_empty() && s.len() <= 12 && s.iter().all(|b| b"ukhpPGHISDWebxR".contains(b))
}

/// An event name without the modifiers perf appends after a colon: `cycles` for `cycles:uppp`; a tracepoint
/// (`sched:sched_switch`) or a name without modifiers is returned whole.
pub(super) fn base_name(name: &[u8]) -> &[u8] {
    if let Some(i) = memchr::memrchr(b':', name) {
        let (head, suffix) = split_around(name, i);
        if is_modifier_suffix(suffix) {
            return head;
        }
    }
    name
}

/// Splits an event token (`cycles:uppp:`, `sched:sched_switch:`) into its name (modifiers kept), its base name
/// (modifiers dropped) and whether it is a tracepoint.
fn event_name(tok: &[u8]) -> (&[u8], &[u8], bool) {
    let name = tok.strip_suffix(b":").unwrap_or(tok);
    let base = base_name(name);
    let tracepoint = memchr::memchr(b':', base).is_some();
    (name, base, tracepoint)
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
//   :-1    -1 [001] 21577.933864281:  sched:sched_switch: prev_comm=lto cgu.11 prev_pid=2376 …
pub(super) fn parse_header(line: &[u8]) -> Option<Header<'_>> {
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
        let (event, base, tracepoint) = match tok(j) {
            Some(t) if t.ends_with(b":") && t.len() > 1 && !t.starts_with(b"PERF_RECORD") => {
                j += 1;
                event_name(t)
            }
            _ => (&[][..], &[][..], false),
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
            base,
            tracepoint,
            rest: trim_ascii(line.get(rest_start..).unwrap_or_default()),
        });
    }
    None
}

/// Side-band records printed by `--show-task-events`, `--show-mmap-events`, …: not samples.
pub(super) fn is_side_band(line: &[u8]) -> bool {
    memchr::memmem::find(line, b"PERF_RECORD_").is_some()
}

/// Which lost-events record a side-band line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LostKind {
    /// `PERF_RECORD_LOST`: the kernel's ring buffer was full; one record per stretch ("chunk") of lost events.
    Chunk,
    /// `PERF_RECORD_LOST_SAMPLES`: perf record's own per-CPU summary of the same losses at the end.
    Samples,
}

/// A lost-events line: `comm tid [cpu] time: PERF_RECORD_LOST lost N` as `perf script --show-lost-events`
/// prints it (perf 6.1), and the dump shapes `PERF_RECORD_LOST: id:357: lost:144` and
/// `PERF_RECORD_LOST_SAMPLES: id:…: lost samples :506`. Returns the kind, the timestamp if the line has one, and
/// N; `None` for other side-band lines and for a lost line without a readable count.
pub(super) fn parse_lost(line: &[u8]) -> Option<(LostKind, Option<u64>, u64)> {
    let at = memchr::memmem::find(line, b"PERF_RECORD_LOST")?;
    let after = line.get(at + b"PERF_RECORD_LOST".len()..)?;
    let kind = if after.starts_with(b"_SAMPLES") {
        LostKind::Samples
    } else if after.first().is_none_or(|&b| is_space(b) || b == b':') {
        LostKind::Chunk
    } else {
        return None;
    };
    let i = memchr::memmem::rfind(after, b"lost")?;
    let mut rest = after.get(i + 4..)?;
    let skip = |r: &mut &[u8]| {
        while let Some((&b, tail)) = r.split_first() {
            if is_space(b) || b == b':' {
                *r = tail;
            } else {
                break;
            }
        }
    };
    skip(&mut rest);
    if let Some(r) = rest.strip_prefix(b"samples") {
        rest = r;
        skip(&mut rest);
    }
    let end = rest
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(rest.len());
    let n = parse_u64(rest.get(..end)?)?;
    let time_ns = parse_header(line.get(..at)?).and_then(|h| h.time_ns);
    Some((kind, time_ns, n))
}
