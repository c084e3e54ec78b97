//! The replay: the kept records (samples and their side-band: MMAP/MMAP2, COMM, FORK, LOST, LOST_SAMPLES)
//! handled one by one in time order, building the profile — the mappings and thread names of each moment,
//! the modules and frames (`MODULE+0xOFFSET`, `[kernel.kallsyms]+0xADDR`, `[unknown]`), stacks, events and
//! threads. The walk over the records' framing and their time ordering is `parser.rs`'s.

use super::bytes::{err, Buf};
use super::header::{st, Attr, Attrs, Features};
use super::maps::{Map, Maps};
use super::record::*;
use super::tracing::{SwitchLabels, SwitchLayout};

/// `perf_event_attr.type` of a tracepoint.
const PERF_TYPE_TRACEPOINT: u32 = 2;
use super::{BINARY_INFO, KERNEL_MODULE, KERNEL_TEXT_INFO, SCHED_SWITCH_INFO};
use crate::import::kind::{is_jit_dso, is_kernel_dso};
use crate::model::{
    Format, FrameId, FrameKind, FullSample, ImportError, ImportErrorKind, Lost, Profile, ProfileBuilder,
    StackId, Unit, WarningKind, Warnings, EMPTY_STACK,
};
use rustc_hash::FxHashMap;

/// A binary (or the kernel) that frames point into.
#[derive(Debug)]
struct Module {
    path: String,
    /// The frame-name prefix, given when a frame first uses the module: its basename, or its path when
    /// another module already has that basename.
    name: Option<String>,
    kind: FrameKind,
}

/// The state the replay builds up, and the profile it builds.
pub(super) struct Replay {
    b: ProfileBuilder,
    warnings: Warnings,
    maps: Maps,
    modules: Vec<Module>,
    module_ids: FxHashMap<String, u32>,
    module_names: FxHashMap<String, u32>,
    /// MMAP2 build ids by path.
    mmap_build_ids: FxHashMap<String, String>,
    /// The kernel's MMAP record: its symbol (`_text` or `_stext`, from `[kernel.kallsyms]_text`) and the
    /// `pgoff` perf set to that symbol's address at record time.
    kernel_text: Option<(String, u64)>,
    comms: FxHashMap<u32, String>,
    threads: FxHashMap<(String, u32, u32), u32>,
    /// Builder event per attribute (by index), made at the attribute's first sample (so events are in the
    /// order of their first samples, as the perf script importer makes them).
    events: FxHashMap<usize, u16>,
    frame_ids: FxHashMap<(u32, u64), FrameId>,
    stack_cache: FxHashMap<Box<[FrameId]>, StackId>,
    frames: Vec<FrameId>,
    lost: Lost,
    lost_samples: Lost,
    samples: u64,
    untimed: u64,
    /// The `sched:sched_switch` samples' labels (their raw payloads read), for the off-CPU time the
    /// dispatcher derives.
    switches: SwitchLabels,
}

impl Replay {
    /// `copy_budget`: how many mappings forks may copy in all (see `Maps::copy_budget`).
    pub(super) fn new(keep_warnings: usize, copy_budget: usize) -> Replay {
        let mut maps = Maps::default();
        maps.copy_budget = copy_budget;
        Replay {
            b: ProfileBuilder::new(Format::PerfData),
            warnings: Warnings::keeping(keep_warnings),
            maps,
            modules: Vec::new(),
            module_ids: FxHashMap::default(),
            module_names: FxHashMap::default(),
            mmap_build_ids: FxHashMap::default(),
            kernel_text: None,
            comms: FxHashMap::default(),
            threads: FxHashMap::default(),
            events: FxHashMap::default(),
            frame_ids: FxHashMap::default(),
            stack_cache: FxHashMap::default(),
            frames: Vec::with_capacity(128),
            lost: Lost::default(),
            lost_samples: Lost::default(),
            samples: 0,
            untimed: 0,
            switches: SwitchLabels::default(),
        }
    }

    pub(super) fn warn(&mut self, kind: WarningKind, at: usize, msg: impl Into<String>) {
        self.warnings.push(kind, 0, at as u64, msg);
    }

