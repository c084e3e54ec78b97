//! Scrubbing a profile before it is shared (a link, an HTML file, an export): a pure function from a profile and
//! its view to a profile that no longer holds what the rules name, and the view that shows the same samples in
//! it. The rules:
//!
//! - `paths`: every absolute file path or URL in a frame name, thread name or label value becomes its base
//!   name (`/home/alice/src/app.js:3` → `app.js:3`, `file:///C:/x/y.py` → `y.py`, `https://h/a/b.js` → `b.js`);
//! - `users`: the user name in a home folder (`/home/NAME`, `/Users/NAME`, `C:\Users\NAME`) becomes `<user>`;
//! - `header`: the recording's facts (perf's header: hostname, OS release, command line, CPU, perf version;
//!   pprof's comments, …) are dropped, and the hostname wherever a frame, thread or label names it becomes
//!   `<host>`;
//! - `labels` (all) or `labels=KEY` (one key; repeatable): the labels are dropped;
//! - `threads`: the threads and processes the view does not show are dropped with their samples (names, ids);
//! - `timestamps`: every sample's time is dropped (the receiver has no heatmap);
//! - `redact=REGEX`: every frame name (thread name, label value) the regular expression matches (anywhere in
//!   it) becomes `<redacted>`.
//!
//! A selection that depends on what a rule removes (a label filter or label root on a dropped key, a thread
//! selection under `threads`, a time range or band under `timestamps`) is baked in first: the samples it leaves
//! out are dropped, so the scrubbed view shows the same samples with the same total. Frames that become one
//! name merge (as [`Profile::rename_frames`] merges them). The scrubbed profile notes the rules in
//! [`SCRUBBED_INFO`], which links (`# scorch-scrubbed:`), pprof (a comment) and SVG (the heading) carry.

use crate::model::{FrameId, LabelValue, Profile, StrId, OFF_CPU_NOTE, SCRUBBED_INFO};
use crate::view::{RootMode, ViewOptions};
use regex_lite::Regex;

/// What a user name in a home folder becomes.
pub const USER: &str = "<user>";
/// What the recording host's name becomes.
pub const HOST: &str = "<host>";
/// What a frame matching `redact` becomes.
pub const REDACTED: &str = "<redacted>";

/// Which labels to drop.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LabelRule {
    #[default]
    Keep,
    All,
    Keys(Vec<String>),
}

/// The scrub rules (see the module's doc).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    pub paths: bool,
    pub users: bool,
    pub header: bool,
    pub labels: LabelRule,
    pub threads: bool,
    pub timestamps: bool,
    /// A regular expression (Rust `regex` syntax, as `regex-lite` reads it).
    pub redact: Option<String>,
}

/// Every rule name [`Rules::parse`] reads, in the order [`Rules::names`] writes them.
pub const RULE_NAMES: [&str; 6] = ["paths", "users", "header", "labels", "threads", "timestamps"];

impl Rules {
    /// What `scorch link` (and the app's Copy link) applies unless told otherwise: paths and header.
    pub fn link_default() -> Rules {
        Rules {
            paths: true,
            header: true,
            ..Rules::default()
        }
    }

    /// Reads `paths,users,header,labels,labels=KEY,threads,timestamps` (comma-separated, any order) or `none`.
    pub fn parse(list: &str) -> Result<Rules, String> {
        let mut r = Rules::default();
        for part in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match part {
                "none" => {}
                "paths" => r.paths = true,
                "users" => r.users = true,
                "header" => r.header = true,
                "threads" => r.threads = true,
                "timestamps" => r.timestamps = true,
                "labels" => r.labels = LabelRule::All,
                _ => match part.strip_prefix("labels=") {
                    Some(key) if !key.is_empty() => match &mut r.labels {
                        LabelRule::All => {}
                        LabelRule::Keys(keys) => keys.push(key.to_string()),
                        LabelRule::Keep => r.labels = LabelRule::Keys(vec![key.to_string()]),
                    },
                    _ => {
                        return Err(format!(
                            "unknown scrub rule {part:?}: paths, users, header, labels, labels=KEY, threads, \
                             timestamps or none"
                        ))
                    }
                },
            }
        }
        if list.split(',').any(|p| p.trim() == "none") && !r.is_empty() {
            return Err("`none` scrubs nothing: it goes alone".into());
        }
        Ok(r)
    }

    /// Whether no rule is set.
    pub fn is_empty(&self) -> bool {
        *self == Rules::default()
    }

    /// The rules as the marker names them: `paths,header`, `labels=user`, `redact` (the expression itself is
    /// not written: it can name what it hides).
    pub fn names(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        let on = [
            self.paths,
            self.users,
            self.header,
            false,
            self.threads,
            self.timestamps,
        ];
        for (name, &set) in RULE_NAMES.iter().zip(&on) {
            if *name == "labels" {
                match &self.labels {
                    LabelRule::Keep => {}
                    LabelRule::All => out.push("labels".into()),
                    LabelRule::Keys(keys) => out.extend(keys.iter().map(|k| format!("labels={k}"))),
                }
            } else if set {
                out.push((*name).to_string());
            }
        }
        if self.redact.is_some() {
            out.push("redact".into());
        }
        out.join(",")
    }
}

