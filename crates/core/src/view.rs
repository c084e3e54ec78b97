//! Which samples a view shows and how they weigh: the event, weights or plain sample counts, the process root,
//! and a time range. The call tree, the folded export and the heatmap all select samples through this.

use crate::model::{FrameId, Profile, StackId, EMPTY_STACK};
use crate::units::Unit;
use rustc_hash::FxHashMap;

/// What stands at the root of each stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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
            RootMode::None => "none",
        }
    }
}

/// How a sample weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WeightMode {
    /// Its weight (perf's period, pprof's value, folded's count).
    #[default]
    Weight,
    /// 1 per sample.
    Count,
}

/// The sample selection of a view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ViewOptions {
    /// Index into `Profile::events`; `None` means all samples (inputs without events).
    pub event: Option<u16>,
    pub weight: WeightMode,
    pub root: RootMode,
    /// Half-open `[start, end)` in nanoseconds, on the profile's own clock.
    pub time_range: Option<(u64, u64)>,
}

impl ViewOptions {
    /// The first event (as perf and inferno do), weights, process root by comm.
    pub fn default_for(p: &Profile) -> ViewOptions {
        ViewOptions {
            event: (!p.events.is_empty()).then_some(0),
            ..ViewOptions::default()
        }
    }

    /// The unit of what this view shows.
    pub fn unit(&self, p: &Profile) -> Unit {
        if self.weight == WeightMode::Count {
            return Unit::Samples;
        }
        match self.event.and_then(|e| p.events.get(e as usize)) {
            Some(e) => e.unit.clone(),
            None => p.meta.unit.clone(),
        }
    }

    /// Does sample `i` belong to the view, and with what weight?
    #[inline]
    pub fn weigh(&self, p: &Profile, i: usize) -> Option<u64> {
        if let (Some(e), Some(col)) = (self.event, &p.samples.event) {
            if col.get(i).copied() != Some(e) {
                return None;
            }
        }
        if let (Some((a, b)), Some(col)) = (self.time_range, &p.samples.time_ns) {
            let t = *col.get(i)?;
            if t < a || t >= b {
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
        };
        let t = *p.samples.thread.as_ref()?.get(i)?;
        p.threads.roots.get(t as usize).map(|r| r[slot])
    }
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
