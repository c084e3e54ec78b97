//! Which samples a view shows and how they weigh: the event, weights or plain sample counts, the process root,
//! a time range and an offset band. The call tree, the folded export and the heatmap all select samples through
//! this.

use crate::model::{DeclaredUnit, Format, FrameId, LabelValue, Profile, StackId, StrId, Unit, EMPTY_STACK};
use rustc_hash::FxHashMap;

/// What stands at the root of each stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum RootMode {
    /// The process name (comm), as flamegraph.pl does.
    #[default]
    Comm,
    /// `comm-pid`.
    Pid,
    /// `comm-pid/tid`.
    Tid,
    /// No process root.
    None,
    /// A `key=value` root per value of this label key (pprof's `-tagroot`); samples without it have no root.
    Label(StrId),
}

impl RootMode {
    pub fn parse(s: &str) -> Option<RootMode> {
        Some(match s {
            "comm" => RootMode::Comm,
            "pid" => RootMode::Pid,
            "tid" => RootMode::Tid,
            "none" => RootMode::None,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            RootMode::Comm => "comm",
            RootMode::Pid => "pid",
            RootMode::Tid => "tid",
            RootMode::None | RootMode::Label(_) => "none",
        }
    }
}

/// Keeps the samples whose label `key` matches (pprof's `-tagfilter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LabelFilter {
    pub key: StrId,
    pub matcher: LabelMatch,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LabelMatch {
    /// The string value equals this.
    Str(StrId),
    /// The numeric value lies in `[lo, hi]`, in the label's own unit.
    Range(i64, i64),
}

/// `1024`, `4kb`, `1MiB`, `10ms`: a number with an optional unit, in bytes or nanoseconds.
fn parse_quantity(s: &str) -> Option<i64> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '-' || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: f64 = num.parse().ok()?;
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" | "byte" | "bytes" | "ns" | "nanoseconds" => 1.0,
        "kb" | "kib" | "k" => 1024.0,
        "mb" | "mib" | "m" => 1024.0 * 1024.0,
        "gb" | "gib" | "g" => 1024.0 * 1024.0 * 1024.0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return None,
    };
    let v = n * scale;
    (v.is_finite() && v.abs() < 9.2e18).then_some(v.round() as i64)
}

impl LabelFilter {
    /// Parses `key=value`, `key=N`, `key=LO:HI` (either end may be empty; units like `kb`, `ms` allowed).
    pub fn parse(p: &Profile, text: &str) -> Result<LabelFilter, String> {
        let (key, value) = text
            .split_once('=')
            .ok_or_else(|| format!("a label filter is key=value, not {text:?}"))?;
        let key_id = label_key(p, key).ok_or_else(|| {
            let keys = label_keys(p);
            if keys.is_empty() {
                "this profile has no labels".to_string()
            } else {
                format!("no label {key:?}; the profile has: {}", keys.join(", "))
            }
        })?;
        let numeric = p
            .label_sets
            .iter()
            .flatten()
            .any(|l| l.key == key_id && matches!(l.value, LabelValue::Num(..)));
        let matcher = if numeric {
            let (lo, hi) = match value.split_once(':') {
                Some((a, b)) => (
                    if a.trim().is_empty() {
                        Some(i64::MIN)
                    } else {
                        parse_quantity(a)
                    },
                    if b.trim().is_empty() {
                        Some(i64::MAX)
                    } else {
                        parse_quantity(b)
                    },
                ),
                None => (parse_quantity(value), parse_quantity(value)),
            };
            match (lo, hi) {
                (Some(lo), Some(hi)) => LabelMatch::Range(lo, hi),
                _ => return Err(format!("{value:?} is not a number or a range LO:HI")),
            }
        } else {
            let v = (0..p.strings.len() as u32)
                .map(StrId)
                .find(|&id| p.strings.get(id) == value)
                .ok_or_else(|| format!("no sample has {key}={value}"))?;
            LabelMatch::Str(v)
        };
        Ok(LabelFilter { key: key_id, matcher })
    }

