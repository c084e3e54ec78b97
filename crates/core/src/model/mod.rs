//! The profile model: interned strings, a frame table, a stack table in topological order, and samples as columns.
//!
//! Invariants (checked by [`Profile::validate`] in tests):
//! - every id stored in a table is in range for the table it points into;
//! - the stack table is topological: a stack's parent has a smaller index than the stack itself;
//! - a (parent, frame) pair appears at most once, so the stack table is a prefix tree of call paths;
//! - the sum of all sample weights fits in a u64 (the builder checks every addition).
//!
//! A built [`Profile`] is immutable; importers talk only to [`ProfileBuilder`].
//!
//! The bottom layer of the crate: the types every other layer shares (the profile and its tables, the
//! builder, [`Format`], [`FrameKind`], import errors and warnings, units, and [`wire`], the transport codec
//! both `import::split` and the app's workers use). It imports nothing from above it.

mod builder;
pub mod error;
pub mod format;
pub mod intern;
pub mod lost;
pub mod marker;
pub mod merge;
pub mod pprof_proto;
mod rename;
pub mod sites;
pub mod units;
pub mod wire;

pub use builder::{FullSample, Indexed, ProfileBuilder};
pub use error::{ImportError, ImportErrorKind, KindCount, Warning, WarningKind, Warnings};
pub use format::Format;
pub use lost::Lost;
pub use marker::Marker;
pub use merge::Merger;
pub use sites::{Location, Sites, NO_STR};
pub use units::{DeclaredUnit, Unit, Weight};

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u32);
        impl $name {
            #[inline]
            pub fn idx(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// Index into [`Strings`].
    StrId
);
id_type!(
    /// Index into the frame table.
    FrameId
);
id_type!(
    /// Index into the stack table.
    StackId
);

/// What kind of code a frame is. An attribute for colour and filtering, never part of the name.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[repr(u8)]
pub enum FrameKind {
    #[default]
    User = 0,
    Kernel = 1,
    Jit = 2,
    Inline = 3,
    /// A pseudo frame for a process or thread (perf's comm root).
    Process = 4,
}

impl FrameKind {
    pub fn name(self) -> &'static str {
        match self {
            FrameKind::User => "user",
            FrameKind::Kernel => "kernel",
            FrameKind::Jit => "jit",
            FrameKind::Inline => "inline",
            FrameKind::Process => "process",
        }
    }
}

/// Interned strings stored back to back in one buffer.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Strings {
    buf: String,
    ends: Vec<u32>,
}

impl Strings {
    pub fn get(&self, id: StrId) -> &str {
        let end = self.ends.get(id.idx()).copied().unwrap_or(0) as usize;
        let start = if id.0 == 0 {
            0
        } else {
            self.ends.get(id.idx() - 1).copied().unwrap_or(0) as usize
        };
        self.buf.get(start..end).unwrap_or("")
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Appends a string (no interning), for the few synthetic frames analyses add.
    pub fn push(&mut self, s: &str) -> StrId {
        self.buf.push_str(s);
        self.ends.push(self.buf.len() as u32);
        StrId((self.ends.len() - 1) as u32)
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Whether every string is ASCII.
    pub fn is_ascii(&self) -> bool {
        self.buf.is_ascii()
    }

    /// Per string: does it hold a match of `len` bytes (`whole`: is it one)? `find(buf, from)` is where the next
    /// candidate starts in the strings' shared buffer, at or after `from`; one that crosses into the next string
    /// is not a match. One pass over the buffer, where a search of each string on its own paid a call and a
    /// lookup per string (a million names: a task of ~100 ms on the page).
    pub fn containing(
        &self,
        len: usize,
        whole: bool,
        mut find: impl FnMut(&[u8], usize) -> Option<usize>,
    ) -> Vec<bool> {
        let buf = self.buf.as_bytes();
        let mut out = vec![false; self.ends.len()];
        if len == 0 {
            for (i, m) in out.iter_mut().enumerate() {
                *m = !whole || self.get(StrId(i as u32)).is_empty();
            }
            return out;
        }
        let (mut at, mut i) = (0, 0);
        while let Some(pos) = find(buf, at) {
            if pos < at {
                break;
            }
            // The string `pos` is in: the first whose end is past it.
            while self.ends.get(i).is_some_and(|&e| e as usize <= pos) {
                i += 1;
            }
            let Some(&end) = self.ends.get(i) else { break };
            let start = i
                .checked_sub(1)
                .and_then(|j| self.ends.get(j))
                .map_or(0, |&s| s as usize);
            let end = end as usize;
            if pos + len <= end && (!whole || (pos == start && pos + len == end)) {
                if let Some(m) = out.get_mut(i) {
                    *m = true;
                }
                at = end;
            } else {
                at = pos + 1;
            }
        }
        out
    }
}

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct FrameTable {
    pub name: Vec<StrId>,
    pub kind: Vec<FrameKind>,
}

impl FrameTable {
    pub fn len(&self) -> usize {
        self.name.len()
    }
    pub fn is_empty(&self) -> bool {
        self.name.is_empty()
    }
}

/// Stack table: one row per distinct call path. `parent[i] == NO_PARENT` marks a root frame.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct StackTable {
    pub parent: Vec<u32>,
    pub frame: Vec<FrameId>,
}

pub const NO_PARENT: u32 = u32::MAX;

impl StackTable {
    pub fn len(&self) -> usize {
        self.frame.len()
    }
    pub fn is_empty(&self) -> bool {
        self.frame.is_empty()
    }
    pub fn parent(&self, s: StackId) -> Option<StackId> {
        match self.parent.get(s.idx()) {
            Some(&p) if p != NO_PARENT => Some(StackId(p)),
            _ => None,
        }
    }

