//! pprof (`profile.proto`, raw or gzip'd; gzip is handled by the loader).
//!
//! Every sample type is kept, each as one "event" of the model, with its unit; the default is
//! `default_sample_type` when set, else the last type (as `go tool pprof` does). Each `Line` of a `Location` is a
//! frame, innermost on the leaf side, all but the outermost marked inline. Locations without lines are named
//! `0xADDRESS (mapping basename)`. Labels are kept per sample (for filters and grouping). `drop_frames` /
//! `keep_frames` are applied as pprof's `Prune` does, and the import says what they did.
//!
//! The whole message must be in memory to decode (protobuf is not line-oriented); the loader caps its size.

use crate::error::{ImportError, ImportErrorKind, Warnings};
use crate::format::Format;
use crate::model::{
    FrameId, FrameKind, FullSample, LabelValue, Profile, ProfileBuilder, StackId, EMPTY_STACK,
};
use crate::units::Unit;
use rustc_hash::FxHashMap;

/// The messages of `profile.proto` (github.com/google/pprof, proto/profile.proto, Apache-2.0), written as prost
/// derives with the official field numbers: no protoc and no generated code to keep in step. Only the fields
/// scorch reads are declared; prost skips the others. `string_table` is read as bytes so that invalid UTF-8 is
/// shown (replaced), not fatal.
pub mod proto {
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Profile {
        #[prost(message, repeated, tag = "1")]
        pub sample_type: Vec<ValueType>,
        #[prost(message, repeated, tag = "2")]
        pub sample: Vec<Sample>,
        #[prost(message, repeated, tag = "3")]
        pub mapping: Vec<Mapping>,
        #[prost(message, repeated, tag = "4")]
        pub location: Vec<Location>,
        #[prost(message, repeated, tag = "5")]
        pub function: Vec<Function>,
        #[prost(bytes = "vec", repeated, tag = "6")]
        pub string_table: Vec<Vec<u8>>,
        #[prost(int64, tag = "7")]
        pub drop_frames: i64,
        #[prost(int64, tag = "8")]
        pub keep_frames: i64,
        #[prost(int64, tag = "9")]
        pub time_nanos: i64,
        #[prost(int64, tag = "10")]
        pub duration_nanos: i64,
        #[prost(message, optional, tag = "11")]
        pub period_type: Option<ValueType>,
        #[prost(int64, tag = "12")]
        pub period: i64,
        #[prost(int64, repeated, tag = "13")]
        pub comment: Vec<i64>,
        #[prost(int64, tag = "14")]
        pub default_sample_type: i64,
    }

    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct ValueType {
        #[prost(int64, tag = "1")]
        pub r#type: i64,
        #[prost(int64, tag = "2")]
        pub unit: i64,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Sample {
        #[prost(uint64, repeated, tag = "1")]
        pub location_id: Vec<u64>,
        #[prost(int64, repeated, tag = "2")]
        pub value: Vec<i64>,
        #[prost(message, repeated, tag = "3")]
        pub label: Vec<Label>,
    }

    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Label {
        #[prost(int64, tag = "1")]
        pub key: i64,
        #[prost(int64, tag = "2")]
        pub str: i64,
        #[prost(int64, tag = "3")]
        pub num: i64,
        #[prost(int64, tag = "4")]
        pub num_unit: i64,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Mapping {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(uint64, tag = "2")]
        pub memory_start: u64,
        #[prost(uint64, tag = "3")]
        pub memory_limit: u64,
        #[prost(uint64, tag = "4")]
        pub file_offset: u64,
        #[prost(int64, tag = "5")]
        pub filename: i64,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Location {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(uint64, tag = "2")]
        pub mapping_id: u64,
        #[prost(uint64, tag = "3")]
        pub address: u64,
        #[prost(message, repeated, tag = "4")]
        pub line: Vec<Line>,
    }

    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Line {
        #[prost(uint64, tag = "1")]
        pub function_id: u64,
        #[prost(int64, tag = "2")]
        pub line: i64,
    }

    #[derive(Clone, Copy, PartialEq, prost::Message)]
    pub struct Function {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(int64, tag = "2")]
        pub name: i64,
        #[prost(int64, tag = "3")]
        pub system_name: i64,
        #[prost(int64, tag = "4")]
        pub filename: i64,
    }
}

