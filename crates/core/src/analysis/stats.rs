//! Sampling error: how sure a share is, given the number of samples behind it, and how often the profile sampled.
//!
//! A share is `k / n`: `k` samples of the `n` a view selects fell in a frame or function. Sampling is a draw, so
//! the share carries a 95 % **Wilson score interval** (not the normal "± 1.96 √(p(1−p)/n)", which collapses to
//! zero width at 0 and 1 and leaves [0, 1] for small `n`).
//!
//! `k` and `n` are **sample counts**, never weights: a perf event is one sample whatever its period; a folded
//! line's count is its samples (when the unit is samples); a pprof profile's counts are its `samples/count`
//! values. Where a profile has no sample counts (pprof heap profiles, whose counts are scaled estimates; folded
//! input in another unit; fractional counts; delta profiles) there is no interval.
//!
//! Sampling rates: the rate the profiler was set to — from the period of time-based events (perf `cpu-clock`,
//! pprof `period` in nanoseconds), else from the median gap between consecutive samples of one CPU — and, from
//! the timestamps, the rate each CPU (or thread, when the input names no CPU) achieved: its samples per second
//! between its first and last sample. A set rate that is a multiple of 10 Hz (100, 1000, 4000 Hz) can lock step
//! with periodic work (timer ticks, 10 ms or 1 ms loops) and then over- or under-count it; 99 or 997 Hz cannot.

use crate::model::{Format, Profile, Unit, EMPTY_STACK, NO_PARENT};
use crate::view::calltree::{CallTree, ELIDED_FRAME};
use crate::view::{ViewOptions, WeightMode, NO_ROOT};
use rustc_hash::FxHashMap;

/// z for a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Below this many samples a profile carries a notice that its shares are rough.
pub const FEW_SAMPLES: u64 = 1000;

/// A 95 % interval of a share, as fractions in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    /// Half its width in percentage points (the "± N pp" of a share).
    pub fn half_pp(&self) -> f64 {
        (self.hi - self.lo) * 50.0
    }

    /// `95 %: 24.1–36.7 %`.
    pub fn describe(&self) -> String {
        format!("95 %: {}–{} %", pct(self.lo), pct(self.hi))
    }
}

fn pct(x: f64) -> String {
    let v = x * 100.0;
    if v != 0.0 && v < 0.1 {
        format!("{v:.3}")
    } else {
        format!("{v:.1}")
    }
}

