//! Markers: named moments and intervals on the time axis beside the samples (Chrome trace duration and instant
//! events, Gecko profile markers, JFR events with a duration, perf script tracepoints). Each belongs to a thread, named by its process and thread id and name as
//! the input states them (a marker's thread need not have samples), and carries a few fields as text.

/// One marker. Times are on the samples' time axis (nanoseconds, the input's own clock).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Marker {
    pub name: String,
    /// The input's category or kind (a Chrome trace's `cat`, a Gecko marker's category name).
    pub category: String,
    pub pid: Option<u32>,
    pub tid: Option<u32>,
    /// The thread's name, when the input names it (else empty).
    pub thread: String,
    pub start_ns: u64,
    /// `None` for an instant.
    pub end_ns: Option<u64>,
    /// A few of the input's fields, as text (`key`, `value`).
    pub fields: Vec<(String, String)>,
}

impl Marker {
    /// How long it lasts; `None` for an instant.
    pub fn duration_ns(&self) -> Option<u64> {
        self.end_ns.map(|e| e.saturating_sub(self.start_ns))
    }
}
