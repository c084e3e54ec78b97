//! [`ProfileBuilder`]: how importers (and the diff's merged tree) make a [`Profile`]. It interns strings,
//! frames and stacks and checks every weight addition.

use super::error::{ImportError, ImportErrorKind, Warnings};
use super::format::Format;
use super::intern::{StackIndex, StrIndex};
use super::sites::{Location, SiteIndex, Sites};
use super::units::Unit;
use super::{
    EventInfo, FrameId, FrameKind, FrameTable, Label, LabelValue, Meta, Profile, SampleTable, StackId,
    StackTable, StrId, Strings, ThreadTable, NO_PARENT,
};
use rustc_hash::FxHashMap as HashMap;

/// One sample with its optional columns, for [`ProfileBuilder::push_full_sample`].
#[derive(Debug, Clone, Copy)]
pub struct FullSample {
    pub stack: StackId,
    pub weight: u64,
    pub time_ns: Option<u64>,
    pub thread: Option<u32>,
    pub event: Option<u16>,
    pub cpu: Option<u32>,
    pub labels: Option<u32>,
}

/// Builds a [`Profile`]; interns strings, frames and stacks, and checks weight arithmetic.
#[derive(Debug)]
pub struct ProfileBuilder {
    format: Format,
    strings: Strings,
    string_ids: StrIndex,
    frames: FrameTable,
    frame_ids: HashMap<(StrId, FrameKind), FrameId>,
    stacks: StackTable,
    stack_ids: StackIndex,
    samples: SampleTable,
    threads: ThreadTable,
    events: Vec<EventInfo>,
    label_sets: Vec<Vec<Label>>,
    label_set_ids: HashMap<Vec<(StrId, LabelValue)>, u32>,
    default_event: u16,
    info: Vec<(String, String)>,
    duration_ns: Option<u64>,
    lost: Option<super::Lost>,
    /// Allocated at the first [`ProfileBuilder::location`].
    sites: Option<Box<(Sites, SiteIndex)>>,
    markers: Vec<super::Marker>,
    total: u64,
}

impl ProfileBuilder {
    /// Samples added so far.
    pub fn samples_len(&self) -> usize {
        self.samples.len()
    }

    pub fn new(format: Format) -> Self {
        ProfileBuilder {
            format,
            strings: Strings::default(),
            string_ids: StrIndex::default(),
            frames: FrameTable::default(),
            frame_ids: HashMap::default(),
            stacks: StackTable::default(),
            stack_ids: StackIndex::default(),
            samples: SampleTable::default(),
            threads: ThreadTable::default(),
            events: Vec::new(),
            label_sets: Vec::new(),
            label_set_ids: HashMap::default(),
            default_event: 0,
            info: Vec::new(),
            duration_ns: None,
            lost: None,
            sites: None,
            markers: Vec::new(),
            total: 0,
        }
    }

    /// A builder holding everything of a built profile, to add to it (derived events computed from the whole
    /// import, such as perf's off-CPU time). Rebuilds the interning maps: O(strings + frames + stacks + label
    /// sets); ids keep their meaning.
    pub fn from_profile(p: Profile) -> ProfileBuilder {
        let Profile {
            strings,
            frames,
            stacks,
            samples,
            threads,
            events,
            label_sets,
            meta,
            sites,
            total,
        } = p;
        let sites = sites.map(|s| {
            let index = SiteIndex::of(&s);
            Box::new((*s, index))
        });
        let string_ids = StrIndex::of(&strings);
        let frame_ids = frames
            .name
            .iter()
            .zip(&frames.kind)
            .enumerate()
            .map(|(i, (&n, &k))| ((n, k), FrameId(i as u32)))
            .collect();
        let stack_ids = StackIndex::of(&stacks);
        let label_set_ids = label_sets
            .iter()
            .enumerate()
            .map(|(i, set)| (set.iter().map(|l| (l.key, l.value)).collect(), i as u32))
            .collect();
        ProfileBuilder {
            format: meta.format,
            strings,
            string_ids,
            frames,
            frame_ids,
            stacks,
            stack_ids,
            samples,
            threads,
            events,
            label_sets,
            label_set_ids,
            default_event: meta.default_event,
            info: meta.info,
            duration_ns: meta.duration_ns,
            lost: meta.lost,
            sites,
            markers: meta.markers,
            total,
        }
    }

    /// The row of a location (where a frame's code is, see [`super::sites`]), added when new. The first call
    /// allocates the location columns; an input that never calls it pays nothing.
    pub fn location(&mut self, l: Location) -> u32 {
        let (sites, index) = &mut **self.sites.get_or_insert_with(Box::default);
        index.location(sites, l)
    }

    /// The location stack of `loc` (a [`ProfileBuilder::location`] row) under `parent`.
    pub fn site_stack(&mut self, parent: Option<StackId>, loc: u32) -> StackId {
        let (sites, index) = &mut **self.sites.get_or_insert_with(Box::default);
        index.stack(sites, parent, loc)
    }