/// The Wilson score interval of `k` successes in `n` draws at 95 %; `None` when `n` is 0 (or `k > n`).
pub fn wilson(k: u64, n: u64) -> Option<Interval> {
    if n == 0 || k > n {
        return None;
    }
    let (k, n) = (k as f64, n as f64);
    let z2 = Z95 * Z95;
    let p = k / n;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Exactly 0 and 1 at the ends (the formula's value there, without rounding error).
    Some(Interval {
        lo: if k == 0.0 { 0.0 } else { (centre - half).max(0.0) },
        hi: if k == n { 1.0 } else { (centre + half).min(1.0) },
    })
}

/// The 95 % interval of the difference `k2/n2 − k1/n1` of two independent shares, by Newcombe's hybrid score
/// method (his method 10: built from the two Wilson intervals; good coverage at small counts, unlike the Wald
/// interval). `(lo, hi)` as fractions in [−1, 1]; `None` when either side has no samples. A change whose interval
/// holds 0 is within sampling noise.
pub fn difference_interval(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<(f64, f64)> {
    let (a, b) = (wilson(k1, n1)?, wilson(k2, n2)?);
    let (p1, p2) = (k1 as f64 / n1 as f64, k2 as f64 / n2 as f64);
    let d = p2 - p1;
    let lo = d - ((p2 - b.lo).powi(2) + (a.hi - p1).powi(2)).sqrt();
    let hi = d + ((b.hi - p2).powi(2) + (p1 - a.lo).powi(2)).sqrt();
    Some((lo.max(-1.0), hi.min(1.0)))
}

/// The widest half-width (in percentage points) a share of `n` samples can have (at 50 %): the "± N pp" of the
/// few-samples notice.
pub fn widest_half_pp(n: u64) -> Option<f64> {
    wilson(n / 2, n).map(|i| i.half_pp())
}

/// What counts the samples behind a view's shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CountSource {
    /// Each record is one sample (perf).
    Records,
    /// The weights are sample counts (folded in samples; the view's event is pprof's `samples/count`).
    Weights,
    /// Another event holds the sample counts (pprof's `samples/count` beside `cpu/nanoseconds`).
    Event(u16),
}

/// The view whose weights are the sample counts behind `v`'s shares, and where they come from; `None` when the
/// profile has no sample counts (see the module doc).
pub fn counts_view(p: &Profile, v: &ViewOptions) -> Option<(ViewOptions, CountSource)> {
    match p.meta.format {
        // Each record is one sample (V8: weighed by the time to the next one; speedscope: by its weight).
        Format::PerfScript
        | Format::PerfData
        | Format::V8CpuProfile
        | Format::ChromeTrace
        | Format::Speedscope
        | Format::Gecko
        | Format::Jfr => Some((
            ViewOptions {
                weight: WeightMode::Count,
                ..v.clone()
            },
            CountSource::Records,
        )),
        // Folded counts are samples unless the file or the user says otherwise (`# unit:`, a declared unit).
        // bpftrace's `count()` values are sample counts, as folded ones are.
        Format::Folded | Format::Bpftrace => {
            let weighed = ViewOptions {
                weight: WeightMode::Weight,
                ..v.clone()
            };
            (weighed.unit(p) == Unit::Samples && p.meta.decimals == 0)
                .then_some((weighed, CountSource::Weights))
        }
        Format::Pprof => {
            let is_samples = |e: &crate::model::EventInfo| e.unit == Unit::Samples && e.negative_of.is_none();
            let has_twin = |i: usize| p.events.iter().any(|x| x.negative_of == Some(i as u16));
            let (i, _) = p
                .events
                .iter()
                .enumerate()
                .find(|&(i, e)| is_samples(e) && !has_twin(i))?;
            let cv = ViewOptions {
                event: Some(i as u16),
                weight: WeightMode::Weight,
                ..v.clone()
            };
            let source = if v.event == Some(i as u16) && v.weight == WeightMode::Weight {
                CountSource::Weights
            } else {
                CountSource::Event(i as u16)
            };
            Some((cv, source))
        }
        // Callgrind counts every instruction (or event): no samples, no sampling error.
        Format::Callgrind => None,
        // A heap profile's bytes are V8's estimates per node, not sample counts.
        Format::V8HeapProfile => None,
        // cProfile measures every call (deterministic profiling): no samples.
        Format::Cprofile => None,
        // DHAT records every allocation: no samples.
        Format::Dhat => None,
    }
}

/// How many samples a view's shares rest on; `None` when the profile has no sample counts. O(samples).
pub fn sample_count(p: &Profile, v: &ViewOptions) -> Option<u64> {
    let (cv, _) = counts_view(p, v)?;
    Some((0..p.samples.len()).fold(0u64, |a, i| a.saturating_add(cv.weigh(p, i).unwrap_or(0))))
}

/// The few-samples notice, `few samples (176): shares are ± 7.3 pp`, when a view rests on fewer than
/// [`FEW_SAMPLES`] samples.
pub fn few_samples_notice(n: u64) -> Option<String> {
    if n >= FEW_SAMPLES {
        return None;
    }
    let pp = widest_half_pp(n)?;
    Some(format!(
        "few samples ({}): shares are ± {pp:.1} pp",
        crate::model::units::group_thousands(n)
    ))
}

/// Sample counts per node of `tree` (built from `p` under `v`): `total[node]` samples lie in the node's subtree,
/// `n` in the whole view. Nodes are matched by (process root, stack), so it works for any tree whose
/// [`CallTree::origin`] points into `p`'s stacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeCounts {
    pub total: Vec<u64>,
    pub n: u64,
}

