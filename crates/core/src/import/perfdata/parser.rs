//! The perf.data reader: the input held whole (capped), then the header, the attributes, the feature
//! sections, and the records — walked once to check their framing and note each one's time, then replayed in
//! time order (as `perf script` does with its ordered-events queue), so that a sample sees the thread names
//! and mappings of its moment.

use super::bytes::{cut, err, Buf};
use super::header::{section, st, Attr, Features, MAX_ATTRS};
use super::maps::{Map, Maps};
use super::record::*;
use super::sniff::{MAGIC_BE, MAGIC_LE};
use super::{PerfDataOptions, BINARY_INFO, KERNEL_MODULE, KERNEL_TEXT_INFO};
use crate::import::kind::{is_jit_dso, is_kernel_dso};
use crate::model::{
    Format, FrameId, FrameKind, FullSample, ImportError, ImportErrorKind, Lost, Profile, ProfileBuilder,
    StackId, Unit, WarningKind, Warnings, EMPTY_STACK,
};
use rustc_hash::FxHashMap;

/// Chunk-driven perf.data importer: holds the input (capped by `max_bytes`), reads it at the end.
pub struct PerfDataParser {
    buf: Vec<u8>,
    max: usize,
    keep_warnings: usize,
}

impl PerfDataParser {
    pub fn new(opts: &PerfDataOptions) -> Self {
        PerfDataParser {
            buf: Vec::new(),
            max: opts.max_bytes,
            keep_warnings: opts.keep_warnings.unwrap_or(Warnings::KEEP),
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        if self.buf.len().saturating_add(chunk.len()) > self.max {
            return Err(err(
                ImportErrorKind::LimitExceeded,
                self.max,
                format!(
                    "the recording is larger than the limit of {} bytes held whole",
                    self.max
                ),
            ));
        }
        self.buf.extend_from_slice(chunk);
        Ok(())
    }

    pub fn finish(self) -> Result<Profile, ImportError> {
        read(&self.buf, self.keep_warnings)
    }
}

/// Reads a whole perf.data input (file or pipe mode, either byte order).
pub fn read(data: &[u8], keep_warnings: usize) -> Result<Profile, ImportError> {
    let big = match data.get(..8) {
        Some(m) if m == MAGIC_LE => false,
        Some(m) if m == MAGIC_BE => true,
        Some(_) => {
            return Err(err(
                ImportErrorKind::Malformed,
                0,
                "no perf.data magic (PERFILE2)",
            ))
        }
        None => return Err(cut(0, "file header")),
    };
    let b = Buf { data, big };
    let header_size = b.usize(8).ok_or_else(|| cut(8, "file header"))?;
    let mut r = Reader::new(keep_warnings);
    r.maps.copy_budget = data.len().max(1 << 16);
    if header_size == PIPE_HEADER {
        r.records(&b, PIPE_HEADER, data.len(), true)?;
    } else if (FILE_HEADER..=4096).contains(&header_size) && header_size <= data.len() {
        let (data_at, data_len) = r.file_header(&b)?;
        r.records(&b, data_at, data_at + data_len, false)?;
    } else if header_size > data.len() || header_size >= FILE_HEADER {
        return Err(err(
            ImportErrorKind::Malformed,
            8,
            format!(
                "a file header of {header_size} bytes (perf writes {FILE_HEADER}; the input has {})",
                data.len()
            ),
        ));
    } else {
        return Err(err(
            ImportErrorKind::Malformed,
            8,
            format!("a file header of {header_size} bytes ({FILE_HEADER}, or {PIPE_HEADER} in pipe mode, expected)"),
        ));
    }
    r.finish(data.len())
}

/// A record kept for the replay: where it is and its time.
#[derive(Debug, Clone, Copy)]
struct Rec {
    at: usize,
    time: u64,
}

/// A binary (or the kernel) that frames point into.
#[derive(Debug)]
struct Module {
    path: String,
    /// The frame-name prefix, given when a frame first uses the module: its basename, or its path when
    /// another module already has that basename.
    name: Option<String>,
    kind: FrameKind,
}

struct Reader {
    attrs: Vec<Attr>,
    ids: FxHashMap<u64, usize>,
    features: Features,
    /// Event names by sample id from pipe mode's `EVENT_UPDATE` records.
    updated_names: Vec<(u64, String)>,
    recs: Vec<Rec>,
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
    /// Builder event per attribute, made at the attribute's first sample (so events are in the order of
    /// their first samples, as the perf script importer makes them).
    events: Vec<Option<u16>>,
    frame_ids: FxHashMap<(u32, u64), FrameId>,
    stack_cache: FxHashMap<Box<[FrameId]>, StackId>,
    frames: Vec<FrameId>,
    lost: Lost,
    lost_samples: Lost,
    samples: u64,
    untimed: u64,
}

impl Reader {
    fn new(keep_warnings: usize) -> Reader {
        Reader {
            attrs: Vec::new(),
            ids: FxHashMap::default(),
            features: Features::default(),
            updated_names: Vec::new(),
            recs: Vec::new(),
            b: ProfileBuilder::new(Format::PerfData),
            warnings: Warnings::keeping(keep_warnings),
            maps: Maps::default(),
            modules: Vec::new(),
            module_ids: FxHashMap::default(),
            module_names: FxHashMap::default(),
            mmap_build_ids: FxHashMap::default(),
            kernel_text: None,
            comms: FxHashMap::default(),
            threads: FxHashMap::default(),
            events: Vec::new(),
            frame_ids: FxHashMap::default(),
            stack_cache: FxHashMap::default(),
            frames: Vec::with_capacity(128),
            lost: Lost::default(),
            lost_samples: Lost::default(),
            samples: 0,
            untimed: 0,
        }
    }

