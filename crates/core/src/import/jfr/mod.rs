//! Java Flight Recorder recordings (`java -XX:StartFlightRecording`, `jcmd PID JFR.dump`, JDK Mission
//! Control, async-profiler's `.jfr`): one or more chunks, each a header (`FLR\0`, version, size, tick rate),
//! events that start with their size and type id, a metadata event describing every type by its fields, and
//! constant pools (stack traces, methods, classes, symbols, threads) the events refer to by index. Held whole
//! (capped by `max_bytes`) and read at the end: the pools a chunk's events use are written after them.
//!
//! - Event `samples` (the default; one per sample): `jdk.ExecutionSample` (threads running Java code) and
//!   `jdk.NativeMethodSample` (threads in native code), as `jfr print` lists them.
//! - Event `allocation` (bytes): `jdk.ObjectAllocationSample`, each weighing its `weight` field.
//! - Events `monitor enter` and `thread park` (nanoseconds): `jdk.JavaMonitorEnter` and `jdk.ThreadPark`,
//!   each weighing its duration.
//! - A frame is `package.Class.method` (the class's name with `/` as `.`, as `jfr print` shows it, without
//!   the parameter list and line); stacks are root first (JFR lists the top frame first). Hidden methods (lambda forms,
//!   hidden classes) are left out, as `jfr print` leaves them out. A stack the JVM cut at the recording's
//!   depth (`truncated`) goes under a `[truncated stack]` root, which stack health counts as broken.
//! - The thread is the sampled thread (`sampledThread`) or the event's thread (`eventThread`), by its Java
//!   name and id; times are the chunk's ticks as nanoseconds since the epoch.
//! - Events with a duration (monitor enter and wait, park, sleep, garbage collections and their pauses,
//!   safepoints, compilations, file and socket reads and writes) are also markers (`markers.rs`).
//!
//! Files: `bytes.rs` (checked reads, compressed integers, strings), `meta.rs` (types and values), `chunk.rs`
//! (header, event scan, pools), `sniff.rs`.

mod bytes;
mod chunk;
mod markers;
mod meta;
mod sniff;
#[cfg(test)]
mod tests;

pub use sniff::JfrFormat;

use crate::model::{
    Format, FrameId, FrameKind, FullSample, ImportError, ImportErrorKind, Profile, ProfileBuilder, StackId,
    Unit, WarningKind, Warnings, EMPTY_STACK,
};
use bytes::err;
use chunk::{Chunk, Header};
use meta::Val;
use rustc_hash::FxHashMap;

const F: Format = Format::Jfr;

/// The root of the stacks the JVM cut (the analysis layer's `TRUNCATED_ROOT`, which stack health knows).
const TRUNCATED_ROOT: &str = "[truncated stack]";

/// Options for the JFR importer.
#[derive(Debug, Clone)]
pub struct JfrOptions {
    /// Largest recording (held whole to read), in bytes. Default is 1 GiB.
    pub max_bytes: usize,
}

impl Default for JfrOptions {
    fn default() -> Self {
        JfrOptions { max_bytes: 1 << 30 }
    }
}

/// Collects the recording, then reads it at [`JfrParser::finish`].
pub struct JfrParser {
    buf: Vec<u8>,
    max: usize,
}

/// The events scorch takes, in the order they are listed.
const KINDS: [(&str, &[&str], Unit); 4] = [
    (
        "samples",
        &["jdk.ExecutionSample", "jdk.NativeMethodSample"],
        Unit::Samples,
    ),
    ("allocation", &["jdk.ObjectAllocationSample"], Unit::Bytes),
    ("monitor enter", &["jdk.JavaMonitorEnter"], Unit::Nanoseconds),
    ("thread park", &["jdk.ThreadPark"], Unit::Nanoseconds),
];

/// One sample as read, before the events are declared.
struct Taken {
    kind: usize,
    stack: StackId,
    weight: u64,
    time: u64,
    thread: Option<u32>,
    offset: u64,
}

