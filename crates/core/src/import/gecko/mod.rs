//! The Firefox Profiler's *processed* profile format, as samply (`samply record --save-only`) and the Firefox
//! Profiler ("Download") save it: `meta`, and `threads[]`, each with its own tables as columns —
//! `samples` {stack, time | timeDeltas, weight?, weightType}, `stackTable` {prefix, frame}, `frameTable`
//! {func, category, inlineDepth}, `funcTable` {name, resource}, `resourceTable` {name}, and its strings
//! (`stringArray`, or the profile's `shared.stringArray` in newer versions). One JSON object, held whole
//! (capped) and parsed at the end into typed columns: O(input), never a `Value` tree.
//!
//! - Each thread with samples is a scorch thread: comm its `name`, pid and tid from its `pid`/`tid` (samply
//!   writes the main thread's tid as `PID.1`: the integer part is kept).
//! - A frame is its function's name; a name that is an address (`0x124f`, an unsymbolicated profile) gets its
//!   library: `0x124f (two)`. A frame whose category is named `Kernel` is a kernel frame, one with an
//!   `inlineDepth` above 0 an inline frame.
//! - Sample `i` is at `time[i]` ms (or the running sum of `timeDeltas`), kept as integer ns; it weighs
//!   `weight[i]` (1 when the column is null). `weightType` `samples` is a count, `tracing-ms` time (ms → ns),
//!   `bytes` bytes.
//! - Each thread's `markers` table is read as markers (`markers.rs`), on the samples' clock.
//! - The raw Gecko format that Firefox itself writes (tables as `schema` + `data`, content processes in
//!   `processes[]`) is turned into the same tables first (`raw.rs`).

mod cell;
mod markers;
mod raw;
mod sniff;

use cell::Cell;

pub use sniff::GeckoFormat;

use crate::import::json;
use crate::model::{
    Format, FrameId, FrameKind, FullSample, ImportError, ImportErrorKind, Profile, ProfileBuilder, StackId,
    Unit, Warnings, EMPTY_STACK,
};
use serde::Deserialize;

/// Options for the Gecko importer.
#[derive(Debug, Clone)]
pub struct GeckoOptions {
    /// Largest file (held whole to parse), in bytes. Default is 1 GiB.
    pub max_bytes: usize,
}

impl Default for GeckoOptions {
    fn default() -> Self {
        GeckoOptions { max_bytes: 1 << 30 }
    }
}

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    meta: Meta,
    threads: Vec<Thread>,
    #[serde(default)]
    shared: Shared,
    /// The raw format's content processes.
    #[serde(default)]
    processes: Vec<SubProcess>,
}

/// A content process's profile in the raw format.
#[derive(Deserialize)]
struct SubProcess {
    #[serde(default)]
    meta: Meta,
    #[serde(default)]
    threads: Vec<Thread>,
}

#[derive(Deserialize, Default)]
struct Meta {
    #[serde(default)]
    categories: Vec<Category>,
    #[serde(default)]
    product: Option<String>,
    #[serde(default)]
    interval: Option<f64>,
    /// The raw format's process start (ms since the epoch).
    #[serde(default, rename = "startTime")]
    start_time: Option<f64>,
}

#[derive(Deserialize)]
struct Category {
    #[serde(default)]
    name: String,
}

#[derive(Deserialize, Default)]
struct Shared {
    #[serde(default, rename = "stringArray")]
    string_array: Vec<String>,
}

#[derive(Deserialize)]
struct Thread {
    #[serde(default)]
    name: Option<String>,
    #[serde(default, rename = "processName")]
    process_name: Option<String>,
    #[serde(default)]
    pid: Option<serde_json::Value>,
    #[serde(default)]
    tid: Option<serde_json::Value>,
    samples: Samples,
    #[serde(default, rename = "stackTable")]
    stack_table: StackTable,
    #[serde(default, rename = "frameTable")]
    frame_table: FrameTable,
    #[serde(default, rename = "funcTable")]
    func_table: FuncTable,
    #[serde(default, rename = "resourceTable")]
    resource_table: ResourceTable,
    #[serde(default, rename = "stringArray")]
    string_array: Option<Vec<String>>,
    /// The raw format's strings.
    #[serde(default, rename = "stringTable")]
    string_table: Option<Vec<String>>,
    #[serde(default)]
    markers: markers::MarkerTable,
}