/// The expressions the rules use, compiled once.
pub(crate) struct Patterns {
    /// The folders of an absolute path or URL (group 1: what stands before it; group 2: the folders).
    pub dirs: Regex,
    /// The same with the base name after it (group 2: the whole path), for finding paths.
    pub path: Regex,
    /// A home folder's user name (group 2: the folder, group 3: the name).
    pub user: Regex,
}

// A path starts at the start of the text or after a space, bracket, quote, `=`, `@`, `:` or `,` (so a Go
// package path `example.com/a/b` or a JVM name `java/lang/String` stays: only absolute paths and URLs go).
const BEFORE: &str = r#"(^|[\s(\[{<='"@:,])"#;
const ROOT: &str = r"(?:[A-Za-z][A-Za-z0-9+.\-]*://[^/\s;()]*/|[A-Za-z]:[\\/]|~?/)";
const SEGMENT: &str = r#"[^\s/\\;:()<>\[\]{}"',]+"#;

impl Patterns {
    /// The compiled expressions (`None` would be a bug in the constant patterns above; a unit test compiles
    /// them).
    pub(crate) fn new() -> Option<Patterns> {
        let dirs = format!(r"{BEFORE}({ROOT}(?:{SEGMENT}[/\\])*)");
        let path = format!(r"{BEFORE}({ROOT}(?:{SEGMENT}[/\\])*{SEGMENT})");
        let user = format!(
            r"{BEFORE}((?:[A-Za-z][A-Za-z0-9+.\-]*://[^/\s;()]*)?(?:/home|/Users|/export/home|[A-Za-z]:[\\/](?:Users|Documents and Settings))[\\/])({SEGMENT})"
        );
        Some(Patterns {
            dirs: Regex::new(&dirs).ok()?,
            path: Regex::new(&path).ok()?,
            user: Regex::new(&user).ok()?,
        })
    }
}

/// Whether a text can hold a path at all (a separator): most frame names cannot, and the expression is not run
/// on them (a 10 MB name without one costs a scan, not a regex run).
pub(crate) fn may_hold_path(s: &str) -> bool {
    memchr::memchr2(b'/', b'\\', s.as_bytes()).is_some()
}

/// Whether a text can hold a home folder (the `users` expression's fixed words).
pub(crate) fn may_hold_home(s: &str) -> bool {
    let b = s.as_bytes();
    ["home", "Users", "Documents and Settings"]
        .iter()
        .any(|w| memchr::memmem::find(b, w.as_bytes()).is_some())
}

/// The text rules (users, hosts, paths, redact) over one string.
struct Cleaner {
    pats: Patterns,
    paths: bool,
    users: bool,
    hosts: Vec<Regex>,
    redact: Option<Regex>,
}

/// A hostname where it stands as a whole name (`vm` in `vm:/x`, not in `vmlinux`): group 1 before it, group 2
/// after it.
pub(crate) fn host_pattern(host: &str) -> Option<Regex> {
    let b = "[^A-Za-z0-9_-]";
    Regex::new(&format!("(^|{b}){}($|{b})", regex_lite::escape(host))).ok()
}

