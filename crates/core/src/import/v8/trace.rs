//! Chrome/Edge trace JSON (`[event, ...]` or `{"traceEvents": [event, ...], ...}`): streamed record by record
//! ([`json::ArrayScanner`]); only `Profile`, `ProfileChunk` and `CpuProfile` events, the `thread_name` /
//! `process_name` metadata and the duration and instant events (markers, `marks.rs`) are parsed, into typed
//! structs; every other event is skipped unbuilt.

use super::marks::{is_mark, MarkEvent, Marks};
use super::nodes::{add_samples, Micros, Namer, Node, RawProfile};
use super::{err, with_format, V8Options};
use crate::import::json::{self, ArrayScanner, Record};
use crate::model::{Format, ImportError, ImportErrorKind, Profile, ProfileBuilder, Unit, Warnings};
use rustc_hash::FxHashMap;
use serde::Deserialize;
use std::borrow::Cow;

/// How a duration or instant event's phase is written (`"ph":"X"`, or with a space as Python's json writes).
const MARK_PHASES: [&[u8]; 10] = [
    br#""ph":"X""#,
    br#""ph":"B""#,
    br#""ph":"E""#,
    br#""ph":"I""#,
    br#""ph":"i""#,
    br#""ph": "X""#,
    br#""ph": "B""#,
    br#""ph": "E""#,
    br#""ph": "I""#,
    br#""ph": "i""#,
];

/// The fields that decide whether an event is kept.
#[derive(Deserialize)]
struct Head<'a> {
    #[serde(borrow, default)]
    name: Cow<'a, str>,
    #[serde(borrow, default)]
    ph: Cow<'a, str>,
}

#[derive(Deserialize)]
struct MetaEvent {
    #[serde(default)]
    pid: i64,
    #[serde(default)]
    tid: i64,
    #[serde(default)]
    args: MetaArgs,
}

#[derive(Deserialize, Default)]
struct MetaArgs {
    #[serde(default)]
    name: String,
}

/// A profile's id: a string (`"0x1"`) or a number.
#[derive(Deserialize)]
#[serde(untagged)]
enum Id {
    S(String),
    N(i64),
}

#[derive(Deserialize)]
struct ProfileEvent {
    #[serde(default)]
    pid: i64,
    #[serde(default)]
    tid: i64,
    #[serde(default)]
    id: Option<Id>,
    #[serde(default)]
    args: ProfileArgs,
}

#[derive(Deserialize, Default)]
struct ProfileArgs {
    #[serde(default)]
    data: Option<ProfileData>,
}

#[derive(Deserialize, Default)]
struct ProfileData {
    #[serde(default, rename = "startTime")]
    start_time: Option<Micros>,
    #[serde(default, rename = "endTime")]
    end_time: Option<Micros>,
    #[serde(default, rename = "timeDeltas")]
    time_deltas: Vec<Micros>,
    #[serde(default, rename = "cpuProfile")]
    cpu_profile: Option<ChunkProfile>,
}

#[derive(Deserialize, Default)]
struct ChunkProfile {
    #[serde(default)]
    nodes: Vec<Node>,
    #[serde(default)]
    samples: Vec<i64>,
    /// A whole `CpuProfile` event carries its deltas (and times) here.
    #[serde(default, rename = "timeDeltas")]
    time_deltas: Vec<Micros>,
    #[serde(default, rename = "startTime")]
    start_time: Option<Micros>,
    #[serde(default, rename = "endTime")]
    end_time: Option<Micros>,
}

/// One profile being collected from its events.
struct Acc {
    pid: i64,
    /// The thread of its `Profile` event (the sampled thread; chunks come from the profiler's own thread).
    tid: Option<i64>,
    /// The thread of its first chunk, used when the `Profile` event is missing.
    chunk_tid: i64,
    raw: RawProfile,
}

/// Streams a trace, keeping only the profiles and the names of processes and threads.
pub struct TraceParser {
    scanner: ArrayScanner,
    profiles: Vec<Acc>,
    by_id: FxHashMap<(i64, String), usize>,
    thread_names: FxHashMap<(i64, i64), String>,
    process_names: FxHashMap<i64, String>,
    whole: u64,
    marks: Marks,
}

