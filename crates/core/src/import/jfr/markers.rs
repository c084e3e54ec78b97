//! JFR events with a duration as markers: each at its `startTime` for its `duration`, on its `eventThread`
//! (by Java name and id, as samples are); events the JVM records without a thread (`jdk.GarbageCollection`)
//! are on a line named `JVM`. Named by their type (`jdk.ThreadPark`), categorised by what they are about
//! (`lock`, `gc`, `vm`, `compiler`, `io`), with a few of their fields as text.

use super::chunk::Chunk;
use super::meta::Val;
use crate::model::Marker;

/// The event types taken as markers: (type, category, fields shown).
pub(super) const MARKED: [(&str, &str, &[&str]); 12] = [
    ("jdk.JavaMonitorEnter", "lock", &["monitorClass", "previousOwner"]),
    (
        "jdk.JavaMonitorWait",
        "lock",
        &["monitorClass", "notifier", "timedOut"],
    ),
    ("jdk.ThreadPark", "lock", &["parkedClass", "timeout"]),
    ("jdk.ThreadSleep", "lock", &["time"]),
    ("jdk.GarbageCollection", "gc", &["gcId", "name", "cause"]),
    ("jdk.GCPhasePause", "gc", &["gcId", "name"]),
    (
        "jdk.SafepointBegin",
        "vm",
        &["safepointId", "totalThreadCount", "jniCriticalThreadCount"],
    ),
    (
        "jdk.Compilation",
        "compiler",
        &["compileId", "method", "compileLevel"],
    ),
    ("jdk.FileRead", "io", &["path", "bytesRead"]),
    ("jdk.FileWrite", "io", &["path", "bytesWritten"]),
    ("jdk.SocketRead", "io", &["host", "port", "bytesRead"]),
    ("jdk.SocketWrite", "io", &["host", "port", "bytesWritten"]),
];

/// A thread value's Java name (or OS name) and id (or OS id), when it has either.
pub(super) fn identity(c: &Chunk, v: &Val, class: i64) -> Option<(String, u32)> {
    let text = |name: &str| {
        c.get(v, class, name)
            .and_then(|(x, _)| c.text(x))
            .filter(|s| !s.is_empty())
    };
    let int = |name: &str| {
        c.get(v, class, name)
            .and_then(|(x, _)| c.int(x))
            .filter(|&i| i > 0)
    };
    let name = text("javaName").or_else(|| text("osName"));
    let id = int("javaThreadId").or_else(|| int("osThreadId"));
    if name.is_none() && id.is_none() {
        return None;
    }
    let name = crate::import::safe_text(name.as_deref().unwrap_or("(unnamed)"));
    Some((name, id.and_then(|i| u32::try_from(i).ok()).unwrap_or(0)))
}

/// A field's value as text: a string, an integer, or, for an object (a class, a method, a GC's name or
/// cause: constant-pool types), its `name`, `string` or `cause` shown the same way, two levels deep at most.
fn shown(c: &Chunk, v: &Val, class: i64, depth: u8) -> Option<String> {
    if let Some(t) = c.text(v) {
        return Some(t.to_string());
    }
    if let Some(i) = c.int(v) {
        return Some(i.to_string());
    }
    if depth == 0 {
        return None;
    }
    ["name", "string", "cause"]
        .iter()
        .find_map(|f| c.get(v, class, f).and_then(|(x, k)| shown(c, x, k, depth - 1)))
}

/// The marker of event `v` of type `kind` (an index into [`MARKED`]), or `None` without a duration.
pub(super) fn marker(c: &Chunk, v: &Val, type_id: i64, kind: usize, start_ns: u64) -> Option<Marker> {
    let (name, category, shown_fields) = MARKED.get(kind)?;
    let field = |name: &str| c.get(v, type_id, name);
    let dur = field("duration")
        .and_then(|(x, _)| c.int(x))
        .map(|d| c.header.span(d))?;
    let thread = field("eventThread").and_then(|(x, class)| identity(c, x, class));
    let (thread, tid) = match thread {
        Some((n, t)) => (n, Some(t)),
        None => ("JVM".to_string(), None),
    };
    let fields = shown_fields
        .iter()
        .filter_map(|f| {
            let (x, class) = field(f)?;
            let text = shown(c, x, class, 2)?;
            Some((f.to_string(), crate::import::safe_text(&text)))
        })
        .collect();
    Some(Marker {
        name: name.to_string(),
        category: category.to_string(),
        pid: None,
        tid,
        thread,
        start_ns,
        end_ns: Some(start_ns.saturating_add(dur)),
        fields,
    })
}
