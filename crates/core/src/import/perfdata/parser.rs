//! The perf.data reader: the input held whole (capped), then the header, the attributes, the feature
//! sections, and the records — walked once to check their framing and note each one's time, then replayed in
//! time order (as `perf script` does with its ordered-events queue; the replay itself is `replay.rs`), so that
//! a sample sees the thread names and mappings of its moment.

use super::bytes::{cut, err, Buf};
use super::header::{section, st, Attr, Attrs, Features, MAX_ATTRS};
use super::record::*;
use super::replay::Replay;
use super::sniff::{MAGIC_BE, MAGIC_LE};
use super::tracing::SwitchLayout;
use super::PerfDataOptions;
use crate::model::{ImportError, ImportErrorKind, Profile, WarningKind, Warnings};

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
    // Forks may copy one mapping per 16 bytes of input: a copied mapping costs ~80 bytes of memory, so the
    // copies stay within a few times the input (one per byte let 20 MB of MMAP2 and FORK records take 1.7 GB).
    let mut r = Reader::new(keep_warnings, (data.len() / 16).max(1 << 16));
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

/// The records' walk: the attributes and features it reads, the records it keeps for the replay.
struct Reader {
    attrs: Attrs,
    features: Features,
    /// Event names by sample id from pipe mode's `EVENT_UPDATE` records.
    updated_names: Vec<(u64, String)>,
    recs: Vec<Rec>,
    replay: Replay,
}

impl Reader {
    fn new(keep_warnings: usize, copy_budget: usize) -> Reader {
        Reader {
            attrs: Attrs::default(),
            features: Features::default(),
            updated_names: Vec::new(),
            recs: Vec::new(),
            replay: Replay::new(keep_warnings, copy_budget),
        }
    }

    fn warn(&mut self, kind: WarningKind, at: usize, msg: impl Into<String>) {
        self.replay.warn(kind, at, msg);
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
            self.attrs.add(attr);
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
                    if let (rt::HEADER_TRACING_DATA, Some(n)) = (kind, extra) {
                        if let Some(data) = b.bytes(rec_end, n) {
                            self.features.sched_switch = SwitchLayout::from_tracing_data(data);
                        }
                    }
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
            self.replay
                .record(&self.attrs, self.features.sched_switch.as_ref(), b, rec.at)?;
        }
        Ok(())
    }

    /// Pipe mode's `HEADER_ATTR`: an attribute, then its sample ids.
    fn header_attr(&mut self, r: &Buf<'_>, at: usize) -> Result<(), ImportError> {
        if self.attrs.list.len() >= MAX_ATTRS {
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
        self.attrs.add(attr);
        Ok(())
    }

    /// Names each attribute: `EVENT_DESC` (by id, else by position), pipe mode's `EVENT_UPDATE`, else perf's
    /// name of its type and config.
    fn name_events(&mut self) {
        let names = std::mem::take(&mut self.features.event_names);
        for (i, (name, ids)) in names.iter().enumerate() {
            let target = ids
                .iter()
                .find_map(|id| self.attrs.ids.get(id).copied())
                .unwrap_or(i);
            if let Some(a) = self.attrs.list.get_mut(target) {
                a.name = Some(name.clone());
            }
        }
        for (id, name) in std::mem::take(&mut self.updated_names) {
            if let Some(a) = self.attrs.ids.get(&id).and_then(|&i| self.attrs.list.get_mut(i)) {
                a.name = Some(name);
            }
        }
    }

    /// A record's time: a sample's own, or the `sample_id` trailer's of the others (FORK and EXIT also carry
    /// one in their body).
    fn time_of(&self, r: &Buf<'_>, kind: u32, _misc: u16) -> Option<u64> {
        if kind == rt::SAMPLE {
            let a = self.attrs.get(self.attrs.of_sample(r)?)?;
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

    fn finish(self, input_len: usize) -> Result<Profile, ImportError> {
        self.replay.finish(self.features, input_len)
    }
}
