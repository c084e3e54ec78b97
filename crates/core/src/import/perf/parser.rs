//! The chunk-driven `perf script` reader: one state machine over lines, samples separated by blank lines.

use super::frame::{parse_frame, FrameLine};
use super::header::{is_side_band, is_space, parse_header, parse_lost, Header, LostKind};
use super::names::{inferno_names, scorch_names, strip_offset_bytes};
use super::sched::{derive_offcpu, parse_switch, switch_labels, OFFCPU_TIME, SCHED_SWITCH};
use super::{Naming, PerfOptions};
use crate::import::lines::{trim_ascii, LinePos, LineSplitter};
use crate::model::intern::BytesMap;
use crate::model::sites::Location;
use crate::model::{
    Format, FrameId, FrameKind, FullSample, ImportError, ImportErrorKind, Indexed, Lost, Profile,
    ProfileBuilder, StackId, Unit, Warnings, EMPTY_STACK,
};
use rustc_hash::FxHashMap;

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
    /// The label set of a `sched:sched_switch` payload.
    labels: Option<u32>,
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
    /// The last frame line's frames in `frames` (from, to) and its address as printed: a `srcline` line
    /// (`perf script -F …,srcline`: `  FILE:LINE` under its frame line) gives them their place.
    last_line: Option<(usize, usize, [u8; 16], u8)>,
    /// Per frame of `frames`, its location row (`u32::MAX`: none), once a srcline came in this sample.
    sites: Vec<u32>,
    /// Interned source file names of srclines.
    files: BytesMap<crate::model::StrId>,
    /// Frames per frame-line text after the address (`sym+off (dso)`), for Java and other processes.
    frame_cache: [BytesMap<FrameIds>; 2],
    /// Scorch's naming: frames per name key ([`name_key`]: the symbol without its offset, and the dso), for
    /// Java and other processes. A function's frame lines differ by their offset (`+0x…`), and each new one
    /// missed `frame_cache`; its names are those of the function's first line (perf script 100 MB: 15,165
    /// lines of distinct text in its first 200,000 frame lines).
    name_cache: [BytesMap<FrameIds>; 2],
    /// [`name_key`]'s buffer, reused.
    name_key: Vec<u8>,
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
    /// The empty label set, once a sample has labels (a `sched:sched_switch` payload): from then on every
    /// sample carries a label set, the others this one.
    no_labels: Option<u32>,
    /// `PERF_RECORD_LOST` records (the kernel's lost chunks).
    lost: Lost,
    /// `PERF_RECORD_LOST_SAMPLES` records: perf record's summary of the same losses, used only when the input
    /// has no `PERF_RECORD_LOST` lines (counting both would count each loss twice).
    lost_samples: Lost,
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
            warnings: Warnings::keeping(opts.keep_warnings.unwrap_or(Warnings::KEEP)),
            state: State::Between,
            cur: None,
            frames: Vec::with_capacity(128),
            last_line: None,
            sites: Vec::new(),
            files: BytesMap::default(),
            frame_cache: [BytesMap::default(), BytesMap::default()],
            name_cache: [BytesMap::default(), BytesMap::default()],
            name_key: Vec::new(),
            stack_cache: FxHashMap::default(),
            threads: FxHashMap::default(),
            inferno_roots: Vec::new(),
            events: FxHashMap::default(),
            event_has_period: Vec::new(),
            records: 0,
            side_band: 0,
            untimed: 0,
            any_cpu: false,
            no_labels: None,
            lost: Lost::default(),
            lost_samples: Lost::default(),
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        let mut lines = std::mem::replace(&mut self.lines, LineSplitter::new(Format::PerfScript, 0));
        let r = lines.feed(chunk, |line, pos| self.line(line, pos));
        self.lines = lines;
        r
    }

    /// The profile, with the events derived from the whole input (off-CPU time, wall-clock: `sched.rs`).
    pub fn finish(self) -> Result<Profile, ImportError> {
        complete(self.finish_part()?)
    }

    /// The profile as read, without the derived events (the derivation's tests).
    #[cfg(test)]
    pub(crate) fn finish_raw(self) -> Result<Profile, ImportError> {
        complete_raw(self.finish_part()?)
    }

    /// Reads the rest and returns what the whole-input step ([`complete`]) needs: a slice's parse, before
    /// the checks and choices that need the whole input (see `crate::import::split`).
    pub(crate) fn finish_part(mut self) -> Result<PerfPart, ImportError> {
        let mut lines = std::mem::replace(&mut self.lines, LineSplitter::new(Format::PerfScript, 0));
        lines.finish(|line, pos| self.line(line, pos))?;
        let end = lines.position();
        self.end_sample()?;
        let unit = self.b.event_unit(0).unwrap_or(Unit::Samples);
        Ok(PerfPart {
            profile: self.b.build_indexed(unit, 0, self.records, self.warnings),
            lost: self.lost,
            lost_samples: self.lost_samples,
            untimed: self.untimed,
            end,
        })
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
                let from = self.frames.len();
                if let Some(hex) = self.cached_frame(line) {
                    self.note_line(line.get(..hex).unwrap_or_default(), from);
                    return Ok(());
                }
                if let Some(f) = parse_frame(line) {
                    self.frame(raw, &f, pos);
                    self.note_line(f.addr, from);
                    return Ok(());
                }
                if self.srcline(line) {
                    return Ok(());
                }
                // perf without blank separators, or a side-band record: a header ends the sample.
                if is_side_band(line) {
                    self.end_sample()?;
                    self.side_band(line);
                    self.state = State::Between;
                    return Ok(());
                }
                if let Some(h) = parse_header(line) {
                    self.end_sample()?;
                    return self.header(h, pos);
                }
                self.warnings.push(
                    crate::model::WarningKind::UnreadableLine,
                    pos.line,
                    pos.offset,
                    "unreadable frame line (expected `address symbol (dso)`); skipped",
                );
                Ok(())
            }
            State::Between => {
                if is_side_band(line) {
                    self.side_band(line);
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
                        self.warnings.push(
                            crate::model::WarningKind::UnreadableLine,
                            pos.line,
                            pos.offset,
                            what,
                        );
                        self.state = State::Skipping;
                        Ok(())
                    }
                }
            }
        }
    }

    /// A side-band record (`PERF_RECORD_…`); lost-events records are counted.
    fn side_band(&mut self, line: &[u8]) {
        self.side_band += 1;
        match parse_lost(line) {
            Some((LostKind::Chunk, time_ns, n)) => self.lost.add(time_ns, n),
            // perf record writes these at the end, with a zero timestamp: only their count means something.
            Some((LostKind::Samples, _, n)) => self.lost_samples.add(None, n),
            None => {}
        }
    }

    fn header(&mut self, h: Header<'_>, pos: LinePos) -> Result<(), ImportError> {
        let thread = self.thread_of(&h);
        // An event is what perf prints, modifiers included (`cpu-clock:u` and `cpu-clock:k` are two events, as
        // perf script and perf report show them); inferno's naming keeps inferno's grouping, which drops them.
        let key = match self.naming {
            Naming::Scorch => h.event,
            Naming::Inferno(_) => h.base,
        };
        let event = match self.events.get(key) {
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
                let name = if key.is_empty() {
                    "(unnamed)".into()
                } else {
                    String::from_utf8_lossy(key)
                };
                let e = self.b.event(&name, Unit::Samples);
                self.events.insert(key.into(), e);
                self.event_has_period.push(false);
                e
            }
        };
        if h.period.is_some() && !self.event_has_period.get(event as usize).copied().unwrap_or(true) {
            if let Some(flag) = self.event_has_period.get_mut(event as usize) {
                *flag = true;
            }
            let name = String::from_utf8_lossy(h.base);
            // `cpu-clock/freq=199/`: the event with its terms.
            let base = name.split('/').next().unwrap_or_default();
            let unit = if base == "cpu-clock" || base == "task-clock" || base == OFFCPU_TIME {
                Unit::Nanoseconds
            } else {
                Unit::Other("events".into())
            };
            self.b.set_event_unit(event, unit);
        }
        self.any_cpu |= h.cpu.is_some();
        // inferno (and so scorch) tidies Java names when the process is a JVM.
        let java = h.comm.starts_with(b"java");
        let labels = if h.tracepoint && h.base == SCHED_SWITCH.as_bytes() {
            parse_switch(h.rest).map(|sw| {
                let set = switch_labels(&mut self.b, &sw);
                if self.no_labels.is_none() {
                    let empty = self.b.label_set(Vec::new());
                    self.b.ensure_labels(empty);
                    self.no_labels = Some(empty);
                }
                set
            })
        } else {
            None
        };
        if let (true, Some(t)) = (h.tracepoint, h.time_ns) {
            self.b
                .marker(super::marks::marker(h.event, h.rest, h.comm, h.pid, h.tid, t));
        }
        self.cur = Some(Current {
            thread,
            event,
            time_ns: h.time_ns,
            period: h.period,
            cpu: h.cpu,
            java,
            offset: pos.offset,
            labels,
        });
        self.frames.clear();
        self.last_line = None;
        self.sites.clear();
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

    /// The frame line just read put `frames[from..]`: kept with its address (`hex`, as printed) for a srcline
    /// under it.
    fn note_line(&mut self, hex: &[u8], from: usize) {
        let to = self.frames.len();
        let mut addr = [0u8; 16];
        for (a, &h) in addr.iter_mut().zip(hex) {
            *a = h;
        }
        self.last_line = Some((from, to, addr, hex.len().min(16) as u8));
    }

    /// A `srcline` line under a frame line (`perf script -F …,srcline` prints `  FILE:LINE`, `??:0` or
    /// `DSO[ADDRESS]` when it knows none): the place of that line's innermost frame, with its address. Lines of any other shape are
    /// not srclines (`false`). Only scorch's naming reads them: inferno's ignores them as it ignores any line
    /// it cannot read.
    fn srcline(&mut self, line: &[u8]) -> bool {
        let Some((from, to, addr, n)) = self.last_line.take() else {
            return false;
        };
        // Without debug information perf prints the binary and the address instead: `DSO[ADDRESS]`.
        if line.ends_with(b"]") && line.contains(&b'[') && !line.iter().any(|&b| is_space(b)) {
            return true;
        }
        let Some(colon) = line.iter().rposition(|&b| b == b':') else {
            return false;
        };
        let (file, num) = line.split_at(colon);
        let num = num.get(1..).unwrap_or_default();
        // `spin.c:4`, `x.c:12 (discriminator 3)`; `??:0` and `??:?` say perf found none.
        let digits = num.iter().take_while(|b| b.is_ascii_digit()).count();
        let rest = trim_ascii(num.get(digits..).unwrap_or_default());
        let known_line = digits > 0 && (rest.is_empty() || rest.starts_with(b"("));
        if file.is_empty() || file.contains(&b'\t') || !(known_line || num == b"?") {
            return false;
        }
        if matches!(self.naming, Naming::Inferno(_)) || from >= to || file == b"??" {
            return true;
        }
        let line_no = std::str::from_utf8(num.get(..digits).unwrap_or_default())
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let file_id = match self.files.get(file) {
            Some(&id) => id,
            None => {
                let id = self.b.intern(&String::from_utf8_lossy(file));
                self.files.insert(file, id);
                id
            }
        };
        let address = std::str::from_utf8(addr.get(..usize::from(n)).unwrap_or_default())
            .ok()
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .unwrap_or(0);
        // The line's innermost frame is its first in `frames` (leaf first).
        let Some(&frame) = self.frames.get(from) else {
            return true;
        };
        let row = self.b.location(Location {
            file: file_id,
            line: line_no,
            address,
            ..Location::of(frame)
        });
        self.sites.resize(self.frames.len(), u32::MAX);
        if let Some(s) = self.sites.get_mut(from) {
            *s = row;
        }
        true
    }

    /// The fast path: a frame line seen before (same text after the address) needs no parsing. Returns the
    /// address's length when it was one.
    fn cached_frame(&mut self, line: &[u8]) -> Option<usize> {
        let cur = self.cur?;
        if matches!(&self.naming, Naming::Inferno(fl) if fl.addrs) {
            return None; // the address is part of the name
        }
        let i = line.iter().position(|&b| is_space(b))?;
        // Only a line `parse_frame` would read (a hex address first): otherwise what the cache holds would
        // decide whether a broken line is a frame, and the result would depend on the lines before it.
        if !line
            .get(..i)
            .unwrap_or_default()
            .iter()
            .all(u8::is_ascii_hexdigit)
        {
            return None;
        }
        let cache = self.frame_cache.get(usize::from(cur.java));
        let ids = cache.and_then(|c| c.get(line.get(i..).unwrap_or_default()))?;
        self.frames.extend(ids.as_slice().iter().rev());
        Some(i)
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
        let ids: FrameIds = match &self.naming {
            Naming::Scorch => {
                name_key(&mut self.name_key, f);
                let java = usize::from(cur.java);
                match self.name_cache.get(java).and_then(|c| c.get(&self.name_key)) {
                    Some(ids) => ids.clone(),
                    None => {
                        let ids = FrameIds::from_vec(
                            scorch_names(f, cur.java)
                                .into_iter()
                                .map(|(n, k)| self.b.frame(&n, k))
                                .collect(),
                        );
                        if let Some(c) = self.name_cache.get_mut(java) {
                            c.insert(&self.name_key, ids.clone());
                        }
                        ids
                    }
                }
            }
            Naming::Inferno(flags) => {
                let text = String::from_utf8_lossy(key_bytes);
                match inferno_names(&text, cur.java, flags) {
                    Some(names) => FrameIds::from_vec(
                        names
                            .into_iter()
                            .map(|n| self.b.frame(&n, FrameKind::User))
                            .collect(),
                    ),
                    None => {
                        self.warnings.push(
                            crate::model::WarningKind::UnreadableLine,
                            pos.line,
                            pos.offset,
                            "unreadable frame line; skipped",
                        );
                        return;
                    }
                }
            }
        };
        self.frames.extend(ids.as_slice().iter().rev());
        if cacheable && !key.is_empty() {
            if let Some(c) = self.frame_cache.get_mut(usize::from(cur.java)) {
                c.insert(key, ids);
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
        // The sample's call path over locations, when a srcline gave one of its frames a place.
        let site = if self.sites.is_empty() {
            None
        } else {
            self.sites.resize(self.frames.len(), u32::MAX);
            let mut parent = None;
            for (i, &f) in self.frames.iter().enumerate().rev() {
                let row = match self.sites.get(i).copied() {
                    Some(r) if r != u32::MAX => r,
                    _ => self.b.location(Location::of(f)),
                };
                parent = Some(self.b.site_stack(parent, row));
            }
            parent
        };
        self.sites.clear();
        self.last_line = None;
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
                labels: cur.labels.or(self.no_labels),
            },
            cur.offset,
        )?;
        if let Some(site) = site {
            self.b.set_sample_site(site);
        }
        Ok(())
    }
}

