//! The marker list (`scorch markers`): every marker of a profile with its thread, start and duration, by thread
//! then start. Start times are also given from the origin: the earliest sample's or marker's time.

use crate::model::Profile;

/// One marker as listed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MarkerRow {
    /// The thread's label: its name, else `pid/tid` (`?` for what the input leaves out).
    pub thread: String,
    pub pid: Option<u32>,
    pub tid: Option<u32>,
    pub name: String,
    pub category: String,
    /// On the samples' time axis (nanoseconds, the input's clock).
    pub start_ns: u64,
    /// From the origin.
    pub offset_ns: u64,
    /// `None` for an instant.
    pub duration_ns: Option<u64>,
    pub fields: Vec<(String, String)>,
}

/// Every marker, by thread label, then start, then name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MarkerList {
    pub origin_ns: u64,
    pub markers: Vec<MarkerRow>,
}

/// The label of a marker's thread.
pub fn thread_label(name: &str, pid: Option<u32>, tid: Option<u32>) -> String {
    if !name.is_empty() {
        return name.to_string();
    }
    let n = |x: Option<u32>| x.map_or("?".to_string(), |v| v.to_string());
    format!("{}/{}", n(pid), n(tid))
}

/// The marker list of `p`. O(markers log markers + samples).
pub fn marker_list(p: &Profile) -> MarkerList {
    let first_sample = p.samples.time_ns.as_ref().and_then(|t| t.iter().min().copied());
    let first_marker = p.meta.markers.iter().map(|m| m.start_ns).min();
    let origin_ns = match (first_sample, first_marker) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b).unwrap_or(0),
    };
    let mut markers: Vec<MarkerRow> = p
        .meta
        .markers
        .iter()
        .map(|m| MarkerRow {
            thread: thread_label(&m.thread, m.pid, m.tid),
            pid: m.pid,
            tid: m.tid,
            name: m.name.clone(),
            category: m.category.clone(),
            start_ns: m.start_ns,
            offset_ns: m.start_ns.saturating_sub(origin_ns),
            duration_ns: m.duration_ns(),
            fields: m.fields.clone(),
        })
        .collect();
    markers.sort_by(|a, b| {
        (&a.thread, a.start_ns, &a.name, a.duration_ns).cmp(&(&b.thread, b.start_ns, &b.name, b.duration_ns))
    });
    MarkerList { origin_ns, markers }
}
