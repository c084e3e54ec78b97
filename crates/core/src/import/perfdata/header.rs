//! The fixed-size parts of a recording: the file header and its sections, the event attributes
//! (`perf_event_attr` with their sample ids), and the feature sections after the data (`perf_file_section`s,
//! one per bit set in the header's feature bitmap) that scorch shows or uses.

use super::bytes::{cut, err, Buf};
use crate::model::ImportErrorKind;
use rustc_hash::FxHashMap;

/// `perf_event_attr.sample_type` bits, in the order their fields follow in a sample.
pub(super) mod st {
    pub const IP: u64 = 1 << 0;
    pub const TID: u64 = 1 << 1;
    pub const TIME: u64 = 1 << 2;
    pub const ADDR: u64 = 1 << 3;
    pub const READ: u64 = 1 << 4;
    pub const CALLCHAIN: u64 = 1 << 5;
    pub const ID: u64 = 1 << 6;
    pub const CPU: u64 = 1 << 7;
    pub const PERIOD: u64 = 1 << 8;
    pub const STREAM_ID: u64 = 1 << 9;
    pub const RAW: u64 = 1 << 10;
    pub const IDENTIFIER: u64 = 1 << 16;
}

/// `perf_event_attr.read_format` bits.
pub(super) mod rf {
    pub const TOTAL_TIME_ENABLED: u64 = 1 << 0;
    pub const TOTAL_TIME_RUNNING: u64 = 1 << 1;
    pub const ID: u64 = 1 << 2;
    pub const GROUP: u64 = 1 << 3;
    pub const LOST: u64 = 1 << 4;
}

/// The feature sections scorch reads (`HEADER_*` bit numbers).
pub(super) mod feat {
    pub const TRACING_DATA: u32 = 1;
    pub const BUILD_ID: u32 = 2;
    pub const HOSTNAME: u32 = 3;
    pub const OSRELEASE: u32 = 4;
    pub const VERSION: u32 = 5;
    pub const ARCH: u32 = 6;
    pub const NRCPUS: u32 = 7;
    pub const CPUDESC: u32 = 8;
    pub const CMDLINE: u32 = 11;
    pub const EVENT_DESC: u32 = 12;
    pub const SAMPLE_TIME: u32 = 21;
}

/// Smallest `perf_event_attr` (`PERF_ATTR_SIZE_VER0`).
const ATTR_MIN: usize = 64;
/// At most this many events (attributes): more is not a recording perf makes.
pub(super) const MAX_ATTRS: usize = 4096;

/// One event of the recording: what its samples carry and what it is called.
#[derive(Debug, Clone, Default)]
pub(super) struct Attr {
    pub kind: u32,
    pub config: u64,
    pub sample_type: u64,
    pub read_format: u64,
    /// The fixed period (`perf record -c N`, a tracepoint's 1): what a sample without its own period field
    /// weighs, as perf reads it (`evsel__parse_sample` starts from `attr.sample_period`); `None` in frequency
    /// mode (`-F`, whose samples carry their periods).
    pub sample_period: Option<u64>,
    pub sample_id_all: bool,
    /// The sample ids the kernel gave this event (one per CPU or thread it was opened on).
    pub ids: Vec<u64>,
    /// From `EVENT_DESC`, pipe mode's `EVENT_UPDATE`, or else [`Attr::fallback_name`].
    pub name: Option<String>,
}

impl Attr {
    /// Reads a `perf_event_attr` of `size` bytes at `at`.
    pub fn parse(b: &Buf<'_>, at: usize, size: usize) -> Result<Attr, crate::model::ImportError> {
        if size < ATTR_MIN {
            return Err(err(
                ImportErrorKind::Malformed,
                at,
                format!("an event attribute of {size} bytes (at least {ATTR_MIN} expected)"),
            ));
        }
        let field = |o: usize| b.u64(at + o).ok_or_else(|| cut(at + o, "event attribute"));
        let kind = b.u32(at).ok_or_else(|| cut(at, "event attribute"))?;
        let flags = field(40)?;
        Ok(Attr {
            kind,
            config: field(8)?,
            sample_type: field(24)?,
            read_format: field(32)?,
            sample_period: Some(field(16)?).filter(|_| flags & (1 << 10) == 0),
            sample_id_all: flags & (1 << 18) != 0,
            ids: Vec::new(),
            name: None,
        })
    }