impl Cleaner {
    /// The new text, or `None` when the rules leave it as it is. `redact` looks at the original text; the
    /// others apply in order: hosts, paths, users.
    fn clean(&self, s: &str) -> Option<String> {
        if self.redact.as_ref().is_some_and(|r| r.is_match(s)) {
            return (s != REDACTED).then(|| REDACTED.to_string());
        }
        let mut out = std::borrow::Cow::Borrowed(s);
        for h in &self.hosts {
            if let std::borrow::Cow::Owned(t) = h.replace_all(&out, format!("${{1}}{HOST}${{2}}")) {
                out = std::borrow::Cow::Owned(t);
            }
        }
        if self.paths && may_hold_path(&out) {
            if let std::borrow::Cow::Owned(t) = self.pats.dirs.replace_all(&out, "${1}") {
                out = std::borrow::Cow::Owned(t);
            }
        }
        if self.users && may_hold_home(&out) {
            if let std::borrow::Cow::Owned(t) =
                self.pats.user.replace_all(&out, format!("${{1}}${{2}}{USER}"))
            {
                out = std::borrow::Cow::Owned(t);
            }
        }
        (out != s).then(|| out.into_owned())
    }
}

/// The facts (`Meta::info`) that say how the profile is shaped, not where it was recorded: the `header` rule
/// keeps these.
const SHAPE_FACTS: [&str; 11] = [
    "sample types",
    "duration",
    "period",
    "interval",
    "nodes",
    "trace events",
    "CPU profiles",
    "profiles",
    OFF_CPU_NOTE,
    "left out of the link",
    SCRUBBED_INFO,
];

/// Facts that are times (the `timestamps` rule drops them): the profile's start.
fn is_time_fact(key: &str) -> bool {
    key == crate::import::many::TIME_INFO || key.starts_with("time ")
}

/// The hostnames the recording's facts name (perf.data's header).
pub(crate) fn hostnames(p: &Profile) -> Vec<String> {
    p.meta
        .info
        .iter()
        .filter(|(k, v)| k == "hostname" && v.trim().len() > 1)
        .map(|(_, v)| v.trim().to_string())
        .collect()
}