    fn warn(&mut self, kind: WarningKind, at: usize, msg: impl Into<String>) {
        self.warnings.push(kind, 0, at as u64, msg);
    }

    /// The file header, its attributes and feature sections; returns the data section.
    fn file_header(&mut self, b: &Buf<'_>) -> Result<(usize, usize), ImportError> {
        let attr_size = b.usize(16).ok_or_else(|| cut(16, "file header"))?;
        let (attrs_at, attrs_len) = section(b, 24, "attributes")?;
        let (data_at, data_len) = section(b, 40, "data")?;
        if !(64 + 16..=1 << 16).contains(&attr_size) {
            return Err(err(
                ImportErrorKind::Malformed,
                16,
                format!("an attribute entry of {attr_size} bytes (80 to 65,536 expected)"),
            ));
        }
        let n = attrs_len / attr_size;
        if n == 0 || n > MAX_ATTRS {
            return Err(err(
                ImportErrorKind::Malformed,
                24,
                format!("{n} event attributes (1 to {MAX_ATTRS} expected)"),
            ));
        }
        for i in 0..n {
            let at = attrs_at + i * attr_size;
            let mut attr = Attr::parse(b, at, attr_size - 16)?;
            let (ids_at, ids_len) = section(b, at + attr_size - 16, "sample ids")?;
            attr.ids = (0..ids_len / 8).filter_map(|k| b.u64(ids_at + k * 8)).collect();
            self.add_attr(attr);
        }
        // Feature sections: one `perf_file_section` per bit of the bitmap, right after the data.
        let mut k = 0usize;
        for bit in 0..256u32 {
            let word = b.u64(72 + (bit as usize / 64) * 8).unwrap_or(0);
            if word & (1 << (bit % 64)) == 0 {
                continue;
            }
            let at = data_at + data_len + k * 16;
            k += 1;
            let body = section(b, at, "feature")
                .ok()
                .and_then(|(o, s)| b.slice(o, o + s));
            match body {
                Some(body) if self.features.read(bit, &body) => {}
                _ => self.warn(
                    WarningKind::MalformedRecord,
                    at,
                    format!("feature section {bit} could not be read; skipped"),
                ),
            }
        }
        Ok((data_at, data_len))
    }

    fn add_attr(&mut self, attr: Attr) {
        let i = self.attrs.len();
        for &id in &attr.ids {
            self.ids.insert(id, i);
        }
        self.attrs.push(attr);
        self.events.push(None);
    }