    /// The event's name when the recording names none: perf's names of the generic hardware and software
    /// events, `tracepoint:ID` for a tracepoint (its name is in the tracing data, of which scorch reads only
    /// `sched_switch`'s format), else `TYPE:CONFIG` in hex.
    pub fn fallback_name(&self) -> String {
        const HW: [&str; 10] = [
            "cycles",
            "instructions",
            "cache-references",
            "cache-misses",
            "branches",
            "branch-misses",
            "bus-cycles",
            "stalled-cycles-frontend",
            "stalled-cycles-backend",
            "ref-cycles",
        ];
        const SW: [&str; 12] = [
            "cpu-clock",
            "task-clock",
            "page-faults",
            "context-switches",
            "cpu-migrations",
            "minor-faults",
            "major-faults",
            "alignment-faults",
            "emulation-faults",
            "dummy",
            "bpf-output",
            "cgroup-switches",
        ];
        let table: &[&str] = match self.kind {
            0 => &HW,
            1 => &SW,
            2 => return format!("tracepoint:{}", self.config),
            _ => &[],
        };
        match usize::try_from(self.config).ok().and_then(|c| table.get(c)) {
            Some(n) => (*n).to_string(),
            None => format!("raw:{:x}:{:x}", self.kind, self.config),
        }
    }

    pub fn display_name(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.fallback_name())
    }

    /// Bytes of the `sample_id` trailer that non-sample records carry when `sample_id_all` is set.
    pub fn trailer_len(&self) -> usize {
        if !self.sample_id_all {
            return 0;
        }
        [st::TID, st::TIME, st::ID, st::STREAM_ID, st::CPU, st::IDENTIFIER]
            .iter()
            .filter(|&&bit| self.sample_type & bit != 0)
            .count()
            * 8
    }
}

/// The recording's attributes, in file order, and which one each sample id names.
#[derive(Debug, Default)]
pub(super) struct Attrs {
    pub list: Vec<Attr>,
    pub ids: FxHashMap<u64, usize>,
}

impl Attrs {
    pub fn add(&mut self, attr: Attr) {
        let i = self.list.len();
        for &id in &attr.ids {
            self.ids.insert(id, i);
        }
        self.list.push(attr);
    }

    pub fn get(&self, i: usize) -> Option<&Attr> {
        self.list.get(i)
    }

    /// The first attribute: its `sample_id_all` trailer layout is the one all records use.
    pub fn first(&self) -> Option<&Attr> {
        self.list.first()
    }

    /// The attribute of a sample: the only one, or the one its id names.
    pub fn of_sample(&self, r: &Buf<'_>) -> Option<usize> {
        if self.list.len() == 1 {
            return Some(0);
        }
        let t = self.list.first()?.sample_type;
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
}

/// A `perf_file_section`: `(offset, size)` of a part of the file, checked to lie inside it.
pub(super) fn section(
    b: &Buf<'_>,
    at: usize,
    what: &str,
) -> Result<(usize, usize), crate::model::ImportError> {
    let offset = b.u64(at).ok_or_else(|| cut(at, "file header"))?;
    let size = b.u64(at + 8).ok_or_else(|| cut(at, "file header"))?;
    let end = offset.checked_add(size);
    match (usize::try_from(offset), usize::try_from(size), end) {
        (Ok(o), Ok(s), Some(e)) if e <= b.data.len() as u64 => Ok((o, s)),
        _ => Err(err(
            ImportErrorKind::Malformed,
            at,
            format!(
                "the {what} section ({size} bytes at byte {offset}) lies past the end of the input ({} bytes)",
                b.data.len()
            ),
        )),
    }
}

/// What the feature sections say, for the profile's facts and the symbolizer.
#[derive(Debug, Clone, Default)]
pub(super) struct Features {
    pub info: Vec<(&'static str, String)>,
    /// (path, build id in hex) from the `BUILD_ID` section.
    pub build_ids: Vec<(String, String)>,
    /// (event name, its ids) from `EVENT_DESC`.
    pub event_names: Vec<(String, Vec<u64>)>,
    /// First and last sample times (`SAMPLE_TIME`).
    pub sample_time: Option<(u64, u64)>,
    /// `sched_switch`'s fields, from its format text in the tracing data (`TRACING_DATA`).
    pub sched_switch: Option<super::tracing::SwitchLayout>,
}

/// A `perf_header_string` at `at`: `u32 len`, then `len` bytes NUL-padded. Returns the string and the end.
fn header_string(b: &Buf<'_>, at: usize) -> Option<(String, usize)> {
    let len = usize::try_from(b.u32(at)?).ok()?;
    let end = at.checked_add(4)?.checked_add(len)?;
    Some((b.cstr(at + 4, end)?, end))
}

impl Features {
    /// Reads one feature section's body (`b` is just that body); a feature that does not parse is skipped
    /// and counted by the caller (`false`).
    pub fn read(&mut self, id: u32, b: &Buf<'_>) -> bool {
        self.read_opt(id, b).is_some()
    }