    /// The children of every row (the table stores parents only), in O(rows) time and memory. With them a walk
    /// from the roots visits every call path once and carries the path in one shared buffer (a frame pushed on
    /// the way down, popped on the way back), instead of building each row's full path, which costs Σ depth
    /// over the rows: quadratic in the depth of one deep stack.
    pub fn children(&self) -> StackChildren {
        let n = self.parent.len();
        // Counting sort of row ids by parent; the roots are the children of a pseudo row `n`.
        let slot = |p: u32| if p == NO_PARENT { n } else { (p as usize).min(n) };
        let mut start = vec![0u32; n + 2];
        for &p in &self.parent {
            if let Some(c) = start.get_mut(slot(p) + 1) {
                *c += 1;
            }
        }
        let mut acc = 0u32;
        for c in start.iter_mut() {
            acc += *c;
            *c = acc;
        }
        let mut fill = start.clone();
        let mut list = vec![StackId(0); n];
        for (i, &p) in self.parent.iter().enumerate() {
            if let Some(at) = fill.get_mut(slot(p)) {
                if let Some(x) = list.get_mut(*at as usize) {
                    *x = StackId(i as u32);
                }
                *at += 1;
            }
        }
        StackChildren { start, list }
    }
}

/// The children of each stack row, from [`StackTable::children`], each in increasing row order.
#[derive(Debug, Clone, Default)]
pub struct StackChildren {
    start: Vec<u32>,
    list: Vec<StackId>,
}

impl StackChildren {
    fn slice(&self, k: usize) -> &[StackId] {
        let a = self.start.get(k).copied().unwrap_or(0) as usize;
        let b = self.start.get(k + 1).copied().unwrap_or(0) as usize;
        self.list.get(a..b).unwrap_or(&[])
    }

    /// The rows of `s`'s children.
    pub fn of(&self, s: StackId) -> &[StackId] {
        if s.idx() + 2 >= self.start.len() {
            return &[];
        }
        self.slice(s.idx())
    }

    /// The root rows (those without a parent).
    pub fn roots(&self) -> &[StackId] {
        self.slice(self.start.len().saturating_sub(2))
    }
}

/// A sample with no frames at all (perf prints such events); it belongs to its process root only.
pub const EMPTY_STACK: StackId = StackId(u32::MAX);

/// Samples as columns. The optional columns are present only when the input had them.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct SampleTable {
    /// The leaf stack, or [`EMPTY_STACK`].
    pub stack: Vec<StackId>,
    pub weight: Vec<u64>,
    /// Exact timestamps in integer nanoseconds.
    pub time_ns: Option<Vec<u64>>,
    /// Index into [`Profile::threads`].
    pub thread: Option<Vec<u32>>,
    /// Index into [`Profile::events`].
    pub event: Option<Vec<u16>>,
    pub cpu: Option<Vec<u32>>,
    /// Index into [`Profile::label_sets`].
    pub labels: Option<Vec<u32>>,
}

/// A label value (pprof `Label`): a string, or a number with an optional unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum LabelValue {
    Str(StrId),
    Num(i64, Option<StrId>),
}