    /// Handles one kept record (at `at` in the input) in the replay; `switch`: where `sched_switch`'s fields
    /// are, from the recording's tracing data (`None`: the kernel's layout is assumed).
    pub(super) fn record(
        &mut self,
        attrs: &Attrs,
        switch: Option<&SwitchLayout>,
        b: &Buf<'_>,
        at: usize,
    ) -> Result<(), ImportError> {
        let size = b.u16(at + 6).map_or(0, usize::from);
        let Some(r) = b.slice(at, at + size) else {
            return Ok(());
        };
        let kind = r.u32(0).unwrap_or(0);
        let misc = r.u16(4).unwrap_or(0);
        let trailer = attrs.first().map_or(0, Attr::trailer_len);
        let body_end = size.saturating_sub(trailer);
        let ok = match kind {
            rt::SAMPLE => return self.sample(attrs, switch, &r, at, misc),
            rt::MMAP => self.mmap(&r, misc, 40, body_end, None),
            rt::MMAP2 => {
                let build_id = (misc & MISC_MMAP_BUILD_ID != 0)
                    .then(|| {
                        let n = usize::from(r.u8(40)?).min(20);
                        Some(
                            r.bytes(44, n)?
                                .iter()
                                .map(|x| format!("{x:02x}"))
                                .collect::<String>(),
                        )
                    })
                    .flatten();
                self.mmap(&r, misc, 72, body_end, build_id)
            }
            rt::COMM => (|| {
                let tid = r.u32(12)?;
                let name = r.cstr(16, body_end.max(16))?;
                self.comms.insert(tid, name);
                Some(())
            })(),
            rt::FORK => (|| {
                let (pid, ppid, tid, ptid) = (r.u32(8)?, r.u32(12)?, r.u32(16)?, r.u32(20)?);
                if let Some(c) = self.comms.get(&ptid).cloned() {
                    self.comms.insert(tid, c);
                }
                if pid != ppid && !self.maps.fork(ppid, pid) {
                    self.warn(
                        WarningKind::MalformedRecord,
                        at,
                        "more forks of mapped processes than the input's size allows to copy; a new process starts with no mappings",
                    );
                }
                Some(())
            })(),
            rt::LOST => (|| {
                let n = r.u64(16)?;
                let t = trailer_time(attrs, &r);
                self.lost.add(t, n);
                Some(())
            })(),
            rt::LOST_SAMPLES => r.u64(8).map(|n| self.lost_samples.add(None, n)),
            _ => Some(()),
        };
        if ok.is_none() {
            self.warn(
                WarningKind::MalformedRecord,
                at,
                format!("a record (type {kind}) too short for its fields; skipped"),
            );
        }
        Ok(())
    }

    /// MMAP (filename at 40) and MMAP2 (at 72): `pid, tid, addr, len, pgoff`.
    fn mmap(
        &mut self,
        r: &Buf<'_>,
        misc: u16,
        name_at: usize,
        body_end: usize,
        build_id: Option<String>,
    ) -> Option<()> {
        let pid = r.u32(8)?;
        let (addr, len, pgoff) = (r.u64(16)?, r.u64(24)?, r.u64(32)?);
        let path = r.cstr(name_at, body_end.max(name_at))?;
        if misc & MISC_MMAP_DATA != 0 || matches!(misc & MISC_CPUMODE, MISC_KERNEL | MISC_HYPERVISOR) {
            // Data mappings; the kernel's (kernel frames are named by address), of which the first
            // `[kernel.kallsyms]_text` (or `_stext`) says where the kernel was loaded (KASLR).
            let sym = path.strip_prefix(KERNEL_MODULE);
            if let Some(sym @ ("_text" | "_stext")) = sym {
                if self.kernel_text.is_none() {
                    self.kernel_text = Some((sym.to_string(), pgoff));
                }
            }
            return Some(());
        }
        if let Some(id) = build_id {
            self.mmap_build_ids.insert(path.clone(), id);
        }
        let module = self.module(&path);
        self.maps.insert(
            pid,
            Map {
                start: addr,
                end: addr.saturating_add(len),
                pgoff,
                module,
            },
        );
        Some(())
    }

    fn module(&mut self, path: &str) -> u32 {
        if let Some(&m) = self.module_ids.get(path) {
            return m;
        }
        let kind = if is_kernel_dso(path) {
            FrameKind::Kernel
        } else if is_jit_dso(path) {
            FrameKind::Jit
        } else {
            FrameKind::User
        };
        let m = self.modules.len() as u32;
        self.modules.push(Module {
            path: path.to_string(),
            name: None,
            kind,
        });
        self.module_ids.insert(path.to_string(), m);
        m
    }