    fn read_opt(&mut self, id: u32, b: &Buf<'_>) -> Option<()> {
        let key = match id {
            feat::HOSTNAME => "hostname",
            feat::OSRELEASE => super::OS_RELEASE_INFO,
            feat::VERSION => "perf version",
            feat::ARCH => "arch",
            feat::CPUDESC => "cpu",
            feat::CMDLINE => {
                let n = b.u32(0)?;
                let mut at = 4;
                let mut args = Vec::new();
                for _ in 0..n {
                    let (s, end) = header_string(b, at)?;
                    args.push(s);
                    at = end;
                }
                self.info.push(("command", args.join(" ")));
                return Some(());
            }
            feat::NRCPUS => {
                let avail = b.u32(0)?;
                let online = b.u32(4)?;
                self.info
                    .push(("cpus", format!("{online} online, {avail} available")));
                return Some(());
            }
            feat::SAMPLE_TIME => {
                self.sample_time = Some((b.u64(0)?, b.u64(8)?));
                return Some(());
            }
            feat::TRACING_DATA => {
                self.sched_switch = super::tracing::SwitchLayout::from_tracing_data(b.data);
                return Some(());
            }
            feat::EVENT_DESC => return self.event_desc(b),
            feat::BUILD_ID => return self.build_id(b),
            _ => return Some(()),
        };
        let (s, _) = header_string(b, 0)?;
        self.info.push((key, s));
        Some(())
    }

    /// `u32 nr; u32 attr_size;` then per event: the attr, `u32 nr_ids`, its name, `u64 ids[nr_ids]`.
    fn event_desc(&mut self, b: &Buf<'_>) -> Option<()> {
        let n = b.u32(0)?;
        let attr_size = usize::try_from(b.u32(4)?).ok()?;
        let mut at = 8usize;
        for _ in 0..n {
            at = at.checked_add(attr_size)?;
            let nr_ids = usize::try_from(b.u32(at)?).ok()?;
            let (name, end) = header_string(b, at + 4)?;
            let ids_end = end.checked_add(nr_ids.checked_mul(8)?)?;
            if ids_end > b.data.len() {
                return None;
            }
            let ids = (0..nr_ids).filter_map(|i| b.u64(end + i * 8)).collect();
            self.event_names.push((name, ids));
            at = ids_end;
        }
        Some(())
    }

    /// Build-id records: `perf_event_header`, `u32 pid`, 24 bytes of build id (its length in byte 20 when
    /// `misc` has `PERF_RECORD_MISC_BUILD_ID_SIZE`, else 20), the path NUL-padded.
    fn build_id(&mut self, b: &Buf<'_>) -> Option<()> {
        let mut at = 0usize;
        while at + 8 <= b.data.len() {
            let misc = b.u16(at + 4)?;
            let size = usize::from(b.u16(at + 6)?);
            let end = at.checked_add(size)?;
            if size < 36 || end > b.data.len() {
                return None;
            }
            let len = if misc & (1 << 15) != 0 {
                usize::from(b.u8(at + 12 + 20)?).min(20)
            } else {
                20
            };
            let id = b.bytes(at + 12, len)?;
            let hex: String = id.iter().map(|x| format!("{x:02x}")).collect();
            let path = b.cstr(at + 36, end)?;
            self.build_ids.push((path, hex));
            at = end;
        }
        Some(())
    }
}