#[derive(Deserialize)]
struct Samples {
    #[serde(default)]
    stack: Vec<Option<u32>>,
    #[serde(default)]
    time: Option<Vec<f64>>,
    #[serde(default, rename = "timeDeltas")]
    time_deltas: Option<Vec<f64>>,
    #[serde(default)]
    weight: Option<Vec<f64>>,
    #[serde(default, rename = "weightType")]
    weight_type: Option<String>,
    /// The raw format's columns and rows.
    #[serde(default)]
    schema: Option<raw::Schema>,
    #[serde(default)]
    data: Option<Vec<Cell>>,
}

#[derive(Deserialize, Default)]
struct StackTable {
    #[serde(default)]
    prefix: Vec<Option<u32>>,
    #[serde(default)]
    frame: Vec<u32>,
    #[serde(default)]
    schema: Option<raw::Schema>,
    #[serde(default)]
    data: Option<Vec<Cell>>,
}

#[derive(Deserialize, Default)]
struct FrameTable {
    #[serde(default)]
    func: Vec<u32>,
    /// The line and column this frame was at (JS frames), within its function's file.
    #[serde(default)]
    line: Vec<Option<f64>>,
    #[serde(default)]
    column: Vec<Option<f64>>,
    #[serde(default)]
    category: Vec<Option<u32>>,
    #[serde(default, rename = "inlineDepth")]
    inline_depth: Vec<u32>,
    #[serde(default)]
    schema: Option<raw::Schema>,
    #[serde(default)]
    data: Option<Vec<Cell>>,
}

#[derive(Deserialize, Default)]
struct FuncTable {
    #[serde(default)]
    name: Vec<u32>,
    #[serde(default)]
    resource: Vec<Option<i64>>,
    /// The function's file (a string index), line and column, where it says.
    #[serde(default, rename = "fileName")]
    file_name: Vec<Option<f64>>,
    #[serde(default, rename = "lineNumber")]
    line_number: Vec<Option<f64>>,
    #[serde(default, rename = "columnNumber")]
    column_number: Vec<Option<f64>>,
}

/// A cell that is a whole number in `0..2^32`.
fn whole(x: Option<&Option<f64>>) -> Option<u32> {
    x.copied()
        .flatten()
        .filter(|n| n.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(n))
        .map(|n| n as u32)
}

/// Per frame row of a thread, its location row (file, line, column), or nothing when neither its function has a
/// file nor the frame a line (a thread without places costs nothing more). The frame's own line and column are
/// the place; its function's are the fallback.
fn frame_locations(t: &Thread, frames: &[FrameId], strings: &[String], b: &mut ProfileBuilder) -> Vec<u32> {
    let ft = &t.frame_table;
    let fu = &t.func_table;
    let file_of = |func: usize| {
        whole(fu.file_name.get(func))
            .and_then(|i| strings.get(i as usize))
            .map(|s| s.trim().replace(char::is_control, " "))
            .filter(|s| !s.is_empty())
    };
    let placed = (0..ft.func.len()).any(|fi| {
        whole(ft.line.get(fi)).is_some() || ft.func.get(fi).is_some_and(|&f| file_of(f as usize).is_some())
    });
    if !placed {
        return Vec::new();
    }
    frames
        .iter()
        .enumerate()
        .map(|(fi, &frame)| {
            let func = ft.func.get(fi).copied().unwrap_or(u32::MAX) as usize;
            let file = file_of(func).map_or(crate::model::NO_STR, |s| b.intern(&s));
            let line = whole(ft.line.get(fi)).or(whole(fu.line_number.get(func)));
            let column = whole(ft.column.get(fi)).or(whole(fu.column_number.get(func)));
            b.location(crate::model::Location {
                file,
                line: line.unwrap_or(0),
                column: column.unwrap_or(0),
                ..crate::model::Location::of(frame)
            })
        })
        .collect()
}