    fn matches(&self, p: &Profile, set: u32) -> bool {
        p.label_sets.get(set as usize).is_some_and(|labels| {
            labels.iter().any(|l| {
                l.key == self.key
                    && match (self.matcher, l.value) {
                        (LabelMatch::Str(a), LabelValue::Str(b)) => a == b,
                        (LabelMatch::Range(lo, hi), LabelValue::Num(n, _)) => lo <= n && n <= hi,
                        _ => false,
                    }
            })
        })
    }
}

/// The keys that name threads (perf's comm, pid and tid) in a filter, for profiles whose samples have threads
/// and no label of the same name.
pub const THREAD_KEYS: [&str; 3] = ["comm", "pid", "tid"];

/// What a filter text selects: samples with a label, or samples of some threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SampleFilter {
    Label(LabelFilter),
    Threads(ThreadSet),
}

impl SampleFilter {
    /// Parses a label filter (see [`LabelFilter::parse`]) or, where the profile's samples have threads, a thread
    /// filter `comm=NAME`, `pid=N` or `tid=N` (several values separated by commas: `tid=12,13`). A label of the
    /// same name wins.
    pub fn parse(p: &Profile, text: &str) -> Result<SampleFilter, String> {
        let key = text.split_once('=').map(|(k, _)| k.trim());
        match key {
            Some(k) if THREAD_KEYS.contains(&k) && has_threads(p) && label_key(p, k).is_none() => {
                thread_filter(p, text).map(SampleFilter::Threads)
            }
            _ => LabelFilter::parse(p, text)
                .map_err(|e| {
                    if has_threads(p) {
                        format!("{e} (threads: comm=NAME, pid=N, tid=N)")
                    } else {
                        e
                    }
                })
                .map(SampleFilter::Label),
        }
    }

    /// Puts the filter on a view: a label filter replaces the view's, a thread set narrows the view's threads.
    pub fn apply(self, v: &mut ViewOptions) {
        match self {
            SampleFilter::Label(f) => v.label = Some(f),
            SampleFilter::Threads(t) => {
                v.threads = Some(match &v.threads {
                    Some(old) => old.intersect(&t),
                    None => t,
                })
            }
        }
    }
}

/// Do the profile's samples carry threads?
pub fn has_threads(p: &Profile) -> bool {
    !p.threads.is_empty() && p.samples.thread.is_some()
}

/// The threads `comm=NAME`, `pid=N[,N…]` or `tid=N[,N…]` names; an error when a value names none. One pass over
/// the threads with the values sorted: O((threads + values) × log values), however long a link's list is.
pub fn thread_filter(p: &Profile, text: &str) -> Result<ThreadSet, String> {
    let (key, value) = text
        .split_once('=')
        .ok_or_else(|| format!("a thread filter is comm=NAME, pid=N or tid=N, not {text:?}"))?;
    let key = key.trim();
    let t = &p.threads;
    let values: Vec<&str> = value.split(',').map(str::trim).collect();
    let missing = |v: &str| format!("no thread has {key}={v}");
    match key {
        "comm" => {
            let mut want = values.clone();
            want.sort_unstable();
            want.dedup();
            let (found, out) = pick(t.len(), &want, |i| t.comm.get(i).map(|&c| p.strings.get(c)));
            match values.iter().find(|v| found.binary_search(v).is_err()) {
                Some(v) => Err(missing(v)),
                None => Ok(ThreadSet::new(out)),
            }
        }
        "pid" | "tid" => {
            let asked = values
                .iter()
                .map(|v| {
                    v.parse::<u32>()
                        .map_err(|_| format!("{key}={v}: {v:?} is not a number"))
                })
                .collect::<Result<Vec<u32>, String>>()?;
            let mut want = asked.clone();
            want.sort_unstable();
            want.dedup();
            let (found, out) = pick(t.len(), &want, |i| {
                let tid = t.tid.get(i).copied();
                if key == "tid" {
                    tid
                } else {
                    // perf printed only the tid: it stands for the pid too, as in the comm-pid root.
                    t.pid.get(i).copied().flatten().or(tid)
                }
            });
            match asked.iter().find(|v| found.binary_search(v).is_err()) {
                Some(v) => Err(missing(&v.to_string())),
                None => Ok(ThreadSet::new(out)),
            }
        }
        k => Err(format!("{k:?} names no threads (comm, pid or tid)")),
    }
}

