//! `sched:sched_switch` payloads: the tracepoint's raw record (`PERF_SAMPLE_RAW`) read through the field
//! offsets its format text gives in the recording's tracing data (`HEADER_TRACING_DATA`), into the labels the
//! perf script reader keeps from perf's text of the same payload (`prev_pid`, `prev_state`, `next_pid`), from
//! which off-CPU time is derived once the whole profile is read (`import::perf::derive_offcpu`, called by the
//! dispatcher).
//!
//! The format text, as the kernel writes it (`/sys/kernel/tracing/events/sched/sched_switch/format`) and perf
//! copies it into the tracing data:
//!
//! ```text
//! name: sched_switch
//! ID: 316
//! format:
//!         field:unsigned short common_type;       offset:0;       size:2; signed:0;
//!         …
//!         field:char prev_comm[16];       offset:8;       size:16;        signed:0;
//!         field:pid_t prev_pid;   offset:24;      size:4; signed:1;
//!         field:int prev_prio;    offset:28;      size:4; signed:1;
//!         field:long prev_state;  offset:32;      size:8; signed:1;
//!         field:char next_comm[16];       offset:40;      size:16;        signed:0;
//!         field:pid_t next_pid;   offset:56;      size:4; signed:1;
//!         field:int next_prio;    offset:60;      size:4; signed:1;
//!
//! print fmt: "prev_comm=%s … prev_state=%s%s ==> …", …, (REC->prev_state & ((((0x00000000 | 0x00000001 | …
//!   __print_flags(REC->prev_state & (…), "|", { 0x00000001, "S" }, { 0x00000002, "D" }, …) : "R", …
//! ```
//!
//! `prev_state` is printed as perf prints it: the letters of its flags (the `{ 0xN, "L" }` pairs of the print
//! format, joined by `|`), `R` when none is set, and `+` after when the bit above all of them is (a task
//! preempted while running). Without a format text (a recording whose tracing data is missing) the kernel's
//! layout since 4.14 and its letters are assumed, and the profile's facts say so.

use super::bytes::Buf;
use crate::model::{LabelValue, ProfileBuilder};

/// The tracepoint's name in its format text.
const NAME: &[u8] = b"name: sched_switch\n";

/// A field's place in the raw payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Field {
    pub offset: usize,
    pub size: usize,
}

/// Where `sched_switch`'s fields are, and how `prev_state` is spelled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SwitchLayout {
    pub prev_comm: Field,
    pub prev_pid: Field,
    pub prev_state: Field,
    pub next_comm: Field,
    pub next_pid: Field,
    /// (flag, letter) of `prev_state`, as the print format lists them.
    pub states: Vec<(u64, String)>,
    /// Whether this came from the recording's format text (else the kernel's layout was assumed).
    pub from_format: bool,
}

impl SwitchLayout {
    /// The layout of Linux 4.14 and later (x86-64 and every 64-bit architecture), for a recording without
    /// the format text.
    pub fn assumed() -> SwitchLayout {
        let f = |offset, size| Field { offset, size };
        SwitchLayout {
            prev_comm: f(8, 16),
            prev_pid: f(24, 4),
            prev_state: f(32, 8),
            next_comm: f(40, 16),
            next_pid: f(56, 4),
            states: ["S", "D", "T", "t", "X", "Z", "P", "I"]
                .iter()
                .enumerate()
                .map(|(i, l)| (1u64 << i, (*l).to_string()))
                .collect(),
            from_format: false,
        }
    }

    /// Finds `sched_switch`'s format text in the tracing data and reads it; `None` when it is not there or
    /// lacks a field.
    pub fn from_tracing_data(data: &[u8]) -> Option<SwitchLayout> {
        let at = memchr::memmem::find(data, NAME)?;
        let text = data.get(at..)?;
        let end = memchr::memchr(0, text).unwrap_or(text.len());
        let text = text.get(..end)?;
        let (mut pc, mut pp, mut ps, mut nc, mut np) = (None, None, None, None, None);
        let mut states = Vec::new();
        for line in text.split(|&b| b == b'\n') {
            let line = String::from_utf8_lossy(line);
            let line = line.trim();
            if let Some(fmt) = line.strip_prefix("print fmt:") {
                states = flag_letters(fmt);
                break;
            }
            let Some((name, field)) = field_line(line) else {
                continue;
            };
            match name {
                "prev_comm" => pc = Some(field),
                "prev_pid" => pp = Some(field),
                "prev_state" => ps = Some(field),
                "next_comm" => nc = Some(field),
                "next_pid" => np = Some(field),
                _ => {}
            }
        }
        if states.is_empty() {
            states = SwitchLayout::assumed().states;
        }
        Some(SwitchLayout {
            prev_comm: pc?,
            prev_pid: pp?,
            prev_state: ps?,
            next_comm: nc?,
            next_pid: np?,
            states,
            from_format: true,
        })
    }
}

