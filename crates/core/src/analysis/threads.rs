//! The thread list: per thread of a profile whose samples have threads (perf's comm / pid / tid), its name,
//! sample count and total for a view's event, and an activity strip over the profile's time span.
//!
//! Cost: two passes over the samples and a sort of the threads; the strips are a fixed number of buckets for at
//! most [`MAX_STRIPS`] threads, so memory never follows the time span, however long an input claims it is.

use crate::model::Profile;
use crate::view::{has_threads, ViewOptions};

/// Activity buckets per thread unless asked otherwise.
pub const BUCKETS: usize = 100;
/// Threads that get an activity strip (the busiest); the rest have counts only.
pub const MAX_STRIPS: usize = 1_000;
/// Most buckets a strip can have.
const MAX_BUCKETS: usize = 1_000;

/// One thread of the list.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ThreadRow {
    /// Index into [`Profile::threads`].
    pub thread: u32,
    /// `comm-pid/tid`, as the `tid` root names it.
    pub name: String,
    pub comm: String,
    pub pid: Option<u32>,
    pub tid: u32,
    /// Samples of the view (its event, label filter and weights; any time range, band or thread choice aside).
    pub samples: u64,
    /// Their weight in the view's unit (sample counts when the view counts samples).
    pub total: u64,
    /// The view's weight per bucket of [`ThreadList::span_ns`]; empty without timestamps or past
    /// [`MAX_STRIPS`].
    pub activity: Vec<u64>,
}

/// The threads, busiest first (by samples, then total, then index).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ThreadList {
    pub rows: Vec<ThreadRow>,
    /// The `[first, last]` sample time of the view's event on the profile's clock; the strips' buckets divide
    /// it evenly. `None` without timestamps.
    pub span_ns: Option<(u64, u64)>,
    /// Buckets per strip.
    pub buckets: usize,
    /// Samples and weight of the view over all threads.
    pub samples: u64,
    pub total: u64,
}

