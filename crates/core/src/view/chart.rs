//! The stack chart: the samples of a view in time order, each drawn as its stack (root at depth 0, the process
//! root first as the flame graph has it), consecutive samples sharing a frame at a depth *and* everything below
//! it merged into one box `[start, end)`.
//!
//! Rules (docs/HEATMAP.md, "Stack chart"):
//! - the chart takes the samples the view selects by event, label filter and thread choice; its time range and
//!   band are ignored (the chart shows the whole profile and zooms to the range instead);
//! - a sample lasts until the next selected sample's time; the last one lasts the median of the positive
//!   intervals between consecutive samples (1 ms when there is none);
//! - a box's self time is the time of the samples whose leaf it is;
//! - samples are taken in time order (ties in the profile's order); a profile without timestamps has no chart;
//! - **lanes**: when the view's thread choice holds 2 to [`MAX_LANES`] threads, each thread gets a lane of its
//!   own ([`Lane`]: a header row without boxes, then that thread's rows), built from that thread's samples only,
//!   so a thread's stack lasts until *its* next sample; all lanes share one time axis.
//!
//! Cost: one pass over the samples (plus a sort of their indices when the input is out of time order); per
//! sample only the part of its stack that differs from the previous sample's is walked, so building is
//! O(samples + changed frames) ≤ O(samples × depth) (lanes: one more pass to part the samples by thread), and memory is one box per run, never per second of the
//! span. Boxes are stored per depth as sorted columns: boxes at one depth are disjoint, so both `start` and
//! `end` are non-decreasing and a window is found by binary search.

use super::calltree::TreeColumns;
use super::options::ViewOptions;
use crate::model::{FrameId, Profile, StackId, EMPTY_STACK};
use std::ops::Range;

/// The boxes at one depth, in time order, as columns (slices of the chart's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChartRow<'a> {
    /// Start time of each box (ns, the profile's clock).
    pub start: &'a [u64],
    /// End time of each box (exclusive; ≥ its start, ≤ the next box's start).
    pub end: &'a [u64],
    pub frame: &'a [FrameId],
    /// Time of the samples whose leaf this box is (ns).
    pub self_ns: &'a [u64],
}

impl ChartRow<'_> {
    pub fn len(&self) -> usize {
        self.start.len()
    }
    pub fn is_empty(&self) -> bool {
        self.start.is_empty()
    }
    /// The boxes that overlap `[t0, t1)`.
    pub fn visible(&self, t0: u64, t1: u64) -> Range<usize> {
        let a = self.end.partition_point(|&e| e <= t0);
        let b = self.start.partition_point(|&s| s < t1).max(a);
        a..b
    }
    /// The box containing time `t`.
    pub fn at(&self, t: u64) -> Option<usize> {
        let i = self.end.partition_point(|&e| e <= t);
        (self.start.get(i).is_some_and(|&s| s <= t)).then_some(i)
    }
    /// The first box at or after index `from` whose end is past `t` (a gallop: cheap when it is near).
    pub fn next_ending_after(&self, from: usize, t: u64) -> usize {
        let rest = self.end.get(from..).unwrap_or(&[]);
        let mut hi = 1;
        while hi < rest.len() && rest.get(hi - 1).is_some_and(|&e| e <= t) {
            hi *= 2;
        }
        let lo = hi / 2;
        let hi = hi.min(rest.len());
        from + lo + rest.get(lo..hi).map_or(0, |s| s.partition_point(|&e| e <= t))
    }
}

/// A stack chart of one view: its boxes as flat columns sorted by (depth, start), `row_start[d]..row_start[d + 1]`
/// the boxes at depth `d` (0: the root). Flat, so a stack millions of frames deep costs its boxes and one offset
/// per depth, not a set of vectors per depth.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StackChart {
    row_start: Vec<u64>,
    start: Vec<u64>,
    end: Vec<u64>,
    frame: Vec<FrameId>,
    self_ns: Vec<u64>,
    /// Time of the first selected sample; `end_ns` the end of the last box.
    pub start_ns: u64,
    pub end_ns: u64,
    /// Selected samples.
    pub samples: u64,
    /// The median positive interval between consecutive samples: the last sample's duration.
    pub interval_ns: u64,
    /// One lane per chosen thread, in the order of the thread table; empty for a chart without lanes.
    pub lanes: Vec<Lane>,
}