    /// The frame of `ip` in `module` (`u32::MAX`: no mapping) at file offset `offset`.
    fn frame(&mut self, module: u32, offset: u64) -> FrameId {
        if let Some(&f) = self.frame_ids.get(&(module, offset)) {
            return f;
        }
        let f = match self.modules.get(module as usize) {
            None => self.b.frame("[unknown]", FrameKind::User),
            Some(m) => {
                let kind = m.kind;
                let prefix = match &m.name {
                    Some(n) => n.clone(),
                    None => {
                        let base = m.path.rsplit('/').next().unwrap_or(&m.path).to_string();
                        let name = if self.module_names.get(&base).is_some_and(|&o| o != module) {
                            m.path.clone()
                        } else {
                            base
                        };
                        self.module_names.insert(name.clone(), module);
                        if let Some(m) = self.modules.get_mut(module as usize) {
                            m.name = Some(name.clone());
                        }
                        name
                    }
                };
                self.b.frame(&format!("{prefix}+0x{offset:x}"), kind)
            }
        };
        self.frame_ids.insert((module, offset), f);
        f
    }

    fn kernel_module(&mut self) -> u32 {
        let m = self.module(KERNEL_MODULE);
        if let Some(m) = self.modules.get_mut(m as usize) {
            m.kind = FrameKind::Kernel;
        }
        m
    }

    /// One callchain entry (or the sample's ip) in context `kernel` (else user space of `pid`).
    fn push_ip(&mut self, ip: u64, kernel: bool, pid: Option<u32>, at: usize) {
        let f = if kernel {
            let m = self.kernel_module();
            self.frame(m, ip)
        } else {
            match pid.and_then(|p| self.maps.find(p, ip)) {
                // As perf computes it (`map__map_ip`, wrapping): a hostile page offset must not overflow.
                Some(map) => self.frame(map.module, (ip - map.start).wrapping_add(map.pgoff)),
                None => {
                    self.warn(
                        WarningKind::UnmappedAddress,
                        at,
                        format!("address {ip:#x} lies in no mapping of its process; named [unknown]"),
                    );
                    self.frame(u32::MAX, 0)
                }
            }
        };
        self.frames.push(f);
    }