/// A parse of one slice of a perf script input (or of all of it) before the whole-input step. Parts of
/// consecutive slices merge into one part ([`PerfPart::append`]); [`complete`] then gives the profile a single
/// parse gives.
#[derive(Debug)]
pub(crate) struct PerfPart {
    /// Times kept even when some samples have none (dropped in [`complete`]); with the builder's maps for
    /// merging.
    pub profile: Indexed,
    /// `PERF_RECORD_LOST` and `PERF_RECORD_LOST_SAMPLES`, kept apart: which counts depends on the whole input.
    pub lost: Lost,
    pub lost_samples: Lost,
    /// Samples without a timestamp.
    pub untimed: u64,
    /// Where the part's input ended (1-based line after its last, bytes read).
    pub end: LinePos,
}

/// The whole-input step: fails when no sample was read, drops the times unless every sample had one,
/// chooses the lost counts, and takes the unit of the first event.
/// The whole-input step: checks and choices that need the whole input, then the events derived from it
/// (off-CPU time, wall-clock: `sched.rs`), once — a thread's switch-in may lie in another slice than its
/// switch-out.
pub(crate) fn complete(part: PerfPart) -> Result<Profile, ImportError> {
    Ok(derive_offcpu(complete_raw(part)?))
}

fn complete_raw(part: PerfPart) -> Result<Profile, ImportError> {
    let PerfPart {
        profile,
        mut lost,
        lost_samples,
        untimed,
        end,
    } = part;
    let mut profile = profile.profile;
    let records = profile.meta.records;
    let warnings = &mut profile.meta.warnings;
    if records == 0 {
        let (kind, msg) = if warnings.is_empty() {
            (
                ImportErrorKind::Empty,
                "no samples: the input holds no event lines".to_string(),
            )
        } else {
            (
                ImportErrorKind::NoValidRecords,
                format!("no sample could be read ({} lines skipped)", warnings.count),
            )
        };
        let line = warnings.first.first().map(|w| w.line);
        let offset = warnings.first.first().map_or(0, |w| w.offset);
        return Err(ImportError::new(
            Some(Format::PerfScript),
            kind,
            offset,
            line,
            msg,
        ));
    }
    if untimed > 0 && untimed < records {
        warnings.push(
            crate::model::WarningKind::Timestamps,
            end.line,
            end.offset,
            format!("{untimed} of {records} samples have no timestamp: the timeline is unavailable"),
        );
    }
    if untimed > 0 {
        profile.samples.time_ns = None;
    }
    lost.finish();
    if lost.records > 0 {
        profile.meta.lost = Some(lost);
    } else if lost_samples.records > 0 {
        profile.meta.lost = Some(lost_samples);
    }
    profile.meta.unit = profile.events.first().map_or(Unit::Samples, |e| e.unit.clone());
    Ok(profile)
}