impl NodeCounts {
    /// The interval of node `i`'s share of the view.
    pub fn interval(&self, i: usize) -> Option<Interval> {
        wilson(self.total.get(i).copied()?, self.n)
    }
}

/// See [`NodeCounts`]; `None` when the profile has no sample counts, or when a node that weighs something has
/// no samples (the tree is not `p`'s under `v`). O(samples + nodes).
pub fn node_counts(p: &Profile, v: &ViewOptions, tree: &CallTree) -> Option<NodeCounts> {
    let (cv, _) = counts_view(p, v)?;
    if cv == *v {
        // The view weighs by the counts themselves (folded stacks, a counted view): each node's count is its
        // weight, which the tree already holds — no walk over the samples and nodes (100 ms on the first hover
        // of a one-million-node tree in the browser).
        let n = tree.total.first().copied().unwrap_or(0);
        return Some(NodeCounts {
            total: tree.total.clone(),
            n,
        });
    }
    let (total, n) = node_totals(p, &cv, tree);
    // A node with weight but no samples means the tree was not built from `p` under `v` (or its samples carry
    // no counts): no intervals rather than wrong ones.
    // (A cut tree's stand-ins count nothing: their samples count in their parent.)
    let elided = |i: usize| tree.frame.get(i) == Some(&ELIDED_FRAME);
    if tree
        .total
        .iter()
        .zip(&total)
        .enumerate()
        .any(|(i, (&w, &c))| w > 0 && c == 0 && !elided(i))
    {
        return None;
    }
    Some(NodeCounts { total, n })
}

/// What the samples `w` selects weigh in each node of `tree` (built from `p` under a view whose samples include
/// `w`'s), subtree totals, and their sum; a sample whose stack the tree lacks adds to the sum only. Nodes are
/// matched by (process root, stack) as in [`node_counts`]. O(samples + nodes).
pub fn node_totals(p: &Profile, w: &ViewOptions, tree: &CallTree) -> (Vec<u64>, u64) {
    let cv = w;
    // Each node's key: (its process root's frame, or NO_ROOT; its stack). Nodes outside any process root — every
    // node of a view without roots, the common case — are found by stack in a dense column (`plain`, one slot
    // per stack); the others by a hash of the key. A hash of a million keys took 370 ms in the browser on the
    // first hover of a one-million-node tree (the tooltip's counts); the column takes a few.
    let len = tree.len();
    let mut group = vec![NO_ROOT; len];
    let mut plain: Vec<u32> = vec![u32::MAX; p.stacks.len()];
    let mut index: FxHashMap<(u32, u32), usize> = FxHashMap::default();
    for i in 1..len {
        let par = tree.parent.get(i).copied().unwrap_or(0) as usize;
        let origin = tree.origin.get(i).copied().unwrap_or(EMPTY_STACK.0);
        let g = if par == 0 {
            if origin == EMPTY_STACK.0 {
                tree.frame.get(i).map_or(NO_ROOT, |f| f.0)
            } else {
                NO_ROOT
            }
        } else {
            group.get(par).copied().unwrap_or(NO_ROOT)
        };
        if let Some(x) = group.get_mut(i) {
            *x = g;
        }
        match plain.get_mut(origin as usize) {
            Some(slot) if g == NO_ROOT => *slot = i as u32,
            _ => {
                index.insert((g, origin), i);
            }
        }
    }
    // A cut tree (`view::cut`) lacks the stacks under its stand-ins: their samples count in their nearest
    // ancestor the tree has (the stand-in's parent), so every node the tree keeps has its whole count.
    if tree.frame.contains(&ELIDED_FRAME) {
        for s in 0..plain.len() {
            if plain.get(s) == Some(&u32::MAX) {
                let up = p.stacks.parent.get(s).copied().unwrap_or(NO_PARENT);
                let inherited = plain.get(up as usize).copied().unwrap_or(u32::MAX);
                if let Some(x) = plain.get_mut(s) {
                    *x = inherited;
                }
            }
        }
    }
    let find = |root: u32, s: u32| -> Option<usize> {
        if root == NO_ROOT {
            if let Some(&x) = plain.get(s as usize) {
                return (x != u32::MAX).then_some(x as usize);
            }
        }
        index.get(&(root, s)).copied()
    };
    let mut total = vec![0u64; len];
    let mut n = 0u64;
    for i in 0..p.samples.len() {
        let Some(c) = cv.weigh(p, i) else { continue };
        n = n.saturating_add(c);
        let root = cv.root_of(p, i).map_or(NO_ROOT, |f| f.0);
        let s = p.samples.stack.get(i).copied().unwrap_or(EMPTY_STACK);
        let node = match find(root, s.0) {
            Some(x) => x,
            None if s == EMPTY_STACK && root == NO_ROOT => 0,
            None => continue, // a stack the shown view left out (it weighs nothing there)
        };
        if let Some(x) = total.get_mut(node) {
            *x = x.saturating_add(c);
        }
    }
    for i in (1..len).rev() {
        let par = tree.parent.get(i).copied().unwrap_or(0) as usize;
        let add = total.get(i).copied().unwrap_or(0);
        if let Some(x) = total.get_mut(par) {
            *x = x.saturating_add(add);
        }
    }
    if let Some(r) = total.first_mut() {
        *r = n;
    }
    (total, n)
}