/// `field:pid_t prev_pid; offset:24; size:4; signed:1;` (tab-separated) → (`prev_pid`, its place).
fn field_line(line: &str) -> Option<(&str, Field)> {
    let rest = line.strip_prefix("field:")?;
    let mut parts = rest.split(';').map(str::trim);
    let decl = parts.next()?;
    // The last word of the declaration, without an array suffix: `char prev_comm[16]` → `prev_comm`.
    let name = decl.rsplit(' ').next()?;
    let name = name.split('[').next()?;
    let mut offset = None;
    let mut size = None;
    for p in parts {
        if let Some(v) = p.strip_prefix("offset:") {
            offset = v.parse().ok();
        } else if let Some(v) = p.strip_prefix("size:") {
            size = v.parse().ok();
        }
    }
    Some((
        name,
        Field {
            offset: offset?,
            size: size?,
        },
    ))
}

/// The `{ 0x00000001, "S" }` pairs of a print format.
fn flag_letters(fmt: &str) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    let mut rest = fmt;
    while let Some(open) = rest.find("{ 0x") {
        rest = rest.get(open + 4..).unwrap_or_default();
        let Some(comma) = rest.find(',') else { break };
        let value = u64::from_str_radix(rest.get(..comma).unwrap_or_default().trim(), 16);
        let after = rest.get(comma + 1..).unwrap_or_default().trim_start();
        let letter = after
            .strip_prefix('"')
            .and_then(|s| s.split_once('"'))
            .map(|(l, _)| l.to_string());
        if let (Ok(v), Some(l)) = (value, letter) {
            out.push((v, l));
        }
    }
    out
}

/// One `sched_switch` payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Switch {
    pub prev_comm: String,
    pub prev_pid: u32,
    pub prev_state: String,
    pub next_comm: String,
    pub next_pid: u32,
}

/// Reads a payload (`raw`: the sample's raw data, its first byte at offset 0 of the format); `None` when a
/// field lies past it or a pid is negative.
pub(super) fn parse_switch(raw: &[u8], l: &SwitchLayout, big: bool) -> Option<Switch> {
    let b = Buf { data: raw, big };
    let uint = |f: Field| -> Option<u64> {
        match f.size {
            1 => b.u8(f.offset).map(u64::from),
            2 => b.u16(f.offset).map(u64::from),
            4 => b.u32(f.offset).map(u64::from),
            8 => b.u64(f.offset),
            _ => None,
        }
    };
    let pid = |f: Field| -> Option<u32> { u32::try_from(i32::try_from(uint(f)?).ok()?).ok() };
    let comm = |f: Field| -> Option<String> {
        let bytes = raw.get(f.offset..f.offset.checked_add(f.size)?)?;
        let end = memchr::memchr(0, bytes).unwrap_or(bytes.len());
        Some(String::from_utf8_lossy(bytes.get(..end)?).into_owned())
    };
    Some(Switch {
        prev_comm: comm(l.prev_comm)?,
        prev_pid: pid(l.prev_pid)?,
        prev_state: state_text(uint(l.prev_state)?, &l.states),
        next_comm: comm(l.next_comm)?,
        next_pid: pid(l.next_pid)?,
    })
}

/// `prev_state` as perf prints it: the letters of its flags joined by `|`, else `R`; `+` when the bit above
/// every flag is set.
fn state_text(state: u64, states: &[(u64, String)]) -> String {
    let all = states.iter().fold(0u64, |a, (v, _)| a | v);
    // The bit above every flag (TASK_REPORT_MAX: preempted while running).
    let above = all.checked_add(1).map_or(0, |a| a.next_power_of_two());
    let mut out = String::new();
    for (v, l) in states {
        if *v != 0 && state & v == *v {
            if !out.is_empty() {
                out.push('|');
            }
            out.push_str(l);
        }
    }
    if out.is_empty() {
        out.push('R');
    }
    if above != 0 && state & above != 0 {
        out.push('+');
    }
    out
}