/// The thread list of a profile under a view (its thread choice, time range and band ignored, so every thread
/// stays listed); empty for a profile without threads. Threads with no sample in the view are left out.
pub fn thread_list(p: &Profile, v: &ViewOptions, buckets: usize) -> ThreadList {
    let buckets = buckets.clamp(1, MAX_BUCKETS);
    let (Some(col), true) = (p.samples.thread.as_ref(), has_threads(p)) else {
        return ThreadList::default();
    };
    let v = ViewOptions {
        threads: None,
        time_range: None,
        offsets: None,
        ..v.clone()
    };
    let n = p.threads.len();
    let mut samples = vec![0u64; n];
    let mut total = vec![0u64; n];
    let (mut lo, mut hi) = (u64::MAX, 0u64);
    let times = p.samples.time_ns.as_ref();
    for i in 0..p.samples.len() {
        let Some(w) = v.weigh(p, i) else { continue };
        let Some(t) = col.get(i).map(|&t| t as usize) else {
            continue;
        };
        if let (Some(s), Some(x)) = (samples.get_mut(t), total.get_mut(t)) {
            *s += 1;
            *x = x.saturating_add(w);
        }
        if let Some(&ns) = times.and_then(|c| c.get(i)) {
            lo = lo.min(ns);
            hi = hi.max(ns);
        }
    }
    let mut order: Vec<u32> = (0..n as u32)
        .filter(|&t| samples.get(t as usize).is_some_and(|&s| s > 0))
        .collect();
    let key = |t: &u32| {
        let t = *t as usize;
        (
            std::cmp::Reverse(samples.get(t).copied().unwrap_or(0)),
            std::cmp::Reverse(total.get(t).copied().unwrap_or(0)),
            t,
        )
    };
    order.sort_unstable_by_key(key);
    let span_ns = (lo <= hi && times.is_some()).then_some((lo, hi));
    // Strip slot per thread: the busiest MAX_STRIPS threads get one.
    let mut slot = vec![u32::MAX; n];
    for (k, &t) in order.iter().take(MAX_STRIPS).enumerate() {
        if let Some(s) = slot.get_mut(t as usize) {
            *s = k as u32;
        }
    }
    let strips = if span_ns.is_some() {
        order.len().min(MAX_STRIPS)
    } else {
        0
    };
    let mut activity = vec![0u64; strips * buckets];
    if let (Some((lo, hi)), Some(times)) = (span_ns, times) {
        let width = u128::from(hi - lo) + 1;
        for i in 0..p.samples.len() {
            let (Some(&t), Some(&ns)) = (col.get(i), times.get(i)) else {
                continue;
            };
            let Some(&k) = slot.get(t as usize) else { continue };
            if k == u32::MAX {
                continue;
            }
            let Some(w) = v.weigh(p, i) else { continue };
            let b = (u128::from(ns.saturating_sub(lo)) * buckets as u128 / width) as usize;
            if let Some(cell) = activity.get_mut(k as usize * buckets + b.min(buckets - 1)) {
                *cell = cell.saturating_add(w);
            }
        }
    }
    let th = &p.threads;
    let rows = order
        .iter()
        .enumerate()
        .map(|(k, &t)| {
            let i = t as usize;
            let name = th
                .roots
                .get(i)
                .and_then(|r| r.get(2))
                .and_then(|f| p.frames.name.get(f.0 as usize))
                .map(|&s| p.strings.get(s).to_string())
                .unwrap_or_default();
            let strip = if k < strips {
                activity.get(k * buckets..(k + 1) * buckets).map(<[u64]>::to_vec)
            } else {
                None
            };
            ThreadRow {
                thread: t,
                name,
                comm: th
                    .comm
                    .get(i)
                    .map(|&c| p.strings.get(c).to_string())
                    .unwrap_or_default(),
                pid: th.pid.get(i).copied().flatten(),
                tid: th.tid.get(i).copied().unwrap_or(0),
                samples: samples.get(i).copied().unwrap_or(0),
                total: total.get(i).copied().unwrap_or(0),
                activity: strip.unwrap_or_default(),
            }
        })
        .collect();
    ThreadList {
        rows,
        span_ns,
        buckets,
        samples: samples.iter().sum(),
        total: total.iter().fold(0u64, |a, &b| a.saturating_add(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{import_bytes, ImportOptions};
    use crate::view::{thread_filter, SampleFilter};

    const TEXT: &[u8] = b"a 1/1 1.000000000: 10 cpu-clock:\n\t1 f (/x)\n\n\
b 1/2 1.500000000: 20 cpu-clock:\n\t1 g (/x)\n\n\
a 1/1 2.000000000: 10 cpu-clock:\n\t1 f (/x)\n\n\
b 1/2 2.000000000: 20 cpu-clock:\n\t1 g (/x)\n\n\
c 3/3 3.000000000: 5 cpu-clock:\n\t1 h (/x)\n\n\
a 1/1 3.000000000: 10 cpu-clock:\n\t1 f (/x)\n\n";

    fn total(p: &Profile, v: &ViewOptions) -> u64 {
        (0..p.samples.len()).filter_map(|i| v.weigh(p, i)).sum()
    }

    #[test]
    fn counts_and_strips_by_hand() {
        let p = import_bytes(TEXT, ImportOptions::default()).unwrap().profile;
        let mut v = ViewOptions::default_for(&p);
        // The list ignores the view's own thread choice.
        v.threads = Some(thread_filter(&p, "comm=c").unwrap());
        let l = thread_list(&p, &v, 4);
        let got: Vec<_> = l
            .rows
            .iter()
            .map(|r| (r.name.as_str(), r.tid, r.samples, r.total, r.activity.clone()))
            .collect();
        // Span [1 s, 3 s] in 4 buckets of ~0.5 s: 1.0 and 1.5 → 0, 2.0 → 1, 3.0 → 3 (the last bucket is closed).
        assert_eq!(
            got,
            [
                ("a-1/1", 1, 3, 30, vec![10, 10, 0, 10]),
                ("b-1/2", 2, 2, 40, vec![20, 20, 0, 0]),
                ("c-3/3", 3, 1, 5, vec![0, 0, 0, 5]),
            ]
        );
        assert_eq!(
            (l.samples, l.total, l.span_ns),
            (6, 75, Some((1_000_000_000, 3_000_000_000)))
        );
        assert_eq!(total(&p, &v), 5);
    }

    #[test]
    fn thread_filters_select_threads() {
        let p = import_bytes(TEXT, ImportOptions::default()).unwrap().profile;
        let v = ViewOptions::default_for(&p);
        let with = |f: &str| {
            let mut w = v.clone();
            SampleFilter::parse(&p, f).unwrap().apply(&mut w);
            total(&p, &w)
        };
        assert_eq!(with("tid=2"), 40);
        assert_eq!(with("pid=1"), 70);
        assert_eq!(with("comm=a"), 30);
        assert_eq!(with("tid=1,3"), 35);
        assert!(SampleFilter::parse(&p, "tid=9")
            .unwrap_err()
            .contains("no thread has tid=9"));
        assert!(SampleFilter::parse(&p, "tid=").is_err());
        // Two thread filters narrow each other.
        let mut w = v.clone();
        SampleFilter::parse(&p, "pid=1").unwrap().apply(&mut w);
        SampleFilter::parse(&p, "comm=b").unwrap().apply(&mut w);
        assert_eq!(total(&p, &w), 40);
        // No thread in the set: nothing.
        let none = ViewOptions {
            threads: Some(crate::view::ThreadSet::new([])),
            ..v
        };
        assert_eq!(total(&p, &none), 0);
    }

    #[test]
    fn no_threads_no_list() {
        let p = import_bytes(b"a;b 3\n", ImportOptions::default())
            .unwrap()
            .profile;
        let v = ViewOptions::default_for(&p);
        assert_eq!(thread_list(&p, &v, BUCKETS), ThreadList::default());
        assert!(SampleFilter::parse(&p, "tid=1").is_err());
    }
}