/// The scrubbed profile and the view that shows the same samples in it (see the module's doc). An error only
/// for a `redact` expression that does not compile.
pub fn scrub(p: &Profile, v: &ViewOptions, r: &Rules) -> Result<(Profile, ViewOptions), String> {
    let redact = match &r.redact {
        Some(src) => Some(Regex::new(src).map_err(|e| format!("--redact {src:?}: {e}"))?),
        None => None,
    };
    if r.is_empty() {
        return Ok((p.clone(), v.clone()));
    }
    let mut v = v.clone();
    let mut out = bake(p, &mut v, r);
    let cleaner = Cleaner {
        pats: Patterns::new().ok_or("the scrub's path patterns do not compile")?,
        paths: r.paths,
        users: r.users,
        hosts: if r.header {
            hostnames(p).iter().filter_map(|h| host_pattern(h)).collect()
        } else {
            Vec::new()
        },
        redact,
    };
    out = rename(&out, &cleaner);
    if r.header {
        out.meta.info.retain(|(k, _)| SHAPE_FACTS.contains(&k.as_str()));
    }
    if r.timestamps {
        out.samples.time_ns = None;
        out.meta.info.retain(|(k, _)| !is_time_fact(k));
        v.time_range = None;
        v.offsets = None;
    }
    drop_labels(&mut out, &r.labels);
    // Scrubbed before (a scrubbed link shared again): both sets of rules hold.
    let mut names: Vec<String> = Vec::new();
    let old = out.meta.info.iter().filter(|(k, _)| k == SCRUBBED_INFO);
    for name in old
        .flat_map(|(_, x)| x.split(','))
        .map(str::to_string)
        .chain(r.names().split(',').map(str::to_string))
    {
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    out.meta.info.retain(|(k, _)| k != SCRUBBED_INFO);
    out.meta.info.push((SCRUBBED_INFO.to_string(), names.join(",")));
    Ok((out, v))
}

/// The label keys the rule drops, as string ids of `p`.
fn dropped_keys(p: &Profile, rule: &LabelRule) -> Vec<StrId> {
    let mut keys: Vec<StrId> = p.label_sets.iter().flatten().map(|l| l.key).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.retain(|&k| match rule {
        LabelRule::Keep => false,
        LabelRule::All => true,
        LabelRule::Keys(names) => names.iter().any(|n| n == p.strings.get(k)),
    });
    keys
}

/// Drops the samples a selection leaves out when the rules remove what the selection reads, and takes that
/// selection off the view.
fn bake(p: &Profile, v: &mut ViewOptions, r: &Rules) -> Profile {
    let gone = dropped_keys(p, &r.labels);
    let label_filter = v.label.filter(|f| gone.contains(&f.key));
    let times = r.timestamps && (v.time_range.is_some() || v.offsets.is_some());
    // Threads with a sample in the view.
    let shown: Option<Vec<bool>> = (r.threads && p.samples.thread.is_some()).then(|| {
        let mut shown = vec![false; p.threads.len()];
        let col = p.samples.thread.as_deref().unwrap_or(&[]);
        for (i, &t) in col.iter().enumerate() {
            if v.weigh(p, i).is_some() {
                if let Some(s) = shown.get_mut(t as usize) {
                    *s = true;
                }
            }
        }
        shown
    });
    if label_filter.is_none() && !times && shown.is_none() {
        if let RootMode::Label(k) = v.root {
            if gone.contains(&k) {
                v.root = RootMode::None;
            }
        }
        return p.clone();
    }
    let only = ViewOptions {
        event: None,
        weight: v.weight,
        root: RootMode::None,
        time_range: if times { v.time_range } else { None },
        offsets: if times { v.offsets } else { None },
        label: label_filter,
        threads: None,
        declared: None,
        mean_of: 0,
        granularity: Default::default(),
    };
    let thread_of = |i: usize| p.samples.thread.as_ref().and_then(|c| c.get(i)).copied();
    let mut out = p.retain_samples(|i| {
        // Another event's samples stay (the view picks its event); only what the baked selection reads counts.
        let event_ok = {
            let mut o = only.clone();
            o.event = p.samples.event.as_ref().and_then(|c| c.get(i)).copied();
            o.weigh(p, i).is_some()
        };
        let thread_ok = match (&shown, thread_of(i)) {
            (Some(s), Some(t)) => s.get(t as usize).copied().unwrap_or(false),
            _ => true,
        };
        event_ok && thread_ok
    });
    if label_filter.is_some() {
        v.label = None;
    }
    if times {
        v.time_range = None;
        v.offsets = None;
    }
    if let RootMode::Label(k) = v.root {
        if gone.contains(&k) {
            v.root = RootMode::None;
        }
    }
    if let Some(shown) = shown {
        compact_threads(&mut out, &shown);
        v.threads = None;
    }
    out
}

/// Keeps the threads marked shown (the samples left all are), numbered again.
fn compact_threads(p: &mut Profile, shown: &[bool]) {
    let mut new_id = vec![u32::MAX; shown.len()];
    let t = std::mem::take(&mut p.threads);
    for (i, &keep) in shown.iter().enumerate() {
        if !keep {
            continue;
        }
        if let Some(slot) = new_id.get_mut(i) {
            *slot = p.threads.comm.len() as u32;
        }
        p.threads.comm.extend(t.comm.get(i).copied());
        p.threads.pid.extend(t.pid.get(i).copied());
        p.threads.tid.extend(t.tid.get(i).copied());
        p.threads.roots.extend(t.roots.get(i).copied());
    }
    if let Some(col) = &mut p.samples.thread {
        for x in col.iter_mut() {
            *x = new_id.get(*x as usize).copied().unwrap_or(0);
        }
    }
}

/// Frame names, thread names and label values through the cleaner; thread and label roots moved onto the
/// renamed frames.
fn rename(p: &Profile, c: &Cleaner) -> Profile {
    let (mut out, map) = p.rename_frames_mapped(|name, _| c.clean(name));
    let moved = |f: FrameId| map.get(f.idx()).copied().unwrap_or(f);
    for roots in &mut out.threads.roots {
        for f in roots.iter_mut() {
            *f = moved(*f);
        }
    }
    let mut strings = std::mem::take(&mut out.strings);
    let mut text = |id: StrId| match c.clean(p.strings.get(id)) {
        Some(new) => strings.push(&new),
        None => id,
    };
    for comm in &mut out.threads.comm {
        *comm = text(*comm);
    }
    for set in &mut out.label_sets {
        for l in set.iter_mut() {
            l.root = moved(l.root);
            if let LabelValue::Str(s) = l.value {
                l.value = LabelValue::Str(text(s));
            }
        }
    }
    out.strings = strings;
    out
}

/// Drops the labels the rule names (all: the label column too).
fn drop_labels(p: &mut Profile, rule: &LabelRule) {
    match rule {
        LabelRule::Keep => {}
        LabelRule::All => {
            p.samples.labels = None;
            p.label_sets.clear();
        }
        LabelRule::Keys(_) => {
            let gone = dropped_keys(p, rule);
            for set in &mut p.label_sets {
                set.retain(|l| !gone.contains(&l.key));
            }
        }
    }
}

#[cfg(test)]
#[path = "scrub_tests.rs"]
mod tests;
