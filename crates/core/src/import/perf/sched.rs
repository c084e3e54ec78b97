//! Off-CPU time from scheduler events, derived once the whole input is read (docs/FORMATS.md, "Off-CPU time").
//!
//! The reader keeps each `sched:sched_switch` payload as a label set {`prev_pid`, `prev_state`, `next_pid`} on
//! the raw sample ([`switch_labels`]); [`derive_offcpu`] then walks the switch samples in time order with one
//! map from thread id to its pending switch-out: a switch-out of T (`prev_pid=T`, T's stack) at t₀ waits until
//! T's next switch-in (`next_pid=T`, on any CPU) at t₁ (unless T left as a zombie or dead: `prev_state` Z or X
//! is its exit, not a wait), and becomes a sample of the event [`OFFCPU_EVENT`]
//! weighing t₁ − t₀ ns on the switch-out's stack, thread and CPU, at t₀, labelled {`state`=prev_state}. A
//! switch-out never followed by a switch-in is a counted warning, never guessed. Where on-CPU samples in
//! nanoseconds (`cpu-clock`, `task-clock`) were recorded too, [`WALL_EVENT`] holds both halves, labelled
//! {`cpu`=on} and {`cpu`=off, …}.
//!
//! It works on a parsed [`Profile`], not on the reader's state, so it gives the same answer however the input
//! was cut and parsed (one reader, or slices merged afterwards): run it once, on the whole profile. Running it
//! again changes nothing. Memory: the pending map (one entry per thread waiting) beside the sample table.

use crate::model::{LabelValue, Profile, ProfileBuilder, StrId, Unit};
use rustc_hash::FxHashMap;

/// The derived off-CPU event's name. It holds spaces, so no perf event (one token) can be called so.
pub const OFFCPU_EVENT: &str = "off-CPU time (from sched_switch)";
/// The derived wall-clock event's name: on-CPU samples weighed by their period plus off-CPU waits.
pub const WALL_EVENT: &str = "wall-clock (on-CPU + off-CPU)";
/// The raw scheduler event whose payload is read.
pub const SCHED_SWITCH: &str = "sched:sched_switch";
/// `perf record --off-cpu`'s event: its period is the off-CPU time in ns.
pub const OFFCPU_TIME: &str = "offcpu-time";

/// Label keys on the raw `sched:sched_switch` samples.
pub const PREV_PID: &str = crate::model::SWITCH_PREV_PID;
pub const PREV_STATE: &str = crate::model::SWITCH_PREV_STATE;
pub const NEXT_PID: &str = crate::model::SWITCH_NEXT_PID;
/// Label key of the derived samples: the state the thread left the CPU in (S, D, R, R+, …).
pub const STATE: &str = "state";
/// Label key of the wall-clock samples: `on` or `off`.
pub const CPU: &str = "cpu";
/// The key of the profile's note (`Meta::info`) on what was derived, or why not.
pub const NOTE: &str = crate::model::OFF_CPU_NOTE;

/// A `sched:sched_switch` payload: `prev_comm=… prev_pid=… prev_prio=… prev_state=S ==> next_comm=… next_pid=…
/// next_prio=…`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Switch<'a> {
    pub prev_pid: u32,
    pub prev_state: &'a [u8],
    pub next_pid: u32,
}

/// The value after ` key=` (the last such field in `s`: a comm printed before it may hold anything), up to the
/// next space.
fn field<'a>(s: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
    let at = memchr::memmem::rfind(s, key)?;
    let v = s.get(at + key.len()..)?;
    let end = v.iter().position(|&b| b == b' ' || b == b'\t').unwrap_or(v.len());
    v.get(..end).filter(|v| !v.is_empty())
}

fn pid(v: &[u8]) -> Option<u32> {
    if v.len() > 10 || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(v).ok()?.parse().ok()
}

/// Reads the payload; `None` when a field is missing or not a number.
pub(super) fn parse_switch(payload: &[u8]) -> Option<Switch<'_>> {
    // next_comm comes before next_pid and may hold anything: the last ` next_pid=` is the field.
    let at = memchr::memmem::rfind(payload, b" next_pid=")?;
    let next_pid = pid(field(payload.get(at..)?, b" next_pid=")?)?;
    let prev = payload.get(..at)?;
    let arrow = memchr::memmem::rfind(prev, b" ==> ")?;
    let prev = prev.get(..arrow)?;
    Some(Switch {
        prev_pid: pid(field(prev, b" prev_pid=")?)?,
        prev_state: field(prev, b" prev_state=")?,
        next_pid,
    })
}