/// One group's (CPU's or thread's) achieved sampling rate, from its timestamps.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GroupRate {
    /// `cpu N`, or `tid N` when the input names no CPU.
    pub group: String,
    pub samples: u64,
    /// From its first to its last sample.
    pub span_ns: u64,
    /// `(samples − 1) / span`: samples per second while it was sampled (idle time, when nothing is sampled,
    /// lowers it).
    pub hz: f64,
}

/// How often a profile sampled.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SamplingRate {
    /// The rate the profiler was set to, in Hz, when known: 10^9 / the period for time-based events (perf's
    /// `cpu-clock`/`task-clock` period in ns, the median over the view's samples; pprof's `period` in
    /// nanoseconds), else 1 / the median gap between consecutive samples of one CPU (or thread).
    pub hz: f64,
    /// `period`, `timestamps` (the median gap) or `achieved` (V8 profiles: samples per second over the threads'
    /// spans, which states no interval; see docs/SAMPLING.md): where [`SamplingRate::hz`] comes from.
    pub source: &'static str,
    /// Per CPU (or per thread when the input names no CPU), from the timestamps; empty without them.
    pub per_group: Vec<GroupRate>,
    /// Whether [`SamplingRate::hz`] is a round number (a multiple of 10 Hz, within 0.5 Hz) that can lock step
    /// with periodic work.
    pub round: bool,
}

impl SamplingRate {
    /// `50,000 Hz (from the period)` and the warning if round.
    pub fn describe(&self) -> String {
        let mut s = if self.source == "achieved" {
            format!(
                "{} Hz (achieved: samples per second between each thread's first and last sample; the file \
                 states no interval)",
                format_hz(self.hz)
            )
        } else {
            format!("{} Hz (from the {})", format_hz(self.hz), self.source)
        };
        if self.round {
            s.push_str(
                "; a round rate can lock step with periodic work (timer ticks, 10 ms or 1 ms loops) and over- \
                 or under-count it: prefer 99 Hz or 997 Hz",
            );
        }
        s
    }
}

/// `49,975` or `99.5`.
pub fn format_hz(hz: f64) -> String {
    if hz >= 1000.0 {
        crate::model::units::group_thousands(hz.round() as u64)
    } else if (hz - hz.round()).abs() < 0.05 {
        format!("{}", hz.round() as u64)
    } else {
        format!("{hz:.1}")
    }
}

/// Whether `hz` is a multiple of 10 Hz within 0.5 Hz (so 99, 499, 997 and 999 Hz are not; 100, 1000, 4000 Hz are).
pub fn is_round_rate(hz: f64) -> bool {
    if !hz.is_finite() || hz < 9.5 {
        return false;
    }
    let nearest = (hz / 10.0).round() * 10.0;
    nearest > 0.0 && (hz - nearest).abs() < 0.5
}

