//! The records' vocabulary (types, callchain context markers, `misc` bits) and a sample's fields, read in
//! `sample_type` order.

use super::bytes::Buf;
use super::header::{rf, st, Attr};

/// Record types (`PERF_RECORD_*`; 64 and up are perf's own, not the kernel's).
pub(super) mod rt {
    pub const MMAP: u32 = 1;
    pub const LOST: u32 = 2;
    pub const COMM: u32 = 3;
    pub const EXIT: u32 = 4;
    pub const FORK: u32 = 7;
    pub const SAMPLE: u32 = 9;
    pub const MMAP2: u32 = 10;
    pub const LOST_SAMPLES: u32 = 13;
    pub const HEADER_ATTR: u32 = 64;
    pub const HEADER_TRACING_DATA: u32 = 66;
    pub const FINISHED_ROUND: u32 = 68;
    pub const AUXTRACE: u32 = 71;
    pub const EVENT_UPDATE: u32 = 78;
    pub const HEADER_FEATURE: u32 = 80;
    pub const COMPRESSED: u32 = 81;
}

/// Callchain entries at or above this are context markers (`PERF_CONTEXT_MAX` = -4095).
pub(super) const CONTEXT_MAX: u64 = 0u64.wrapping_sub(4095);
pub(super) const CONTEXT_HV: u64 = 0u64.wrapping_sub(32);
pub(super) const CONTEXT_KERNEL: u64 = 0u64.wrapping_sub(128);
pub(super) const CONTEXT_USER: u64 = 0u64.wrapping_sub(512);
/// The smallest perf.data file header (`perf_file_header`), and pipe mode's (`perf_pipe_file_header`).
pub(super) const FILE_HEADER: usize = 104;
pub(super) const PIPE_HEADER: usize = 16;
/// `misc` bits.
pub(super) const MISC_CPUMODE: u16 = 7;
pub(super) const MISC_KERNEL: u16 = 1;
pub(super) const MISC_HYPERVISOR: u16 = 3;
pub(super) const MISC_MMAP_DATA: u16 = 1 << 13;
pub(super) const MISC_MMAP_BUILD_ID: u16 = 1 << 14;

/// The fields of a sample scorch uses.
#[derive(Debug, Default)]
pub(super) struct SampleFields {
    pub ip: Option<u64>,
    pub pid: Option<u32>,
    pub tid: Option<u32>,
    pub time: Option<u64>,
    pub cpu: Option<u32>,
    pub period: Option<u64>,
    /// Where the callchain's entries start in the record, and how many.
    pub callchain: Option<(usize, usize)>,
    /// Where the raw payload (`PERF_SAMPLE_RAW`: a tracepoint's record) starts in the record, and its length.
    pub raw: Option<(usize, usize)>,
}

/// Reads a sample's fields in `sample_type` order, up to the raw payload (nothing after it is used); `None`
/// when the record is too short for them.
pub(super) fn parse_sample(r: &Buf<'_>, a: &Attr) -> Option<SampleFields> {
    let t = a.sample_type;
    let has = |bit: u64| t & bit != 0;
    let mut at = 8usize;
    let mut f = SampleFields::default();
    let u64_at = |at: &mut usize| {
        let v = r.u64(*at);
        *at += 8;
        v
    };
    if has(st::IDENTIFIER) {
        u64_at(&mut at)?;
    }
    if has(st::IP) {
        f.ip = Some(u64_at(&mut at)?);
    }
    if has(st::TID) {
        f.pid = Some(r.u32(at)?);
        f.tid = Some(r.u32(at + 4)?);
        at += 8;
    }
    if has(st::TIME) {
        f.time = Some(u64_at(&mut at)?);
    }
    for bit in [st::ADDR, st::ID, st::STREAM_ID] {
        if has(bit) {
            u64_at(&mut at)?;
        }
    }
    if has(st::CPU) {
        f.cpu = Some(r.u32(at)?);
        at += 8;
    }
    if has(st::PERIOD) {
        f.period = Some(u64_at(&mut at)?);
    } else {
        f.period = a.sample_period;
    }
    if has(st::READ) {
        let rfm = a.read_format;
        let flag = |bit: u64| usize::from(rfm & bit != 0);
        let per_value = 1 + flag(rf::ID) + flag(rf::LOST);
        let times = flag(rf::TOTAL_TIME_ENABLED) + flag(rf::TOTAL_TIME_RUNNING);
        let words = if rfm & rf::GROUP != 0 {
            let nr = r.usize(at)?;
            nr.checked_mul(per_value)?.checked_add(1 + times)?
        } else {
            per_value + times
        };
        at = at.checked_add(words.checked_mul(8)?)?;
    }
    if has(st::CALLCHAIN) {
        let n = r.usize(at)?;
        let start = at + 8;
        let end = start.checked_add(n.checked_mul(8)?)?;
        if end > r.data.len() {
            return None;
        }
        f.callchain = Some((start, n));
        at = end;
    }
    if has(st::RAW) {
        let n = usize::try_from(r.u32(at)?).ok()?;
        let start = at + 4;
        let end = start.checked_add(n)?;
        if end > r.data.len() {
            return None;
        }
        f.raw = Some((start, n));
        at = end;
    }
    if at > r.data.len() {
        return None;
    }
    Some(f)
}
