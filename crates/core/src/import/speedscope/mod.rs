//! speedscope's file format (<https://www.speedscope.app/file-format-schema.json>), as py-spy, rbspy, austin,
//! pyroscope and speedscope itself write it: `shared.frames` (name, file, line, col) and `profiles[]`, each
//! `sampled` (stacks of frame indices, root first, with `weights`) or `evented` (`O`pen / `C`lose events of a
//! frame `at` a value). One JSON object, held whole (capped, like a `.cpuprofile`) and parsed at the end into
//! typed structs: O(input), never a `Value` tree.
//!
//! - Every profile is read; each is a thread whose root frame is the profile's `name` (py-spy writes one per
//!   thread), so the `root` switch groups by profile.
//! - A frame is its `name`; a name standing for several locations gets its location, `NAME (FILE:LINE)` (and
//!   `:COL` when two share a line), as the V8 importers do.
//! - Units: `nanoseconds`, `microseconds`, `milliseconds` and `seconds` become integer nanoseconds (integers
//!   exactly, fractions rounded to the nearest ns); `bytes` stays bytes, `none` is a count. Profiles of
//!   different units become events, one per unit.
//! - A sampled profile's sample `i` is at `startValue + Σ weights[..i]` (time units only: then every sample
//!   has its time); an evented profile becomes one sample per interval between consecutive events while a
//!   frame is open, with the open stack, weighing the interval, at its start. Frames still open at the end
//!   are closed at `endValue` (a counted warning).

mod sniff;

pub use sniff::SpeedscopeFormat;

use crate::import::json;
use crate::model::sites::Location;
use crate::model::{
    Format, FrameId, FrameKind, FullSample, ImportError, ImportErrorKind, Profile, ProfileBuilder, StackId,
    Unit, Warnings, EMPTY_STACK, NO_STR,
};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Deserialize;
use serde_json::Number;

/// Options for the speedscope importer.
#[derive(Debug, Clone)]
pub struct SpeedscopeOptions {
    /// Largest file (held whole to parse), in bytes. Default is 1 GiB.
    pub max_bytes: usize,
}

impl Default for SpeedscopeOptions {
    fn default() -> Self {
        SpeedscopeOptions { max_bytes: 1 << 30 }
    }
}

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    shared: Shared,
    profiles: Vec<Prof>,
}

#[derive(Deserialize, Default)]
struct Shared {
    #[serde(default)]
    frames: Vec<FrameInfo>,
}

#[derive(Deserialize)]
struct FrameInfo {
    name: String,
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    line: Option<Number>,
    #[serde(default)]
    col: Option<Number>,
}

#[derive(Deserialize)]
struct Prof {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    unit: Option<String>,
    #[serde(default, rename = "startValue")]
    start: Option<Number>,
    #[serde(default, rename = "endValue")]
    end: Option<Number>,
    #[serde(default)]
    samples: Vec<Vec<u32>>,
    #[serde(default)]
    weights: Vec<Number>,
    #[serde(default)]
    events: Vec<Event>,
}

#[derive(Deserialize)]
struct Event {
    #[serde(rename = "type")]
    kind: String,
    at: Number,
    frame: u32,
}

/// Collects the file, then reads it at [`SpeedscopeParser::finish`].
pub struct SpeedscopeParser {
    json: json::WholeJson,
}

fn err(kind: ImportErrorKind, msg: impl Into<String>) -> ImportError {
    ImportError::new(Some(Format::Speedscope), kind, 0, None, msg)
}

/// A speedscope unit as the model's unit and, for units of time, nanoseconds per unit.
fn unit_of(name: Option<&str>) -> (Unit, Option<u64>) {
    match name.unwrap_or("none") {
        "nanoseconds" => (Unit::Nanoseconds, Some(1)),
        "microseconds" => (Unit::Nanoseconds, Some(1_000)),
        "milliseconds" => (Unit::Nanoseconds, Some(1_000_000)),
        "seconds" => (Unit::Nanoseconds, Some(1_000_000_000)),
        "bytes" => (Unit::Bytes, None),
        "none" => (Unit::Samples, None),
        other => (Unit::Other(other.to_string()), None),
    }
}