/// Value counts, for a median without keeping every value: memory follows the distinct values (one period, a
/// few gaps in practice).
#[derive(Default)]
struct Counts(FxHashMap<u64, u64>, u64);

impl Counts {
    fn add(&mut self, x: u64) {
        *self.0.entry(x).or_insert(0) += 1;
        self.1 += 1;
    }

    /// The lower median.
    fn median(&self) -> Option<u64> {
        let mut v: Vec<(u64, u64)> = self.0.iter().map(|(&x, &n)| (x, n)).collect();
        v.sort_unstable();
        let half = self.1.checked_sub(1)? / 2;
        let mut seen = 0u64;
        v.into_iter().find_map(|(x, n)| {
            seen += n;
            (seen > half).then_some(x)
        })
    }
}

/// The sampling rate of a view (see [`SamplingRate`]); `None` when neither a period nor timestamps say.
/// O(samples) time; memory follows the CPUs (or threads) and the distinct periods and gaps.
pub fn sampling_rate(p: &Profile, v: &ViewOptions) -> Option<SamplingRate> {
    let (per_group, gaps) = rates_from_timestamps(p, v);
    let timed = v.weight == WeightMode::Weight && v.unit(p) == Unit::Nanoseconds;
    let period = if matches!(p.meta.format, Format::PerfScript | Format::PerfData) && timed {
        // perf's cpu-clock / task-clock: the period is the sampling interval in ns.
        let mut w = Counts::default();
        for i in 0..p.samples.len() {
            if let Some(x) = v.weigh(p, i) {
                w.add(x);
            }
        }
        w.median().filter(|&x| x > 0).map(|x| x as f64)
    } else {
        // pprof: "10000000 cpu/nanoseconds".
        p.meta
            .info
            .iter()
            .find(|(k, _)| k == "period")
            .and_then(|(_, x)| x.split_once(' '))
            .filter(|(_, ty)| ty.ends_with("/nanoseconds"))
            .and_then(|(n, _)| n.parse::<f64>().ok())
            .filter(|&n| n > 0.0)
    };
    // V8's profiler samples its thread whatever it does (idle, GC and native time are samples of their own) and
    // its files state no interval: the rate is what the samples achieved, the same figure as per thread — the
    // median gap would claim a rate the thread was never sampled at (its gaps jitter around the interval).
    let wall_clock = matches!(p.meta.format, Format::V8CpuProfile | Format::ChromeTrace);
    let (hz, source) = match period {
        Some(ns) => (1e9 / ns, "period"),
        None if wall_clock => {
            let (n, span) = per_group.iter().fold((0u64, 0u64), |(n, s), g| {
                (n + g.samples.saturating_sub(1), s.saturating_add(g.span_ns))
            });
            if span == 0 {
                return None;
            }
            (n as f64 * 1e9 / span as f64, "achieved")
        }
        None => (1e9 / gaps.median()? as f64, "timestamps"),
    };
    Some(SamplingRate {
        hz,
        source,
        per_group,
        round: is_round_rate(hz),
    })
}

