//! Choosing an event (perf) or sample type (pprof) by the name a user typed.
//!
//! An event's name is what the input prints: perf's modifiers are part of it (`cpu-clock:u` and
//! `cpu-clock:k` are two events, as `perf script` and `perf report` show them). A name is looked up, in order:
//! exactly; as an alias of a derived event (`offcpu`: the off-CPU time derived from `sched:sched_switch`, else
//! `perf record --off-cpu`'s `offcpu-time`; `wall-clock`: the derived wall-clock event); then as a base name
//! without modifiers (`cpu-clock` for `cpu-clock:u`), which selects an event only when exactly one has it.

use crate::import::perf::event_base;
use crate::import::perf::sched::{OFFCPU_EVENT, OFFCPU_TIME, WALL_EVENT};
use crate::model::Profile;

/// Why no event was chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    /// Occurs when the profile has no named events at all.
    #[error("this profile has no events to choose from")]
    NoEvents,
    /// Occurs when no event has the name, alias or base name asked for.
    #[error("no event `{name}`; the profile has: {}", .have.join(", "))]
    NotFound { name: String, have: Vec<String> },
    /// Occurs when a name without modifiers fits several events (`cpu-clock` for `cpu-clock:u` and
    /// `cpu-clock:k`).
    #[error("`{name}` is ambiguous: the profile has {}; name one of them", .candidates.join(" and "))]
    Ambiguous { name: String, candidates: Vec<String> },
}

/// The index of the event `name` in `p.events` (see the module's documentation for the order of lookups).
pub fn find_event(p: &Profile, name: &str) -> Result<u16, EventError> {
    let index = |i: usize| u16::try_from(i).unwrap_or(u16::MAX);
    let exact = |n: &str| p.events.iter().position(|e| e.name == n);
    if let Some(i) = exact(name) {
        return Ok(index(i));
    }
    let aliases: &[&str] = match name {
        "offcpu" => &[OFFCPU_EVENT, OFFCPU_TIME],
        "wall-clock" => &[WALL_EVENT],
        _ => &[],
    };
    if let Some(i) = aliases.iter().find_map(|&a| exact(a)) {
        return Ok(index(i));
    }
    let by_base: Vec<usize> = p
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| !e.derived && event_base(&e.name) == name)
        .map(|(i, _)| i)
        .collect();
    match by_base.as_slice() {
        [i] => Ok(index(*i)),
        [] if p.events.is_empty() => Err(EventError::NoEvents),
        [] => Err(EventError::NotFound {
            name: name.to_string(),
            have: p.events.iter().map(|e| e.name.clone()).collect(),
        }),
        several => Err(EventError::Ambiguous {
            name: name.to_string(),
            candidates: several
                .iter()
                .filter_map(|&i| p.events.get(i))
                .map(|e| e.name.clone())
                .collect(),
        }),
    }
}
