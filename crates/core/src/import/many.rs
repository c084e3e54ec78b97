//! Several profiles (files) as one: every sample of each input gets the label `profile=NAME`, so grouping by
//! the `profile` label puts each input at its own root and a `profile=NAME` filter selects one input; the
//! inputs are then appended with [`Merger`] (tables remapped, first-appearance orders kept, weights summed).
//! Each input's own time and stated duration are kept as named info entries; the combined profile states the
//! sum of the inputs' durations (separate recordings), see [`crate::analysis::duration`].
//!
//! Inputs must share an event (sample type) to be combined: the one asked for, else the first input's default
//! event (by name; inputs without named events, such as folded stacks, match each other). An input without it
//! is left out and named in [`Combined::left_out`] with the events it has. O(the inputs' tables and samples).

use crate::model::merge::Merger;
use crate::model::{FrameKind, ImportError, Label, LabelValue, Profile};

/// The label key every sample of a combined profile carries.
pub const PROFILE_LABEL: &str = "profile";

/// An input left out of a combination, with the events it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    pub name: String,
    pub events: Vec<String>,
}

/// The combined profile and what was matched.
#[derive(Debug)]
pub struct Combined {
    pub profile: Profile,
    /// The names of the inputs in the profile, in input order.
    pub names: Vec<String>,
    /// The event matched by name (`None`: inputs without named events).
    pub event: Option<String>,
    pub left_out: Vec<LeftOut>,
}

/// Why inputs could not be combined.
#[derive(Debug)]
pub enum CombineError {
    /// No inputs at all.
    NoInputs,
    /// No input has the event asked for.
    NoMatch {
        event: Option<String>,
        inputs: Vec<LeftOut>,
    },
    /// The merge itself failed (a weight sum over 2^64-1, too many events).
    Merge(ImportError),
}

fn describe(event: &Option<String>) -> String {
    match event {
        Some(e) => format!("event `{e}`"),
        None => "unnamed event (folded counts)".to_string(),
    }
}

fn events_text(events: &[String]) -> String {
    if events.is_empty() {
        "no named events".to_string()
    } else {
        events.join(", ")
    }
}

impl std::fmt::Display for CombineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CombineError::NoInputs => write!(f, "no profiles to combine"),
            CombineError::NoMatch { event, inputs } => {
                write!(f, "no profile has the {}:", describe(event))?;
                for i in inputs {
                    write!(f, " {} has {};", i.name, events_text(&i.events))?;
                }
                Ok(())
            }
            CombineError::Merge(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CombineError {}

impl LeftOut {
    /// Why it was left out, in words.
    pub fn reason(&self, event: &Option<String>) -> String {
        format!(
            "{} left out: it has no {} (it has {})",
            self.name,
            describe(event),
            events_text(&self.events)
        )
    }
}

/// The event name the inputs are matched on: `asked`, else the first input's default event.
pub fn chosen_event(first: &Profile, asked: Option<&str>) -> Option<String> {
    match asked {
        Some(a) => Some(a.to_string()),
        None => first
            .events
            .get(first.meta.default_event as usize)
            .or_else(|| first.events.first())
            .map(|e| e.name.clone()),
    }
}

/// Whether `p` has the event `event` (`None`: no named events).
pub fn has_event(p: &Profile, event: &Option<String>) -> bool {
    match event {
        Some(e) => p.events.iter().any(|x| &x.name == e),
        None => p.events.is_empty(),
    }
}

/// The events `p` has, by name.
pub fn event_names(p: &Profile) -> Vec<String> {
    p.events.iter().map(|e| e.name.clone()).collect()
}

/// The info key of the pprof field `time_nanos` (the time the profile was taken).
pub const TIME_INFO: &str = "time (ns since epoch)";

/// The prefix of a combined profile's info entries that give each input's own time: `profile time: NAME`.
const PROFILE_TIME: &str = "profile time: ";

/// The prefix of a combined profile's info entries that give each input's stated duration: `profile duration:
/// NAME` = nanoseconds, or [`NOT_STATED`]. One entry per input, in input order, so they also name and count the
/// inputs (see [`crate::analysis::duration::coverage`]: a merged view states the sum of its files' durations).
const PROFILE_DURATION: &str = "profile duration: ";

/// The value of a `profile duration: NAME` entry for an input that states no duration.
const NOT_STATED: &str = "not stated";

/// Each input of a combined profile with the duration it states (`None`: it states none, its timestamps give
/// one), in input order; empty for a profile that is not combined.
pub fn profile_durations(p: &Profile) -> Vec<(String, Option<u64>)> {
    p.meta
        .info
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix(PROFILE_DURATION)?.to_string(), v.parse().ok())))
        .collect()
}

/// The profile's own time, to order a series by: pprof's `time_nanos`, else its first sample's timestamp (perf:
/// the clock since boot, so comparable between recordings of one boot). O(samples).
pub fn profile_time(p: &Profile) -> Option<u64> {
    let info = p
        .meta
        .info
        .iter()
        .find(|(k, _)| k == TIME_INFO)
        .and_then(|(_, v)| v.parse().ok());
    info.or_else(|| p.samples.time_ns.as_ref()?.iter().copied().min())
}