    fn sample(
        &mut self,
        attrs: &Attrs,
        switch: Option<&SwitchLayout>,
        r: &Buf<'_>,
        at: usize,
        misc: u16,
    ) -> Result<(), ImportError> {
        let Some(ai) = attrs.of_sample(r) else {
            self.warn(
                WarningKind::MalformedRecord,
                at,
                "a sample of no known event (its id names none); skipped",
            );
            return Ok(());
        };
        let Some(fields) = attrs.get(ai).and_then(|a| parse_sample(r, a)) else {
            self.warn(
                WarningKind::MalformedRecord,
                at,
                "a sample too short for its fields; skipped",
            );
            return Ok(());
        };
        let kernel_mode = matches!(misc & MISC_CPUMODE, MISC_KERNEL | MISC_HYPERVISOR);
        self.frames.clear();
        match fields.callchain {
            Some((cc_at, n)) if n > 0 => {
                let mut kernel = kernel_mode;
                for k in 0..n {
                    let ip = r.u64(cc_at + k * 8).unwrap_or(0);
                    if ip >= CONTEXT_MAX {
                        kernel = matches!(ip, CONTEXT_KERNEL | CONTEXT_HV);
                        if ip != CONTEXT_KERNEL && ip != CONTEXT_USER && ip != CONTEXT_HV {
                            kernel = false; // guest contexts: looked up as user space, so [unknown]
                        }
                        continue;
                    }
                    self.push_ip(ip, kernel, fields.pid, at);
                }
            }
            _ => {
                if let Some(ip) = fields.ip {
                    self.push_ip(ip, kernel_mode, fields.pid, at);
                }
            }
        }
        let stack = match self.stack_cache.get(self.frames.as_slice()) {
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
        let event = self.event_of(attrs.get(ai), ai, fields.period.is_some());
        let thread = self.thread_of(fields.pid, fields.tid);
        let name = attrs.get(ai).and_then(|a| a.name.as_deref()).unwrap_or_default();
        let raw = fields.raw.and_then(|(s, n)| r.bytes(s, n));
        let labels = self.switches.of(&mut self.b, switch, name, raw, r.big);
        // A tracepoint sample is also an instant marker, as the perf script reader makes one (`perf/marks.rs`).
        if let (Some(a), Some(t)) = (attrs.get(ai), fields.time) {
            if a.kind == PERF_TYPE_TRACEPOINT {
                let m = super::tracing::marker(
                    a.display_name(),
                    switch,
                    raw,
                    r.big,
                    self.comm_of(fields.tid),
                    fields.pid,
                    fields.tid,
                    t,
                );
                self.b.marker(m);
            }
        }
        if fields.time.is_none() {
            self.untimed += 1;
        }
        self.samples += 1;
        self.b.push_full_sample(
            FullSample {
                stack: stack.unwrap_or(EMPTY_STACK),
                weight: fields.period.unwrap_or(1),
                time_ns: Some(fields.time.unwrap_or(0)),
                thread: Some(thread),
                event: Some(event),
                cpu: Some(fields.cpu.unwrap_or(u32::MAX)),
                labels,
            },
            at as u64,
        )
    }

    /// The builder event of attribute `ai`, made at its first sample.
    fn event_of(&mut self, attr: Option<&Attr>, ai: usize, has_period: bool) -> u16 {
        if let Some(&e) = self.events.get(&ai) {
            return e;
        }
        let name = attr.map_or_else(|| "(unnamed)".into(), Attr::display_name);
        let base = name.split([':', '/']).next().unwrap_or_default();
        let unit = match (has_period, base) {
            (false, _) => Unit::Samples,
            (true, "cpu-clock" | "task-clock") => Unit::Nanoseconds,
            (true, _) => Unit::Other("events".into()),
        };
        let e = self.b.event(&name, unit);
        self.events.insert(ai, e);
        e
    }

    /// A thread's comm at this point of the replay (`:TID` before any `COMM` record names it).
    fn comm_of(&self, tid: Option<u32>) -> String {
        let tid = tid.unwrap_or(u32::MAX);
        self.comms
            .get(&tid)
            .cloned()
            .unwrap_or_else(|| format!(":{}", tid as i32))
    }

    fn thread_of(&mut self, pid: Option<u32>, tid: Option<u32>) -> u32 {
        let comm = self.comm_of(tid);
        let tid = tid.unwrap_or(u32::MAX);
        let key = (comm, pid.unwrap_or(u32::MAX), tid);
        if let Some(&t) = self.threads.get(&key) {
            return t;
        }
        let t = self.b.thread(&key.0, pid, tid);
        self.threads.insert(key, t);
        t
    }

    /// The profile, with the facts of the feature sections and the binaries frames point into.
    pub(super) fn finish(mut self, features: Features, input_len: usize) -> Result<Profile, ImportError> {
        if self.samples == 0 {
            return Err(err(
                ImportErrorKind::Empty,
                input_len,
                "no samples: the recording holds no sample records",
            ));
        }
        let mut info = features.info;
        if let Some((first, last)) = features.sample_time {
            if last > first {
                self.b.set_duration_ns(last - first);
            }
        }
        // The binaries frames point into, with their build ids: what a symbolizer needs (`symbols.rs`).
        let build_ids: FxHashMap<&str, &str> = features
            .build_ids
            .iter()
            .map(|(p, id)| (p.as_str(), id.as_str()))
            .collect();
        for m in &self.modules {
            if m.name.is_none() {
                continue;
            }
            let id = build_ids
                .get(m.path.as_str())
                .copied()
                .or_else(|| self.mmap_build_ids.get(&m.path).map(String::as_str));
            let value = match id {
                Some(id) => format!("{} (build id {id})", m.path),
                None => m.path.clone(),
            };
            info.push((BINARY_INFO, value));
        }
        if let Some((sym, addr)) = &self.kernel_text {
            info.push((KERNEL_TEXT_INFO, format!("{sym} {addr:#x}")));
        }
        if self.switches.assumed {
            info.push((
                SCHED_SWITCH_INFO,
                "layout assumed (the recording has no format text): the kernel's since 4.14".into(),
            ));
        }
        if self.switches.unread > 0 {
            let msg = format!(
                "{} sched:sched_switch samples have no readable payload (PERF_SAMPLE_RAW): they give no off-CPU time",
                self.switches.unread
            );
            self.warn(WarningKind::MalformedRecord, input_len, msg);
        }
        for (k, v) in info {
            self.b.add_info(k, v);
        }
        if self.untimed > 0 && self.untimed < self.samples {
            let msg = format!(
                "{} of {} samples have no timestamp: the timeline is unavailable",
                self.untimed, self.samples
            );
            self.warn(WarningKind::Timestamps, input_len, msg);
        }
        if self.untimed > 0 {
            self.b.drop_times();
        }
        self.lost.finish();
        if self.lost.records > 0 {
            self.b.set_lost(self.lost);
        } else if self.lost_samples.records > 0 {
            self.b.set_lost(self.lost_samples);
        }
        let unit = self.b.event_unit(0).unwrap_or(Unit::Samples);
        Ok(self.b.build(unit, 0, self.samples, self.warnings))
    }
}

/// The time in a record's `sample_id` trailer (all attributes share its layout; the first one's is read).
fn trailer_time(attrs: &Attrs, r: &Buf<'_>) -> Option<u64> {
    let a = attrs.first()?;
    if !(a.sample_id_all && a.sample_type & st::TIME != 0) {
        return None;
    }
    let start = r.data.len().checked_sub(a.trailer_len())?;
    r.u64(start + if a.sample_type & st::TID != 0 { 8 } else { 0 })
}