/// Options for the pprof importer.
#[derive(Debug, Clone)]
pub struct PprofOptions {
    /// Largest accepted (decompressed) protobuf in bytes; it is held whole to decode. Default is 1 GiB.
    pub max_bytes: usize,
}

impl Default for PprofOptions {
    fn default() -> Self {
        PprofOptions { max_bytes: 1 << 30 }
    }
}

/// Collects the message, then decodes it at [`PprofParser::finish`].
pub struct PprofParser {
    buf: Vec<u8>,
    max: usize,
}

fn err(kind: ImportErrorKind, offset: u64, msg: impl Into<String>) -> ImportError {
    ImportError::new(Some(Format::Pprof), kind, offset, None, msg)
}

impl PprofParser {
    pub fn new(opts: &PprofOptions) -> Self {
        PprofParser {
            buf: Vec::new(),
            max: opts.max_bytes,
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        if self.buf.len().saturating_add(chunk.len()) > self.max {
            return Err(err(
                ImportErrorKind::LimitExceeded,
                self.max as u64,
                format!("the profile is larger than the limit of {} bytes", self.max),
            ));
        }
        self.buf.extend_from_slice(chunk);
        Ok(())
    }

    pub fn finish(self) -> Result<Profile, ImportError> {
        use prost::Message;
        let msg = proto::Profile::decode(self.buf.as_slice()).map_err(|e| {
            err(
                ImportErrorKind::Malformed,
                0,
                format!("not a valid profile.proto message: {e}"),
            )
        })?;
        drop(self.buf);
        Builder::new(&msg)?.build(&msg)
    }
}

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

struct Builder {
    strings: Vec<String>,
    /// Function id → index in `msg.function`.
    functions: FxHashMap<u64, usize>,
    /// Location id → index in `msg.location`.
    locations: FxHashMap<u64, usize>,
    mappings: FxHashMap<u64, usize>,
    warnings: Warnings,
}

impl Builder {
    fn new(msg: &proto::Profile) -> Result<Builder, ImportError> {
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

    fn build(self, msg: &proto::Profile) -> Result<Profile, ImportError> {
        let mut b = ProfileBuilder::new(Format::Pprof);
        if msg.sample_type.is_empty() && !msg.sample.is_empty() {
            return Err(err(
                ImportErrorKind::Malformed,
                0,
                "the profile has samples but no sample types",
            ));
        }
        // Sample types become events.
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
        // Types with negative values (delta profiles) get a twin event for the magnitudes of those values.
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
            .unwrap_or(msg.sample_type.len().saturating_sub(1));
        b.set_default_event(default as u16);

        // Frames per location, outermost first; drop/keep frames as pprof's Prune.
        let drop_rx = self.regex(msg.drop_frames, "drop_frames")?;
        let keep_rx = self.regex(msg.keep_frames, "keep_frames")?;
        let mut loc_frames: Vec<Vec<FrameId>> = Vec::with_capacity(msg.location.len());
        let mut prune = vec![false; msg.location.len()];
        let mut prune_beneath = vec![false; msg.location.len()];
        for (li, loc) in msg.location.iter().enumerate() {
            let dso = match self
                .mappings
                .get(&loc.mapping_id)
                .and_then(|&m| msg.mapping.get(m))
            {
                Some(m) => self.s(m.filename, "a mapping")?.to_string(),
                None if loc.mapping_id == 0 => String::new(),
                None => {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        0,
                        format!(
                            "location {} refers to mapping {}, which does not exist",
                            loc.id, loc.mapping_id
                        ),
                    ))
                }
            };
            let base_kind = if crate::perf::is_kernel_dso(&dso) {
                FrameKind::Kernel
            } else {
                FrameKind::User
            };
            // Names of the lines, innermost first (pprof order).
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
            // Prune: the outermost line matching drop (and not keep) cuts it and everything inside it.
            let mut lines = names.len();
            if let Some(drop) = &drop_rx {
                if let Some(i) = names.iter().rposition(|n| {
                    let simple = simplify_func(n);
                    !n.is_empty()
                        && drop.is_match(simple)
                        && !keep_rx.as_ref().is_some_and(|k| k.is_match(simple))
                }) {
                    if let Some(x) = prune_beneath.get_mut(li) {
                        *x = true;
                    }
                    if i == names.len() - 1 {
                        if let Some(x) = prune.get_mut(li) {
                            *x = true;
                        }
                    } else {
                        // Keep only the lines outside the match (callers it was inlined into).
                        lines = names.len() - (i + 1);
                    }
                }
            }
            let kept = names.get(names.len().saturating_sub(lines)..).unwrap_or_default();
            let frames = if names.is_empty() {
                let name = match dso.rsplit('/').next().filter(|b| !b.is_empty()) {
                    Some(base) => format!("0x{:x} ({base})", loc.address),
                    None => format!("0x{:x}", loc.address),
                };
                vec![b.frame(&name, base_kind)]
            } else {
                kept.iter()
                    .rev()
                    .enumerate()
                    .map(|(j, n)| b.frame(n, if j == 0 { base_kind } else { FrameKind::Inline }))
                    .collect()
            };
            loc_frames.push(frames);
        }