/// One label of a sample, with the pseudo frame used when grouping by its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Label {
    pub key: StrId,
    pub value: LabelValue,
    /// A `key=value` frame for grouping samples by this key.
    pub root: FrameId,
}

impl SampleTable {
    pub fn len(&self) -> usize {
        self.stack.len()
    }
    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }
}

/// Threads seen in the input, with the pseudo frames that can stand at the root of their stacks.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct ThreadTable {
    pub comm: Vec<StrId>,
    /// `None` when the input printed only one number (perf's tid).
    pub pid: Vec<Option<u32>>,
    pub tid: Vec<u32>,
    /// Root frames for grouping by comm, comm-pid and comm-pid/tid.
    pub roots: Vec<[FrameId; 3]>,
}

impl ThreadTable {
    pub fn len(&self) -> usize {
        self.comm.len()
    }
    pub fn is_empty(&self) -> bool {
        self.comm.is_empty()
    }
}

/// One event type of the input (perf can record several at once).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EventInfo {
    /// The event name as the input prints it, perf's modifiers included (`cycles:uppp`).
    pub name: String,
    pub unit: Unit,
    pub samples: u64,
    /// Sum of this event's weights (raw).
    pub total: u64,
    /// Set when this event holds the magnitudes of another event's negative values (pprof delta profiles):
    /// the signed value of a stack is that event's weight minus this one's.
    pub negative_of: Option<u16>,
    /// Set when this event is derived from recorded samples (perf's off-CPU time and wall-clock): a view of
    /// them, not more of them, so "all events" leaves it out.
    #[serde(default)]
    pub derived: bool,
}

/// The key of the note (`Meta::info`) on what perf's scheduler events derived (off-CPU time, wall-clock), or
/// why not.
pub const OFF_CPU_NOTE: &str = "off-CPU";
/// Label keys of a `sched:sched_switch` sample, which both perf readers (perf script's text, perf.data's raw
/// payload) set and off-CPU time is derived from (`import::perf::sched`).
pub const SWITCH_PREV_PID: &str = "prev_pid";
pub const SWITCH_PREV_STATE: &str = "prev_state";
pub const SWITCH_NEXT_PID: &str = "next_pid";

/// The key of the note (`Meta::info`) that a profile was scrubbed before it was shared, and by which rules
/// (`paths,header`): set by `export::scrub`, carried by a link's `# scorch-scrubbed:` line and read back by the
/// folded reader, so the receiver can tell a scrubbed profile from the original.
pub const SCRUBBED_INFO: &str = "scrubbed";

/// Facts about where the profile came from.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Meta {
    pub format: Format,
    pub unit: Unit,
    /// Weights are stored as `value × 10^decimals` (non-zero only for fractional folded counts).
    pub decimals: u32,
    /// How many sample records the input held (perf events, pprof samples, folded lines).
    pub records: u64,
    pub warnings: Warnings,
    /// The event shown first (pprof's `default_sample_type`, else the last; perf's first event).
    pub default_event: u16,
    /// Facts to show the user (pprof: period, duration, comments, drop_frames, …), in order.
    pub info: Vec<(String, String)>,
    /// How long the recording lasted, when the file says so (pprof's `duration_nanos`).
    pub duration_ns: Option<u64>,
    /// Events the recorder reported lost (perf `PERF_RECORD_LOST`), `None` when the input reports none.
    pub lost: Option<Lost>,
    /// Markers on the time axis (Chrome trace duration and instant events, Gecko markers, JFR events with a
    /// duration, perf script tracepoints), in input order.
    pub markers: Vec<Marker>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Profile {
    pub strings: Strings,
    pub frames: FrameTable,
    pub stacks: StackTable,
    pub samples: SampleTable,
    pub threads: ThreadTable,
    /// Event types, in order of first appearance; empty for inputs with one unnamed event (folded).
    /// For pprof, one per sample type.
    pub events: Vec<EventInfo>,
    /// Distinct label sets; samples point into this.
    pub label_sets: Vec<Vec<Label>>,
    pub meta: Meta,
    /// Where code lives (file, line, address, …) and the samples' call paths over those locations; `None`
    /// when the input gave no location ([`sites`]).
    pub sites: Option<Box<Sites>>,
    total: u64,
}