    /// Walks the records of `[start, end)`: checks their framing, handles header records at once, keeps the
    /// others with their times for the replay, then replays them in time order.
    fn records(&mut self, b: &Buf<'_>, start: usize, end: usize, pipe: bool) -> Result<(), ImportError> {
        let mut at = start;
        let mut last_time = 0u64;
        while at < end {
            if end - at < 8 {
                return Err(cut(at, "last record's header"));
            }
            let kind = b.u32(at).ok_or_else(|| cut(at, "record header"))?;
            let misc = b.u16(at + 4).ok_or_else(|| cut(at, "record header"))?;
            let size = usize::from(b.u16(at + 6).ok_or_else(|| cut(at, "record header"))?);
            if size < 8 {
                return Err(err(
                    ImportErrorKind::Malformed,
                    at,
                    format!("a record of {size} bytes (type {kind}; at least 8 expected)"),
                ));
            }
            let rec_end = at + size;
            if rec_end > end {
                return Err(err(
                    ImportErrorKind::Malformed,
                    at,
                    format!(
                        "a record of {size} bytes (type {kind}) runs past the end of the {} ({} bytes left)",
                        if pipe { "input" } else { "data section" },
                        end - at
                    ),
                ));
            }
            let r = b.slice(at, rec_end).ok_or_else(|| cut(at, "record"))?;
            let mut next = rec_end;
            match kind {
                rt::HEADER_ATTR => self.header_attr(&r, at)?,
                rt::HEADER_FEATURE => {
                    let id = r.u64(8).and_then(|x| u32::try_from(x).ok());
                    let ok = match (id, r.slice(16, size)) {
                        (Some(id), Some(body)) => self.features.read(id, &body),
                        _ => false,
                    };
                    if !ok {
                        self.warn(
                            WarningKind::MalformedRecord,
                            at,
                            "a feature record could not be read; skipped",
                        );
                    }
                }
                rt::EVENT_UPDATE => {
                    // `PERF_EVENT_UPDATE__NAME` (2); the others give a unit, a scale or CPUs.
                    if let (Some(2), Some(id), Some(name)) = (r.u64(8), r.u64(16), r.cstr(24, size)) {
                        self.updated_names.push((id, name));
                    }
                }
                rt::HEADER_TRACING_DATA | rt::AUXTRACE => {
                    // The payload follows the record, outside its size (8-byte aligned).
                    let extra = if kind == rt::AUXTRACE {
                        r.usize(8)
                    } else {
                        r.u32(8).and_then(|x| usize::try_from(x).ok())
                    };
                    let extra = extra.and_then(|x| x.checked_add(7)).map(|x| x & !7);
                    next = match extra.and_then(|x| rec_end.checked_add(x)) {
                        Some(n) if n <= end => n,
                        _ => {
                            return Err(err(
                                ImportErrorKind::Malformed,
                                at,
                                format!(
                                    "the payload of a record (type {kind}) runs past the end of the input"
                                ),
                            ))
                        }
                    };
                }
                rt::COMPRESSED => {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        at,
                        "zstd-compressed records (perf record -z) are not supported: record without -z, or \
                         `perf inject -i IN -o OUT` to decompress",
                    ))
                }
                rt::SAMPLE
                | rt::MMAP
                | rt::MMAP2
                | rt::COMM
                | rt::FORK
                | rt::EXIT
                | rt::LOST
                | rt::LOST_SAMPLES => {
                    if let Some(t) = self.time_of(&r, kind, misc) {
                        last_time = t;
                    }
                    self.recs.push(Rec { at, time: last_time });
                }
                _ => {} // FINISHED_ROUND and the rest: nothing scorch shows.
            }
            let _ = rt::FINISHED_ROUND;
            at = next;
        }
        self.name_events();
        let mut recs = std::mem::take(&mut self.recs);
        recs.sort_by_key(|r| r.time); // stable: records of one time keep their order
        for rec in &recs {
            self.replay(b, rec.at)?;
        }
        Ok(())
    }

    /// Pipe mode's `HEADER_ATTR`: an attribute, then its sample ids.
    fn header_attr(&mut self, r: &Buf<'_>, at: usize) -> Result<(), ImportError> {
        if self.attrs.len() >= MAX_ATTRS {
            return Err(err(
                ImportErrorKind::LimitExceeded,
                at,
                format!("more than {MAX_ATTRS} events"),
            ));
        }
        let size = r.u32(12).ok_or_else(|| cut(at, "attribute record"))?;
        let size = if size == 0 { 64 } else { size as usize };
        let attr = Attr::parse(r, 8, size).map_err(|mut e| {
            e.offset += at as u64;
            e
        })?;
        let ids_at = 8usize.saturating_add(size);
        let n = r.data.len().saturating_sub(ids_at) / 8;
        let mut attr = attr;
        attr.ids = (0..n).filter_map(|k| r.u64(ids_at + k * 8)).collect();
        self.add_attr(attr);
        Ok(())
    }

    /// Names each attribute: `EVENT_DESC` (by id, else by position), pipe mode's `EVENT_UPDATE`, else perf's
    /// name of its type and config.
    fn name_events(&mut self) {
        let names = std::mem::take(&mut self.features.event_names);
        for (i, (name, ids)) in names.iter().enumerate() {
            let target = ids.iter().find_map(|id| self.ids.get(id).copied()).unwrap_or(i);
            if let Some(a) = self.attrs.get_mut(target) {
                a.name = Some(name.clone());
            }
        }
        for (id, name) in std::mem::take(&mut self.updated_names) {
            if let Some(a) = self.ids.get(&id).and_then(|&i| self.attrs.get_mut(i)) {
                a.name = Some(name);
            }
        }
    }

    /// The attribute of a sample: the only one, or the one its id names.
    fn attr_of_sample(&self, r: &Buf<'_>) -> Option<usize> {
        if self.attrs.len() == 1 {
            return Some(0);
        }
        let t = self.attrs.first()?.sample_type;
        let at = if t & st::IDENTIFIER != 0 {
            8
        } else if t & st::ID != 0 {
            8 + 8 * [st::IP, st::TID, st::TIME, st::ADDR]
                .iter()
                .filter(|&&bit| t & bit != 0)
                .count()
        } else {
            return Some(0);
        };
        self.ids.get(&r.u64(at)?).copied()
    }

    /// A record's time: a sample's own, or the `sample_id` trailer's of the others (FORK and EXIT also carry
    /// one in their body).
    fn time_of(&self, r: &Buf<'_>, kind: u32, _misc: u16) -> Option<u64> {
        if kind == rt::SAMPLE {
            let a = self.attrs.get(self.attr_of_sample(r)?)?;
            if a.sample_type & st::TIME == 0 {
                return None;
            }
            let mut at = 8;
            for bit in [st::IDENTIFIER, st::IP, st::TID] {
                if a.sample_type & bit != 0 {
                    at += 8;
                }
            }
            return r.u64(at);
        }
        let a = self.attrs.first()?;
        if a.sample_id_all && a.sample_type & st::TIME != 0 {
            let len = a.trailer_len();
            let start = r.data.len().checked_sub(len)?;
            let at = start + if a.sample_type & st::TID != 0 { 8 } else { 0 };
            return r.u64(at);
        }
        if kind == rt::FORK || kind == rt::EXIT {
            return r.u64(24);
        }
        None
    }

    /// Handles one kept record in the replay.
    fn replay(&mut self, b: &Buf<'_>, at: usize) -> Result<(), ImportError> {
        let size = b.u16(at + 6).map_or(0, usize::from);
        let Some(r) = b.slice(at, at + size) else {
            return Ok(());
        };
        let kind = r.u32(0).unwrap_or(0);
        let misc = r.u16(4).unwrap_or(0);
        let trailer = self.attrs.first().map_or(0, Attr::trailer_len);
        let body_end = size.saturating_sub(trailer);
        let ok = match kind {
            rt::SAMPLE => return self.sample(&r, at, misc),
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
                let t = self.trailer_time(&r);
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

    fn trailer_time(&self, r: &Buf<'_>) -> Option<u64> {
        let a = self.attrs.first()?;
        if !(a.sample_id_all && a.sample_type & st::TIME != 0) {
            return None;
        }
        let start = r.data.len().checked_sub(a.trailer_len())?;
        r.u64(start + if a.sample_type & st::TID != 0 { 8 } else { 0 })
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
                Some(map) => self.frame(map.module, ip - map.start + map.pgoff),
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

    fn sample(&mut self, r: &Buf<'_>, at: usize, misc: u16) -> Result<(), ImportError> {
        let Some(ai) = self.attr_of_sample(r) else {
            self.warn(
                WarningKind::MalformedRecord,
                at,
                "a sample of no known event (its id names none); skipped",
            );
            return Ok(());
        };
        let Some(fields) = self.attrs.get(ai).and_then(|a| parse_sample(r, a)) else {
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
        let event = self.event_of(ai, fields.period.is_some());
        let thread = self.thread_of(fields.pid, fields.tid);
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
                labels: None,
            },
            at as u64,
        )
    }

    fn event_of(&mut self, ai: usize, has_period: bool) -> u16 {
        if let Some(Some(e)) = self.events.get(ai) {
            return *e;
        }
        let name = self
            .attrs
            .get(ai)
            .map_or_else(|| "(unnamed)".into(), Attr::display_name);
        let base = name.split([':', '/']).next().unwrap_or_default();
        let unit = match (has_period, base) {
            (false, _) => Unit::Samples,
            (true, "cpu-clock" | "task-clock") => Unit::Nanoseconds,
            (true, _) => Unit::Other("events".into()),
        };
        let e = self.b.event(&name, unit);
        if let Some(slot) = self.events.get_mut(ai) {
            *slot = Some(e);
        }
        e
    }

    fn thread_of(&mut self, pid: Option<u32>, tid: Option<u32>) -> u32 {
        let tid = tid.unwrap_or(u32::MAX);
        let comm = self
            .comms
            .get(&tid)
            .cloned()
            .unwrap_or_else(|| format!(":{}", tid as i32));
        let key = (comm, pid.unwrap_or(u32::MAX), tid);
        if let Some(&t) = self.threads.get(&key) {
            return t;
        }
        let t = self.b.thread(&key.0, pid, tid);
        self.threads.insert(key, t);
        t
    }

    fn finish(mut self, input_len: usize) -> Result<Profile, ImportError> {
        if self.samples == 0 {
            return Err(err(
                ImportErrorKind::Empty,
                input_len,
                "no samples: the recording holds no sample records",
            ));
        }
        let mut info = std::mem::take(&mut self.features.info);
        if let Some((first, last)) = self.features.sample_time {
            if last > first {
                self.b.set_duration_ns(last - first);
            }
        }
        // The binaries frames point into, with their build ids: what a symbolizer needs (`symbols.rs`).
        let build_ids: FxHashMap<&str, &str> = self
            .features
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
