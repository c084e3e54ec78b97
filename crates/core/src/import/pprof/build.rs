//! From a decoded `profile.proto` message to a [`Profile`]: sample types become events, locations become
//! frames (pruned by `drop_frames`/`keep_frames` as pprof's `Prune` does), samples become rows.

use super::{err, proto};
use crate::import::kind::is_kernel_dso;
use crate::model::{
    Format, FrameId, FrameKind, FullSample, ImportError, ImportErrorKind, LabelValue, Location, Profile,
    ProfileBuilder, StackId, Unit, Warnings, EMPTY_STACK, NO_STR,
};
use rustc_hash::FxHashMap;

/// Writes control characters as `\xNN` so that names are always safe to show.
fn safe_text(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    if !s.chars().any(|c| c.is_control()) {
        return s.into_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if (c as u32) < 0x20 || c as u32 == 0x7f {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

pub(super) struct Builder {
    strings: Vec<String>,
    /// Function id → index in `msg.function`.
    functions: FxHashMap<u64, usize>,
    /// Location id → index in `msg.location`.
    locations: FxHashMap<u64, usize>,
    mappings: FxHashMap<u64, usize>,
    warnings: Warnings,
}

impl Builder {
    pub(super) fn new(msg: &proto::Profile) -> Result<Builder, ImportError> {
        let strings: Vec<String> = msg.string_table.iter().map(|b| safe_text(b)).collect();
        let index =
            |ids: &mut dyn Iterator<Item = u64>, what: &str| -> Result<FxHashMap<u64, usize>, ImportError> {
                let mut m = FxHashMap::default();
                for (i, id) in ids.enumerate() {
                    if m.insert(id, i).is_some() {
                        return Err(err(
                            ImportErrorKind::Malformed,
                            0,
                            format!("{what} id {id} appears twice"),
                        ));
                    }
                }
                Ok(m)
            };
        Ok(Builder {
            functions: index(&mut msg.function.iter().map(|f| f.id), "function")?,
            locations: index(&mut msg.location.iter().map(|l| l.id), "location")?,
            mappings: index(&mut msg.mapping.iter().map(|m| m.id), "mapping")?,
            strings,
            warnings: Warnings::default(),
        })
    }

    fn s(&self, i: i64, what: &str) -> Result<&str, ImportError> {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.strings.get(i))
            .map(String::as_str)
            .ok_or_else(|| {
                err(
                    ImportErrorKind::Malformed,
                    0,
                    format!(
                        "{what} refers to string {i}, but the string table has {} entries",
                        self.strings.len()
                    ),
                )
            })
    }

    pub(super) fn build(self, msg: &proto::Profile) -> Result<Profile, ImportError> {
        let mut b = ProfileBuilder::new(Format::Pprof);
        if msg.sample_type.is_empty() && !msg.sample.is_empty() {
            return Err(err(
                ImportErrorKind::Malformed,
                0,
                "the profile has samples but no sample types",
            ));
        }
        let events = self.events(&mut b, msg)?;
        // Frames per location, outermost first; drop/keep frames as pprof's Prune.
        let drop_rx = self.regex(msg.drop_frames, "drop_frames")?;
        let keep_rx = self.regex(msg.keep_frames, "keep_frames")?;
        let locations = self.locations(&mut b, msg, drop_rx.as_ref(), keep_rx.as_ref())?;
        let read = self.samples(&mut b, msg, &locations, drop_rx.is_some(), &events.negative_twin)?;
        self.info(&mut b, msg, &events, &read, drop_rx.is_some(), keep_rx.is_some())?;
        let unit = b.event_unit(events.default).unwrap_or(Unit::Samples);
        let mut p = b.build(unit, 0, read.records, self.warnings);
        point_unlabelled_samples(&mut p, read.labels_seen);
        Ok(p)
    }

    /// Sample types become events; types with negative values (delta profiles) get a twin event for the
    /// magnitudes of those values.
    fn events(&self, b: &mut ProfileBuilder, msg: &proto::Profile) -> Result<Events, ImportError> {
        let mut type_names = Vec::new();
        for vt in &msg.sample_type {
            let (ty, unit) = (
                self.s(vt.r#type, "a sample type")?.to_string(),
                self.s(vt.unit, "a sample unit")?.to_string(),
            );
            let u = match unit.as_str() {
                "nanoseconds" => Unit::Nanoseconds,
                "bytes" => Unit::Bytes,
                "count" if ty == "samples" => Unit::Samples,
                "count" | "" => Unit::Other(if ty.is_empty() { "count".into() } else { ty.clone() }),
                other => Unit::Other(other.to_string()),
            };
            b.event(&ty, u);
            type_names.push(format!("{ty}/{unit}"));
        }
        let mut negative_twin: Vec<Option<u16>> = vec![None; msg.sample_type.len()];
        for (t, vt) in msg.sample_type.iter().enumerate() {
            if msg.sample.iter().any(|s| s.value.get(t).is_some_and(|&v| v < 0)) {
                let name = format!("{} (negative)", self.s(vt.r#type, "a sample type")?);
                let unit = b.event_unit(t as u16).unwrap_or(Unit::Samples);
                let e = b.event(&name, unit);
                b.set_negative_of(e, t as u16);
                if let Some(slot) = negative_twin.get_mut(t) {
                    *slot = Some(e);
                }
            }
        }
        let default_name = self
            .s(msg.default_sample_type, "default_sample_type")?
            .to_string();
        let default = msg
            .sample_type
            .iter()
            .position(|vt| {
                !default_name.is_empty() && self.s(vt.r#type, "").ok() == Some(default_name.as_str())
            })
            .unwrap_or(msg.sample_type.len().saturating_sub(1)) as u16;
        b.set_default_event(default);
        Ok(Events {
            negative_twin,
            default,
            type_names,
        })
    }

    /// The frames of every location, outermost first, and which locations `drop_frames` prunes.
    fn locations(
        &self,
        b: &mut ProfileBuilder,
        msg: &proto::Profile,
        drop_rx: Option<&regex_lite::Regex>,
        keep_rx: Option<&regex_lite::Regex>,
    ) -> Result<Locations, ImportError> {
        let n = msg.location.len();
        let mut out = Locations {
            frames: Vec::with_capacity(n),
            sites: Vec::with_capacity(n),
            prune: vec![false; n],
            prune_beneath: vec![false; n],
        };
        for (li, loc) in msg.location.iter().enumerate() {
            let dso = self.mapping_file(msg, loc)?;
            let base_kind = if is_kernel_dso(&dso) {
                FrameKind::Kernel
            } else {
                FrameKind::User
            };
            let names = self.line_names(msg, loc)?;
            // Prune: the outermost line matching drop (and not keep) cuts it and everything inside it.
            let mut lines = names.len();
            if let Some(drop) = drop_rx {
                if let Some(i) = names.iter().rposition(|n| {
                    let simple = simplify_func(n);
                    !n.is_empty() && drop.is_match(simple) && !keep_rx.is_some_and(|k| k.is_match(simple))
                }) {
                    if let Some(x) = out.prune_beneath.get_mut(li) {
                        *x = true;
                    }
                    if i == names.len() - 1 {
                        if let Some(x) = out.prune.get_mut(li) {
                            *x = true;
                        }
                    } else {
                        // Keep only the lines outside the match (callers it was inlined into).
                        lines = names.len() - (i + 1);
                    }
                }
            }
            let kept = names.get(names.len().saturating_sub(lines)..).unwrap_or_default();
            let module = if dso.is_empty() { NO_STR } else { b.intern(&dso) };
            let at = |frame: FrameId| Location {
                address: loc.address,
                module,
                ..Location::of(frame)
            };
            let (frames, sites) = if names.is_empty() {
                let name = match dso.rsplit('/').next().filter(|b| !b.is_empty()) {
                    Some(base) => format!("0x{:x} ({base})", loc.address),
                    None => format!("0x{:x}", loc.address),
                };
                let f = b.frame(&name, base_kind);
                (vec![f], vec![b.location(at(f))])
            } else {
                // Each line's file and number, innermost first as `names`.
                let places = self.line_places(msg, loc)?;
                let first = names.len().saturating_sub(lines);
                let mut frames = Vec::with_capacity(kept.len());
                let mut sites = Vec::with_capacity(kept.len());
                for (j, (n, (file, line))) in kept
                    .iter()
                    .zip(places.get(first..).unwrap_or_default())
                    .rev()
                    .enumerate()
                {
                    let f = b.frame(n, if j == 0 { base_kind } else { FrameKind::Inline });
                    let file = if file.is_empty() { NO_STR } else { b.intern(file) };
                    frames.push(f);
                    sites.push(b.location(Location {
                        file,
                        line: u32::try_from(*line).unwrap_or(0),
                        ..at(f)
                    }));
                }
                (frames, sites)
            };
            out.frames.push(frames);
            out.sites.push(sites);
        }
        Ok(out)
    }

    /// The file name of a location's mapping (empty when it has none).
    fn mapping_file(&self, msg: &proto::Profile, loc: &proto::Location) -> Result<String, ImportError> {
        match self
            .mappings
            .get(&loc.mapping_id)
            .and_then(|&m| msg.mapping.get(m))
        {
            Some(m) => Ok(self.s(m.filename, "a mapping")?.to_string()),
            None if loc.mapping_id == 0 => Ok(String::new()),
            None => Err(err(
                ImportErrorKind::Malformed,
                0,
                format!(
                    "location {} refers to mapping {}, which does not exist",
                    loc.id, loc.mapping_id
                ),
            )),
        }
    }

    /// The file and line number of a location's lines, innermost first (pprof order).
    fn line_places<'a>(
        &'a self,
        msg: &proto::Profile,
        loc: &proto::Location,
    ) -> Result<Vec<(&'a str, i64)>, ImportError> {
        let mut out = Vec::with_capacity(loc.line.len());
        for line in &loc.line {
            let file = match self
                .functions
                .get(&line.function_id)
                .and_then(|&i| msg.function.get(i))
            {
                Some(f) => self.s(f.filename, "a function file name")?,
                None => "",
            };
            out.push((file, line.line));
        }
        Ok(out)
    }

    /// Names of a location's lines, innermost first (pprof order).
    fn line_names(&self, msg: &proto::Profile, loc: &proto::Location) -> Result<Vec<String>, ImportError> {
        let mut names = Vec::with_capacity(loc.line.len());
        for line in &loc.line {
            let f = self
                .functions
                .get(&line.function_id)
                .and_then(|&i| msg.function.get(i))
                .ok_or_else(|| {
                    err(
                        ImportErrorKind::Malformed,
                        0,
                        format!(
                            "location {} refers to function {}, which does not exist",
                            loc.id, line.function_id
                        ),
                    )
                })?;
            let name = self.s(f.name, "a function name")?;
            let name = if name.is_empty() {
                self.s(f.system_name, "a function system name")?
            } else {
                name
            };
            // No surrounding whitespace: folded text (exports, links) could not carry it at a stack's ends.
            let name = name.trim();
            names.push(if name.is_empty() {
                "??".to_string()
            } else {
                name.to_string()
            });
        }
        Ok(names)
    }

    /// Samples: one row per sample type with a non-zero value.
    fn samples(
        &self,
        b: &mut ProfileBuilder,
        msg: &proto::Profile,
        locations: &Locations,
        pruning: bool,
        negative_twin: &[Option<u16>],
    ) -> Result<SamplesRead, ImportError> {
        let mut stack_cache: FxHashMap<Vec<u64>, (StackId, StackId)> = FxHashMap::default();
        let mut read = SamplesRead {
            records: msg.sample.len() as u64,
            pruned: 0,
            negative: 0,
            labels_seen: false,
        };
        let carried = Carried::of(&self.strings, msg);
        let mut threads: FxHashMap<(String, Option<u32>, u32), u32> = FxHashMap::default();
        for (si, sample) in msg.sample.iter().enumerate() {
            if sample.value.len() != msg.sample_type.len() {
                return Err(err(
                    ImportErrorKind::Malformed,
                    0,
                    format!(
                        "sample {si} has {} values but the profile has {} sample types",
                        sample.value.len(),
                        msg.sample_type.len()
                    ),
                ));
            }
            let mut locs = self.sample_locations(si, sample)?;
            if pruning {
                let before = locs.len();
                locations.prune(&mut locs);
                read.pruned += u64::from(locs.len() != before);
            }
            let key: Vec<u64> = locs.iter().map(|&i| i as u64).collect();
            let (leaf, site) = match stack_cache.get(&key) {
                Some(&s) => s,
                None => {
                    let (mut parent, mut site): (Option<StackId>, Option<StackId>) = (None, None);
                    for &li in &locs {
                        for &f in locations.frames.get(li).map(Vec::as_slice).unwrap_or(&[]) {
                            parent = Some(b.stack(parent, f));
                        }
                        for &l in locations.sites.get(li).map(Vec::as_slice).unwrap_or(&[]) {
                            site = Some(b.site_stack(site, l));
                        }
                    }
                    let s = (parent.unwrap_or(EMPTY_STACK), site.unwrap_or(EMPTY_STACK));
                    stack_cache.insert(key, s);
                    s
                }
            };
            let own = |l: &&proto::Label| !carried.is_carried(l.key);
            let labels = if !sample.label.iter().any(|l| own(&l)) {
                None
            } else {
                read.labels_seen = true;
                Some(self.label_set(b, sample.label.iter().filter(own))?)
            };
            let time_ns = carried.time(sample);
            let thread = match carried.thread(sample) {
                Some((comm, pid, tid)) => {
                    let comm = self.s(comm, "a label value")?;
                    let key = (comm.to_string(), pid, tid);
                    Some(match threads.get(&key) {
                        Some(&t) => t,
                        None => {
                            let t = b.thread(comm, pid, tid);
                            threads.insert(key, t);
                            t
                        }
                    })
                }
                None => None,
            };
            for (t, &v) in sample.value.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                let event = if v < 0 {
                    read.negative += 1;
                    negative_twin.get(t).copied().flatten().unwrap_or(t as u16)
                } else {
                    t as u16
                };
                b.push_full_sample(
                    FullSample {
                        stack: leaf,
                        weight: v.unsigned_abs(),
                        time_ns,
                        thread,
                        event: Some(event),
                        cpu: None,
                        labels: Some(labels.unwrap_or(u32::MAX)),
                    },
                    0,
                )?;
                b.set_sample_site(site);
            }
        }
        Ok(read)
    }

    /// A sample's location indices, root first.
    fn sample_locations(&self, si: usize, sample: &proto::Sample) -> Result<Vec<usize>, ImportError> {
        let mut locs = Vec::with_capacity(sample.location_id.len());
        for &id in sample.location_id.iter().rev() {
            match self.locations.get(&id) {
                Some(&i) => locs.push(i),
                None => {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        0,
                        format!("sample {si} refers to location {id}, which does not exist"),
                    ))
                }
            }
        }
        Ok(locs)
    }

    /// Interns a sample's labels as a label set.
    fn label_set<'a>(
        &self,
        b: &mut ProfileBuilder,
        labels: impl Iterator<Item = &'a proto::Label>,
    ) -> Result<u32, ImportError> {
        let mut set = Vec::new();
        for l in labels {
            let key = b.intern(self.s(l.key, "a label key")?);
            let value = if l.str != 0 {
                LabelValue::Str(b.intern(self.s(l.str, "a label value")?))
            } else {
                let unit = self.s(l.num_unit, "a label unit")?;
                LabelValue::Num(l.num, (!unit.is_empty()).then(|| b.intern(unit)))
            };
            set.push((key, value));
        }
        Ok(b.label_set(set))
    }

    /// Facts for the user, in order.
    fn info(
        &self,
        b: &mut ProfileBuilder,
        msg: &proto::Profile,
        events: &Events,
        read: &SamplesRead,
        dropping: bool,
        keeping: bool,
    ) -> Result<(), ImportError> {
        if read.negative > 0 {
            b.add_info(
                "negative values",
                format!(
                    "{} (a delta profile): shown as their own \"(negative)\" sample types",
                    read.negative
                ),
            );
        }
        b.add_info("sample types", events.type_names.join(", "));
        if let Some(pt) = msg.period_type {
            b.add_info(
                "period",
                format!(
                    "{} {}/{}",
                    msg.period,
                    self.s(pt.r#type, "period type")?,
                    self.s(pt.unit, "period unit")?
                ),
            );
        }
        if msg.duration_nanos > 0 {
            b.add_info("duration", format!("{:.3} s", msg.duration_nanos as f64 / 1e9));
            b.set_duration_ns(msg.duration_nanos as u64);
        }
        if msg.time_nanos > 0 {
            b.add_info(crate::import::many::TIME_INFO, msg.time_nanos.to_string());
        }
        for &c in &msg.comment {
            let text = self.s(c, "a comment")?.to_string();
            b.add_info("comment", text);
        }
        if dropping {
            b.add_info(
                "drop_frames",
                format!(
                    "{} (applied as pprof does: {} of {} samples cut)",
                    self.s(msg.drop_frames, "")?,
                    read.pruned,
                    read.records
                ),
            );
        }
        if keeping {
            b.add_info("keep_frames", self.s(msg.keep_frames, "")?.to_string());
        }
        Ok(())
    }

    fn regex(&self, i: i64, what: &str) -> Result<Option<regex_lite::Regex>, ImportError> {
        let text = self.s(i, what)?;
        if text.is_empty() {
            return Ok(None);
        }
        regex_lite::Regex::new(&format!("^(?:{text})$"))
            .map(Some)
            .map_err(|e| {
                err(
                    ImportErrorKind::Malformed,
                    0,
                    format!("{what} is not a valid regular expression: {e}"),
                )
            })
    }
}

/// The events made from a message's sample types.
struct Events {
    /// Per sample type, the event holding the magnitudes of its negative values, if any.
    negative_twin: Vec<Option<u16>>,
    /// The event shown first.
    default: u16,
    /// `type/unit` per sample type, for the facts shown to the user.
    type_names: Vec<String>,
}

/// Frames per location, outermost first, and which locations `drop_frames` prunes.
struct Locations {
    frames: Vec<Vec<FrameId>>,
    /// Location rows of the same lines, in step with `frames`.
    sites: Vec<Vec<u32>>,
    /// The location's outermost line matches: it goes, with everything inside it.
    prune: Vec<bool>,
    /// Some line of the location matches: what it calls goes.
    prune_beneath: Vec<bool>,
}

impl Locations {
    /// Cuts a sample's locations (root first) as pprof's `Prune` does.
    fn prune(&self, locs: &mut Vec<usize>) {
        let mut found_user = false;
        let flag = |v: &[bool], li: usize| v.get(li).copied().unwrap_or(false);
        let cut = locs.iter().enumerate().find_map(|(k, &li)| {
            if !flag(&self.prune, li) && !flag(&self.prune_beneath, li) {
                found_user = true;
                return None;
            }
            found_user.then_some(if flag(&self.prune, li) { k } else { k + 1 })
        });
        if let Some(k) = cut {
            locs.truncate(k);
        }
    }
}

/// What reading the samples found.
struct SamplesRead {
    records: u64,
    /// Samples `drop_frames` cut.
    pruned: u64,
    /// Sample values below zero.
    negative: u64,
    labels_seen: bool,
}

/// Without labels anywhere, the label column goes; otherwise samples without labels point at an empty set.
fn point_unlabelled_samples(p: &mut Profile, labels_seen: bool) {
    if !labels_seen {
        p.samples.labels = None;
    } else if let Some(col) = &mut p.samples.labels {
        let empty = p
            .label_sets
            .iter()
            .position(Vec::is_empty)
            .unwrap_or(p.label_sets.len());
        if empty == p.label_sets.len() {
            p.label_sets.push(Vec::new());
        }
        for l in col.iter_mut() {
            if *l == u32::MAX {
                *l = empty as u32;
            }
        }
    }
}

/// pprof's `simplifyFunc`: drop a leading `.` and the argument list, keeping `(anonymous namespace)` and
/// `operator()`.
fn simplify_func(f: &str) -> &str {
    let f = f.strip_prefix('.').unwrap_or(f);
    let mut i = 0;
    while let Some(off) = f[i..].find('(') {
        let at = i + off;
        let rest = &f[at..];
        if rest.starts_with("(anonymous namespace)") {
            i = at + "(anonymous namespace)".len();
        } else if f[..at].ends_with("operator") && rest.starts_with("()") {
            i = at + 2;
        } else {
            return &f[..at];
        }
    }
    f
}

/// The labels `scorch pack` writes for what pprof has no field for (`export::pprof::pack_message`): a numeric
/// `timestamp_ns` (the sample's time) and a text `comm` with numeric `tid` (and `pid`), the sample's thread.
/// Read as times and threads only when every sample has them (else they stay labels, as before).
struct Carried {
    /// String ids of `timestamp_ns`, `comm`, `pid`, `tid` (0: absent).
    keys: [i64; 4],
    times: bool,
    threads: bool,
}

impl Carried {
    fn of(strings: &[String], msg: &proto::Profile) -> Carried {
        let id = |k: &str| strings.iter().position(|s| s == k).map_or(0, |i| i as i64);
        let keys = [id("timestamp_ns"), id("comm"), id("pid"), id("tid")];
        let mut c = Carried {
            keys,
            times: keys[0] != 0,
            threads: keys[1] != 0 && keys[3] != 0,
        };
        let has = |s: &proto::Sample, k: i64, text: bool| {
            s.label.iter().any(|l| l.key == k && (l.str != 0) == text)
        };
        c.times = c.times && msg.sample.iter().all(|s| has(s, keys[0], false));
        c.threads = c.threads
            && msg
                .sample
                .iter()
                .all(|s| has(s, keys[1], true) && has(s, keys[3], false));
        c
    }

    fn is_carried(&self, key: i64) -> bool {
        (self.times && key == self.keys[0]) || (self.threads && self.keys[1..].contains(&key))
    }

    fn num(s: &proto::Sample, key: i64) -> Option<i64> {
        s.label.iter().find(|l| l.key == key).map(|l| l.num)
    }

    fn time(&self, s: &proto::Sample) -> Option<u64> {
        self.times
            .then(|| Self::num(s, self.keys[0]))
            .flatten()
            .and_then(|n| u64::try_from(n).ok())
    }

    /// (comm's string id, pid, tid)
    fn thread(&self, s: &proto::Sample) -> Option<(i64, Option<u32>, u32)> {
        if !self.threads {
            return None;
        }
        let comm = s.label.iter().find(|l| l.key == self.keys[1])?.str;
        let pid = Self::num(s, self.keys[2]).and_then(|n| u32::try_from(n).ok());
        let tid = Self::num(s, self.keys[3]).and_then(|n| u32::try_from(n).ok())?;
        Some((comm, pid, tid))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplify() {
        assert_eq!(simplify_func("foo(int)"), "foo");
        assert_eq!(
            simplify_func("(anonymous namespace)::bar(int)"),
            "(anonymous namespace)::bar"
        );
        assert_eq!(simplify_func("Foo::operator()(int)"), "Foo::operator()");
        assert_eq!(simplify_func(".main"), "main");
    }
}