impl JfrParser {
    pub fn new(opts: &JfrOptions) -> Self {
        JfrParser {
            buf: Vec::new(),
            max: opts.max_bytes,
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        if self.buf.len().saturating_add(chunk.len()) > self.max {
            return Err(err(
                ImportErrorKind::LimitExceeded,
                self.max,
                format!("the recording is larger than the limit of {} bytes", self.max),
            ));
        }
        self.buf.extend_from_slice(chunk);
        Ok(())
    }

    pub fn finish(self) -> Result<Profile, ImportError> {
        read(&self.buf)
    }
}

/// What the reader keeps across chunks.
struct State {
    b: ProfileBuilder,
    threads: FxHashMap<(String, u32), u32>,
    taken: Vec<Taken>,
    warnings: Warnings,
    bad_events: u64,
    truncated: u64,
    events: u64,
}

/// Reads a whole recording.
pub(super) fn read(input: &[u8]) -> Result<Profile, ImportError> {
    if input.is_empty() {
        return Err(err(ImportErrorKind::Empty, 0, "the recording is empty"));
    }
    let mut st = State {
        b: ProfileBuilder::new(F),
        threads: FxHashMap::default(),
        taken: Vec::new(),
        warnings: Warnings::default(),
        bad_events: 0,
        truncated: 0,
        events: 0,
    };
    // Every value decoded costs one: a bound linear in the input, whatever its types say.
    let mut budget = 4 * input.len() as u64 + 100_000;
    let (mut at, mut chunks) = (0usize, 0u64);
    let (mut first, mut last) = (u64::MAX, 0u64);
    while at < input.len() {
        let header = Header::read(input, at)?;
        let chunk = Chunk::read(input, at, header, &mut budget)?;
        let start = header.start_nanos.max(0) as u64;
        first = first.min(start);
        last = last.max(start.saturating_add(header.duration_nanos.max(0) as u64));
        take_chunk(&chunk, &mut st, &mut budget)?;
        at += header.size;
        chunks += 1;
    }
    let State {
        mut b,
        taken,
        mut warnings,
        ..
    } = st;
    if st.bad_events > 0 {
        warnings.push(
            WarningKind::MalformedRecord,
            0,
            0,
            format!("{} events could not be read and were skipped", st.bad_events),
        );
    }
    let mut ids = [None; KINDS.len()];
    for (k, ((name, _, unit), id)) in KINDS.iter().zip(ids.iter_mut()).enumerate() {
        if taken.iter().any(|t| t.kind == k) {
            *id = Some(b.event(name, unit.clone()));
        }
    }
    let Some(default) = ids.iter().flatten().next().copied() else {
        return Err(err(
            ImportErrorKind::NoValidRecords,
            0,
            format!(
                "the recording has no execution, native method, allocation, monitor or park events ({} events in {chunks} chunks)",
                st.events
            ),
        ));
    };
    for t in &taken {
        b.push_full_sample(
            FullSample {
                stack: t.stack,
                weight: t.weight,
                time_ns: Some(t.time),
                thread: t.thread,
                event: ids.get(t.kind).copied().flatten(),
                cpu: None,
                labels: None,
            },
            t.offset,
        )?;
    }
    b.set_default_event(default);
    if last > first {
        b.set_duration_ns(last - first);
    }
    b.add_info("chunks", chunks.to_string());
    b.add_info("events", st.events.to_string());
    if st.truncated > 0 {
        b.add_info(
            "truncated stacks",
            format!(
                "{} events' stacks were cut by the JVM at the recording's stack depth (their root frames are missing)",
                st.truncated
            ),
        );
    }
    Ok(b.build(Unit::Samples, 0, taken.len() as u64, warnings))
}

/// Per chunk: its pools' stacks and threads once each, as the builder's.
struct Cache {
    stacks: FxHashMap<(i64, i64), (StackId, bool)>,
    frames: FxHashMap<(i64, i64), FrameId>,
    threads: FxHashMap<(i64, i64), u32>,
}

fn take_chunk(c: &Chunk, st: &mut State, budget: &mut u64) -> Result<(), ImportError> {
    // The event types scorch takes, by this chunk's ids, with their fields' places.
    let mut wanted: FxHashMap<i64, usize> = FxHashMap::default();
    for (k, (_, names, _)) in KINDS.iter().enumerate() {
        for n in *names {
            if let Some(id) = c.meta.id_of(n) {
                wanted.insert(id, k);
            }
        }
    }
    let mut marked: FxHashMap<i64, usize> = FxHashMap::default();
    for (k, (name, _, _)) in markers::MARKED.iter().enumerate() {
        if let Some(id) = c.meta.id_of(name) {
            marked.insert(id, k);
        }
    }
    let mut cache = Cache {
        stacks: FxHashMap::default(),
        frames: FxHashMap::default(),
        threads: FxHashMap::default(),
    };
    for e in &c.events {
        st.events += 1;
        let (kind, mark) = (wanted.get(&e.type_id).copied(), marked.get(&e.type_id).copied());
        if kind.is_none() && mark.is_none() {
            continue;
        }
        let mut cur = c.cur(e.body, e.end);
        let offset = cur.at() as u64;
        let v = match c.meta.value(&mut cur, e.type_id, 0, budget) {
            Ok(v) => v,
            Err(x) if x.kind == ImportErrorKind::LimitExceeded => return Err(x),
            Err(_) => {
                st.bad_events += 1;
                continue;
            }
        };
        let field = |name: &str| c.get(&v, e.type_id, name);
        let time = field("startTime")
            .and_then(|(x, _)| c.int(x))
            .map_or(0, |t| c.header.nanos(t));
        if let Some(m) = mark {
            match markers::marker(c, &v, e.type_id, m, time) {
                Some(marker) => st.b.marker(marker),
                None => st.bad_events += 1,
            }
        }
        let Some(kind) = kind else {
            continue;
        };
        let weight = match kind {
            0 => Some(1),
            1 => field("weight")
                .and_then(|(x, _)| c.int(x))
                .map(|w| w.max(0) as u64),
            _ => field("duration")
                .and_then(|(x, _)| c.int(x))
                .map(|d| c.header.span(d)),
        };
        let Some(weight) = weight else {
            st.bad_events += 1;
            continue;
        };
        let thread = field("sampledThread")
            .or_else(|| field("eventThread"))
            .and_then(|(x, class)| thread(c, st, &mut cache, x, class));
        let (stack, truncated) = match field("stackTrace") {
            Some((x, class)) => stack(c, &mut st.b, &mut cache, x, class),
            None => (EMPTY_STACK, false),
        };
        st.truncated += u64::from(truncated);
        st.taken.push(Taken {
            kind,
            stack,
            weight,
            time,
            thread,
            offset,
        });
    }
    Ok(())
}

/// The builder's thread for a thread value (a pool reference, cached by it).
fn thread(c: &Chunk, st: &mut State, cache: &mut Cache, v: &Val, class: i64) -> Option<u32> {
    let key = match v {
        Val::Ref(k, i) => Some((*k, *i)),
        _ => None,
    };
    if let Some(t) = key.and_then(|k| cache.threads.get(&k)) {
        return Some(*t);
    }
    let (name, tid) = markers::identity(c, v, class)?;
    let b = &mut st.b;
    let t = *st
        .threads
        .entry((name.clone(), tid))
        .or_insert_with(|| b.thread(&name, None, tid));
    if let Some(k) = key {
        cache.threads.insert(k, t);
    }
    Some(t)
}

/// The builder's stack for a stack trace value, and whether the JVM cut it.
fn stack(c: &Chunk, b: &mut ProfileBuilder, cache: &mut Cache, v: &Val, class: i64) -> (StackId, bool) {
    let key = match v {
        Val::Ref(k, i) => Some((*k, *i)),
        _ => None,
    };
    if let Some(s) = key.and_then(|k| cache.stacks.get(&k)) {
        return *s;
    }
    let truncated = c
        .get(v, class, "truncated")
        .and_then(|(x, _)| c.int(x))
        .unwrap_or(0)
        != 0;
    // A stack the JVM cut goes under the `[truncated stack]` root (stack health counts it as broken).
    let mut s = if truncated {
        let root = b.frame(TRUNCATED_ROOT, FrameKind::User);
        b.stack(None, root)
    } else {
        EMPTY_STACK
    };
    let frames = c
        .get(v, class, "frames")
        .and_then(|(x, k)| Some((c.deref(x)?, k)));
    if let Some((Val::Arr(frames), fclass)) = frames {
        for f in frames.iter().rev() {
            let frame = match c.get(f, fclass, "method") {
                // Hidden methods (lambda forms, hidden classes' frames) are left out, as `jfr print` does.
                Some((m, mclass)) if is_hidden(c, m, mclass) => continue,
                Some((m, mclass)) => method(c, b, cache, m, mclass),
                None => b.frame("(unknown method)", FrameKind::User),
            };
            s = b.stack((s != EMPTY_STACK).then_some(s), frame);
        }
    }
    if let Some(k) = key {
        cache.stacks.insert(k, (s, truncated));
    }
    (s, truncated)
}

/// Whether a method value is marked hidden.
fn is_hidden(c: &Chunk, v: &Val, class: i64) -> bool {
    c.get(v, class, "hidden").and_then(|(x, _)| c.int(x)).unwrap_or(0) != 0
}

/// The frame of a method value: `package.Class.method`.
fn method(c: &Chunk, b: &mut ProfileBuilder, cache: &mut Cache, v: &Val, class: i64) -> FrameId {
    let key = match v {
        Val::Ref(k, i) => Some((*k, *i)),
        _ => None,
    };
    if let Some(f) = key.and_then(|k| cache.frames.get(&k)) {
        return *f;
    }
    // A symbol is an object whose `string` is the text.
    let symbol = |x: &Val, k: i64| c.get(x, k, "string").and_then(|(s, _)| c.text(s));
    let name = c.get(v, class, "name").and_then(|(x, k)| symbol(x, k));
    let owner = c
        .get(v, class, "type")
        .and_then(|(t, k)| c.get(t, k, "name"))
        .and_then(|(x, k)| symbol(x, k));
    let full = match (owner, name) {
        (Some(o), Some(n)) => format!("{}.{n}", o.replace('/', ".")),
        (None, Some(n)) => n.to_string(),
        (Some(o), None) => format!("{}.(unknown method)", o.replace('/', ".")),
        (None, None) => "(unknown method)".to_string(),
    };
    let f = b.frame(&crate::import::safe_text(&full), FrameKind::User);
    if let Some(k) = key {
        cache.frames.insert(k, f);
    }
    f
}