    /// Gives the sample added last its location stack (samples given none have [`super::EMPTY_STACK`]).
    pub fn set_sample_site(&mut self, site: StackId) {
        let n = self.samples.len();
        if n == 0 {
            return;
        }
        let (sites, _) = &mut **self.sites.get_or_insert_with(Box::default);
        sites.sample.resize(n - 1, super::EMPTY_STACK);
        sites.sample.push(site);
    }

    /// Gives every sample so far the label set `fill` when the samples have no label column yet (an importer
    /// that learns late that its input has labels); later samples must then carry labels too.
    pub fn ensure_labels(&mut self, fill: u32) {
        if self.samples.labels.is_none() && !self.samples.stack.is_empty() {
            self.samples.labels = Some(vec![fill; self.samples.stack.len()]);
        }
    }

    /// Interns a label set (given as key/value pairs, in order) and returns its index.
    pub fn label_set(&mut self, labels: Vec<(StrId, LabelValue)>) -> u32 {
        if let Some(&id) = self.label_set_ids.get(&labels) {
            return id;
        }
        let mut set = Vec::with_capacity(labels.len());
        for &(key, value) in &labels {
            let text = match value {
                LabelValue::Str(s) => format!("{}={}", self.strings.get(key), self.strings.get(s)),
                LabelValue::Num(n, Some(u)) => {
                    format!("{}={} {}", self.strings.get(key), n, self.strings.get(u))
                }
                LabelValue::Num(n, None) => format!("{}={}", self.strings.get(key), n),
            };
            let root = self.frame(&text, FrameKind::Process);
            set.push(Label { key, value, root });
        }
        let id = self.label_sets.len() as u32;
        self.label_sets.push(set);
        self.label_set_ids.insert(labels, id);
        id
    }

    pub fn string(&self, id: StrId) -> &str {
        self.strings.get(id)
    }

    pub fn set_default_event(&mut self, e: u16) {
        self.default_event = e;
    }

    /// The recording's duration as the file states it.
    pub fn set_duration_ns(&mut self, ns: u64) {
        self.duration_ns = Some(ns);
    }

    /// Events the recorder lost (perf `PERF_RECORD_LOST`).
    pub fn set_lost(&mut self, lost: super::Lost) {
        self.lost = Some(lost);
    }

    pub fn add_info(&mut self, key: &str, value: String) {
        self.info.push((key.to_string(), value));
    }

    /// Adds a marker (kept in input order).
    pub fn marker(&mut self, m: super::Marker) {
        self.markers.push(m);
    }

    /// Adds a thread; returns its index. The caller dedupes.
    pub fn thread(&mut self, comm: &str, pid: Option<u32>, tid: u32) -> u32 {
        let c = self.intern(comm);
        let shown_pid = pid.unwrap_or(tid);
        let roots = [
            self.frame(comm, FrameKind::Process),
            self.frame(&format!("{comm}-{shown_pid}"), FrameKind::Process),
            self.frame(&format!("{comm}-{shown_pid}/{tid}"), FrameKind::Process),
        ];
        self.threads.comm.push(c);
        self.threads.pid.push(pid);
        self.threads.tid.push(tid);
        self.threads.roots.push(roots);
        (self.threads.len() - 1) as u32
    }

    /// Adds an event type; returns its index.
    pub fn event(&mut self, name: &str, unit: Unit) -> u16 {
        self.events.push(EventInfo {
            name: name.to_string(),
            unit,
            samples: 0,
            total: 0,
            negative_of: None,
            derived: false,
        });
        (self.events.len() - 1) as u16
    }

    /// Adds an event derived from the recorded samples (see [`EventInfo::derived`]); returns its index.
    pub fn derived_event(&mut self, name: &str, unit: Unit) -> u16 {
        let e = self.event(name, unit);
        if let Some(info) = self.events.get_mut(e as usize) {
            info.derived = true;
        }
        e
    }

    /// Marks `event` as holding the negative values of `of`.
    pub fn set_negative_of(&mut self, event: u16, of: u16) {
        if let Some(e) = self.events.get_mut(event as usize) {
            e.negative_of = Some(of);
        }
    }

    pub fn event_unit(&self, event: u16) -> Option<Unit> {
        self.events.get(event as usize).map(|e| e.unit.clone())
    }

    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// Gives an event a unit once it is known (perf prints the period per sample).
    pub fn set_event_unit(&mut self, event: u16, unit: Unit) {
        if let Some(e) = self.events.get_mut(event as usize) {
            e.unit = unit;
        }
    }