/// The key of a frame line's names under Scorch's naming ([`scorch_names`]), into `key`: the symbol without its
/// offset ([`strip_offset_bytes`]) and the dso, the symbol's length first. The names are a function of these
/// alone (the address is never part of them, the offset always stripped), so lines of equal keys name the same
/// frames.
fn name_key(key: &mut Vec<u8>, f: &FrameLine<'_>) {
    let sym = strip_offset_bytes(f.sym);
    key.clear();
    key.extend_from_slice(&(sym.len() as u64).to_le_bytes());
    key.extend_from_slice(sym);
    key.extend_from_slice(f.dso);
}

/// The frames of one frame line (inlined functions make several): most lines name one, kept without an
/// allocation of its own (the caches hold one of these per distinct line text and per function).
#[derive(Clone, Debug)]
enum FrameIds {
    One(FrameId),
    Many(Box<[FrameId]>),
}

impl FrameIds {
    fn from_vec(v: Vec<FrameId>) -> FrameIds {
        match v.as_slice() {
            [one] => FrameIds::One(*one),
            _ => FrameIds::Many(v.into_boxed_slice()),
        }
    }

    fn as_slice(&self) -> &[FrameId] {
        match self {
            FrameIds::One(f) => std::slice::from_ref(f),
            FrameIds::Many(b) => b,
        }
    }
}