/// Each input's own time in a combined profile ([`profile_time`] of the input, kept by [`tag_profile`]), by
/// input name.
pub fn profile_times(p: &Profile) -> Vec<(String, u64)> {
    p.meta
        .info
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix(PROFILE_TIME)?.to_string(), v.parse().ok()?)))
        .collect()
}

/// Puts the label `profile=NAME` on every sample of `p` (replacing a `profile` label it already has) and
/// makes its event column explicit, so that appending keeps both.
pub fn tag_profile(p: &mut Profile, name: &str) {
    let key = p.strings.push(PROFILE_LABEL);
    let value = p.strings.push(name);
    let root = p.add_frame(&format!("{PROFILE_LABEL}={name}"), FrameKind::Process);
    let label = Label {
        key,
        value: LabelValue::Str(value),
        root,
    };
    let is_profile_key = |l: &Label, p: &Profile| p.strings.get(l.key) == PROFILE_LABEL;
    let mut sets: Vec<Vec<Label>> = Vec::with_capacity(p.label_sets.len() + 1);
    for set in &p.label_sets {
        let mut s = vec![label];
        s.extend(set.iter().filter(|l| !is_profile_key(l, p)).copied());
        sets.push(s);
    }
    let bare = sets.len() as u32;
    sets.push(vec![label]);
    // Its own time, named, so a merge keeps each input's (a bare `time_nanos` entry would be ambiguous).
    if let Some(t) = profile_time(p) {
        p.meta.info.retain(|(k, _)| k != TIME_INFO);
        p.meta.info.push((format!("{PROFILE_TIME}{name}"), t.to_string()));
    }
    // Its own duration, named (a merge keeps only one `duration_ns`): a combined profile states the sum.
    p.meta.info.retain(|(k, _)| !k.starts_with(PROFILE_DURATION));
    let d = p
        .meta
        .duration_ns
        .map_or(NOT_STATED.to_string(), |d| d.to_string());
    p.meta.info.push((format!("{PROFILE_DURATION}{name}"), d));
    p.label_sets = sets;
    let n = p.samples.len();
    if n > 0 {
        if p.samples.labels.is_none() {
            p.samples.labels = Some(vec![bare; n]);
        }
        if p.samples.event.is_none() && !p.events.is_empty() {
            p.samples.event = Some(vec![0; n]);
        }
    }
}

/// Combines inputs one at a time, so each can be dropped once added (see the module doc).
#[derive(Debug)]
pub struct Combiner {
    asked: Option<String>,
    /// The matched event, fixed by the first input.
    event: Option<Option<String>>,
    merger: Option<Merger>,
    names: Vec<String>,
    left_out: Vec<LeftOut>,
}

impl Combiner {
    /// `asked`: the event to match (else the first input's default event).
    pub fn new(asked: Option<&str>) -> Self {
        Combiner {
            asked: asked.map(str::to_string),
            event: None,
            merger: None,
            names: Vec::new(),
            left_out: Vec::new(),
        }
    }

    /// Adds the next input; `Ok(false)` when it was left out (it lacks the matched event).
    pub fn add(&mut self, name: &str, mut p: Profile) -> Result<bool, CombineError> {
        let event = self
            .event
            .get_or_insert_with(|| chosen_event(&p, self.asked.as_deref()));
        if !has_event(&p, event) {
            self.left_out.push(LeftOut {
                name: name.to_string(),
                events: event_names(&p),
            });
            return Ok(false);
        }
        tag_profile(&mut p, name);
        self.names.push(name.to_string());
        match self.merger.as_mut() {
            None => self.merger = Some(Merger::new(p)),
            Some(m) => m.append(p).map_err(CombineError::Merge)?,
        }
        Ok(true)
    }

    /// The matched event (`None` before the first input, `Some(None)`: unnamed).
    pub fn event(&self) -> Option<&Option<String>> {
        self.event.as_ref()
    }

    /// The combined profile; an error when no input had the matched event.
    pub fn finish(self) -> Result<Combined, CombineError> {
        let Some(event) = self.event else {
            return Err(CombineError::NoInputs);
        };
        let Some(m) = self.merger else {
            return Err(CombineError::NoMatch {
                event,
                inputs: self.left_out,
            });
        };
        let mut profile = m.finish();
        // Separate recordings: the time recorded is the sum of each one's (stated only when every input states
        // its own).
        profile.meta.duration_ns = profile_durations(&profile)
            .iter()
            .try_fold(0u64, |sum, (_, d)| Some(sum.saturating_add((*d)?)));
        if let Some(e) = &event {
            if let Some(i) = profile.events.iter().position(|x| &x.name == e) {
                profile.meta.default_event = i as u16;
            }
        }
        Ok(Combined {
            profile,
            names: self.names,
            event,
            left_out: self.left_out,
        })
    }
}

/// Combines the named inputs in order (see [`Combiner`]).
pub fn combine(inputs: Vec<(String, Profile)>, asked: Option<&str>) -> Result<Combined, CombineError> {
    let mut c = Combiner::new(asked);
    for (name, p) in inputs {
        c.add(&name, p)?;
    }
    c.finish()
}
