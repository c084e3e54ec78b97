//! What a shared payload carries, said before it leaves: how many samples, stacks and frames, which threads and
//! labels, the file paths and user names found in its text, whether timestamps and the recording's facts (the
//! header) go along, and whether it was scrubbed. `scorch link --show` and `scorch export --show` print it; the
//! app's sharing preview shows the same.

use super::scrub::Patterns;
use crate::model::{LabelValue, Profile, StackId, EMPTY_STACK, NO_PARENT, SCRUBBED_INFO};
use crate::view::{keyed_weights, ViewOptions, NO_ROOT};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// What a kind of payload takes from the view besides its stacks (every payload takes the view's stacks, root
/// frames included).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Carries {
    /// Every sample's time (a link with timestamps, the HTML file, pprof).
    pub timestamps: bool,
    /// The samples' labels (pprof).
    pub labels: bool,
    /// The recording's facts (no payload scorch writes carries them today).
    pub header: bool,
}

impl Carries {
    /// A link or the HTML file: the folded stacks, with every sample's time when `times`.
    pub fn link(times: bool) -> Carries {
        Carries {
            timestamps: times,
            ..Carries::default()
        }
    }

    /// `export --to pprof`: one sample per sample with its time and labels, where the profile has them.
    pub fn pprof() -> Carries {
        Carries {
            timestamps: true,
            labels: true,
            header: false,
        }
    }
}

/// What a payload carries (see the module's doc).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// Samples the view selects.
    pub samples: u64,
    /// Distinct (root, stack) pairs: the payload's stack lines.
    pub stacks: usize,
    /// Distinct frames on them, root frames included.
    pub frames: usize,
    /// Threads with a sample in the view, and in the whole profile.
    pub threads: usize,
    pub threads_in_profile: usize,
    /// Label keys of the view's samples, with how many distinct values each.
    pub labels: Vec<(String, usize)>,
    pub labels_carried: bool,
    /// Absolute file paths and URLs found in the payload's text (frame names; label values when carried).
    pub paths: Vec<String>,
    /// User names found in home folders in that text.
    pub users: Vec<String>,
    /// The recording host's name (from the header), where the payload's text names it.
    pub hosts: Vec<String>,
    /// Whether every sample's time goes along.
    pub timestamps: bool,
    /// The recording's facts the profile holds (`Meta::info` but the scrub note), and whether they go along.
    pub header: Vec<(String, String)>,
    pub header_carried: bool,
    /// The scrub rules applied (`paths,header`), if any.
    pub scrubbed: Option<String>,
}