/// One thread's lane in a chart with lanes: the header row (no boxes; the thread's name is drawn there), then
/// the thread's own rows `header + 1 .. header + 1 + depth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lane {
    /// The thread: an index into [`Profile::threads`].
    pub thread: u32,
    /// The header row.
    pub header: usize,
    /// How many rows of boxes the lane has.
    pub depth: usize,
    /// The thread's samples in the chart.
    pub samples: u64,
}

impl Lane {
    /// The lane's rows of boxes.
    pub fn rows(&self) -> Range<usize> {
        self.header + 1..self.header + 1 + self.depth
    }
}

/// The most threads drawn as lanes; a larger choice is drawn as one chart.
pub const MAX_LANES: usize = 64;

/// The last sample's duration when no interval can be measured.
pub const DEFAULT_INTERVAL_NS: u64 = 1_000_000;

/// What an open box on the current path stands for: a stack row, or a root frame.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Root(FrameId),
    Stack(StackId),
}

/// Boxes as they are opened (all depths mixed), before they are sorted into rows.
#[derive(Default)]
struct Boxes {
    start: Vec<u64>,
    end: Vec<u64>,
    frame: Vec<FrameId>,
    self_ns: Vec<u64>,
    depth: Vec<u32>,
}

impl Boxes {
    fn add_self(&mut self, open: &[(Key, usize)], dt: u64) {
        if let Some(x) = open.last().and_then(|o| self.self_ns.get_mut(o.1)) {
            *x = x.saturating_add(dt);
        }
    }

    fn close_from(&mut self, open: &mut Vec<(Key, usize)>, keep: usize, t: u64) {
        for o in open.iter().skip(keep) {
            if let Some(e) = self.end.get_mut(o.1) {
                *e = t;
            }
        }
        open.truncate(keep);
    }

    fn open_box(&mut self, open: &mut Vec<(Key, usize)>, key: Key, f: FrameId, t: u64) {
        open.push((key, self.start.len()));
        self.start.push(t);
        self.end.push(t);
        self.frame.push(f);
        self.self_ns.push(0);
        self.depth.push(open.len().saturating_sub(1) as u32);
    }

    /// Sorted into rows by depth (a stable counting sort: each row stays in time order).
    fn into_chart(self) -> StackChart {
        let depths = self.depth.iter().max().map_or(0, |&d| d as usize + 1);
        let mut row_start = vec![0u64; depths + 1];
        for &d in &self.depth {
            if let Some(c) = row_start.get_mut(d as usize + 1) {
                *c += 1;
            }
        }
        for i in 1..row_start.len() {
            let prev = row_start.get(i - 1).copied().unwrap_or(0);
            if let Some(c) = row_start.get_mut(i) {
                *c += prev;
            }
        }
        let n = self.start.len();
        let mut at = row_start.clone();
        let mut c = StackChart {
            start: vec![0; n],
            end: vec![0; n],
            frame: vec![FrameId(0); n],
            self_ns: vec![0; n],
            ..StackChart::default()
        };
        for (i, &d) in self.depth.iter().enumerate() {
            let Some(slot) = at.get_mut(d as usize) else {
                continue;
            };
            let j = *slot as usize;
            *slot += 1;
            if let (Some(s), Some(e), Some(f), Some(o)) = (
                c.start.get_mut(j),
                c.end.get_mut(j),
                c.frame.get_mut(j),
                c.self_ns.get_mut(j),
            ) {
                *s = self.start.get(i).copied().unwrap_or(0);
                *e = self.end.get(i).copied().unwrap_or(0);
                *f = self.frame.get(i).copied().unwrap_or(FrameId(0));
                *o = self.self_ns.get(i).copied().unwrap_or(0);
            }
        }
        c.row_start = row_start;
        c
    }
}