/// The label set of a switch sample: the keys and values the perf script reader gives the same payload.
pub(super) fn switch_labels(b: &mut ProfileBuilder, s: &Switch) -> u32 {
    use crate::model::{SWITCH_NEXT_PID, SWITCH_PREV_PID, SWITCH_PREV_STATE};
    let (kp, ks, kn) = (
        b.intern(SWITCH_PREV_PID),
        b.intern(SWITCH_PREV_STATE),
        b.intern(SWITCH_NEXT_PID),
    );
    let state = b.intern(&s.prev_state);
    b.label_set(vec![
        (kp, LabelValue::Num(i64::from(s.prev_pid), None)),
        (ks, LabelValue::Str(state)),
        (kn, LabelValue::Num(i64::from(s.next_pid), None)),
    ])
}

/// The reader's side: each sample's label set. Once a sample has labels every sample carries a set (the others
/// the empty one), as the perf script reader does, so the label column is whole.
#[derive(Debug, Default)]
pub(super) struct SwitchLabels {
    /// The empty label set, once a switch sample was labelled.
    empty: Option<u32>,
    /// Switch samples whose payload could not be read (counted; they stay unlabelled).
    pub unread: u64,
    /// Whether the kernel's layout was assumed (no format text in the recording).
    pub assumed: bool,
}

impl SwitchLabels {
    /// The label set of a sample of event `name` with raw payload `raw` (`None`: no labels so far).
    pub fn of(
        &mut self,
        b: &mut ProfileBuilder,
        layout: Option<&SwitchLayout>,
        name: &str,
        raw: Option<&[u8]>,
        big: bool,
    ) -> Option<u32> {
        if name != "sched:sched_switch" {
            return self.empty;
        }
        let assumed;
        let layout = match layout {
            Some(l) => l,
            None => {
                self.assumed = true;
                assumed = SwitchLayout::assumed();
                &assumed
            }
        };
        let Some(s) = raw.and_then(|r| parse_switch(r, layout, big)) else {
            self.unread += 1;
            return self.empty;
        };
        if self.empty.is_none() {
            let empty = b.label_set(Vec::new());
            b.ensure_labels(empty);
            self.empty = Some(empty);
        }
        Some(switch_labels(b, &s))
    }
}