impl TraceParser {
    pub fn new(opts: &V8Options) -> Self {
        TraceParser {
            scanner: ArrayScanner::new(Format::ChromeTrace, b"traceEvents", opts.max_bytes),
            profiles: Vec::new(),
            by_id: FxHashMap::default(),
            thread_names: FxHashMap::default(),
            process_names: FxHashMap::default(),
            whole: 0,
            marks: Marks::default(),
        }
    }

    /// Samples read so far (for progress).
    pub fn samples(&self) -> usize {
        self.profiles.iter().map(|a| a.raw.samples.len()).sum()
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        let mut scanner =
            std::mem::replace(&mut self.scanner, ArrayScanner::new(Format::ChromeTrace, b"", 0));
        let r = scanner.feed(chunk, &mut |rec| self.event(&rec));
        self.scanner = scanner;
        r.map_err(|e| with_format(e, Format::ChromeTrace))
    }

    fn event(&mut self, rec: &Record<'_>) -> Result<(), ImportError> {
        let b = rec.bytes;
        let finder = |n: &[u8]| memchr::memmem::find(b, n).is_some();
        let mark = MARK_PHASES.iter().any(|p| finder(p));
        let other = finder(b"Profile") || finder(b"_name");
        if mark {
            // A duration or instant event: a marker; one that does not read as one is counted, not an error.
            match serde_json::from_slice::<MarkEvent>(b) {
                Ok(e) if is_mark(e.ph()) => {
                    self.marks.take(e);
                    return Ok(());
                }
                Ok(_) => {}
                Err(_) if !other => {
                    self.marks.skipped += 1;
                    return Ok(());
                }
                Err(_) => {}
            }
        }
        if !other {
            return Ok(());
        }
        let path = rec.path();
        let head: Head = json::parse(Format::ChromeTrace, b, rec.offset, &path)?;
        match (head.name.as_ref(), head.ph.as_ref()) {
            ("thread_name", "M") => {
                let m: MetaEvent = json::parse(Format::ChromeTrace, b, rec.offset, &path)?;
                self.thread_names.insert((m.pid, m.tid), m.args.name);
            }
            ("process_name", "M") => {
                let m: MetaEvent = json::parse(Format::ChromeTrace, b, rec.offset, &path)?;
                self.process_names.insert(m.pid, m.args.name);
            }
            ("Profile" | "ProfileChunk" | "CpuProfile", _) => {
                let e: ProfileEvent = json::parse(Format::ChromeTrace, b, rec.offset, &path)?;
                let id = match (&e.id, head.name.as_ref()) {
                    (_, "CpuProfile") => {
                        self.whole += 1;
                        format!("CpuProfile #{}", self.whole)
                    }
                    (Some(Id::S(s)), _) => s.clone(),
                    (Some(Id::N(n)), _) => n.to_string(),
                    (None, _) => String::new(),
                };
                let next = self.profiles.len();
                let at = *self.by_id.entry((e.pid, id.clone())).or_insert(next);
                if at == next {
                    self.profiles.push(Acc {
                        pid: e.pid,
                        tid: None,
                        chunk_tid: e.tid,
                        raw: RawProfile {
                            path: format!("profile {id:?} of pid {} ({path} on): ", e.pid),
                            offset: rec.offset,
                            ..RawProfile::default()
                        },
                    });
                }
                let Some(acc) = self.profiles.get_mut(at) else {
                    return Ok(());
                };
                if head.name != "ProfileChunk" {
                    acc.tid = Some(e.tid);
                }
                let data = e.args.data.unwrap_or_default();
                let raw = &mut acc.raw;
                raw.start = data.start_time.or(raw.start);
                raw.end = data.end_time.or(raw.end);
                raw.deltas.extend(data.time_deltas);
                if let Some(cp) = data.cpu_profile {
                    raw.nodes.extend(cp.nodes);
                    raw.samples.extend(cp.samples);
                    raw.deltas.extend(cp.time_deltas);
                    raw.start = cp.start_time.or(raw.start);
                    raw.end = cp.end_time.or(raw.end);
                }
            }
            _ => {}
        }
        Ok(())
    }