impl StackChart {
    /// The chart of the samples `v` selects (time range and band aside); `None` when the profile has no
    /// timestamps.
    pub fn build(p: &Profile, v: &ViewOptions) -> Option<StackChart> {
        let times = p.samples.time_ns.as_ref()?;
        let v = ViewOptions {
            time_range: None,
            offsets: None,
            ..v.clone()
        };
        let mut order: Vec<u32> = (0..p.samples.len().min(times.len()) as u32)
            .filter(|&i| v.weigh(p, i as usize).is_some())
            .collect();
        let time = |i: u32| times.get(i as usize).copied().unwrap_or(0);
        if order.windows(2).any(|w| match w {
            [a, b] => time(*a) > time(*b),
            _ => false,
        }) {
            order.sort_by_key(|&i| (time(i), i));
        }
        if let (Some(set), Some(of)) = (&v.threads, &p.samples.thread) {
            if (2..=MAX_LANES).contains(&set.len()) {
                return Some(Self::lanes(
                    p,
                    &v,
                    &order,
                    set.as_slice(),
                    of,
                    times,
                    &stack_depths(p),
                ));
            }
        }
        Some(Self::of_samples(p, &v, &order, times, &stack_depths(p)))
    }

    /// One lane per thread of `threads` that has samples in `order`, stacked in that order under one time axis.
    fn lanes(
        p: &Profile,
        v: &ViewOptions,
        order: &[u32],
        threads: &[u32],
        thread_of: &[u32],
        times: &[u64],
        depth: &[u32],
    ) -> StackChart {
        let mut parts: Vec<Vec<u32>> = vec![Vec::new(); threads.len()];
        for &i in order {
            let k = thread_of
                .get(i as usize)
                .and_then(|t| threads.binary_search(t).ok());
            if let Some(part) = k.and_then(|k| parts.get_mut(k)) {
                part.push(i);
            }
        }
        let time = |i: u32| times.get(i as usize).copied().unwrap_or(0);
        let mut out = StackChart {
            row_start: vec![0],
            samples: order.len() as u64,
            interval_ns: median_interval(order.iter().map(|&i| time(i))),
            start_ns: u64::MAX,
            ..StackChart::default()
        };
        for (&thread, part) in threads.iter().zip(&parts) {
            if part.is_empty() {
                continue;
            }
            let c = Self::of_samples(p, v, part, times, depth);
            let header = out.depth_count();
            out.row_start.push(out.start.len() as u64);
            for row in c.rows() {
                out.start.extend_from_slice(row.start);
                out.end.extend_from_slice(row.end);
                out.frame.extend_from_slice(row.frame);
                out.self_ns.extend_from_slice(row.self_ns);
                out.row_start.push(out.start.len() as u64);
            }
            out.start_ns = out.start_ns.min(c.start_ns);
            out.end_ns = out.end_ns.max(c.end_ns);
            out.lanes.push(Lane {
                thread,
                header,
                depth: c.depth_count(),
                samples: c.samples,
            });
        }
        if out.lanes.is_empty() {
            out.start_ns = 0;
        }
        out
    }

    /// The chart of the samples `order` (sample indices in time order).
    fn of_samples(p: &Profile, v: &ViewOptions, order: &[u32], times: &[u64], depth: &[u32]) -> StackChart {
        let time = |i: u32| times.get(i as usize).copied().unwrap_or(0);
        let samples = order.len() as u64;
        let interval_ns = median_interval(order.iter().map(|&i| time(i)));
        let (Some(&first), Some(&last)) = (order.first(), order.last()) else {
            return StackChart {
                samples,
                interval_ns,
                row_start: vec![0],
                ..StackChart::default()
            };
        };
        let (start_ns, end_ns) = (time(first), time(last).saturating_add(interval_ns));
        let mut boxes = Boxes::default();
        let mut open: Vec<(Key, usize)> = Vec::new();
        let mut fresh: Vec<StackId> = Vec::new();
        let mut prev_t: Option<u64> = None;
        for &i in order {
            let t = time(i);
            let root = v.root_of(p, i as usize);
            let leaf = p
                .samples
                .stack
                .get(i as usize)
                .copied()
                .filter(|&s| s != EMPTY_STACK);
            if let Some(pt) = prev_t {
                boxes.add_self(&open, t.saturating_sub(pt));
            }
            prev_t = Some(t);
            let off = usize::from(root.is_some());
            let root_ok = match root {
                Some(r) => open.first().map(|o| o.0) == Some(Key::Root(r)),
                None => true,
            };
            // Walk up from the leaf to the deepest stack row still open at its depth.
            fresh.clear();
            let mut keep = if root_ok { off } else { 0 };
            let mut cur = leaf;
            while let Some(s) = cur {
                let d = off + depth.get(s.idx()).copied().unwrap_or(0) as usize;
                if root_ok && open.get(d).map(|o| o.0) == Some(Key::Stack(s)) {
                    keep = d + 1;
                    break;
                }
                fresh.push(s);
                cur = p.stacks.parent(s);
            }
            boxes.close_from(&mut open, keep, t);
            if let (Some(r), false) = (root, root_ok) {
                boxes.open_box(&mut open, Key::Root(r), r, t);
            }
            for &s in fresh.iter().rev() {
                let f = p.stacks.frame.get(s.idx()).copied().unwrap_or(FrameId(0));
                boxes.open_box(&mut open, Key::Stack(s), f, t);
            }
        }
        boxes.add_self(&open, interval_ns);
        boxes.close_from(&mut open, 0, end_ns);
        StackChart {
            start_ns,
            end_ns,
            samples,
            interval_ns,
            ..boxes.into_chart()
        }
    }

