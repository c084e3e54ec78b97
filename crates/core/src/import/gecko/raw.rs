//! The raw Gecko format, as Firefox itself writes a profile (`MOZ_PROFILER_SHUTDOWN`, or the profiler's
//! "capture" before processing): each thread's tables as `{schema: {column: index}, data: [[row], …]}`,
//! a row as short as its last non-null cell; strings in the thread's `stringTable`; times in ms from its
//! process's `meta.startTime`; the content processes' profiles in `processes[]`, each with its own `meta`.
//! It is read here the way the Firefox Profiler's `processGeckoProfile` turns it into the processed format,
//! column by column, into the same typed tables (`Thread`) the processed format fills:
//!
//! - `samples` {stack, time}; `stackTable` {prefix, frame}; `markers` {name, startTime, endTime, phase,
//!   category, data}.
//! - `frameTable` {location, category}: a frame's location string becomes its function. The profiler's three
//!   shapes of a location: an address (`0x7f…`, kept), a native function (`name (in lib)`, optionally
//!   followed by ` + 123` or ` (file:line)`: the name, without a `non-virtual thunk to ` prefix) and a JS
//!   function (`name (url:line:col)`, optionally `[source]`: the name, or the whole location when the name is
//!   empty); anything else is kept whole (labels such as `setTimeout handler`).
//! - A content process's times are moved by its `meta.startTime` minus the parent's, as the profiler does.

use super::{Cell, Thread};
use crate::model::{Format, ImportError, ImportErrorKind};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// A table's column map and rows.
pub(super) type Schema = BTreeMap<String, usize>;

fn err(msg: String) -> ImportError {
    ImportError::new(Some(Format::Gecko), ImportErrorKind::Malformed, 0, None, msg)
}

/// The rows of a raw table: each must be an array.
fn rows<'a>(data: &'a [Cell], path: &str) -> Result<Vec<&'a [Cell]>, ImportError> {
    data.iter()
        .enumerate()
        .map(|(i, r)| match r {
            Cell::Row(cells) => Ok(cells.as_slice()),
            _ => Err(err(format!("{path}.data[{i}]: a row is an array"))),
        })
        .collect()
}

/// Column `name` of `rows` (a missing column or cell is null).
fn column<'a>(rows: &[&'a [Cell]], schema: &Schema, name: &str) -> Vec<Option<&'a Cell>> {
    let at = schema.get(name).copied();
    rows.iter().map(|r| at.and_then(|a| r.get(a))).collect()
}

fn num(c: Option<&Cell>) -> Option<f64> {
    match c {
        Some(Cell::Num(n)) => Some(*n),
        _ => None,
    }
}

/// A non-negative integer index.
fn index(c: Option<&Cell>) -> Option<u32> {
    num(c)
        .filter(|n| n.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(n))
        .map(|n| n as u32)
}

/// Location-string shapes, the Firefox Profiler's (`process-profile.ts`).
pub(super) struct Shapes {
    cpp: regex_lite::Regex,
    js: regex_lite::Regex,
}

impl Shapes {
    pub(super) fn new() -> Option<Self> {
        Some(Shapes {
            cpp: regex_lite::Regex::new(r"^(.*) \(in ([^)]*)\)(?: \+ [0-9]+| \(.*:.*\))?$").ok()?,
            js: regex_lite::Regex::new(r"^(.*) \((.+?):([0-9]+)(?::([0-9]+))?\)(?:\[(\d+)\])?$").ok()?,
        })
    }

    /// A JS location's file, line and column (`name (url:line:col)`), as the Firefox Profiler reads them.
    pub(super) fn js_place<'a>(&self, loc: &'a str) -> Option<(&'a str, Option<u32>, Option<u32>)> {
        let c = self.js.captures(loc)?;
        let num = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
        Some((c.get(2)?.as_str(), num(3), num(4)))
    }

    /// The function a location names.
    pub(super) fn function<'a>(&self, loc: &'a str) -> &'a str {
        if loc.starts_with("0x") {
            return loc;
        }
        if let Some(name) = self.cpp.captures(loc).and_then(|c| c.get(1)) {
            let n = name.as_str();
            return n.strip_prefix("non-virtual thunk to ").unwrap_or(n);
        }
        if let Some(name) = self.js.captures(loc).and_then(|c| c.get(1)) {
            if !name.as_str().is_empty() {
                return name.as_str();
            }
        }
        loc
    }
}