/// The instant marker of a tracepoint sample of event `event` at `time_ns` (`raw`: its payload): named by its
/// event, `sched:sched_switch` followed by the two tasks (`PREV → NEXT`) when its payload reads, as the perf
/// script reader names it.
#[allow(clippy::too_many_arguments)]
pub(super) fn marker(
    event: String,
    layout: Option<&SwitchLayout>,
    raw: Option<&[u8]>,
    big: bool,
    comm: String,
    pid: Option<u32>,
    tid: Option<u32>,
    time_ns: u64,
) -> crate::model::Marker {
    let mut fields = Vec::new();
    let mut name = event.clone();
    if event == "sched:sched_switch" {
        let assumed = SwitchLayout::assumed();
        let layout = layout.unwrap_or(&assumed);
        if let Some(s) = raw.and_then(|r| parse_switch(r, layout, big)) {
            name = format!("{event} {} → {}", s.prev_comm, s.next_comm);
            fields = vec![
                ("prev_pid".to_string(), s.prev_pid.to_string()),
                ("prev_state".to_string(), s.prev_state.clone()),
                ("next_pid".to_string(), s.next_pid.to_string()),
            ];
        }
    }
    crate::model::Marker {
        name: crate::import::safe_text(&name),
        category: "tracepoint".to_string(),
        pid,
        tid,
        thread: crate::import::safe_text(&comm),
        start_ns: time_ns,
        end_ns: None,
        fields,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORMAT: &str = "name: sched_switch\nID: 316\nformat:\n\
        \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
        \tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n\
        \tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n\
        \tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n\
        \tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n\
        \tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n\
        \tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n\
        \tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n\
        print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d \
        next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & ((((0x00000000 | \
        0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) \
        - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | \
        0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, \
        { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, \
        { 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & \
        (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | \
        0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n";

    fn payload(prev: &str, prev_pid: i32, state: u64, next: &str, next_pid: i32) -> Vec<u8> {
        let mut raw = vec![0u8; 64];
        raw[8..8 + prev.len()].copy_from_slice(prev.as_bytes());
        raw[24..28].copy_from_slice(&prev_pid.to_le_bytes());
        raw[32..40].copy_from_slice(&state.to_le_bytes());
        raw[40..40 + next.len()].copy_from_slice(next.as_bytes());
        raw[56..60].copy_from_slice(&next_pid.to_le_bytes());
        raw
    }

    #[test]
    fn the_format_text_gives_the_fields_and_the_letters() {
        let mut data = b"\x17\x08Dtracing0.6\0...".to_vec();
        data.extend_from_slice(FORMAT.as_bytes());
        data.push(0);
        let l = SwitchLayout::from_tracing_data(&data).unwrap();
        assert!(l.from_format);
        let assumed = SwitchLayout::assumed();
        assert_eq!(
            (l.prev_pid, l.prev_state, l.next_pid),
            (assumed.prev_pid, assumed.prev_state, assumed.next_pid)
        );
        assert_eq!(l.states, assumed.states);
        let s = parse_switch(&payload("rustc", 20445, 0, "perf-exec", 20612), &l, false).unwrap();
        assert_eq!(
            s,
            Switch {
                prev_comm: "rustc".into(),
                prev_pid: 20445,
                prev_state: "R".into(),
                next_comm: "perf-exec".into(),
                next_pid: 20612,
            }
        );
        let state = |v| {
            parse_switch(&payload("a", 1, v, "b", 2), &l, false)
                .unwrap()
                .prev_state
        };
        assert_eq!(state(1), "S");
        assert_eq!(state(2), "D");
        assert_eq!(state(0x100), "R+");
        assert_eq!(state(0x10), "X");
        assert_eq!(state(0x80), "I");
        assert_eq!(state(0x3), "S|D");
        // A payload cut short, a negative pid: no switch.
        assert!(parse_switch(&payload("a", 1, 1, "b", 2)[..50], &l, false).is_none());
        assert!(parse_switch(&payload("a", -1, 1, "b", 2), &l, false).is_none());
        // Another kernel's layout (an int prev_state at 28) is read where its format says.
        let moved = FORMAT
            .replace(
                "field:int prev_prio;\toffset:28;\tsize:4",
                "field:int prev_prio;\toffset:32;\tsize:4",
            )
            .replace(
                "field:long prev_state;\toffset:32;\tsize:8",
                "field:long prev_state;\toffset:28;\tsize:4",
            );
        let l2 = SwitchLayout::from_tracing_data(moved.as_bytes()).unwrap();
        assert_eq!(l2.prev_state, Field { offset: 28, size: 4 });
        let mut raw = payload("a", 1, 0, "b", 2);
        raw[28..32].copy_from_slice(&2u32.to_le_bytes());
        assert_eq!(parse_switch(&raw, &l2, false).unwrap().prev_state, "D");
        assert!(SwitchLayout::from_tracing_data(b"name: sched_wakeup\n").is_none());
    }

    #[test]
    fn switch_samples_are_labelled_and_then_every_sample_carries_a_set() {
        use crate::model::Format;
        let mut b = ProfileBuilder::new(Format::PerfData);
        let mut s = SwitchLabels::default();
        let raw = payload("a", 10, 1, "b", 20);
        assert_eq!(s.of(&mut b, None, "cpu-clock", None, false), None);
        let set = s.of(&mut b, None, "sched:sched_switch", Some(&raw), false);
        assert!(set.is_some() && s.assumed);
        let empty = s.of(&mut b, None, "cpu-clock", None, false);
        assert!(empty.is_some() && empty != set);
        assert_eq!(
            s.of(&mut b, None, "sched:sched_switch", Some(&raw[..20]), false),
            empty
        );
        assert_eq!(s.unread, 1);
    }

    /// The tracing data of a system-wide recording made here (`crates/cli/tests/data/perfdata/sys.data`):
    /// its `sched_switch` format is found and read (this kernel's layout is the one assumed without it).
    #[test]
    fn a_real_recordings_tracing_data_gives_the_layout() {
        let file: &[u8] = include_bytes!("../../../../cli/tests/data/perfdata/sys.data");
        let u64_at = |at: usize| u64::from_le_bytes(file[at..at + 8].try_into().unwrap()) as usize;
        let sections = u64_at(40) + u64_at(48);
        let bits = u64_at(72);
        assert!(bits & 2 != 0, "the recording has tracing data");
        // Feature bit 1 is the first set (bit 0 is unused): its `perf_file_section` comes first.
        assert_eq!(bits & 1, 0);
        let (at, size) = (u64_at(sections), u64_at(sections + 8));
        let l = SwitchLayout::from_tracing_data(&file[at..at + size]).unwrap();
        assert!(l.from_format);
        let assumed = SwitchLayout::assumed();
        assert_eq!(
            (
                l.prev_comm,
                l.prev_pid,
                l.prev_state,
                l.next_comm,
                l.next_pid,
                &l.states
            ),
            (
                assumed.prev_comm,
                assumed.prev_pid,
                assumed.prev_state,
                assumed.next_comm,
                assumed.next_pid,
                &assumed.states
            )
        );
    }
}