        // Samples: one row per sample type with a non-zero value.
        let mut stack_cache: FxHashMap<Vec<u64>, StackId> = FxHashMap::default();
        let mut pruned = 0u64;
        let mut negative = 0u64;
        let mut labels_seen = false;
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
            // Location indices, root first, pruned as pprof does.
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
            if drop_rx.is_some() {
                let before = locs.len();
                let mut found_user = false;
                let flag = |v: &[bool], li: usize| v.get(li).copied().unwrap_or(false);
                let cut = locs.iter().enumerate().find_map(|(k, &li)| {
                    if !flag(&prune, li) && !flag(&prune_beneath, li) {
                        found_user = true;
                        return None;
                    }
                    found_user.then_some(if flag(&prune, li) { k } else { k + 1 })
                });
                if let Some(k) = cut {
                    locs.truncate(k);
                }
                pruned += u64::from(locs.len() != before);
            }
            let key: Vec<u64> = locs.iter().map(|&i| i as u64).collect();
            let leaf = match stack_cache.get(&key) {
                Some(&s) => s,
                None => {
                    let mut parent: Option<StackId> = None;
                    for &li in &locs {
                        for &f in loc_frames.get(li).map(Vec::as_slice).unwrap_or(&[]) {
                            parent = Some(b.stack(parent, f));
                        }
                    }
                    let s = parent.unwrap_or(EMPTY_STACK);
                    stack_cache.insert(key, s);
                    s
                }
            };
            let labels = if sample.label.is_empty() {
                None
            } else {
                labels_seen = true;
                let mut set = Vec::with_capacity(sample.label.len());
                for l in &sample.label {
                    let key = b.intern(self.s(l.key, "a label key")?);
                    let value = if l.str != 0 {
                        LabelValue::Str(b.intern(self.s(l.str, "a label value")?))
                    } else {
                        let unit = self.s(l.num_unit, "a label unit")?;
                        LabelValue::Num(l.num, (!unit.is_empty()).then(|| b.intern(unit)))
                    };
                    set.push((key, value));
                }
                Some(b.label_set(set))
            };
            for (t, &v) in sample.value.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                let event = if v < 0 {
                    negative += 1;
                    negative_twin.get(t).copied().flatten().unwrap_or(t as u16)
                } else {
                    t as u16
                };
                b.push_full_sample(
                    FullSample {
                        stack: leaf,
                        weight: v.unsigned_abs(),
                        time_ns: None,
                        thread: None,
                        event: Some(event),
                        cpu: None,
                        labels: Some(labels.unwrap_or(u32::MAX)),
                    },
                    0,
                )?;
            }
        }
        let records = msg.sample.len() as u64;
        if negative > 0 {
            b.add_info(
                "negative values",
                format!("{negative} (a delta profile): shown as their own \"(negative)\" sample types"),
            );
        }

        // Facts for the user.
        b.add_info("sample types", type_names.join(", "));
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
        }
        if msg.time_nanos > 0 {
            b.add_info("time (ns since epoch)", msg.time_nanos.to_string());
        }
        for &c in &msg.comment {
            let text = self.s(c, "a comment")?.to_string();
            b.add_info("comment", text);
        }
        if drop_rx.is_some() {
            b.add_info(
                "drop_frames",
                format!(
                    "{} (applied as pprof does: {pruned} of {records} samples cut)",
                    self.s(msg.drop_frames, "")?
                ),
            );
        }
        if keep_rx.is_some() {
            b.add_info("keep_frames", self.s(msg.keep_frames, "")?.to_string());
        }
        let unit = b.event_unit(default as u16).unwrap_or(Unit::Samples);
        let mut p = b.build(unit, 0, records, self.warnings);
        if !labels_seen {
            p.samples.labels = None;
        } else if let Some(col) = &mut p.samples.labels {
            // Samples without labels point at an empty set.
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
        Ok(p)
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

/// Is this the start of a profile.proto message? Reads a few top-level fields and checks their numbers and
/// wire types against the schema. `None` means "need more bytes".
pub(crate) fn looks_like_pprof(prefix: &[u8], at_end: bool) -> Option<bool> {
    // Text is never a profile: protobuf keys and lengths put control bytes in the first few bytes.
    let head = prefix.get(..64).unwrap_or(prefix);
    if (head.len() >= 8 || at_end)
        && !head.is_empty()
        && head
            .iter()
            .all(|&b| b == b'\n' || b == b'\r' || b == b'\t' || (0x20..0x7f).contains(&b))
    {
        return Some(false);
    }
    let mut i = 0usize;
    let mut fields = 0;
    let varint = |i: &mut usize| -> Option<Option<u64>> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let Some(&byte) = prefix.get(*i) else {
                return Some(None);
            };
            *i += 1;
            v |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(Some(v));
            }
        }
        None // over-long varint: not protobuf
    };
    while fields < 4 {
        if i >= prefix.len() {
            return if at_end { Some(fields > 0) } else { None };
        }
        let key = match varint(&mut i) {
            None => return Some(false),
            Some(None) => return if at_end { Some(false) } else { None },
            Some(Some(k)) => k,
        };
        let (field, wire) = (key >> 3, key & 7);
        let expected_len = matches!(field, 1..=6 | 11 | 13 | 16);
        let expected_varint = matches!(field, 7..=10 | 12..=15);
        match wire {
            2 if expected_len => {
                let len = match varint(&mut i) {
                    None => return Some(false),
                    Some(None) => return if at_end { Some(false) } else { None },
                    Some(Some(l)) => l,
                };
                i = i.saturating_add(usize::try_from(len).unwrap_or(usize::MAX));
                if i > prefix.len() {
                    // Runs past what we have: more input to come, or (after a complete field) a truncated
                    // profile, which the decoder then reports as such. Absurd lengths are not protobuf.
                    if at_end {
                        return Some(fields > 0 && len < (1 << 32));
                    }
                    return if fields > 0 || len < (1 << 32) {
                        None
                    } else {
                        Some(false)
                    };
                }
            }
            0 if expected_varint => match varint(&mut i) {
                None => return Some(false),
                Some(None) => return if at_end { Some(false) } else { None },
                Some(Some(_)) => {}
            },
            _ => return Some(false),
        }
        fields += 1;
    }
    Some(true)
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

    #[test]
    fn sniff() {
        assert_eq!(looks_like_pprof(b"java 1234 cycles:\n", true), Some(false));
        assert_eq!(looks_like_pprof(b"a;b 1\n", true), Some(false));
        assert_eq!(
            looks_like_pprof(b"\x0a\x04\x08\x01\x10\x02\x12\x00", true),
            Some(true)
        );
        assert_eq!(looks_like_pprof(b"\x0a", false), None);
    }
}