/// The threads whose value (`of`) is in `want` (sorted), and which values of `want` some thread has.
fn pick<T: Ord + Copy>(n: usize, want: &[T], of: impl Fn(usize) -> Option<T>) -> (Vec<T>, Vec<u32>) {
    let mut hit = vec![false; want.len()];
    let mut out = Vec::new();
    for i in 0..n {
        if let Some(k) = of(i).and_then(|v| want.binary_search(&v).ok()) {
            if let Some(h) = hit.get_mut(k) {
                *h = true;
            }
            out.push(i as u32);
        }
    }
    let found = want
        .iter()
        .zip(hit)
        .filter(|(_, h)| *h)
        .map(|(&v, _)| v)
        .collect();
    (found, out)
}

/// The id of a label key used by some sample.
pub fn label_key(p: &Profile, key: &str) -> Option<StrId> {
    p.label_sets
        .iter()
        .flatten()
        .map(|l| l.key)
        .find(|&k| p.strings.get(k) == key)
}

/// All label keys, sorted.
pub fn label_keys(p: &Profile) -> Vec<String> {
    let mut keys: Vec<String> = p
        .label_sets
        .iter()
        .flatten()
        .map(|l| p.strings.get(l.key).to_string())
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// Does this profile's unit come from the user? Folded counts whose file did not say what they are (no
/// `# unit:` or `# scorch-unit:` line): scorch calls them samples until the user declares a unit.
pub fn takes_declared_unit(p: &Profile) -> bool {
    p.meta.format == Format::Folded
        && p.meta.unit == Unit::Samples
        && p.events.iter().all(|e| e.unit == Unit::Samples)
}

/// How a sample weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum WeightMode {
    /// Its weight (perf's period, pprof's value, folded's count).
    #[default]
    Weight,
    /// 1 per sample.
    Count,
}

/// A set of threads: sorted, distinct indices into [`Profile::threads`].
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ThreadSet(Vec<u32>);

impl ThreadSet {
    pub fn new(threads: impl IntoIterator<Item = u32>) -> ThreadSet {
        let mut v: Vec<u32> = threads.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        ThreadSet(v)
    }
    #[inline]
    pub fn contains(&self, t: u32) -> bool {
        self.0.binary_search(&t).is_ok()
    }
    pub fn as_slice(&self) -> &[u32] {
        &self.0
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The threads in both sets.
    pub fn intersect(&self, other: &ThreadSet) -> ThreadSet {
        ThreadSet(self.0.iter().copied().filter(|&t| other.contains(t)).collect())
    }
}

/// The sample selection of a view.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ViewOptions {
    /// Index into `Profile::events`; `None` means the samples of every recorded event (inputs without events:
    /// all samples) — never those of a derived event ([`crate::model::EventInfo::derived`]), which are views of
    /// recorded ones.
    pub event: Option<u16>,
    pub weight: WeightMode,
    pub root: RootMode,
    /// Half-open `[start, end)` in nanoseconds, on the profile's own clock.
    pub time_range: Option<(u64, u64)>,
    /// A band: only samples whose offset within their second lies in the half-open `[from, to)` nanoseconds
    /// (`0 ≤ from < to ≤ 1 s`). The offset is the time modulo one second: the heatmap's rows, whose origin is a
    /// whole second. With a time range, the same offsets in every second of it.
    pub offsets: Option<(u64, u64)>,
    /// Only samples with this label.
    pub label: Option<LabelFilter>,
    /// Only samples of these threads (`None`: all). A profile without threads has no sample in any set.
    pub threads: Option<ThreadSet>,
    /// The unit the user declared for a unit-less input (folded counts); ignored for inputs that state theirs.
    pub declared: Option<DeclaredUnit>,
    /// Values are shown divided by this: the mean per profile of a merge of this many profiles (0 and 1: the
    /// sum). Only what is shown: weights, shares and the selection stay those of the sum.
    #[serde(default)]
    pub mean_of: u32,
    /// What a node stands for: functions (the profile as imported), lines, files or addresses; a view at
    /// another granularity than functions is of `view::granularity::at(profile, this)`.
    #[serde(default)]
    pub granularity: super::Granularity,
}