#[derive(Deserialize, Default)]
struct ResourceTable {
    #[serde(default)]
    name: Vec<u32>,
}

/// Collects the file, then reads it at [`GeckoParser::finish`].
pub struct GeckoParser {
    json: json::WholeJson,
}

fn err(msg: impl Into<String>) -> ImportError {
    ImportError::new(Some(Format::Gecko), ImportErrorKind::Malformed, 0, None, msg)
}

impl GeckoParser {
    pub fn new(opts: &GeckoOptions) -> Self {
        GeckoParser {
            json: json::WholeJson::new(Format::Gecko, opts.max_bytes, "profile"),
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        self.json.feed(chunk)
    }

    pub fn finish(self) -> Result<Profile, ImportError> {
        let file: File = self.json.parse()?;
        build(file)
    }
}

/// A pid or tid as the file writes it (a number or a string such as `"7042.1"`): its leading integer.
fn id_of(v: &Option<serde_json::Value>) -> Option<u32> {
    match v.as_ref()? {
        serde_json::Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        serde_json::Value::String(s) => {
            let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        }
        _ => None,
    }
}

fn unit_of(weight_type: Option<&str>) -> (Unit, Option<f64>) {
    match weight_type.unwrap_or("samples") {
        "tracing-ms" => (Unit::Nanoseconds, Some(1e6)),
        "bytes" => (Unit::Bytes, None),
        _ => (Unit::Samples, None),
    }
}

/// Milliseconds as integer nanoseconds, when in range.
fn ms_to_ns(ms: f64) -> Option<u64> {
    let ns = (ms * 1e6).round();
    (ns.is_finite() && (0.0..1.8e19).contains(&ns)).then_some(ns as u64)
}

/// Every thread, the content processes' after the parent's (`processes[i].threads[j]` as its path), raw
/// tables turned into processed ones.
fn gather(file: &mut File) -> Result<Vec<(String, Thread)>, ImportError> {
    let shapes = raw::Shapes::new().ok_or_else(|| err("the location patterns do not compile"))?;
    let mut all = Vec::with_capacity(file.threads.len());
    for (ti, mut t) in std::mem::take(&mut file.threads).into_iter().enumerate() {
        let path = format!("threads[{ti}]");
        raw::normalize(&mut t, 0.0, &shapes, &path)?;
        all.push((path, t));
    }
    let parent = file.meta.start_time.unwrap_or(0.0);
    for (pi, sp) in std::mem::take(&mut file.processes).into_iter().enumerate() {
        // As the profiler moves a content process's times: by its start minus the parent's.
        let offset = sp.meta.start_time.map_or(0.0, |s| s - parent);
        for (ti, mut t) in sp.threads.into_iter().enumerate() {
            let path = format!("processes[{pi}].threads[{ti}]");
            raw::normalize(&mut t, offset, &shapes, &path)?;
            all.push((path, t));
        }
    }
    Ok(all)
}

/// A thread's samples' time range in ms (first, last plus the interval), as the profiler takes it.
fn sample_range(t: &Thread, interval: f64) -> Option<(f64, f64)> {
    let (first, last) = match (&t.samples.time, &t.samples.time_deltas) {
        (Some(ts), _) => (*ts.first()?, *ts.last()?),
        (None, Some(ds)) => (*ds.first()?, ds.iter().sum()),
        (None, None) => return None,
    };
    Some((first, last + interval))
}

fn build(mut file: File) -> Result<Profile, ImportError> {
    let mut b = ProfileBuilder::new(Format::Gecko);
    let threads = gather(&mut file)?;
    let kernel_cats: Vec<bool> = file.meta.categories.iter().map(|c| c.name == "Kernel").collect();
    let units: Vec<Unit> = threads
        .iter()
        .map(|(_, t)| t)
        .filter(|t| !t.samples.stack.is_empty())
        .map(|t| unit_of(t.samples.weight_type.as_deref()).0)
        .collect();
    let unit = units.first().cloned().unwrap_or(Unit::Samples);
    let mut records = 0u64;
    let mut timed: Option<bool> = None;
    let category_names: Vec<String> = file.meta.categories.iter().map(|c| c.name.clone()).collect();
    let mut marks_skipped = 0u64;
    let interval = file
        .meta
        .interval
        .filter(|i| i.is_finite() && *i >= 0.0)
        .unwrap_or(1.0);
    for (ti, (path, t)) in threads.iter().enumerate() {
        let path = path.as_str();
        let owner = markers::Owner {
            name: t
                .name
                .as_deref()
                .or(t.process_name.as_deref())
                .unwrap_or("")
                .trim(),
            pid: id_of(&t.pid),
            tid: id_of(&t.tid),
            range: sample_range(t, interval),
            interval,
        };
        let strings = t.string_array.as_deref().unwrap_or(&file.shared.string_array);
        marks_skipped += markers::take(&t.markers, strings, &category_names, &owner, &mut b);
        if t.samples.stack.is_empty() {
            continue;
        }
        let (tunit, per) = unit_of(t.samples.weight_type.as_deref());
        if tunit != unit {
            return Err(err(format!(
                "{path}.samples.weightType: threads of different weight types ({} and {}) are not read together",
                unit.name(),
                tunit.name()
            )));
        }
        let strings = t.string_array.as_deref().unwrap_or(&file.shared.string_array);
        let string = |i: u32, what: &str| {
            strings
                .get(i as usize)
                .ok_or_else(|| err(format!("{path}.{what}: string {i} does not exist")))
        };
        // Frames: each frame's name and kind, once.
        let mut frames: Vec<FrameId> = Vec::with_capacity(t.frame_table.func.len());
        for (fi, &func) in t.frame_table.func.iter().enumerate() {
            let name_idx = *t.func_table.name.get(func as usize).ok_or_else(|| {
                err(format!(
                    "{path}.frameTable.func[{fi}]: function {func} does not exist"
                ))
            })?;
            let mut name = string(name_idx, &format!("funcTable.name[{func}]"))?
                .trim()
                .replace(char::is_control, " ");
            if name.starts_with("0x") {
                let res = t.func_table.resource.get(func as usize).copied().flatten();
                let lib = res
                    .and_then(|r| usize::try_from(r).ok())
                    .and_then(|r| t.resource_table.name.get(r))
                    .and_then(|&s| strings.get(s as usize));
                if let Some(lib) = lib {
                    name = format!("{name} ({lib})");
                }
            }
            if name.is_empty() {
                name = "(anonymous)".to_string();
            }
            let cat = t.frame_table.category.get(fi).copied().flatten();
            let kind = if cat.and_then(|c| kernel_cats.get(c as usize)).copied() == Some(true) {
                FrameKind::Kernel
            } else if t.frame_table.inline_depth.get(fi).is_some_and(|&d| d > 0) {
                FrameKind::Inline
            } else {
                FrameKind::User
            };
            frames.push(b.frame(&name, kind));
        }
        let locs = frame_locations(t, &frames, strings, &mut b);
        // Stacks: each prefix is an earlier stack (the format's order), so one pass, no cycles. With places,
        // each stack's path over locations beside it.
        let n = t.stack_table.frame.len();
        if t.stack_table.prefix.len() != n {
            return Err(err(format!(
                "{path}.stackTable: {} prefixes but {n} frames",
                t.stack_table.prefix.len()
            )));
        }
        let mut stacks: Vec<StackId> = Vec::with_capacity(n);
        let mut sites: Vec<StackId> = Vec::with_capacity(if locs.is_empty() { 0 } else { n });
        for (si, (&prefix, &frame)) in t.stack_table.prefix.iter().zip(&t.stack_table.frame).enumerate() {
            let parent = match prefix {
                None => None,
                Some(p) => Some(*stacks.get(p as usize).ok_or_else(|| {
                    err(format!(
                        "{path}.stackTable.prefix[{si}]: {p} is not an earlier stack"
                    ))
                })?),
            };
            let f = *frames.get(frame as usize).ok_or_else(|| {
                err(format!(
                    "{path}.stackTable.frame[{si}]: frame {frame} does not exist"
                ))
            })?;
            stacks.push(b.stack(parent, f));
            if let Some(&loc) = locs.get(frame as usize) {
                let up = prefix.and_then(|p| sites.get(p as usize).copied());
                sites.push(b.site_stack(up, loc));
            }
        }
        // Samples.
        let count = t.samples.stack.len();
        let times: Option<Vec<f64>> = match (&t.samples.time, &t.samples.time_deltas) {
            (Some(ts), _) => Some(ts.clone()),
            (None, Some(ds)) => Some(
                ds.iter()
                    .scan(0.0f64, |acc, d| {
                        *acc += d;
                        Some(*acc)
                    })
                    .collect(),
            ),
            (None, None) => None,
        };
        if times.as_ref().is_some_and(|v| v.len() != count) {
            return Err(err(format!(
                "{path}.samples: {count} stacks but a different number of times"
            )));
        }
        if t.samples.weight.as_ref().is_some_and(|v| v.len() != count) {
            return Err(err(format!(
                "{path}.samples: {count} stacks but a different number of weights"
            )));
        }
        let has_time = times.is_some();
        if *timed.get_or_insert(has_time) != has_time {
            return Err(err(format!(
                "{path}.samples: some threads have times and others none"
            )));
        }
        let comm = t
            .name
            .as_deref()
            .or(t.process_name.as_deref())
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .unwrap_or("thread")
            .replace(char::is_control, " ");
        let tid = id_of(&t.tid).unwrap_or(ti as u32);
        let thread = b.thread(&comm, id_of(&t.pid), tid);
        for (i, &s) in t.samples.stack.iter().enumerate() {
            let at = format!("{path}.samples");
            let stack = match s {
                None => EMPTY_STACK,
                Some(s) => *stacks
                    .get(s as usize)
                    .ok_or_else(|| err(format!("{at}.stack[{i}]: stack {s} does not exist")))?,
            };
            let w = t
                .samples
                .weight
                .as_ref()
                .and_then(|w| w.get(i))
                .copied()
                .unwrap_or(1.0);
            let w = w * per.unwrap_or(1.0);
            let weight = (w.is_finite() && (0.0..1.8e19).contains(&w.round()))
                .then_some(w.round() as u64)
                .ok_or_else(|| {
                    err(format!(
                        "{at}.weight[{i}]: the weight {w} is negative or out of range"
                    ))
                })?;
            let time_ns = match &times {
                None => None,
                Some(v) => {
                    let ms = v.get(i).copied().unwrap_or(0.0);
                    Some(ms_to_ns(ms).ok_or_else(|| {
                        err(format!(
                            "{at}.time[{i}]: the time {ms} ms is negative or out of range"
                        ))
                    })?)
                }
            };
            records += 1;
            b.push_full_sample(
                FullSample {
                    stack,
                    weight,
                    time_ns,
                    thread: Some(thread),
                    event: None,
                    cpu: None,
                    labels: None,
                },
                0,
            )?;
            if let Some(&site) = s.and_then(|s| sites.get(s as usize)) {
                b.set_sample_site(site);
            }
        }
    }
    if records == 0 {
        return Err(ImportError::new(
            Some(Format::Gecko),
            ImportErrorKind::NoValidRecords,
            0,
            None,
            "the profile holds no samples",
        ));
    }
    if let Some(p) = &file.meta.product {
        b.add_info("product", p.clone());
    }
    if marks_skipped > 0 {
        b.add_info(
            "markers not taken",
            format!("{marks_skipped} markers without a name or a time in range, or of an unknown phase"),
        );
    }
    if let Some(i) = file.meta.interval {
        b.add_info("interval", format!("{i} ms"));
    }
    Ok(b.build(unit, 0, records, Warnings::default()))
}

#[cfg(test)]
mod tests;