/// The label set of a switch sample.
pub(super) fn switch_labels(b: &mut ProfileBuilder, s: &Switch<'_>) -> u32 {
    let (kp, ks, kn) = (b.intern(PREV_PID), b.intern(PREV_STATE), b.intern(NEXT_PID));
    let state = b.intern(&String::from_utf8_lossy(s.prev_state));
    b.label_set(vec![
        (kp, LabelValue::Num(i64::from(s.prev_pid), None)),
        (ks, LabelValue::Str(state)),
        (kn, LabelValue::Num(i64::from(s.next_pid), None)),
    ])
}

/// One label set's switch fields, read back.
#[derive(Debug, Clone, Copy)]
struct SetFields {
    prev_pid: u32,
    state: StrId,
    /// `prev_state` Z (zombie) or X (dead): the thread's last switch-out, not a wait.
    dead: bool,
    next_pid: u32,
}

fn set_fields(p: &Profile) -> Vec<Option<SetFields>> {
    let num = |v: LabelValue| match v {
        LabelValue::Num(n, None) => u32::try_from(n).ok(),
        _ => None,
    };
    p.label_sets
        .iter()
        .map(|set| {
            let (mut pp, mut st, mut np) = (None, None, None);
            for l in set {
                match p.strings.get(l.key) {
                    PREV_PID => pp = num(l.value),
                    NEXT_PID => np = num(l.value),
                    PREV_STATE => {
                        if let LabelValue::Str(s) = l.value {
                            st = Some(s);
                        }
                    }
                    _ => {}
                }
            }
            let state = st?;
            Some(SetFields {
                prev_pid: pp?,
                state,
                dead: p.strings.get(state).starts_with(['Z', 'X']),
                next_pid: np?,
            })
        })
        .collect()
}

/// A derived off-CPU wait: the switch-out sample, its weight in ns, its state.
#[derive(Debug, Clone, Copy)]
struct Wait {
    sample: u32,
    ns: u64,
    state: StrId,
}

fn seconds(ns: u64) -> String {
    format!("{}.{:06}", ns / 1_000_000_000, ns % 1_000_000_000 / 1000)
}

/// What the matching found.
#[derive(Debug, Default)]
struct Matched {
    /// In the switch-outs' time order.
    waits: Vec<Wait>,
    /// Switch-outs (of a thread other than the idle task).
    outs: u64,
    unmatched: u64,
    /// The first unmatched ones' texts (at most the `keep` asked for, at least one).
    texts: Vec<String>,
}

/// Matches switch-outs to switch-ins in time order.
fn match_waits(
    p: &Profile,
    event: u16,
    (times, events, labels): (&[u64], &[u16], &[u32]),
    keep: usize,
) -> Matched {
    let fields = set_fields(p);
    let threads = p.samples.thread.as_deref().unwrap_or(&[]);
    let is_switch = |i: usize| events.get(i) == Some(&event);
    let n = p.samples.len();
    let mut prev_t = 0u64;
    let sorted = (0..n).filter(|&i| is_switch(i)).all(|i| {
        let t = times.get(i).copied().unwrap_or(0);
        let ok = t >= prev_t;
        prev_t = t;
        ok
    });
    // perf script prints in time order; merged slices or a hand-made file may not be.
    let order: Box<dyn Iterator<Item = usize>> = if sorted {
        Box::new((0..n).filter(move |&i| is_switch(i)))
    } else {
        let mut idx: Vec<u32> = (0..n).filter(|&i| is_switch(i)).map(|i| i as u32).collect();
        idx.sort_by_key(|&i| (times.get(i as usize).copied().unwrap_or(0), i));
        Box::new(idx.into_iter().map(|i| i as usize))
    };
    let mut pending: FxHashMap<u32, u32> = FxHashMap::default();
    let mut waits = Vec::new();
    let (mut unmatched, mut texts, mut outs) = (0u64, Vec::new(), 0u64);
    let mut unmatched_at = |i: u32, tid: u32, texts: &mut Vec<String>| {
        unmatched += 1;
        if texts.len() < keep.max(1) {
            let t = times.get(i as usize).copied().unwrap_or(0);
            let comm = threads
                .get(i as usize)
                .and_then(|&th| p.threads.comm.get(th as usize))
                .map_or("", |&c| p.strings.get(c));
            texts.push(format!(
                "sched_switch at {} s: thread {comm} {tid} switched out and was never seen switching back in \
                 (next_pid={tid}); its off-CPU time is unknown and left out",
                seconds(t)
            ));
        }
    };
    for i in order {
        let Some(f) = labels
            .get(i)
            .and_then(|&s| fields.get(s as usize))
            .copied()
            .flatten()
        else {
            continue;
        };
        let t = times.get(i).copied().unwrap_or(0);
        // pid 0 is the idle task, one per CPU: it has no off-CPU time.
        if f.next_pid != 0 {
            if let Some(out) = pending.remove(&f.next_pid) {
                let t0 = times.get(out as usize).copied().unwrap_or(0);
                let state = labels
                    .get(out as usize)
                    .and_then(|&s| fields.get(s as usize).copied().flatten())
                    .map_or(f.state, |o| o.state);
                waits.push(Wait {
                    sample: out,
                    ns: t.saturating_sub(t0),
                    state,
                });
            }
        }
        if f.prev_pid != 0 && !f.dead {
            outs += 1;
            if let Some(old) = pending.insert(f.prev_pid, i as u32) {
                unmatched_at(old, f.prev_pid, &mut texts);
            }
        }
    }
    let mut rest: Vec<(u32, u32)> = pending.into_iter().map(|(tid, i)| (i, tid)).collect();
    rest.sort_unstable();
    for (i, tid) in rest {
        unmatched_at(i, tid, &mut texts);
    }
    // A wait is pushed when its switch-in is seen: put them back in switch-out order.
    waits.sort_by_key(|w| (times.get(w.sample as usize).copied().unwrap_or(0), w.sample));
    Matched {
        waits,
        outs,
        unmatched,
        texts,
    }
}