    pub fn finish(self) -> Result<Profile, ImportError> {
        self.scanner
            .finish()
            .map_err(|e| with_format(e, Format::ChromeTrace))?;
        let events = self.scanner.records();
        self.build(events)
            .map_err(|e| with_format(e, Format::ChromeTrace))
    }

    fn build(self, events: u64) -> Result<Profile, ImportError> {
        let mut b = ProfileBuilder::new(Format::ChromeTrace);
        let mut namer = Namer::default();
        for acc in &self.profiles {
            for n in &acc.raw.nodes {
                namer.add(&n.call_frame);
            }
        }
        namer.seal();
        let mut threads: FxHashMap<(i64, i64), u32> = FxHashMap::default();
        let mut back = 0u64;
        let mut records = 0u64;
        for acc in &self.profiles {
            let tid = acc.tid.unwrap_or(acc.chunk_tid);
            let thread = match threads.get(&(acc.pid, tid)) {
                Some(&t) => t,
                None => {
                    let (Ok(pid), Ok(tid32)) = (u32::try_from(acc.pid), u32::try_from(tid)) else {
                        return Err(err(
                            ImportErrorKind::Malformed,
                            acc.raw.offset,
                            format!("{}pid {} or tid {tid} is out of range", acc.raw.path, acc.pid),
                        ));
                    };
                    let comm = self
                        .thread_names
                        .get(&(acc.pid, tid))
                        .or_else(|| self.process_names.get(&acc.pid))
                        .map(|s| s.trim())
                        .filter(|s| !s.is_empty())
                        .unwrap_or("V8");
                    let comm: String = comm.chars().filter(|c| !c.is_control() && *c != ';').collect();
                    let t = b.thread(&comm, Some(pid), tid32);
                    threads.insert((acc.pid, tid), t);
                    t
                }
            };
            records += add_samples(&mut b, &namer, &acc.raw, Some(thread), &mut back)?;
        }
        if records == 0 {
            return Err(err(
                ImportErrorKind::NoValidRecords,
                0,
                format!(
                    "the trace's {events} events hold no CPU profile samples (record it with the \
                     disabled-by-default-v8.cpu_profiler category)"
                ),
            ));
        }
        let mut pids: Vec<i64> = self.profiles.iter().map(|a| a.pid).collect();
        pids.sort_unstable();
        pids.dedup();
        for pid in pids {
            if let Some(name) = self.process_names.get(&pid) {
                b.add_info(&format!("process {pid}"), name.clone());
            }
        }
        // The duration the trace states: each profile's `startTime` to its `endTime` (V8 writes the end when the
        // profiler stops); over several profiles, the span from the earliest start to the latest end. Only when
        // every profile states both: a trace cut before the profiler stopped has no end, and its first to last
        // sample is what is known.
        let stated: Option<Vec<(i64, i64)>> = self
            .profiles
            .iter()
            .map(|a| Some((a.raw.start.as_ref()?.0, a.raw.end.as_ref()?.0)))
            .collect();
        if let Some(spans) = stated.filter(|s| !s.is_empty()) {
            let start = spans.iter().map(|s| s.0).min().unwrap_or(0);
            let end = spans.iter().map(|s| s.1).max().unwrap_or(0);
            if let Ok(d) = u64::try_from(end.saturating_sub(start)) {
                b.set_duration_ns(d);
            }
        }
        let skipped = self.marks.skipped;
        let (markers, unended) = self.marks.finish(&self.thread_names);
        if !markers.is_empty() {
            b.add_info("markers", markers.len().to_string());
        }
        if skipped > 0 || unended > 0 {
            b.add_info(
                "markers not taken",
                format!(
                    "{} duration or instant events without a time or an end without a begin; {unended} begins never ended (kept as instants)",
                    skipped
                ),
            );
        }
        for m in markers {
            b.marker(m);
        }
        b.add_info("trace events", events.to_string());
        b.add_info("CPU profiles", self.profiles.len().to_string());
        if back > 0 {
            b.add_info(
                "time going back",
                format!("{back} negative timeDeltas (the samples before them weigh 0)"),
            );
        }
        Ok(b.build(Unit::Nanoseconds, 0, records, Warnings::default()))
    }
}
