//! What "Copy link" puts in a link of a profile that is not hosted (a local file, pasted text, a merge): the
//! core's report of what the view holds, the scrub, the folded stacks encoded, and the report of what the link
//! carries — built by the view engine, which holds the profile ([`Job::Share`](super::protocol::Job::Share)).
//! On a 5,000,000-frame stack they were one task of 230-330 ms on the page (`bench/hostile-browser.mjs`).

use super::protocol::{Share, ShareJob};
use scorch_core::export::links;
use scorch_core::export::report::{report, Carries};
use scorch_core::export::scrub::scrub;
use scorch_core::import::many::PROFILE_LABEL;
use scorch_core::model::LabelValue;
use scorch_core::view::SampleFilter;
use scorch_core::{Profile, ViewOptions};

/// The most profiles of a merge told apart (`profile_names`): a single file may carry a `profile` label with
/// any number of values.
pub const MAX_PROFILES: usize = 100;

/// The `profile=` label's values, in first-appearance order (the merge's file order), and for each label set the
/// index of its value. O(the label sets).
pub fn profile_names(p: &Profile) -> (Vec<String>, Vec<Option<usize>>) {
    let mut names: Vec<String> = Vec::new();
    let mut of_set = Vec::with_capacity(p.label_sets.len());
    for set in &p.label_sets {
        let value = set.iter().find_map(|l| match l.value {
            LabelValue::Str(v) if p.strings.get(l.key) == PROFILE_LABEL => Some(p.strings.get(v)),
            _ => None,
        });
        of_set.push(value.map(|v| match names.iter().position(|x| x == v) {
            Some(i) => i,
            None => {
                names.push(v.to_string());
                names.len() - 1
            }
        }));
        if names.len() > MAX_PROFILES {
            break;
        }
    }
    (names, of_set)
}

/// `v` showing only profile `name` (the label filter replaced).
pub fn only(p: &Profile, v: &ViewOptions, name: &str) -> Option<ViewOptions> {
    let mut w = ViewOptions {
        label: None,
        ..v.clone()
    };
    match SampleFilter::parse(p, &format!("{PROFILE_LABEL}={name}")).ok()? {
        f @ SampleFilter::Label(_) => f.apply(&mut w),
        SampleFilter::Threads(_) => return None,
    }
    Some(w)
}

/// The link's payload of view `v0` of `p0` under the job's rules: a merge of several files carries each profile
/// under its name, any other profile its folded stacks (with timestamps when they fit).
pub fn share(p0: &Profile, v0: &ViewOptions, job: &ShareJob) -> Result<Share, String> {
    let mut r = job.rules.clone();
    let times0 = p0.samples.time_ns.is_some();
    let found = report(p0, v0, &Carries::link(times0));
    let mut error = None;
    let scrubbed = match scrub(p0, v0, &r) {
        Ok(s) => Some(s),
        Err(e) => {
            error = Some(e);
            r.redact = None;
            scrub(p0, v0, &r).ok()
        }
    };
    let (p, v) = match &scrubbed {
        Some((p, v)) => (p, v.clone()),
        None => (p0, v0.clone()),
    };
    let (profiles, single, stacks, dropped, dropped_ppm, timed) =
        match job.merge.and_then(|most| carry_profiles(p, &v, job.max, most)) {
            Some(c) => (c.profiles, None, c.stacks, c.dropped, 0, c.timed),
            None => {
                let s = links::encode_timed(p, &v, job.max).unwrap_or_else(|| links::encode(p, &v, job.max));
                (
                    Vec::new(),
                    Some(s.payload),
                    s.stacks,
                    s.dropped_stacks,
                    s.dropped_ppm,
                    s.times,
                )
            }
        };
    Ok(Share {
        carried: report(p, &v, &Carries::link(timed)),
        found,
        ranged: v.time_range.is_some(),
        error,
        profiles,
        payload: single,
        stacks,
        dropped,
        dropped_ppm,
        timed,
    })
}

/// The profiles of a merge, each as a link payload under its name.
struct Carried {
    profiles: Vec<(String, String)>,
    stacks: usize,
    dropped: usize,
    timed: bool,
}

/// Each profile of a merged view (`profile=` labels: several files opened at once) as its own payload, the
/// link's cap shared equally: all with timestamps if all fit so, else all without. `None` when the profile is
/// not a merge, or the view filters by another label (which the carried stacks could not keep apart).
fn carry_profiles(p: &Profile, v: &ViewOptions, max: usize, most: usize) -> Option<Carried> {
    let (names, _) = profile_names(p);
    if names.len() < 2 || names.len() > most {
        return None;
    }
    if let Some(l) = &v.label {
        if p.strings.get(l.key) != PROFILE_LABEL {
            return None;
        }
    }
    // Grouping by profile stays view state (the receiver merges under the same names).
    let v = ViewOptions {
        root: match v.root {
            scorch_core::RootMode::Label(k) if p.strings.get(k) == PROFILE_LABEL => {
                scorch_core::RootMode::None
            }
            r => r,
        },
        ..v.clone()
    };
    let per = max / names.len();
    let views: Vec<(String, ViewOptions)> = names
        .into_iter()
        .filter_map(|n| Some((only(p, &v, &n)?, n)))
        .map(|(w, n)| (n, w))
        .collect();
    let timed: Option<Vec<links::Shared>> = views
        .iter()
        .map(|(_, w)| links::encode_timed(p, w, per))
        .collect();
    let shared = match timed {
        Some(s) => s,
        None => views.iter().map(|(_, w)| links::encode(p, w, per)).collect(),
    };
    Some(Carried {
        stacks: shared.iter().map(|s| s.stacks).sum(),
        dropped: shared.iter().map(|s| s.dropped_stacks).sum(),
        timed: shared.iter().all(|s| s.times),
        profiles: views
            .into_iter()
            .map(|(n, _)| n)
            .zip(shared.into_iter().map(|s| s.payload))
            .collect(),
    })
}