    /// Adds one sample with all its columns. Columns must be used for all samples or none:
    /// the first sample decides which optional columns exist.
    pub fn push_full_sample(&mut self, s: FullSample, offset: u64) -> Result<(), ImportError> {
        self.add_total(s.weight, offset)?;
        let first = self.samples.stack.is_empty();
        if first {
            self.samples.time_ns = s.time_ns.map(|_| Vec::new());
            self.samples.thread = s.thread.map(|_| Vec::new());
            self.samples.event = s.event.map(|_| Vec::new());
            self.samples.cpu = s.cpu.map(|_| Vec::new());
            self.samples.labels = s.labels.map(|_| Vec::new());
        }
        self.samples.stack.push(s.stack);
        self.samples.weight.push(s.weight);
        if let Some(col) = &mut self.samples.time_ns {
            col.push(s.time_ns.unwrap_or(0));
        }
        if let Some(col) = &mut self.samples.thread {
            col.push(s.thread.unwrap_or(0));
        }
        if let Some(col) = &mut self.samples.event {
            let e = s.event.unwrap_or(0);
            col.push(e);
            if let Some(info) = self.events.get_mut(e as usize) {
                info.samples += 1;
                info.total = info.total.saturating_add(s.weight);
            }
        }
        if let Some(col) = &mut self.samples.cpu {
            col.push(s.cpu.unwrap_or(u32::MAX));
        }
        if let Some(col) = &mut self.samples.labels {
            col.push(s.labels.unwrap_or(0));
        }
        Ok(())
    }

    /// Drops the time column (when some samples had no timestamp).
    pub fn drop_times(&mut self) {
        self.samples.time_ns = None;
    }

    pub fn intern(&mut self, s: &str) -> StrId {
        self.string_ids.intern(&mut self.strings, s)
    }

    pub fn frame(&mut self, name: &str, kind: FrameKind) -> FrameId {
        let name = self.intern(name);
        *self.frame_ids.entry((name, kind)).or_insert_with(|| {
            let id = FrameId(self.frames.name.len() as u32);
            self.frames.name.push(name);
            self.frames.kind.push(kind);
            id
        })
    }

    pub fn stack(&mut self, parent: Option<StackId>, frame: FrameId) -> StackId {
        let p = parent.map_or(NO_PARENT, |p| p.0);
        self.stack_ids.intern(&mut self.stacks, p, frame)
    }

    pub fn stack_count(&self) -> usize {
        self.stacks.len()
    }

    pub fn string_bytes(&self) -> usize {
        self.strings.buf.len()
    }

    /// Adds one sample. Fails when the running total would overflow u64.
    pub fn push_sample(&mut self, stack: StackId, weight: u64, offset: u64) -> Result<(), ImportError> {
        self.add_total(weight, offset)?;
        self.samples.stack.push(stack);
        self.samples.weight.push(weight);
        Ok(())
    }

    fn add_total(&mut self, weight: u64, offset: u64) -> Result<(), ImportError> {
        self.total = self.total.checked_add(weight).ok_or_else(|| {
            ImportError::new(
                Some(self.format),
                ImportErrorKind::Overflow,
                offset,
                None,
                "the sum of the weights exceeds 2^64-1",
            )
        })?;
        Ok(())
    }

    pub fn build(self, unit: Unit, decimals: u32, records: u64, warnings: Warnings) -> Profile {
        self.build_indexed(unit, decimals, records, warnings).profile
    }

    /// [`ProfileBuilder::build`], keeping the interning maps, so that a [`super::Merger`] can append to the
    /// profile without indexing its tables again.
    pub fn build_indexed(self, unit: Unit, decimals: u32, records: u64, warnings: Warnings) -> Indexed {
        let n = self.samples.len();
        let sites = self.sites.map(|b| {
            let (mut sites, _) = *b;
            sites.sample.resize(n, super::EMPTY_STACK);
            Box::new(sites)
        });
        let profile = Profile {
            strings: self.strings,
            frames: self.frames,
            stacks: self.stacks,
            samples: self.samples,
            threads: self.threads,
            events: self.events,
            label_sets: self.label_sets,
            meta: Meta {
                format: self.format,
                unit,
                decimals,
                records,
                warnings,
                default_event: self.default_event,
                info: self.info,
                duration_ns: self.duration_ns,
                lost: self.lost,
                markers: self.markers,
            },
            sites,
            total: self.total,
        };
        Indexed {
            profile,
            string_ids: self.string_ids,
            frame_ids: self.frame_ids,
            stack_ids: self.stack_ids,
            label_set_ids: self.label_set_ids,
        }
    }
}

/// A built profile with its builder's interning maps (see [`ProfileBuilder::build_indexed`]).
#[derive(Debug)]
pub struct Indexed {
    pub profile: Profile,
    pub(super) string_ids: StrIndex,
    pub(super) frame_ids: HashMap<(StrId, FrameKind), FrameId>,
    pub(super) stack_ids: StackIndex,
    pub(super) label_set_ids: HashMap<Vec<(StrId, LabelValue)>, u32>,
}