/// A sample's stack, weight, time, thread and CPU, copied to the derived events.
type Row = (crate::model::StackId, u64, Option<u64>, Option<u32>, Option<u32>);

/// Adds the derived events (off-CPU time from `sched:sched_switch`, wall-clock) to a perf profile; returns it
/// unchanged when there is nothing to derive or it was derived already. See the module's documentation.
pub fn derive_offcpu(p: Profile) -> Profile {
    let find = |name: &str| p.events.iter().position(|e| e.name == name).map(|i| i as u16);
    if find(OFFCPU_EVENT).is_some()
        || find(WALL_EVENT).is_some()
        || p.meta.info.iter().any(|(k, _)| k == NOTE)
    {
        return p;
    }
    let switch = find(SCHED_SWITCH).filter(|&e| p.events.get(usize::from(e)).is_some_and(|e| e.samples > 0));
    let offcpu_time = find(OFFCPU_TIME);
    let on_cpu = p
        .events
        .iter()
        .position(|e| e.unit == Unit::Nanoseconds && e.name != OFFCPU_TIME && e.samples > 0)
        .map(|i| i as u16);
    if switch.is_none() && offcpu_time.is_none() {
        return p;
    }
    let on_name = on_cpu
        .and_then(|e| p.events.get(usize::from(e)))
        .map(|e| e.name.clone());
    // An on-CPU event that counts something other than time (`cycles`): no wall-clock, and the note says why.
    let counted = p
        .events
        .iter()
        .find(|e| {
            let base = super::event_base(&e.name);
            e.samples > 0 && base != SCHED_SWITCH && base != OFFCPU_TIME && !base.contains(':')
        })
        .map(|e| e.name.clone());
    let (unit, decimals, records) = (p.meta.unit.clone(), p.meta.decimals, p.meta.records);
    let mut warnings = p.meta.warnings.clone();
    let no_labels = Vec::new();
    let (times, events) = match (&p.samples.time_ns, &p.samples.event) {
        (Some(t), Some(e)) => (t, e),
        _ => {
            if switch.is_some() {
                warnings.push(
                    crate::model::WarningKind::NoOffCpu,
                    0,
                    0,
                    "sched_switch events without timestamps: no off-CPU time can be derived",
                );
            }
            let mut p = p;
            p.meta.warnings = warnings;
            p.meta
                .info
                .push((NOTE.into(), "none: the samples have no timestamps".into()));
            return p;
        }
    };
    let labels = p.samples.labels.as_ref().unwrap_or(&no_labels);
    let Matched {
        waits,
        outs,
        unmatched,
        mut texts,
    } = match switch {
        Some(e) => match_waits(
            &p,
            e,
            (times, events, labels),
            warnings.keep.saturating_sub(warnings.first.len()),
        ),
        None => Matched::default(),
    };
    // Every unmatched switch-out is one warning; the first ones are kept with their text, the first of them
    // after a summary with what to do.
    if let Some(first) = texts.first_mut() {
        *first = format!(
            "{unmatched} of {outs} switch-outs were never followed by a switch-in of their thread, so their \
             off-CPU time is unknown and left out{}. The first: {first}",
            if unmatched * 2 > outs {
                " (a recording of one command, perf record without -a, sees a thread switch in only from \
                 its own process: record system-wide with -a, and filter the tracepoint on the comm with \
                 --filter 'prev_comm == \"NAME\" || next_comm == \"NAME\"' to keep the file small)"
            } else {
                ""
            }
        );
    }
    let kept = texts.len() as u64;
    for t in texts {
        warnings.push(crate::model::WarningKind::UnmatchedSwitchOut, 0, 0, t);
    }
    warnings.count_more(
        crate::model::WarningKind::UnmatchedSwitchOut,
        unmatched.saturating_sub(kept),
    );
    // The off-CPU half of wall-clock: the derived waits, else perf --off-cpu's own samples.
    let offcpu_samples: Vec<u32> = match (switch, offcpu_time) {
        (None, Some(e)) => (0..p.samples.len())
            .filter(|&i| events.get(i) == Some(&e))
            .map(|i| i as u32)
            .collect(),
        _ => Vec::new(),
    };
    let on_samples: Vec<u32> = match on_cpu {
        Some(e) if !waits.is_empty() || !offcpu_samples.is_empty() => (0..p.samples.len())
            .filter(|&i| events.get(i) == Some(&e))
            .map(|i| i as u32)
            .collect(),
        _ => Vec::new(),
    };
    let sample = |i: u32| -> Row {
        let i = i as usize;
        (
            p.samples
                .stack
                .get(i)
                .copied()
                .unwrap_or(crate::model::EMPTY_STACK),
            p.samples.weight.get(i).copied().unwrap_or(0),
            times.get(i).copied(),
            p.samples.thread.as_ref().and_then(|c| c.get(i)).copied(),
            p.samples.cpu.as_ref().and_then(|c| c.get(i)).copied(),
        )
    };
    let rows: Vec<_> = waits.iter().map(|w| (sample(w.sample), w.ns, w.state)).collect();
    let on_rows: Vec<_> = on_samples.iter().map(|&i| sample(i)).collect();
    let off_rows: Vec<_> = offcpu_samples.iter().map(|&i| sample(i)).collect();
    let has_switch = switch.is_some();
    let mut b = ProfileBuilder::from_profile(p);
    let empty = b.label_set(Vec::new());
    b.ensure_labels(empty);
    let (k_state, k_cpu) = (b.intern(STATE), b.intern(CPU));
    let (on, off) = (b.intern("on"), b.intern("off"));
    let push = |b: &mut ProfileBuilder, row: Row, w: u64, event: u16, labels: u32| {
        b.push_full_sample(
            crate::model::FullSample {
                stack: row.0,
                weight: w,
                time_ns: row.2,
                thread: row.3,
                event: Some(event),
                cpu: row.4,
                labels: Some(labels),
            },
            0,
        )
    };
    let mut failed = false;
    if has_switch {
        let e = b.derived_event(OFFCPU_EVENT, Unit::Nanoseconds);
        for &(row, ns, state) in &rows {
            let set = b.label_set(vec![(k_state, LabelValue::Str(state))]);
            failed |= push(&mut b, row, ns, e, set).is_err();
        }
    }
    if !on_rows.is_empty() && !failed {
        let e = b.derived_event(WALL_EVENT, Unit::Nanoseconds);
        let on_set = b.label_set(vec![(k_cpu, LabelValue::Str(on))]);
        for &row in &on_rows {
            failed |= push(&mut b, row, row.1, e, on_set).is_err();
        }
        for &(row, ns, state) in &rows {
            let set = b.label_set(vec![
                (k_cpu, LabelValue::Str(off)),
                (k_state, LabelValue::Str(state)),
            ]);
            failed |= push(&mut b, row, ns, e, set).is_err();
        }
        let off_set = b.label_set(vec![(k_cpu, LabelValue::Str(off))]);
        for &row in &off_rows {
            failed |= push(&mut b, row, row.1, e, off_set).is_err();
        }
    }
    if failed {
        warnings.push(
            crate::model::WarningKind::Overflow,
            0,
            0,
            "the derived off-CPU and wall-clock weights overflow 2^64-1 with the others: some were left out",
        );
    }
    let off_note = if has_switch {
        format!(
            "{} waits from {SCHED_SWITCH} ({unmatched} of {outs} switch-outs never switched back in)",
            rows.len()
        )
    } else {
        format!("{OFFCPU_TIME} from perf record --off-cpu (its period is the time off the CPU)")
    };
    let wall_note = match (&on_name, &counted) {
        (Some(on), _) if !on_rows.is_empty() => format!("wall-clock = {on} (on-CPU, its period in ns) + off-CPU"),
        (Some(_), _) => "no wall-clock: no off-CPU waits".to_string(),
        (_, Some(c)) => format!(
            "no wall-clock: the on-CPU event {c} counts events, not time (record cpu-clock or task-clock for one)"
        ),
        _ => "no wall-clock: no on-CPU samples".to_string(),
    };
    b.add_info(NOTE, format!("{off_note}; {wall_note}"));
    b.build(unit, decimals, records, warnings)
}

#[cfg(test)]
#[path = "sched_tests.rs"]
mod tests;
