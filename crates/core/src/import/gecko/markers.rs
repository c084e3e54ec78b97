//! A thread's `markers` table as markers: `name` (an index into the thread's strings), `startTime` and
//! `endTime` (ms, on the samples' clock), `phase`, `category` (an index into `meta.categories`), `data` (the
//! payload: only its `type` is read). Read as the Firefox Profiler derives its markers from the table
//! (`deriveMarkersFromRawMarkerTable`): phase 0 is an instant at its start, 1 an interval; 2 (an interval's
//! start) and 3 (its end) are paired by name, last in first out, into one interval; an end without a start
//! begins at the thread's start (the earlier of its first sample and that end), a start without an end lasts
//! to the thread's end (its last sample plus the interval, or later). Payloads of type `JS allocation` and
//! `Native allocation` are allocation records, not markers (the profiler moves them to tables of their own).

use super::cell::Cell;
use crate::model::{Marker, ProfileBuilder};
use rustc_hash::FxHashMap;
use serde::Deserialize;

#[derive(Deserialize, Default)]
pub(super) struct MarkerTable {
    #[serde(default)]
    pub name: Vec<Option<u32>>,
    #[serde(default, rename = "startTime")]
    pub start_time: Vec<Option<f64>>,
    #[serde(default, rename = "endTime")]
    pub end_time: Vec<Option<f64>>,
    #[serde(default)]
    pub phase: Vec<Option<u8>>,
    #[serde(default)]
    pub category: Vec<Option<u32>>,
    /// The payloads (processed format), or the rows (raw format, until `raw::normalize`).
    #[serde(default)]
    pub data: Option<Vec<Cell>>,
    /// The raw format's columns.
    #[serde(default)]
    pub schema: Option<super::raw::Schema>,
}

/// The thread a table belongs to.
pub(super) struct Owner<'a> {
    pub name: &'a str,
    pub pid: Option<u32>,
    pub tid: Option<u32>,
    /// The thread's time range in ms (first sample, last sample plus the interval), when it has samples.
    pub range: Option<(f64, f64)>,
    /// The profile's sampling interval in ms.
    pub interval: f64,
}

/// Adds the table's markers to `b`; returns how many rows could not be taken (no name or time, a time out of
/// range, an unknown phase).
pub(super) fn take(
    table: &MarkerTable,
    strings: &[String],
    categories: &[String],
    owner: &Owner,
    b: &mut ProfileBuilder,
) -> u64 {
    let mut skipped = 0;
    let at = |v: &Vec<Option<f64>>, i: usize| v.get(i).copied().flatten().filter(|t| t.is_finite());
    let allocation = |i: usize| {
        let kind = table.data.as_ref().and_then(|d| d.get(i)).and_then(Cell::kind);
        matches!(kind, Some("JS allocation" | "Native allocation"))
    };
    // The thread's range: its samples', else its markers' (as the profiler computes it).
    let range = owner.range.unwrap_or_else(|| {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for i in 0..table.name.len() {
            let times = match table.phase.get(i).copied().flatten() {
                Some(0 | 2) => [at(&table.start_time, i), None],
                Some(3) => [at(&table.end_time, i), None],
                Some(1) => [at(&table.start_time, i), at(&table.end_time, i)],
                _ => [None, None],
            };
            for t in times.into_iter().flatten() {
                lo = lo.min(t);
                hi = hi.max(t + owner.interval);
            }
        }
        (lo, hi)
    });
    let mut add = |i: usize, start: f64, end: Option<f64>, skipped: &mut u64| {
        let text = table
            .name
            .get(i)
            .copied()
            .flatten()
            .and_then(|n| strings.get(n as usize));
        let start_ns = super::ms_to_ns(start);
        let end_ns = match end {
            None => Some(None),
            Some(e) => super::ms_to_ns(e).map(Some),
        };
        let (Some(text), Some(start_ns), Some(end_ns)) = (text, start_ns, end_ns) else {
            *skipped += 1;
            return;
        };
        let category = table
            .category
            .get(i)
            .copied()
            .flatten()
            .and_then(|c| categories.get(c as usize))
            .cloned()
            .unwrap_or_default();
        b.marker(Marker {
            name: crate::import::safe_text(text),
            category: crate::import::safe_text(&category),
            pid: owner.pid,
            tid: owner.tid,
            thread: crate::import::safe_text(owner.name),
            start_ns,
            end_ns: end_ns.map(|e| e.max(start_ns)),
            fields: Vec::new(),
        });
    };
    // Open interval starts by name, in input order.
    let mut open: FxHashMap<u32, Vec<usize>> = FxHashMap::default();
    let mut open_order: Vec<u32> = Vec::new();
    for i in 0..table.name.len() {
        if allocation(i) {
            continue;
        }
        let (start, end) = (at(&table.start_time, i), at(&table.end_time, i));
        let name = table.name.get(i).copied().flatten();
        match (table.phase.get(i).copied().flatten(), name) {
            (Some(0), _) => match start {
                Some(s) => add(i, s, None, &mut skipped),
                None => skipped += 1,
            },
            (Some(1), _) => match start.zip(end) {
                Some((s, e)) => add(i, s, Some(e), &mut skipped),
                None => skipped += 1,
            },
            (Some(2), Some(n)) if start.is_some() => {
                let list = open.entry(n).or_default();
                if list.is_empty() {
                    open_order.push(n);
                }
                list.push(i);
            }
            (Some(3), Some(n)) if end.is_some() => {
                let e = end.unwrap_or_default();
                match open.get_mut(&n).and_then(Vec::pop) {
                    Some(si) => {
                        let s = at(&table.start_time, si).unwrap_or(e);
                        add(si, s, Some(e), &mut skipped);
                    }
                    None => add(i, e.min(range.0), Some(e), &mut skipped),
                }
            }
            _ => skipped += 1,
        }
    }
    for n in open_order {
        for si in open.remove(&n).unwrap_or_default() {
            let s = at(&table.start_time, si).unwrap_or_default();
            add(si, s, Some(range.1.max(s)), &mut skipped);
        }
    }
    skipped
}