impl ViewOptions {
    /// The profile's default event (perf: the first, as perf and inferno do; pprof: `default_sample_type`, else
    /// the last), weights, process root by comm.
    pub fn default_for(p: &Profile) -> ViewOptions {
        ViewOptions {
            event: (!p.events.is_empty()).then_some(p.meta.default_event),
            root: if p.threads.is_empty() {
                RootMode::None
            } else {
                RootMode::Comm
            },
            ..ViewOptions::default()
        }
    }

    /// A value (in the view's unit) as shown: divided by [`Self::mean_of`] when that is over 1.
    pub fn shown(&self, value: f64) -> f64 {
        value / f64::from(self.mean_of.max(1))
    }

    /// The unit of what this view shows: sample counts, the unit declared for a unit-less input, or the unit
    /// of the event.
    pub fn unit(&self, p: &Profile) -> Unit {
        if self.weight == WeightMode::Count {
            return Unit::Samples;
        }
        if let Some(d) = self.declared.filter(|_| takes_declared_unit(p)) {
            return d.unit();
        }
        match self.event.and_then(|e| p.events.get(e as usize)) {
            Some(e) => e.unit.clone(),
            None => p.meta.unit.clone(),
        }
    }

    /// Does sample `i` belong to the view, and with what weight?
    #[inline]
    pub fn weigh(&self, p: &Profile, i: usize) -> Option<u64> {
        if let Some(col) = &p.samples.event {
            match self.event {
                Some(e) => {
                    if col.get(i).copied() != Some(e) {
                        return None;
                    }
                }
                None => {
                    let e = col.get(i).and_then(|&e| p.events.get(usize::from(e)));
                    if e.is_some_and(|e| e.derived) {
                        return None;
                    }
                }
            }
        }
        if let Some(f) = &self.label {
            let set = p.samples.labels.as_ref().and_then(|c| c.get(i)).copied();
            if !set.is_some_and(|s| f.matches(p, s)) {
                return None;
            }
        }
        if let Some(set) = &self.threads {
            let t = p.samples.thread.as_ref().and_then(|c| c.get(i)).copied();
            if !t.is_some_and(|t| set.contains(t)) {
                return None;
            }
        }
        if let (Some((a, b)), Some(col)) = (self.time_range, &p.samples.time_ns) {
            let t = *col.get(i)?;
            if t < a || t >= b {
                return None;
            }
        }
        if let (Some((from, to)), Some(col)) = (self.offsets, &p.samples.time_ns) {
            let o = *col.get(i)? % SECOND;
            if o < from || o >= to {
                return None;
            }
        }
        match self.weight {
            WeightMode::Weight => p.samples.weight.get(i).copied(),
            WeightMode::Count => Some(1),
        }
    }

    /// The root frame of sample `i`, if the view has one.
    #[inline]
    pub fn root_of(&self, p: &Profile, i: usize) -> Option<FrameId> {
        let slot = match self.root {
            RootMode::Comm => 0,
            RootMode::Pid => 1,
            RootMode::Tid => 2,
            RootMode::None => return None,
            RootMode::Label(key) => {
                let set = *p.samples.labels.as_ref()?.get(i)?;
                return p
                    .label_sets
                    .get(set as usize)?
                    .iter()
                    .find(|l| l.key == key)
                    .map(|l| l.root);
            }
        };
        let t = *p.samples.thread.as_ref()?.get(i)?;
        p.threads.roots.get(t as usize)?.get(slot).copied()
    }
}