/// The report of the payload a view of `p` makes, for a kind of payload `c`.
pub fn report(p: &Profile, v: &ViewOptions, c: &Carries) -> Report {
    let keys = keyed_weights(p, v);
    let mut r = Report {
        stacks: keys.len(),
        threads_in_profile: p.threads.len(),
        labels_carried: c.labels && p.samples.labels.is_some(),
        timestamps: c.timestamps && p.samples.time_ns.is_some(),
        header_carried: c.header,
        scrubbed: p
            .meta
            .info
            .iter()
            .find(|(k, _)| k == SCRUBBED_INFO)
            .map(|(_, x)| x.clone()),
        ..Report::default()
    };
    r.header = p
        .meta
        .info
        .iter()
        .filter(|(k, _)| k != SCRUBBED_INFO)
        .cloned()
        .collect();
    // The frames on the carried stacks: every stack row on a path from a root to a carried leaf, once.
    let mut on = vec![false; p.stacks.len()];
    let mut frames = vec![false; p.frames.len()];
    let mut mark = |f: u32| {
        if let Some(x) = frames.get_mut(f as usize) {
            *x = true;
        }
    };
    for &(root, leaf) in keys.keys() {
        if root != NO_ROOT {
            mark(root);
        }
        let mut cur = (leaf != EMPTY_STACK).then_some(leaf);
        while let Some(s) = cur {
            match on.get_mut(s.idx()) {
                Some(seen) if !*seen => *seen = true,
                _ => break,
            }
            if let Some(f) = p.stacks.frame.get(s.idx()) {
                mark(f.0);
            }
            cur = match p.stacks.parent.get(s.idx()) {
                Some(&x) if x != NO_PARENT => Some(StackId(x)),
                _ => None,
            };
        }
    }
    r.frames = frames.iter().filter(|&&x| x).count();
    let mut texts: Vec<&str> = frames
        .iter()
        .enumerate()
        .filter(|(_, &x)| x)
        .map(|(i, _)| p.frame_name(crate::model::FrameId(i as u32)))
        .collect();
    // Samples, threads and labels of the view.
    let mut threads = vec![false; p.threads.len()];
    let mut sets = vec![false; p.label_sets.len()];
    for i in 0..p.samples.len() {
        if v.weigh(p, i).is_none() {
            continue;
        }
        r.samples += 1;
        if let Some(t) = p.samples.thread.as_ref().and_then(|c| c.get(i)) {
            if let Some(x) = threads.get_mut(*t as usize) {
                *x = true;
            }
        }
        if let Some(s) = p.samples.labels.as_ref().and_then(|c| c.get(i)) {
            if let Some(x) = sets.get_mut(*s as usize) {
                *x = true;
            }
        }
    }
    r.threads = threads.iter().filter(|&&x| x).count();
    let mut values: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for (set, _) in p.label_sets.iter().zip(&sets).filter(|(_, &x)| x) {
        for l in set {
            let value = match l.value {
                LabelValue::Str(s) => {
                    if r.labels_carried {
                        texts.push(p.strings.get(s));
                    }
                    p.strings.get(s).to_string()
                }
                LabelValue::Num(n, _) => n.to_string(),
            };
            values
                .entry(p.strings.get(l.key).to_string())
                .or_default()
                .insert(value);
        }
    }
    r.labels = values.into_iter().map(|(k, v)| (k, v.len())).collect();
    let Some(pats) = Patterns::new() else {
        return r;
    };
    let (mut paths, mut users, mut hosts) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    let hostnames: Vec<(String, regex_lite::Regex)> = super::scrub::hostnames(p)
        .into_iter()
        .filter_map(|h| super::scrub::host_pattern(&h).map(|re| (h, re)))
        .collect();
    for t in texts {
        let (path, home) = (super::scrub::may_hold_path(t), super::scrub::may_hold_home(t));
        for m in pats.path.captures_iter(if path { t } else { "" }) {
            if let Some(g) = m.get(2) {
                paths.insert(g.as_str().to_string());
            }
        }
        for m in pats.user.captures_iter(if home { t } else { "" }) {
            if let Some(g) = m.get(3) {
                users.insert(g.as_str().to_string());
            }
        }
        for (h, re) in &hostnames {
            if re.is_match(t) {
                hosts.insert(h.clone());
            }
        }
    }
    r.paths = paths.into_iter().collect();
    r.users = users.into_iter().collect();
    r.hosts = hosts.into_iter().collect();
    r
}

/// At most this many file paths are listed (then how many more).
const SHOWN_PATHS: usize = 20;

impl Report {
    /// The report as lines of text (what `--show` prints).
    pub fn text(&self) -> String {
        let mut s = String::new();
        let yes = |b: bool| if b { "carried" } else { "not carried" };
        let _ = writeln!(
            s,
            "carries: {} samples as {} distinct stacks of {} frames",
            self.samples, self.stacks, self.frames
        );
        let _ = writeln!(
            s,
            "threads: {} with samples in the view (of {} in the profile)",
            self.threads, self.threads_in_profile
        );
        if self.labels.is_empty() {
            let _ = writeln!(s, "labels: none");
        } else {
            let keys: Vec<String> = self
                .labels
                .iter()
                .map(|(k, n)| format!("{k} ({n} value{})", if *n == 1 { "" } else { "s" }))
                .collect();
            let _ = writeln!(s, "labels: {} — {}", keys.join(", "), yes(self.labels_carried));
        }
        let _ = writeln!(
            s,
            "timestamps: {}",
            if self.timestamps { "carried" } else { "none" }
        );
        if self.header.is_empty() {
            let _ = writeln!(s, "header: none");
        } else {
            let keys: Vec<&str> = self.header.iter().map(|(k, _)| k.as_str()).collect();
            let _ = writeln!(s, "header: {} — {}", keys.join(", "), yes(self.header_carried));
        }
        let _ = writeln!(s, "file paths: {}", self.paths.len());
        for p in self.paths.iter().take(SHOWN_PATHS) {
            let _ = writeln!(s, "  {p}");
        }
        if self.paths.len() > SHOWN_PATHS {
            let _ = writeln!(s, "  … and {} more", self.paths.len() - SHOWN_PATHS);
        }
        let _ = writeln!(
            s,
            "user names: {}",
            if self.users.is_empty() {
                "none".to_string()
            } else {
                self.users.join(", ")
            }
        );
        if !self.hosts.is_empty() {
            let _ = writeln!(s, "hostnames: {}", self.hosts.join(", "));
        }
        let _ = writeln!(s, "scrubbed: {}", self.scrubbed.as_deref().unwrap_or("no"));
        s
    }
}
