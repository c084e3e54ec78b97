//! A thread's `markers` table as markers: `name` (an index into the thread's strings), `startTime` and
//! `endTime` (ms, on the samples' clock), `phase` (0 instant, 1 interval, 2 interval start, 3 interval end),
//! `category` (an index into `meta.categories`); `data` (the payload) is not read but for its `type`.

use crate::model::{Marker, ProfileBuilder};
use serde::Deserialize;

#[derive(Deserialize, Default)]
pub(super) struct MarkerTable {
    #[serde(default)]
    name: Vec<Option<u32>>,
    #[serde(default, rename = "startTime")]
    start_time: Vec<Option<f64>>,
    #[serde(default, rename = "endTime")]
    end_time: Vec<Option<f64>>,
    #[serde(default)]
    phase: Vec<Option<u8>>,
    #[serde(default)]
    category: Vec<Option<u32>>,
}

/// The thread a table belongs to.
pub(super) struct Owner<'a> {
    pub name: &'a str,
    pub pid: Option<u32>,
    pub tid: Option<u32>,
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
    let ns = |ms: Option<f64>| ms.and_then(super::ms_to_ns);
    for (i, name) in table.name.iter().enumerate() {
        let start = ns(table.start_time.get(i).copied().flatten());
        let end = ns(table.end_time.get(i).copied().flatten());
        let phase = table.phase.get(i).copied().flatten();
        let times = match phase {
            Some(1) => start.zip(end).map(|(s, e)| (s, Some(e.max(s)))),
            Some(0 | 2) => start.map(|s| (s, None)),
            Some(3) => end.map(|e| (e, None)),
            _ => None,
        };
        let text = name.and_then(|n| strings.get(n as usize));
        let (Some((start_ns, end_ns)), Some(text)) = (times, text) else {
            skipped += 1;
            continue;
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
            end_ns,
            fields: Vec::new(),
        });
    }
    skipped
}