/// Fills `t`'s processed columns from its raw tables (when it has them), times moved by `offset_ms`.
/// Returns whether the thread was raw.
pub(super) fn normalize(
    t: &mut Thread,
    offset_ms: f64,
    shapes: &Shapes,
    path: &str,
) -> Result<bool, ImportError> {
    let Some(schema) = t.samples.schema.take() else {
        return Ok(false);
    };
    let mut strings = t
        .string_table
        .take()
        .or(t.string_array.take())
        .unwrap_or_default();
    // Samples.
    let data = t.samples.data.take().unwrap_or_default();
    let r = rows(&data, &format!("{path}.samples"))?;
    t.samples.stack = column(&r, &schema, "stack").into_iter().map(index).collect();
    let times = column(&r, &schema, "time");
    let mut time = Vec::with_capacity(times.len());
    for (i, c) in times.into_iter().enumerate() {
        let ms = num(c).ok_or_else(|| err(format!("{path}.samples.data[{i}]: a sample without a time")))?;
        time.push(ms + offset_ms);
    }
    t.samples.time = Some(time);
    // Stacks.
    if let (Some(schema), Some(data)) = (t.stack_table.schema.take(), t.stack_table.data.take()) {
        let r = rows(&data, &format!("{path}.stackTable"))?;
        t.stack_table.prefix = column(&r, &schema, "prefix").into_iter().map(index).collect();
        let mut frame = Vec::with_capacity(r.len());
        for (i, c) in column(&r, &schema, "frame").into_iter().enumerate() {
            frame.push(index(c).ok_or_else(|| err(format!("{path}.stackTable.data[{i}]: no frame")))?);
        }
        t.stack_table.frame = frame;
    }
    // Frames: one function per distinct location.
    if let (Some(schema), Some(data)) = (t.frame_table.schema.take(), t.frame_table.data.take()) {
        let r = rows(&data, &format!("{path}.frameTable"))?;
        let mut funcs: FxHashMap<u32, u32> = FxHashMap::default();
        let mut func = Vec::with_capacity(r.len());
        for (i, c) in column(&r, &schema, "location").into_iter().enumerate() {
            let loc = index(c).ok_or_else(|| err(format!("{path}.frameTable.data[{i}]: no location")))?;
            let next = t.func_table.name.len() as u32;
            let f = *funcs.entry(loc).or_insert(next);
            if f == next {
                let text = strings.get(loc as usize).ok_or_else(|| {
                    err(format!(
                        "{path}.frameTable.data[{i}]: string {loc} does not exist"
                    ))
                })?;
                let name = shapes.function(text).to_string();
                let place = shapes
                    .js_place(text)
                    .map(|(file, line, col)| (file.to_string(), line, col));
                t.func_table.name.push(strings.len() as u32);
                t.func_table.resource.push(None);
                strings.push(name);
                let (file, line, col) = match place {
                    Some((file, line, col)) => {
                        strings.push(file);
                        (Some((strings.len() - 1) as f64), line, col)
                    }
                    None => (None, None, None),
                };
                t.func_table.file_name.push(file);
                t.func_table.line_number.push(line.map(f64::from));
                t.func_table.column_number.push(col.map(f64::from));
            }
            func.push(f);
        }
        t.frame_table.func = func;
        t.frame_table.category = column(&r, &schema, "category").into_iter().map(index).collect();
        let at = |name: &str| -> Vec<Option<f64>> {
            column(&r, &schema, name)
                .into_iter()
                .map(|c| index(c).map(f64::from))
                .collect()
        };
        t.frame_table.line = at("line");
        t.frame_table.column = at("column");
    }
    // Markers.
    if let (Some(schema), Some(data)) = (t.markers.schema.take(), t.markers.data.take()) {
        let r = rows(&data, &format!("{path}.markers"))?;
        let m = &mut t.markers;
        m.name = column(&r, &schema, "name").into_iter().map(index).collect();
        let time = |c: Option<&Cell>| num(c).map(|ms| ms + offset_ms);
        m.start_time = column(&r, &schema, "startTime").into_iter().map(time).collect();
        m.end_time = column(&r, &schema, "endTime").into_iter().map(time).collect();
        m.phase = column(&r, &schema, "phase")
            .into_iter()
            .map(|c| index(c).and_then(|p| u8::try_from(p).ok()))
            .collect();
        m.category = column(&r, &schema, "category").into_iter().map(index).collect();
        m.data = Some(
            column(&r, &schema, "data")
                .into_iter()
                .map(|c| c.cloned().unwrap_or(Cell::Null))
                .collect(),
        );
    }
    t.string_array = Some(strings);
    Ok(true)
}
