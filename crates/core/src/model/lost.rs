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
    /// order, so the last second is the one to merge into; an out-of-order record is put in its place.
    pub fn add(&mut self, time_ns: Option<u64>, events: u64) {
        self.events = self.events.saturating_add(events);
        self.records += 1;
        let Some(t) = time_ns else { return };
        let sec = t / 1_000_000_000;
        match self.per_second.last_mut() {
            Some((s, n)) if *s == sec => *n = n.saturating_add(events),
            Some((s, _)) if *s < sec => self.per_second.push((sec, events)),
            None => self.per_second.push((sec, events)),
            Some(_) => match self.per_second.binary_search_by_key(&sec, |&(s, _)| s) {
                Ok(i) => {
                    if let Some((_, n)) = self.per_second.get_mut(i) {
                        *n = n.saturating_add(events);
                    }
                }
                Err(i) => self.per_second.insert(i, (sec, events)),
            },
        }
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
    fn per_second_is_sparse_and_merged() {
        let mut l = Lost::default();
        l.add(Some(5_100_000_000), 3);
        l.add(Some(5_900_000_000), 4);
        l.add(None, 10);
        l.add(Some(3_000_000_000_000_000_000), 1); // centuries later: one entry, no array over the span
        l.add(Some(7_000_000_000), 2); // out of order
        l.add(Some(5_000_000_000), 1);
        assert_eq!(l.events, 21);
        assert_eq!(l.records, 6);
        assert_eq!(l.per_second, vec![(5, 8), (7, 2), (3_000_000_000, 1)]);
        assert_eq!(l.in_seconds(5, 8), 10);
        assert!((l.share(79) - 21.0 / 100.0).abs() < 1e-12);
        assert_eq!(Lost::default().share(0), 0.0);
    }
}