/// One second in nanoseconds.
const SECOND: u64 = 1_000_000_000;

/// An offset band `[from, to)` from a text pair of milliseconds (`200`, `212.5`; up to nanoseconds), as the CLI
/// and docs write it: `0 ≤ from < to ≤ 1000`.
pub fn parse_offsets_ms(from: &str, to: &str) -> Result<(u64, u64), String> {
    let ns = |s: &str| -> Result<u64, String> {
        let (int, frac) = s.trim().split_once('.').unwrap_or((s.trim(), ""));
        let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
        if !digits(int) || (!frac.is_empty() && !digits(frac)) || frac.len() > 6 || int.len() > 4 {
            return Err(format!("{s:?} is not milliseconds (0 to 1000, up to 6 decimals)"));
        }
        let int: u64 = int.parse().map_err(|_| format!("{s:?} is not milliseconds"))?;
        let frac: u64 = format!("{frac:0<6}").parse().unwrap_or(0);
        Ok(int * 1_000_000 + frac)
    };
    let (a, b) = (ns(from)?, ns(to)?);
    if a >= b || b > SECOND {
        return Err(format!(
            "offsets {from} to {to} ms: the band needs 0 ≤ FROM < TO ≤ 1000 (half-open, within each second)"
        ));
    }
    Ok((a, b))
}

/// Nanoseconds of `[a, b)` whose offset within the second lies in `[from, to)`: how much time a band covers, in
/// O(1) however long the span.
pub fn band_span_ns(a: u64, b: u64, (from, to): (u64, u64)) -> u64 {
    // Covered time in [0, t): whole seconds times the band's width, plus the part of t's own second.
    let before = |t: u64| {
        let width = to.saturating_sub(from);
        (t / SECOND)
            .saturating_mul(width)
            .saturating_add((t % SECOND).clamp(from, to.max(from)) - from)
    };
    before(b.max(a)) - before(a)
}

/// No root frame.
pub const NO_ROOT: u32 = u32::MAX;

/// Self weight per (root frame, leaf stack) of the samples in a view, and whether each key had a sample.
/// Keys whose samples all weigh 0 are kept (with 0).
pub fn keyed_weights(p: &Profile, v: &ViewOptions) -> FxHashMap<(u32, StackId), u64> {
    let mut out: FxHashMap<(u32, StackId), u64> = FxHashMap::default();
    for i in 0..p.samples.len() {
        let Some(w) = v.weigh(p, i) else { continue };
        let root = v.root_of(p, i).map_or(NO_ROOT, |f| f.0);
        let s = p.samples.stack.get(i).copied().unwrap_or(EMPTY_STACK);
        let slot = out.entry((root, s)).or_insert(0);
        *slot = slot.saturating_add(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_parse_and_cover() {
        assert_eq!(parse_offsets_ms("200", "300"), Ok((200_000_000, 300_000_000)));
        assert_eq!(parse_offsets_ms("0", "1000"), Ok((0, SECOND)));
        assert_eq!(parse_offsets_ms("0.5", "1.000001"), Ok((500_000, 1_000_001)));
        for (a, b) in [
            ("300", "200"),
            ("5", "5"),
            ("0", "1000.1"),
            ("-1", "3"),
            ("a", "3"),
            ("1e2", "300"),
        ] {
            assert!(parse_offsets_ms(a, b).is_err(), "{a} {b}");
        }
        let band = (200_000_000, 300_000_000);
        // Seconds 2..10 of a clock: 8 seconds × 100 ms.
        assert_eq!(band_span_ns(2 * SECOND, 10 * SECOND, band), 800_000_000);
        // Starting inside the band, ending inside it: 50 + 100 + 30 ms.
        assert_eq!(
            band_span_ns(SECOND + 250_000_000, 3 * SECOND + 230_000_000, band),
            180_000_000
        );
        assert_eq!(band_span_ns(5, 5, band), 0);
        // A long span costs nothing more.
        assert_eq!(band_span_ns(0, 1_000_000 * SECOND, band), 100_000 * SECOND);
    }
}
