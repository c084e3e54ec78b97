//! Events the recorder lost: perf's `PERF_RECORD_LOST` records (`perf script --show-lost-events`). perf drops
//! events when its ring buffer is full — at the busiest moments — so a profile under-counts exactly where the
//! user looks; these counts say by how much, and when.

/// Lost events of a recording, in total and per second of its timestamps.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Lost {
    /// Events lost (the sum of the records' counts; perf report's "Total Lost Samples").
    pub events: u64,
    /// Records that reported losses (perf's "lost N chunks").
    pub records: u64,
    /// `(second, events)`: the events lost in each whole second of the timestamps (`time_ns / 10^9`), sorted by
    /// second, only seconds with losses. Sparse: its length is at most the number of records, whatever the
    /// time span. Records without a timestamp count in [`Lost::events`] only.
    pub per_second: Vec<(u64, u64)>,
}

impl Lost {
    /// Adds one record of `events` lost at `time_ns` (if the record has a timestamp). Records arrive in time
    /// order and merge into the last second; call [`Lost::finish`] after the last one (records out of order are
    /// put in place there, in O(records × log records) — never a shift per record).
    pub fn add(&mut self, time_ns: Option<u64>, events: u64) {
        self.events = self.events.saturating_add(events);
        self.records += 1;
        let Some(t) = time_ns else { return };
        let sec = t / 1_000_000_000;
        match self.per_second.last_mut() {
            Some((s, n)) if *s == sec => *n = n.saturating_add(events),
            _ => self.per_second.push((sec, events)),
        }
    }

    /// Sorts [`Lost::per_second`] by second and merges equal seconds.
    pub fn finish(&mut self) {
        if self
            .per_second
            .windows(2)
            .all(|w| matches!(w, [a, b] if a.0 < b.0))
        {
            return;
        }
        self.per_second.sort_unstable_by_key(|&(s, _)| s);
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(self.per_second.len());
        for &(s, n) in &self.per_second {
            match out.last_mut() {
                Some((ls, ln)) if *ls == s => *ln = ln.saturating_add(n),
                _ => out.push((s, n)),
            }
        }
        self.per_second = out;
    }

    /// Events lost in whole seconds `[from, to)` (seconds as in [`Lost::per_second`]).
    pub fn in_seconds(&self, from: u64, to: u64) -> u64 {
        self.per_second
            .iter()
            .filter(|&&(s, _)| s >= from && s < to)
            .fold(0u64, |a, &(_, n)| a.saturating_add(n))
    }

    /// The lost events' share of all events (`lost / (samples + lost)`), as a fraction in [0, 1].
    pub fn share(&self, samples: u64) -> f64 {
        let all = samples.saturating_add(self.events);
        if all == 0 {
            0.0
        } else {
            self.events as f64 / all as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_records_in_reverse_order_cost_no_shifts() {
        let mut l = Lost::default();
        for i in (0..200_000u64).rev() {
            l.add(Some(i * 1_000_000_000), 1);
        }
        l.finish();
        assert_eq!(l.per_second.len(), 200_000);
        assert_eq!(l.per_second.first(), Some(&(0, 1)));
        assert!(l.per_second.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn per_second_is_sparse_and_merged() {
        let mut l = Lost::default();
        l.add(Some(5_100_000_000), 3);
        l.add(Some(5_900_000_000), 4);
        l.add(None, 10);
        l.add(Some(3_000_000_000_000_000_000), 1); // centuries later: one entry, no array over the span
        l.add(Some(7_000_000_000), 2); // out of order
        l.add(Some(5_000_000_000), 1);
        l.finish();
        assert_eq!(l.events, 21);
        assert_eq!(l.records, 6);
        assert_eq!(l.per_second, vec![(5, 8), (7, 2), (3_000_000_000, 1)]);
        assert_eq!(l.in_seconds(5, 8), 10);
        assert!((l.share(79) - 21.0 / 100.0).abs() < 1e-12);
        assert_eq!(Lost::default().share(0), 0.0);
    }
}
