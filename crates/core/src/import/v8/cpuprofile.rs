//! The `.cpuprofile` file: one JSON object (`nodes`, `samples`, `timeDeltas`, `startTime`, `endTime`). Held
//! whole (up to the limit) and parsed at the end into typed structs: O(input), never a `Value` tree.

use super::nodes::{add_samples, Micros, Namer, Node, RawProfile};
use super::{err, V8Options};
use crate::import::json;
use crate::model::{Format, ImportError, ImportErrorKind, Profile, ProfileBuilder, Unit, Warnings};
use serde::Deserialize;

#[derive(Deserialize)]
struct CpuProfile {
    nodes: Vec<Node>,
    #[serde(default)]
    samples: Vec<i64>,
    #[serde(default, rename = "timeDeltas")]
    time_deltas: Vec<Micros>,
    #[serde(default, rename = "startTime")]
    start_time: Option<Micros>,
    #[serde(default, rename = "endTime")]
    end_time: Option<Micros>,
}

/// Collects the file, then reads it at [`CpuProfileParser::finish`].
pub struct CpuProfileParser {
    json: json::WholeJson,
}

impl CpuProfileParser {
    pub fn new(opts: &V8Options) -> Self {
        CpuProfileParser {
            json: json::WholeJson::new(Format::V8CpuProfile, opts.max_bytes, "profile"),
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        self.json.feed(chunk)
    }

    pub fn finish(self) -> Result<Profile, ImportError> {
        let cp: CpuProfile = self.json.parse()?;
        let raw = RawProfile {
            nodes: cp.nodes,
            samples: cp.samples,
            deltas: cp.time_deltas,
            start: cp.start_time,
            end: cp.end_time,
            path: String::new(),
            offset: 0,
        };
        let mut namer = Namer::default();
        for n in &raw.nodes {
            namer.add(&n.call_frame);
        }
        namer.seal();
        let mut b = ProfileBuilder::new(Format::V8CpuProfile);
        let mut back = 0u64;
        let records = add_samples(&mut b, &namer, &raw, None, &mut back)?;
        if records == 0 {
            return Err(err(
                ImportErrorKind::NoValidRecords,
                0,
                "the profile holds no samples",
            ));
        }
        if let (Some(s), Some(e)) = (raw.start, raw.end) {
            if let Ok(d) = u64::try_from(e.0.saturating_sub(s.0)) {
                b.set_duration_ns(d);
            }
        }
        b.add_info("nodes", raw.nodes.len().to_string());
        if back > 0 {
            b.add_info(
                "time going back",
                format!("{back} negative timeDeltas (the samples before them weigh 0)"),
            );
        }
        Ok(b.build(Unit::Nanoseconds, 0, records, Warnings::default()))
    }
}