    /// Depths that have boxes.
    pub fn depth_count(&self) -> usize {
        self.row_start.len().saturating_sub(1)
    }

    /// The boxes at depth `d`.
    pub fn row(&self, d: usize) -> Option<ChartRow<'_>> {
        let a = *self.row_start.get(d)? as usize;
        let b = *self.row_start.get(d + 1)? as usize;
        Some(ChartRow {
            start: self.start.get(a..b)?,
            end: self.end.get(a..b)?,
            frame: self.frame.get(a..b)?,
            self_ns: self.self_ns.get(a..b)?,
        })
    }

    /// The rows, root first.
    pub fn rows(&self) -> impl Iterator<Item = ChartRow<'_>> {
        (0..self.depth_count()).filter_map(|d| self.row(d))
    }

    /// The frames drawn at time `t`, root first (one per depth whose box contains `t`; boxes at a depth nest in
    /// the box above, so these form one stack).
    pub fn stack_at(&self, t: u64) -> Vec<FrameId> {
        self.stack_in(0..self.depth_count(), t)
    }

    /// The frames lane `k` draws at time `t`, root first.
    pub fn lane_stack_at(&self, k: usize, t: u64) -> Vec<FrameId> {
        self.lanes
            .get(k)
            .map_or_else(Vec::new, |l| self.stack_in(l.rows(), t))
    }

    /// The lane whose header or rows hold row `d`.
    pub fn lane_of_row(&self, d: usize) -> Option<&Lane> {
        let k = self.lanes.partition_point(|l| l.header <= d);
        self.lanes
            .get(k.checked_sub(1)?)
            .filter(|l| d < l.header + 1 + l.depth)
    }

    fn stack_in(&self, rows: Range<usize>, t: u64) -> Vec<FrameId> {
        let mut out = Vec::new();
        for row in rows.filter_map(|d| self.row(d)) {
            match row.at(t).and_then(|i| row.frame.get(i)) {
                Some(&f) => out.push(f),
                None => break,
            }
        }
        out
    }

    /// Boxes in all rows.
    pub fn box_count(&self) -> usize {
        self.start.len()
    }

    /// The chart as plain columns, to move it between threads as typed arrays: `[frame]` (`u32s`);
    /// `[start_ns, end_ns, samples, interval_ns]`, the row offsets, starts, ends, self times and the lanes
    /// (`[thread, header, depth, samples]` each) (`u64s`).
    pub fn into_columns(self) -> TreeColumns {
        let lanes = self
            .lanes
            .iter()
            .flat_map(|l| [u64::from(l.thread), l.header as u64, l.depth as u64, l.samples])
            .collect();
        TreeColumns {
            u32s: vec![self.frame.into_iter().map(|f| f.0).collect()],
            u64s: vec![
                vec![self.start_ns, self.end_ns, self.samples, self.interval_ns],
                self.row_start,
                self.start,
                self.end,
                self.self_ns,
                lanes,
            ],
        }
    }

    /// The chart from [`StackChart::into_columns`]; `None` when the columns do not fit together (lengths
    /// differ, row offsets do not rise to the box count, a box ends before it starts, boxes of a row overlap or
    /// are out of order, a frame is not one of the profile's `frames`).
    pub fn from_columns(c: TreeColumns, frames: usize) -> Option<StackChart> {
        let [frame] = <[Vec<u32>; 1]>::try_from(c.u32s).ok()?;
        let [head, row_start, start, end, self_ns, lanes] = <[Vec<u64>; 6]>::try_from(c.u64s).ok()?;
        let [start_ns, end_ns, samples, interval_ns] = <[u64; 4]>::try_from(head).ok()?;
        let n = frame.len();
        let fits = start.len() == n
            && end.len() == n
            && self_ns.len() == n
            && row_start.first() == Some(&0)
            && row_start.last() == Some(&(n as u64))
            && row_start.windows(2).all(|w| w.first() <= w.last())
            && frame.iter().all(|&f| (f as usize) < frames);
        if !fits {
            return None;
        }
        let lanes: Vec<Lane> = lanes
            .chunks(4)
            .map(|l| match *l {
                [thread, header, depth, samples] => Some(Lane {
                    thread: u32::try_from(thread).ok()?,
                    header: usize::try_from(header).ok()?,
                    depth: usize::try_from(depth).ok()?,
                    samples,
                }),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let c = StackChart {
            row_start,
            start,
            end,
            frame: frame.into_iter().map(FrameId).collect(),
            self_ns,
            start_ns,
            end_ns,
            samples,
            interval_ns,
            lanes,
        };
        let ordered = c.rows().all(|r| {
            r.start.iter().zip(r.end).all(|(s, e)| s <= e)
                && r.end.iter().zip(r.start.iter().skip(1)).all(|(e, s)| e <= s)
        });
        // Lanes follow each other, each inside the chart, with an empty header row.
        let mut next = 0usize;
        let lanes_fit = c.lanes.iter().all(|l| {
            let ok = l.header >= next
                && l.header
                    .checked_add(1 + l.depth)
                    .is_some_and(|e| e <= c.depth_count())
                && c.row(l.header).is_some_and(|r| r.is_empty());
            next = l.header.saturating_add(1 + l.depth);
            ok
        });
        (ordered && lanes_fit && c.rows().count() == c.depth_count()).then_some(c)
    }
}

/// The depth of each stack row (rows are topological: a parent comes before its children), computed once per
/// chart however many lanes it has.
fn stack_depths(p: &Profile) -> Vec<u32> {
    let mut depth = vec![0u32; p.stacks.len()];
    for i in 0..depth.len() {
        let d = match p.stacks.parent.get(i) {
            Some(&par) => depth.get(par as usize).map_or(0, |&d| d + 1),
            None => 0,
        };
        if let Some(x) = depth.get_mut(i) {
            *x = d;
        }
    }
    depth
}

/// The median of the positive differences between consecutive times (ascending), or
/// [`DEFAULT_INTERVAL_NS`].
fn median_interval(times: impl Iterator<Item = u64>) -> u64 {
    let mut prev: Option<u64> = None;
    let mut diffs: Vec<u64> = Vec::new();
    for t in times {
        if let Some(p) = prev {
            if t > p {
                diffs.push(t - p);
            }
        }
        prev = Some(t);
    }
    if diffs.is_empty() {
        return DEFAULT_INTERVAL_NS;
    }
    let mid = diffs.len() / 2;
    let (_, m, _) = diffs.select_nth_unstable(mid);
    *m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FrameKind, FullSample, ProfileBuilder, Unit, Warnings};

    /// A profile of `(time ns, stack root→leaf)` samples, one thread, no events.
    fn profile(samples: &[(Option<u64>, &[&str])]) -> Profile {
        let mut b = ProfileBuilder::new(crate::Format::PerfScript);
        let th = b.thread("prog", Some(1), 1);
        for (t, names) in samples {
            let mut s = None;
            for n in names.iter() {
                let f = b.frame(n, FrameKind::User);
                s = Some(b.stack(s, f));
            }
            b.push_full_sample(
                FullSample {
                    stack: s.unwrap_or(EMPTY_STACK),
                    weight: 1,
                    time_ns: *t,
                    thread: Some(th),
                    event: None,
                    cpu: None,
                    labels: None,
                },
                0,
            )
            .unwrap();
        }
        b.build(Unit::Samples, 0, samples.len() as u64, Warnings::default())
    }

    fn names(p: &Profile, row: &ChartRow<'_>) -> Vec<(u64, u64, String, u64)> {
        (0..row.len())
            .map(|i| {
                (
                    row.start[i],
                    row.end[i],
                    p.frame_name(row.frame[i]).to_string(),
                    row.self_ns[i],
                )
            })
            .collect()
    }

    fn none_root(p: &Profile) -> ViewOptions {
        ViewOptions {
            root: crate::RootMode::None,
            ..ViewOptions::default_for(p)
        }
    }

    fn timed(samples: &[(u64, &[&str])]) -> Profile {
        let v: Vec<(Option<u64>, &[&str])> = samples.iter().map(|&(t, s)| (Some(t), s)).collect();
        profile(&v)
    }

    fn row(p: &Profile, c: &StackChart, d: usize) -> Vec<(u64, u64, String, u64)> {
        names(p, &c.row(d).unwrap())
    }

    fn b(s: u64, e: u64, n: &str, own: u64) -> (u64, u64, String, u64) {
        (s, e, n.to_string(), own)
    }

    #[test]
    fn merges_runs_with_the_same_prefix() {
        let p = timed(&[
            (100, &["a", "b"]),
            (110, &["a", "b"]),
            (120, &["a", "c"]),
            (130, &["a", "b"]),
        ]);
        let c = StackChart::build(&p, &none_root(&p)).unwrap();
        assert_eq!(c.samples, 4);
        assert_eq!(c.interval_ns, 10);
        assert_eq!((c.start_ns, c.end_ns), (100, 140));
        assert_eq!(c.depth_count(), 2);
        // The last sample lasts the median interval (10 ns).
        assert_eq!(row(&p, &c, 0), vec![b(100, 140, "a", 0)]);
        assert_eq!(
            row(&p, &c, 1),
            vec![b(100, 120, "b", 20), b(120, 130, "c", 10), b(130, 140, "b", 10)]
        );
    }

    #[test]
    fn same_frame_under_another_prefix_is_another_box() {
        let p = timed(&[(0, &["a", "x"]), (10, &["b", "x"]), (20, &["b", "x", "y"])]);
        let c = StackChart::build(&p, &none_root(&p)).unwrap();
        assert_eq!(row(&p, &c, 0), vec![b(0, 10, "a", 0), b(10, 30, "b", 0)]);
        assert_eq!(row(&p, &c, 1), vec![b(0, 10, "x", 10), b(10, 30, "x", 10)]);
        assert_eq!(row(&p, &c, 2), vec![b(20, 30, "y", 10)]);
    }

    #[test]
    fn a_gap_at_a_depth_splits_its_boxes() {
        // The middle sample's stack is shorter: b is not drawn at 10..20 and is two boxes.
        let p = timed(&[(0, &["a", "b"]), (10, &["a"]), (20, &["a", "b"]), (40, &[])]);
        let c = StackChart::build(&p, &none_root(&p)).unwrap();
        assert_eq!(row(&p, &c, 0), vec![b(0, 40, "a", 10)]);
        assert_eq!(row(&p, &c, 1), vec![b(0, 10, "b", 10), b(20, 40, "b", 20)]);
        // The frameless sample at 40 (no root in this view) has nothing drawn; the chart still ends after it.
        assert_eq!(c.interval_ns, 10);
        assert_eq!(c.end_ns, 50);
        assert_eq!(c.stack_at(45), Vec::<FrameId>::new());
        let at = |t| -> Vec<String> {
            c.stack_at(t)
                .iter()
                .map(|&f| p.frame_name(f).to_string())
                .collect()
        };
        assert_eq!(at(15), vec!["a"]);
        assert_eq!(at(20), vec!["a", "b"]);
        assert_eq!(at(39), vec!["a", "b"]);
        let r1 = c.row(1).unwrap();
        assert_eq!(r1.visible(5, 25), 0..2);
        assert_eq!(r1.visible(10, 20), 1..1);
        assert_eq!(r1.visible(40, 99), 2..2);
        assert_eq!(r1.next_ending_after(0, 10), 1);
        assert_eq!(c.row(2), None);
    }

    #[test]
    fn process_root_and_time_order() {
        // Out of time order in the input; the chart sorts. The process root stands at depth 0.
        let p = timed(&[(30, &["a"]), (10, &["a"]), (20, &["b"])]);
        let c = StackChart::build(&p, &ViewOptions::default_for(&p)).unwrap();
        assert_eq!(row(&p, &c, 0), vec![b(10, 40, "prog", 0)]);
        assert_eq!(
            row(&p, &c, 1),
            vec![b(10, 20, "a", 10), b(20, 30, "b", 10), b(30, 40, "a", 10)]
        );
        // A time range is the chart's zoom, not a filter.
        let ranged = ViewOptions {
            time_range: Some((20, 25)),
            ..ViewOptions::default_for(&p)
        };
        assert_eq!(StackChart::build(&p, &ranged).unwrap(), c);
    }

    #[test]
    fn columns_round_trip_and_refuse_what_does_not_fit() {
        let p = timed(&[(0, &["a", "x"]), (10, &["b", "x"]), (20, &["b", "x", "y"])]);
        let c = StackChart::build(&p, &ViewOptions::default_for(&p)).unwrap();
        let frames = p.frames.len();
        assert_eq!(
            StackChart::from_columns(c.clone().into_columns(), frames),
            Some(c.clone())
        );
        // Rows: prog [0, 30); a [0, 10), b [10, 30); x, x; y — flat, row 1 at boxes 1..3.
        assert_eq!(c.box_count(), 6);
        let mut bad = c.clone().into_columns();
        bad.u64s[2].swap(1, 2); // row 1's starts out of order
        assert_eq!(StackChart::from_columns(bad, frames), None);
        let mut bad = c.clone().into_columns();
        bad.u32s[0][0] = frames as u32;
        assert_eq!(StackChart::from_columns(bad, frames), None);
        let mut bad = c.clone().into_columns();
        bad.u64s[1][1] = 7; // a row offset past the boxes
        assert_eq!(StackChart::from_columns(bad, frames), None);
        let mut bad = c.into_columns();
        bad.u64s.pop();
        assert_eq!(StackChart::from_columns(bad, frames), None);
    }

    #[test]
    fn a_deep_stack_is_one_box_per_depth() {
        // 200,000 frames deep, twice: nothing recurses, and the second sample only extends the boxes.
        let names: Vec<String> = (0..200_000).map(|i| format!("f{}", i % 7)).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let p = timed(&[(0, &refs), (5, &refs)]);
        let c = StackChart::build(&p, &none_root(&p)).unwrap();
        assert_eq!((c.depth_count(), c.box_count()), (200_000, 200_000));
        assert_eq!(row(&p, &c, 199_999), vec![b(0, 10, "f2", 10)]); // 199,999 mod 7 = 2
        assert_eq!(c.stack_at(7).len(), 200_000);
    }

    #[test]
    fn zero_samples_and_no_timestamps() {
        let p = timed(&[(0, &["a"])]);
        let none = ViewOptions {
            threads: Some(crate::view::ThreadSet::new([])),
            ..ViewOptions::default_for(&p)
        };
        let c = StackChart::build(&p, &none).unwrap();
        assert_eq!((c.samples, c.depth_count(), c.box_count()), (0, 0, 0));
        // One sample: no interval to measure, it lasts 1 ms.
        let c = StackChart::build(&p, &none_root(&p)).unwrap();
        assert_eq!(
            row(&p, &c, 0),
            vec![b(0, DEFAULT_INTERVAL_NS, "a", DEFAULT_INTERVAL_NS)]
        );
        let untimed = profile(&[(None, &["a"])]);
        assert!(untimed.samples.time_ns.is_none());
        assert_eq!(StackChart::build(&untimed, &none_root(&untimed)), None);
    }
}