/// Per-group rates and the gaps between consecutive samples of one group (samples in the input's order; perf
/// prints them in time order, a gap that goes back in time is left out).
fn rates_from_timestamps(p: &Profile, v: &ViewOptions) -> (Vec<GroupRate>, Counts) {
    let mut gaps = Counts::default();
    let Some(times) = p.samples.time_ns.as_ref() else {
        return (Vec::new(), gaps);
    };
    let cpus = p.samples.cpu.as_ref();
    let threads = p.samples.thread.as_ref();
    // Per group (a CPU, or a tid when the sample names no CPU): samples, first, last and latest time.
    const TID: u64 = 1 << 32;
    let mut groups: FxHashMap<u64, (u64, u64, u64, u64)> = FxHashMap::default();
    for i in 0..p.samples.len() {
        if v.weigh(p, i).is_none() {
            continue;
        }
        let Some(&t) = times.get(i) else { continue };
        let g = match cpus.and_then(|c| c.get(i)).copied() {
            Some(c) if c != u32::MAX => u64::from(c),
            _ => {
                let th = threads.and_then(|c| c.get(i)).copied().unwrap_or(0);
                TID | u64::from(p.threads.tid.get(th as usize).copied().unwrap_or(0))
            }
        };
        match groups.get_mut(&g) {
            Some((n, first, last, latest)) => {
                if t > *latest {
                    gaps.add(t - *latest);
                }
                *n += 1;
                *first = (*first).min(t);
                *last = (*last).max(t);
                *latest = t;
            }
            None => {
                groups.insert(g, (1, t, t, t));
            }
        }
    }
    let mut keys: Vec<u64> = groups.keys().copied().collect();
    keys.sort_unstable();
    let per_group = keys
        .into_iter()
        .filter_map(|g| {
            let &(n, first, last, _) = groups.get(&g)?;
            let span_ns = last - first;
            (span_ns > 0).then(|| GroupRate {
                group: if g & TID != 0 {
                    format!("tid {}", g & 0xffff_ffff)
                } else {
                    format!("cpu {g}")
                },
                samples: n,
                span_ns,
                hz: (n - 1) as f64 * 1e9 / span_ns as f64,
            })
        })
        .collect();
    (per_group, gaps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::functions::function_counts;
    use crate::import::{import_bytes, ImportOptions};

    #[test]
    fn wilson_matches_known_values() {
        // Against statsmodels 0.14's `proportion_confint(k, n, alpha=0.05, method="wilson")`.
        // 60 of 200 (the 30 % frame):
        let i = wilson(60, 200).unwrap();
        assert!((i.lo - 0.240_747_446_823_714).abs() < 1e-12, "{i:?}");
        assert!((i.hi - 0.366_790_683_727_192_65).abs() < 1e-12, "{i:?}");
        // The ends stay inside [0, 1] with a width.
        let z = wilson(0, 10).unwrap();
        assert_eq!(z.lo, 0.0);
        assert!((z.hi - 0.277_532_799_862_889_26).abs() < 1e-12, "{z:?}");
        let a = wilson(10, 10).unwrap();
        assert!(
            (a.lo - 0.722_467_200_137_110_6).abs() < 1e-12 && a.hi == 1.0,
            "{a:?}"
        );
        assert_eq!(wilson(1, 0), None);
        assert_eq!(wilson(3, 2), None);
        assert_eq!(i.describe(), "95 %: 24.1–36.7 %");
        // Wider with fewer samples.
        assert!(widest_half_pp(200).unwrap() > widest_half_pp(2000).unwrap());
        // 500 of 1000: 0.46906960036810420–0.5309303996318958.
        assert!((widest_half_pp(1000).unwrap() - 3.093_039_963_189_58).abs() < 1e-9);
    }

    #[test]
    fn median_of_counts() {
        let mut c = Counts::default();
        assert_eq!(c.median(), None);
        for x in [5, 1, 9, 9, 3] {
            c.add(x);
        }
        assert_eq!(c.median(), Some(5));
        c.add(1);
        assert_eq!(c.median(), Some(3), "the lower median of 1 1 3 5 9 9");
    }

    #[test]
    fn round_rates() {
        for hz in [100.0, 1000.0, 4000.0, 99.8, 1000.4, 50.0, 1e9 / 20_000.0] {
            assert!(is_round_rate(hz), "{hz}");
        }
        for hz in [99.0, 997.0, 999.0, 1e9 / 2_004_008.0, 49.0, 3.0, 1013.0, f64::NAN] {
            assert!(!is_round_rate(hz), "{hz}");
        }
    }

    #[test]
    fn counts_per_node_without_roots() {
        // No process roots: nodes are found by stack alone (the dense column). Folded counts are the weights,
        // so each node's count is the tree's own total.
        let p = import_bytes(b"a;b 3\na 1\nc;b 2\na;b;d 4\n", ImportOptions::default())
            .unwrap()
            .profile;
        let v = ViewOptions::default_for(&p);
        let tree = CallTree::build(&p, &v, Default::default());
        let c = node_counts(&p, &v, &tree).unwrap();
        assert_eq!(c.n, 10);
        assert_eq!(c.total, tree.total);
        // The walk over samples and nodes agrees with the tree's own totals (which the counts above are).
        assert_eq!(node_totals(&p, &v, &tree), (tree.total.clone(), 10));
        // perf records without roots: f is 2 samples (the leaf f and the f above g), g under f 1, g 1.
        let text = b"a 1 [000] 1.000: 5 cpu-clock:\n\t1 f (/a)\n\n\
a 1 [000] 1.010: 7 cpu-clock:\n\t1 g (/a)\n\t2 f (/a)\n\n\
a 1 [000] 1.020: 9 cpu-clock:\n\t1 g (/a)\n\n";
        let p = import_bytes(text, ImportOptions::default()).unwrap().profile;
        let v = ViewOptions {
            root: crate::view::RootMode::None,
            ..ViewOptions::default_for(&p)
        };
        let tree = CallTree::build(&p, &v, Default::default());
        let c = node_counts(&p, &v, &tree).unwrap();
        let path = |names: &[&str]| tree.find_path(&p, names).unwrap().idx();
        assert_eq!(c.n, 3);
        assert_eq!(c.total[path(&["f"])], 2);
        assert_eq!(c.total[path(&["f", "g"])], 1);
        assert_eq!(c.total[path(&["g"])], 1);
        // Counted (the view weighs by records): the counts are the tree's totals, and the walk says the same.
        let cv = ViewOptions {
            weight: WeightMode::Count,
            ..v
        };
        let tree = CallTree::build(&p, &cv, Default::default());
        let c = node_counts(&p, &cv, &tree).unwrap();
        assert_eq!((c.total.clone(), c.n), node_totals(&p, &cv, &tree));
        assert_eq!(c.total[path(&["f"])], 2);
    }

    #[test]
    fn counts_behind_shares() {
        // perf: a record is a sample, whatever its period.
        let text = b"a 1 [000] 1.000: 5 cpu-clock:\n\t1 f (/a)\n\n\
a 1 [000] 1.010: 7 cpu-clock:\n\t1 g (/a)\n\t2 f (/a)\n\n\
a 1 [000] 1.020: 9 cpu-clock:\n\t1 g (/a)\n\n";
        let p = import_bytes(text, ImportOptions::default()).unwrap().profile;
        let v = ViewOptions::default_for(&p);
        let (rows, n, src) = function_counts(&p, &v).unwrap();
        assert_eq!((n, src), (3, CountSource::Records));
        let g = rows.iter().find(|r| r.name == "g").unwrap();
        assert_eq!((g.self_n, g.total_n), (2, 2));
        let f = rows.iter().find(|r| r.name == "f").unwrap();
        assert_eq!((f.self_n, f.total_n), (1, 2));
        // Per node, under the process root: comm a → f (2: the leaf f and the f above g), g under f, g.
        let tree = CallTree::build(&p, &v, Default::default());
        let c = node_counts(&p, &v, &tree).unwrap();
        assert_eq!(c.n, 3);
        assert_eq!(sample_count(&p, &v), Some(3));
        // The function table carries the same intervals.
        let (table, _, _) = super::super::functions::functions(&p, &v);
        let f = table.iter().find(|r| r.name == "f").unwrap();
        assert_eq!((f.self_interval, f.total_interval), (wilson(1, 3), wilson(2, 3)));
        assert_eq!(
            few_samples_notice(3).as_deref(),
            Some("few samples (3): shares are ± 36.5 pp") // statsmodels: 1 of 3, ± 36.54 pp
        );
        assert_eq!(few_samples_notice(1000), None);
        let path = |names: &[&str]| tree.find_path(&p, names).unwrap().idx();
        assert_eq!(c.total[path(&["a", "f"])], 2);
        assert_eq!(c.total[path(&["a", "f", "g"])], 1);
        assert_eq!(c.total[path(&["a", "g"])], 1);
        assert_eq!(c.total[path(&["a"])], 3);
        // The rate: the median period is 7 ns (an absurd 142,857,143 Hz); 10 ms between samples on one CPU.
        let r = sampling_rate(&p, &v).unwrap();
        assert_eq!(
            (r.source, r.hz.round(), r.round),
            ("period", 142_857_143.0, false)
        );
        assert_eq!(r.per_group.len(), 1);
        assert_eq!(r.per_group[0].group, "cpu 0");
        assert!((r.per_group[0].hz - 100.0).abs() < 1e-9);
        // Counted: no period, so the median gap (10 ms): 100 Hz, a round rate.
        let cv = ViewOptions {
            weight: WeightMode::Count,
            ..v
        };
        let r = sampling_rate(&p, &cv).unwrap();
        assert_eq!((r.source, r.hz.round(), r.round), ("timestamps", 100.0, true));
        // Folded: the counts are the weights; not when the counts are fractional.
        let p = import_bytes(b"a;b 3\na 1\n", ImportOptions::default())
            .unwrap()
            .profile;
        let (_, n, src) = function_counts(&p, &ViewOptions::default_for(&p)).unwrap();
        assert_eq!((n, src), (4, CountSource::Weights));
        let p = import_bytes(b"a;b 0.5\n", ImportOptions::default())
            .unwrap()
            .profile;
        assert_eq!(function_counts(&p, &ViewOptions::default_for(&p)), None);
    }

    #[test]
    fn newcombe_difference_matches_statsmodels() {
        // statsmodels 0.14: confint_proportions_2indep(k2, n2, k1, n1, method="newcomb", compare="diff"),
        // i.e. the interval of k2/n2 − k1/n1.
        type Case = ((u64, u64, u64, u64), (f64, f64));
        let cases: [Case; 4] = [
            ((3, 65, 8, 80), (-0.04052621119381579, 0.14419732594529783)),
            ((5, 200, 0, 100), (-0.05717834040664199, 0.014652270283188891)),
            ((40, 136, 50, 213), (-0.15590686926789996, 0.03373198312584834)),
            ((3, 20, 10, 10), (0.5017177098408195, 0.9476312541037833)),
        ];
        for ((k1, n1, k2, n2), (lo, hi)) in cases {
            let (a, b) = difference_interval(k1, n1, k2, n2).unwrap();
            assert!(
                (a - lo).abs() < 1e-12 && (b - hi).abs() < 1e-12,
                "{k1}/{n1} → {k2}/{n2}: {a} {b}"
            );
        }
        assert_eq!(difference_interval(1, 0, 1, 2), None);
    }
    #[test]
    fn a_cut_trees_kept_nodes_have_their_whole_counts() {
        use crate::view::calltree::{NodeId, Order};
        use crate::view::cut::cut;
        use crate::view::window::heights;
        let mut text = String::new();
        for i in 0..400u32 {
            text.push_str(&format!("main;f{};g{} {}\n", i % 7, i, 1 + i % 5));
        }
        let p = crate::import::folded::parse(text.as_bytes()).unwrap();
        let v = ViewOptions::default_for(&p);
        let t = CallTree::build(&p, &v, Order::Alphabetical);
        let (whole, n) = node_totals(&p, &v, &t);
        let c = cut(&t, &heights(&t), NodeId::ROOT, t.total[0] / 200);
        assert!(c.tree.frame.contains(&ELIDED_FRAME));
        let (counts, m) = node_totals(&p, &v, &c.tree);
        assert_eq!(m, n);
        for i in 0..c.tree.len() {
            if c.tree.frame[i] != ELIDED_FRAME {
                assert_eq!(counts[i], whole[c.full[i] as usize], "node {i}");
            }
        }
    }
}
