//! A Chrome trace's duration and instant events as markers: `X` (complete: `ts` and `dur`), `B`/`E` (begin
//! and end, matched last-in first-out per process and thread), `I`/`i` (instant). Times are `ts` in
//! microseconds, as nanoseconds on the samples' axis; the fields are `cat` and the scalar `args`.

use super::nodes::Micros;
use crate::model::Marker;
use rustc_hash::FxHashMap;
use serde::Deserialize;
use std::borrow::Cow;

/// The fields of a duration or instant event.
#[derive(Deserialize)]
pub(super) struct MarkEvent<'a> {
    #[serde(borrow, default)]
    name: Cow<'a, str>,
    #[serde(borrow, default)]
    cat: Cow<'a, str>,
    #[serde(borrow, default)]
    ph: Cow<'a, str>,
    #[serde(default)]
    pid: Option<i64>,
    #[serde(default)]
    tid: Option<i64>,
    #[serde(default)]
    ts: Option<Micros>,
    #[serde(default)]
    dur: Option<Micros>,
    #[serde(default)]
    args: Option<serde_json::Map<String, serde_json::Value>>,
}

/// The markers of a trace as they are read; thread names are added at the end (their `M` events may come later).
#[derive(Default)]
pub(super) struct Marks {
    pub list: Vec<(Option<i64>, Option<i64>, Marker)>,
    /// Open `B` events per (pid, tid): indexes into `list`.
    open: FxHashMap<(Option<i64>, Option<i64>), Vec<usize>>,
    /// Events that could not be taken (no time, a negative time, an `E` with no `B`).
    pub skipped: u64,
}

/// Whether `ph` is a phase [`Marks::take`] reads.
pub(super) fn is_mark(ph: &str) -> bool {
    matches!(ph, "X" | "B" | "E" | "I" | "i")
}

fn ns(t: &Option<Micros>) -> Option<u64> {
    t.as_ref().and_then(|m| u64::try_from(m.0).ok())
}

fn text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

impl MarkEvent<'_> {
    pub fn ph(&self) -> &str {
        &self.ph
    }
}

impl Marks {
    pub fn take(&mut self, e: MarkEvent<'_>) {
        let key = (e.pid, e.tid);
        let Some(start) = ns(&e.ts) else {
            self.skipped += 1;
            return;
        };
        if e.ph == "E" {
            match self.open.get_mut(&key).and_then(Vec::pop) {
                Some(i) => {
                    if let Some((_, _, m)) = self.list.get_mut(i) {
                        m.end_ns = Some(start.max(m.start_ns));
                    }
                }
                None => self.skipped += 1,
            }
            return;
        }
        // A few fields: the scalar args, by name (at most 8, each at most 200 bytes).
        let fields = e
            .args
            .iter()
            .flat_map(|a| a.iter())
            .filter_map(|(k, v)| Some((crate::import::safe_text(k), text(v)?)))
            .map(|(k, v)| {
                (
                    k,
                    crate::import::safe_text(&v.chars().take(200).collect::<String>()),
                )
            })
            .take(8)
            .collect();
        let end = match e.ph.as_ref() {
            "X" => ns(&e.dur).map(|d| start.saturating_add(d)),
            _ => None,
        };
        let m = Marker {
            name: crate::import::safe_text(&e.name),
            category: crate::import::safe_text(&e.cat),
            pid: e.pid.and_then(|p| u32::try_from(p).ok()),
            tid: e.tid.and_then(|t| u32::try_from(t).ok()),
            thread: String::new(),
            start_ns: start,
            end_ns: end,
            fields,
        };
        if e.ph == "B" {
            self.open.entry(key).or_default().push(self.list.len());
        }
        self.list.push((e.pid, e.tid, m));
    }

    /// The markers with their threads' names. A `B` never ended stays without an end (an instant).
    pub fn finish(self, names: &FxHashMap<(i64, i64), String>) -> (Vec<Marker>, u64) {
        let unended = self.open.values().map(|v| v.len() as u64).sum::<u64>();
        let list = self
            .list
            .into_iter()
            .map(|(pid, tid, mut m)| {
                if let (Some(p), Some(t)) = (pid, tid) {
                    if let Some(n) = names.get(&(p, t)) {
                        m.thread = crate::import::safe_text(n.trim());
                    }
                }
                m
            })
            .collect();
        (list, unended)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(m: &mut Marks, json: &str) {
        m.take(serde_json::from_str(json).unwrap());
    }

    #[test]
    fn begins_and_ends_nest_per_thread_and_instants_stay_instants() {
        let mut m = Marks::default();
        take(&mut m, r#"{"ph":"B","name":"outer","pid":1,"tid":2,"ts":10}"#);
        take(&mut m, r#"{"ph":"B","name":"inner","pid":1,"tid":2,"ts":11.5}"#);
        // Another thread's end does not close this thread's begin.
        take(&mut m, r#"{"ph":"E","pid":1,"tid":3,"ts":12}"#);
        take(&mut m, r#"{"ph":"E","pid":1,"tid":2,"ts":13}"#);
        take(&mut m, r#"{"ph":"E","pid":1,"tid":2,"ts":20}"#);
        take(
            &mut m,
            r#"{"ph":"X","name":"nodur","pid":1,"tid":2,"ts":5,"args":{"n":3,"o":{"x":1}}}"#,
        );
        take(&mut m, r#"{"ph":"B","name":"open","pid":1,"tid":2,"ts":30}"#);
        take(&mut m, r#"{"ph":"i","name":"neg","pid":1,"tid":2,"ts":-1}"#);
        let names = FxHashMap::from_iter([((1, 2), "main".to_string())]);
        let skipped = m.skipped;
        let (list, unended) = m.finish(&names);
        assert_eq!(
            (skipped, unended),
            (2, 1),
            "an E with no B, a negative ts; one B open"
        );
        let got: Vec<(&str, u64, Option<u64>)> = list
            .iter()
            .map(|m| (m.name.as_str(), m.start_ns, m.end_ns))
            .collect();
        assert_eq!(
            got,
            [
                ("outer", 10_000, Some(20_000)),
                ("inner", 11_500, Some(13_000)),
                ("nodur", 5_000, None),
                ("open", 30_000, None)
            ]
        );
        assert!(list.iter().all(|m| m.thread == "main"));
        assert_eq!(list[2].fields, [("n".to_string(), "3".to_string())]);
    }
}