/// `n × per` as an integer: exact for integers, rounded to the nearest for fractions; whether it was exact.
fn scaled(n: &Number, per: u64) -> Option<(i128, bool)> {
    if let Some(i) = n.as_i64() {
        return Some((i128::from(i).checked_mul(i128::from(per))?, true));
    }
    if let Some(u) = n.as_u64() {
        return Some((i128::from(u).checked_mul(i128::from(per))?, true));
    }
    let x = n.as_f64()? * per as f64;
    // Past ±2^100 nothing fits a weight or a time anyway.
    if !x.is_finite() || x.abs() > 1e30 {
        return None;
    }
    let r = x.round();
    Some((r as i128, r == x))
}

impl SpeedscopeParser {
    pub fn new(opts: &SpeedscopeOptions) -> Self {
        SpeedscopeParser {
            json: json::WholeJson::new(Format::Speedscope, opts.max_bytes, "file"),
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

/// A frame's location: file, line, column (as written).
type Place = (Option<String>, Option<String>, Option<String>);

/// Text as a name or file shows it: trimmed, control characters as spaces.
fn clean(s: &str) -> String {
    s.trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Per shared frame, its location row: the file, line and column as written (0 where a number is missing, not a
/// whole number, or past 2^32). Empty when no frame says where it is, so a file without places costs nothing more.
fn locations(b: &mut ProfileBuilder, infos: &[FrameInfo], frames: &[FrameId]) -> Vec<u32> {
    let file_of = |f: &FrameInfo| f.file.as_deref().map(clean).filter(|s| !s.is_empty());
    if !infos.iter().any(|f| file_of(f).is_some() || f.line.is_some()) {
        return Vec::new();
    }
    let whole = |n: &Option<Number>| {
        n.as_ref()
            .and_then(Number::as_u64)
            .and_then(|v| u32::try_from(v).ok())
            .unwrap_or(0)
    };
    infos
        .iter()
        .zip(frames)
        .map(|(f, &frame)| {
            let file = file_of(f).map_or(NO_STR, |s| b.intern(&s));
            b.location(Location {
                file,
                line: whole(&f.line),
                column: whole(&f.col),
                ..Location::of(frame)
            })
        })
        .collect()
}

/// Names every shared frame once (O(frames)).
fn frame_ids(b: &mut ProfileBuilder, frames: &[FrameInfo]) -> Vec<FrameId> {
    let num = |n: &Option<Number>| n.as_ref().map(|n| n.to_string());
    let base = |f: &FrameInfo| match clean(&f.name) {
        n if n.is_empty() => "(anonymous)".to_string(),
        n => n,
    };
    let mut places: FxHashMap<String, FxHashSet<Place>> = FxHashMap::default();
    for f in frames {
        places
            .entry(base(f))
            .or_default()
            .insert((f.file.as_deref().map(clean), num(&f.line), num(&f.col)));
    }
    frames
        .iter()
        .map(|f| {
            let name = base(f);
            let set = places.get(&name);
            let name = match set {
                Some(set) if set.len() > 1 => {
                    let lines: FxHashSet<_> = set.iter().map(|(a, l, _)| (a, l)).collect();
                    let mut loc = f.file.as_deref().map(clean).unwrap_or_default();
                    if let Some(l) = num(&f.line) {
                        if !loc.is_empty() {
                            loc.push(':');
                        }
                        loc.push_str(&l);
                        if let (true, Some(c)) = (lines.len() < set.len(), num(&f.col)) {
                            loc.push(':');
                            loc.push_str(&c);
                        }
                    }
                    if loc.is_empty() {
                        name
                    } else {
                        format!("{name} ({loc})")
                    }
                }
                _ => name,
            };
            b.frame(&name, FrameKind::User)
        })
        .collect()
}

/// The state of one import: the builder, its frames, and what every sample carries.
struct Ctx {
    b: ProfileBuilder,
    frames: Vec<FrameId>,
    /// Per shared frame, its location row ([`locations`]); empty when the file has no places.
    locs: Vec<u32>,
    timed: bool,
    records: u64,
    warnings: Warnings,
}

impl Ctx {
    fn frame(&self, path: &str, f: u32) -> Result<FrameId, ImportError> {
        self.frames.get(f as usize).copied().ok_or_else(|| {
            err(
                ImportErrorKind::Malformed,
                format!(
                    "{path}: frame {f} does not exist (shared.frames holds {})",
                    self.frames.len()
                ),
            )
        })
    }

    /// The location stack of shared frame `f` under `parent` (none when the file has no places).
    fn site(&mut self, parent: Option<StackId>, f: u32) -> Option<StackId> {
        let loc = *self.locs.get(f as usize)?;
        Some(self.b.site_stack(parent, loc))
    }

    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        (stack, site): (StackId, Option<StackId>),
        weight: u64,
        time: Option<i128>,
        thread: u32,
        event: Option<u16>,
        path: &str,
    ) -> Result<(), ImportError> {
        let time_ns = match (self.timed, time) {
            (true, Some(t)) => Some(u64::try_from(t).map_err(|_| {
                err(
                    ImportErrorKind::Malformed,
                    format!("{path}: the time {t} ns is outside 0..2^64"),
                )
            })?),
            _ => None,
        };
        self.records += 1;
        self.b.push_full_sample(
            FullSample {
                stack,
                weight,
                time_ns,
                thread: Some(thread),
                event,
                cpu: None,
                labels: None,
            },
            0,
        )?;
        if let Some(site) = site {
            self.b.set_sample_site(site);
        }
        Ok(())
    }

    /// A value of the profile's unit as a weight: time in ns, counts and bytes rounded (with a warning).
    fn weight(&mut self, v: i128, exact: bool, path: &str) -> Result<u64, ImportError> {
        if !exact {
            self.warnings.push(
                crate::model::WarningKind::Rounded,
                0,
                0,
                format!("{path}: a fractional count, rounded to {v}"),
            );
        }
        u64::try_from(v).map_err(|_| {
            err(
                ImportErrorKind::Malformed,
                format!("{path}: the weight {v} is negative or larger than 2^64-1"),
            )
        })
    }
}

fn value(n: &Number, per: Option<u64>, path: &str) -> Result<(i128, bool), ImportError> {
    scaled(n, per.unwrap_or(1))
        .map(|(v, exact)| (v, exact || per.is_some()))
        .ok_or_else(|| {
            err(
                ImportErrorKind::Malformed,
                format!("{path}: the number {n} is out of range"),
            )
        })
}

fn build(file: File) -> Result<Profile, ImportError> {
    let mut b = ProfileBuilder::new(Format::Speedscope);
    let frames = frame_ids(&mut b, &file.shared.frames);
    let locs = locations(&mut b, &file.shared.frames, &frames);
    // One event per distinct unit, when the profiles disagree.
    let mut units: Vec<Unit> = Vec::new();
    for p in &file.profiles {
        let u = unit_of(p.unit.as_deref()).0;
        if !units.contains(&u) {
            units.push(u);
        }
    }
    let timed = file
        .profiles
        .iter()
        .all(|p| unit_of(p.unit.as_deref()).1.is_some());
    let events: Vec<u16> = if units.len() > 1 {
        units.iter().map(|u| b.event(u.name(), u.clone())).collect()
    } else {
        Vec::new()
    };
    let mut cx = Ctx {
        b,
        frames,
        locs,
        timed,
        records: 0,
        warnings: Warnings::default(),
    };
    for (i, p) in file.profiles.iter().enumerate() {
        let path = format!("profiles[{i}]");
        let (unit, per) = unit_of(p.unit.as_deref());
        let event = units
            .iter()
            .position(|u| *u == unit)
            .and_then(|k| events.get(k).copied());
        let name = p
            .name
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map_or_else(
                || format!("profile {}", i + 1),
                |n| n.replace(char::is_control, " "),
            );
        let thread = cx.b.thread(&name, None, i as u32);
        let start = match &p.start {
            Some(s) => value(s, per, &format!("{path}.startValue"))?.0,
            None => 0,
        };
        match p.kind.as_str() {
            "sampled" => sampled(&mut cx, p, &path, per, start, thread, event)?,
            "evented" => evented(&mut cx, p, &path, per, thread, event)?,
            other => {
                return Err(err(
                    ImportErrorKind::Malformed,
                    format!("{path}.type: \"{other}\" is neither \"sampled\" nor \"evented\""),
                ))
            }
        }
    }
    if cx.records == 0 {
        return Err(err(ImportErrorKind::NoValidRecords, "the file holds no samples"));
    }
    let unit = match (units.len(), units.first()) {
        (1, Some(u)) => u.clone(),
        _ => Unit::Samples,
    };
    cx.b.add_info("profiles", file.profiles.len().to_string());
    Ok(cx.b.build(unit, 0, cx.records, cx.warnings))
}

fn sampled(
    cx: &mut Ctx,
    p: &Prof,
    path: &str,
    per: Option<u64>,
    start: i128,
    thread: u32,
    event: Option<u16>,
) -> Result<(), ImportError> {
    if p.weights.len() != p.samples.len() {
        return Err(err(
            ImportErrorKind::Malformed,
            format!(
                "{path}: {} samples but {} weights",
                p.samples.len(),
                p.weights.len()
            ),
        ));
    }
    let mut t = start;
    for (j, (stack, w)) in p.samples.iter().zip(&p.weights).enumerate() {
        let at = format!("{path}.samples[{j}]");
        let (mut s, mut site): (Option<StackId>, Option<StackId>) = (None, None);
        for (k, &f) in stack.iter().enumerate() {
            let fr = cx.frame(&format!("{at}[{k}]"), f)?;
            s = Some(cx.b.stack(s, fr));
            site = cx.site(site, f);
        }
        let wpath = format!("{path}.weights[{j}]");
        let (v, exact) = value(w, per, &wpath)?;
        let weight = cx.weight(v, exact, &wpath)?;
        cx.push(
            (s.unwrap_or(EMPTY_STACK), site),
            weight,
            Some(t),
            thread,
            event,
            &at,
        )?;
        t = t.saturating_add(i128::from(weight));
    }
    Ok(())
}

fn evented(
    cx: &mut Ctx,
    p: &Prof,
    path: &str,
    per: Option<u64>,
    thread: u32,
    event: Option<u16>,
) -> Result<(), ImportError> {
    // The open frames: (frame index, stack, location stack).
    let mut open: Vec<(u32, StackId, Option<StackId>)> = Vec::new();
    let mut last: Option<i128> = None;
    for (j, e) in p.events.iter().enumerate() {
        let at = format!("{path}.events[{j}]");
        let (now, exact) = value(&e.at, per, &format!("{at}.at"))?;
        if let Some(prev) = last {
            if now < prev {
                return Err(err(
                    ImportErrorKind::Malformed,
                    format!("{at}.at: the events go back in time ({} after {})", e.at, prev),
                ));
            }
            if let (Some(&(_, s, site)), true) = (open.last(), now > prev) {
                let w = cx.weight(now - prev, exact, &format!("{at}.at"))?;
                cx.push((s, site), w, Some(prev), thread, event, &at)?;
            }
        }
        last = Some(now);
        match e.kind.as_str() {
            "O" => {
                let fr = cx.frame(&format!("{at}.frame"), e.frame)?;
                let s = cx.b.stack(open.last().map(|&(_, s, _)| s), fr);
                let site = cx.site(open.last().and_then(|&(_, _, site)| site), e.frame);
                open.push((e.frame, s, site));
            }
            "C" => match open.last() {
                Some(&(f, _, _)) if f == e.frame => {
                    open.pop();
                }
                Some(&(f, _, _)) => {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        format!(
                            "{at}: closes frame {} but frame {f} is the innermost open one",
                            e.frame
                        ),
                    ))
                }
                None => {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        format!("{at}: closes frame {} but no frame is open", e.frame),
                    ))
                }
            },
            other => {
                return Err(err(
                    ImportErrorKind::Malformed,
                    format!("{at}.type: \"{other}\" is neither \"O\" nor \"C\""),
                ))
            }
        }
    }
    if let (Some(&(_, s, site)), Some(prev)) = (open.last(), last) {
        let end = match &p.end {
            Some(n) => value(n, per, &format!("{path}.endValue"))?.0,
            None => prev,
        };
        cx.warnings.push(
            crate::model::WarningKind::UnclosedFrames,
            0,
            0,
            format!(
                "{path}: {} frames still open at the end, closed at endValue",
                open.len()
            ),
        );
        if end > prev {
            let w = cx.weight(end - prev, true, &format!("{path}.endValue"))?;
            cx.push((s, site), w, Some(prev), thread, event, path)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