impl Profile {
    /// What one of [`Meta::records`] is called: the format's noun ([`Format::record_noun`]), except for folded
    /// text with timestamps (a link that carries them), whose records are samples.
    pub fn record_noun(&self) -> &'static str {
        if self.meta.format == Format::Folded && self.samples.time_ns.is_some() {
            "samples"
        } else {
            self.meta.format.record_noun()
        }
    }

    pub fn frame_name(&self, f: FrameId) -> &str {
        match self.frames.name.get(f.idx()) {
            Some(&s) => self.strings.get(s),
            None => "",
        }
    }

    pub fn frame_kind(&self, f: FrameId) -> FrameKind {
        self.frames.kind.get(f.idx()).copied().unwrap_or_default()
    }

    /// Sum of all sample weights (raw, see [`Meta::decimals`]).
    pub fn total(&self) -> u64 {
        self.total
    }

    pub fn total_weight(&self) -> Weight {
        Weight {
            raw: self.total,
            decimals: self.meta.decimals,
        }
    }

    /// The frame with this name and kind, if there is one (a linear scan: for synthetic frames only).
    pub fn find_frame(&self, name: &str, kind: FrameKind) -> Option<FrameId> {
        (0..self.frames.len())
            .map(|i| FrameId(i as u32))
            .find(|&f| self.frame_kind(f) == kind && self.frame_name(f) == name)
    }

    /// The frame with this name and kind, added at the end of the frame table when missing (a synthetic root
    /// such as `[truncated stack]`; existing frame ids keep their meaning).
    pub fn add_frame(&mut self, name: &str, kind: FrameKind) -> FrameId {
        if let Some(f) = self.find_frame(name, kind) {
            return f;
        }
        let s = self.strings.push(name);
        self.frames.name.push(s);
        self.frames.kind.push(kind);
        FrameId((self.frames.len() - 1) as u32)
    }

    /// Frames of a stack from the root to the leaf.
    pub fn stack_frames(&self, s: StackId) -> Vec<FrameId> {
        let mut out = Vec::new();
        let mut cur = Some(s);
        while let Some(c) = cur {
            match self.stacks.frame.get(c.idx()) {
                Some(&f) => out.push(f),
                None => break,
            }
            cur = self.stacks.parent(c);
        }
        out.reverse();
        out
    }

    /// Depth (number of frames) of the deepest stack that has samples.
    pub fn max_depth(&self) -> usize {
        let mut depth: Vec<u32> = Vec::with_capacity(self.stacks.len());
        for &p in &self.stacks.parent {
            let d = if p == NO_PARENT {
                1
            } else {
                depth.get(p as usize).copied().unwrap_or(0) + 1
            };
            depth.push(d);
        }
        self.samples
            .stack
            .iter()
            .map(|s| depth.get(s.idx()).copied().unwrap_or(0) as usize)
            .max()
            .unwrap_or(0)
    }

    /// The same profile over a new stack table: `map(s)` gives each old stack's new stack (or [`EMPTY_STACK`]),
    /// or `None` to drop the samples on it. Strings, frames, threads, events and labels are kept as they are, so
    /// frame ids mean the same in both. Used by the transforms, which cannot add weight, so totals cannot overflow.
    pub fn restack(&self, stacks: StackTable, map: impl Fn(StackId) -> Option<StackId>) -> Profile {
        let n = self.samples.len();
        let mut keep = Vec::with_capacity(n);
        let mut samples = SampleTable {
            stack: Vec::with_capacity(n),
            weight: Vec::with_capacity(n),
            ..SampleTable::default()
        };
        for (i, &s) in self.samples.stack.iter().enumerate() {
            let new = if s == EMPTY_STACK {
                Some(EMPTY_STACK)
            } else {
                map(s)
            };
            if let Some(new) = new {
                keep.push(i);
                samples.stack.push(new);
                samples
                    .weight
                    .push(self.samples.weight.get(i).copied().unwrap_or(0));
            }
        }
        let pick = |col: &Option<Vec<u32>>| {
            col.as_ref()
                .map(|c| keep.iter().map(|&i| c.get(i).copied().unwrap_or(0)).collect())
        };
        samples.time_ns = self
            .samples
            .time_ns
            .as_ref()
            .map(|c| keep.iter().map(|&i| c.get(i).copied().unwrap_or(0)).collect());
        samples.thread = pick(&self.samples.thread);
        samples.cpu = pick(&self.samples.cpu);
        samples.labels = pick(&self.samples.labels);
        samples.event = self
            .samples
            .event
            .as_ref()
            .map(|c| keep.iter().map(|&i| c.get(i).copied().unwrap_or(0)).collect());
        let mut events = self.events.clone();
        for e in &mut events {
            e.samples = 0;
            e.total = 0;
        }
        if let Some(col) = &samples.event {
            for (&e, &w) in col.iter().zip(&samples.weight) {
                if let Some(info) = events.get_mut(e as usize) {
                    info.samples += 1;
                    info.total = info.total.saturating_add(w);
                }
            }
        }
        let total = samples.weight.iter().fold(0u64, |a, &w| a.saturating_add(w));
        // The location stacks are the samples' original call paths: the kept samples keep theirs.
        let sites = self.sites.as_ref().map(|s| Box::new(s.pick(&keep)));
        Profile {
            strings: self.strings.clone(),
            frames: self.frames.clone(),
            stacks,
            samples,
            threads: self.threads.clone(),
            events,
            label_sets: self.label_sets.clone(),
            meta: self.meta.clone(),
            sites,
            total,
        }
    }

    /// Checks the model's invariants; used by tests.
    pub fn validate(&self) -> Result<(), String> {
        let nstr = self.strings.len() as u32;
        if self.frames.name.len() != self.frames.kind.len() {
            return Err("frame columns differ in length".into());
        }
        if self.frames.name.iter().any(|s| s.0 >= nstr) {
            return Err("frame name out of range".into());
        }
        let nframes = self.frames.len() as u32;
        let mut seen = std::collections::HashSet::new();
        for (i, (&p, &f)) in self.stacks.parent.iter().zip(&self.stacks.frame).enumerate() {
            if f.0 >= nframes {
                return Err(format!("stack {i}: frame out of range"));
            }
            if p != NO_PARENT && p as usize >= i {
                return Err(format!("stack {i}: parent {p} not before it"));
            }
            if !seen.insert((p, f)) {
                return Err(format!("stack {i}: duplicate (parent, frame)"));
            }
        }
        let nstacks = self.stacks.len() as u32;
        if self
            .samples
            .stack
            .iter()
            .any(|s| s.0 >= nstacks && *s != EMPTY_STACK)
        {
            return Err("sample stack out of range".into());
        }
        if self.samples.weight.len() != self.samples.stack.len() {
            return Err("sample columns differ in length".into());
        }
        let sum = self
            .samples
            .weight
            .iter()
            .try_fold(0u64, |a, &w| a.checked_add(w));
        if sum != Some(self.total) {
            return Err("total differs from the sum of weights".into());
        }
        let n = self.samples.len();
        let cols = [
            self.samples.time_ns.as_ref().map(Vec::len),
            self.samples.thread.as_ref().map(Vec::len),
            self.samples.event.as_ref().map(Vec::len),
            self.samples.cpu.as_ref().map(Vec::len),
        ];
        if cols.iter().flatten().any(|&l| l != n) {
            return Err("optional sample columns differ in length".into());
        }
        if let Some(t) = &self.samples.thread {
            if t.iter().any(|&t| t as usize >= self.threads.len()) {
                return Err("sample thread out of range".into());
            }
        }
        if let Some(e) = &self.samples.event {
            if e.iter().any(|&e| e as usize >= self.events.len()) {
                return Err("sample event out of range".into());
            }
        }
        if let Some(l) = &self.samples.labels {
            if l.len() != n || l.iter().any(|&l| l as usize >= self.label_sets.len()) {
                return Err("sample labels out of range".into());
            }
        }
        for (i, e) in self.events.iter().enumerate() {
            let (count, sum) = match &self.samples.event {
                Some(ev) => ev
                    .iter()
                    .zip(&self.samples.weight)
                    .filter(|(&x, _)| x as usize == i)
                    .fold((0, 0u64), |(c, s), (_, &w)| (c + 1, s + w)),
                None => (0, 0),
            };
            if (count, sum) != (e.samples, e.total) {
                return Err(format!("event {i}: counts differ"));
            }
        }
        if let Some(s) = &self.sites {
            s.validate(self.strings.len(), self.frames.len(), n)?;
        }
        Ok(())
    }
}

/// A finished import: the profile and facts about the input it was read from.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Imported {
    pub profile: Profile,
    /// Whether the input was gzip-compressed.
    pub gzip: bool,
    /// Decompressed bytes read.
    pub bytes: u64,
}
