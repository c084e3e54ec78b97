//! A view as `profile.proto`, gzip'd: what `go tool pprof` and every pprof reader open.
//!
//! - one sample type: the view's event (or sample type) with its unit in pprof's words (`nanoseconds`, `bytes`,
//!   `count`, …);
//! - one function and one location per distinct frame, named as folded text names it (`_[k]`, `_[j]`, `_[i]`
//!   after kernel, JIT and inline frames), so `go tool pprof -raw` shows what `scorch fold` prints;
//! - each sample's locations leaf first, the view's root frame (a process, a `key=value` label group) kept as
//!   the outermost frame;
//! - where the profile has timestamps or labels, one pprof sample per selected sample, with a numeric
//!   `timestamp_ns` label (unit `nanoseconds`) and the sample's own labels; otherwise one sample per distinct
//!   stack with its summed weight.
//!
//! Memory is O(samples + distinct stacks × depth). Fractional weights (folded input with decimals) and weights
//! past `i64::MAX` have no pprof value: they are refused with a message.

use crate::model::pprof_proto as pb;
use crate::model::{FrameId, FrameKind, LabelValue, Profile, StackId, Unit, EMPTY_STACK};
use crate::view::{ViewOptions, NO_ROOT};
use prost::Message as _;
use rustc_hash::FxHashMap;
use std::io::Write as _;

/// The strings, functions and locations written so far.
#[derive(Default)]
struct Tables {
    strings: Vec<Vec<u8>>,
    string_ids: FxHashMap<String, i64>,
    /// Location id (1-based) per frame id.
    locations: FxHashMap<u32, u64>,
    function: Vec<pb::Function>,
    location: Vec<pb::Location>,
    /// Location ids, leaf first, per (root, stack).
    stacks: FxHashMap<(u32, StackId), Vec<u64>>,
    /// `scorch pack`: kernel frames keep their plain names and point at this `[kernel.kallsyms]` mapping,
    /// which the pprof importer reads as their kind.
    kernel_mapping: Option<u64>,
    mapping: Vec<pb::Mapping>,
}

impl Tables {
    fn new() -> Tables {
        let mut t = Tables::default();
        t.string("");
        t
    }

    fn string(&mut self, s: &str) -> i64 {
        if let Some(&i) = self.string_ids.get(s) {
            return i;
        }
        let i = self.strings.len() as i64;
        self.strings.push(s.as_bytes().to_vec());
        self.string_ids.insert(s.to_owned(), i);
        i
    }

    fn location(&mut self, p: &Profile, f: FrameId) -> u64 {
        if let Some(&id) = self.locations.get(&f.0) {
            return id;
        }
        let kind = p.frame_kind(f);
        let mut name = String::new();
        let mut mapping_id = 0;
        match self.kernel_mapping {
            Some(m) if kind == FrameKind::Kernel => {
                name.push_str(p.frame_name(f));
                mapping_id = m;
            }
            _ => super::folded::folded_name(&mut name, p.frame_name(f), kind),
        }
        let name = self.string(&name);
        let id = self.location.len() as u64 + 1;
        self.function.push(pb::Function {
            id,
            name,
            system_name: name,
            filename: 0,
        });
        self.location.push(pb::Location {
            id,
            mapping_id,
            address: 0,
            line: vec![pb::Line {
                function_id: id,
                line: 0,
            }],
        });
        self.locations.insert(f.0, id);
        id
    }

    /// The location ids of a stack under a root, leaf first (computed once per key).
    fn stack(&mut self, p: &Profile, root: u32, stack: StackId) -> Vec<u64> {
        if let Some(ids) = self.stacks.get(&(root, stack)) {
            return ids.clone();
        }
        let mut ids = Vec::new();
        let mut cur = (stack != EMPTY_STACK).then_some(stack);
        while let Some(s) = cur {
            if let Some(&f) = p.stacks.frame.get(s.idx()) {
                ids.push(self.location(p, f));
            }
            cur = p.stacks.parent(s);
        }
        if root != NO_ROOT {
            ids.push(self.location(p, FrameId(root)));
        }
        self.stacks.insert((root, stack), ids.clone());
        ids
    }
}

/// pprof's name of a unit.
fn unit_word(u: &Unit) -> &str {
    match u {
        Unit::Nanoseconds => "nanoseconds",
        Unit::Microseconds => "microseconds",
        Unit::Milliseconds => "milliseconds",
        Unit::Seconds => "seconds",
        Unit::Bytes => "bytes",
        Unit::Samples => "count",
        Unit::Other(name) => name,
    }
}

fn value(raw: u64) -> Result<i64, String> {
    i64::try_from(raw).map_err(|_| format!("a weight of {raw} is past what pprof's int64 values hold"))
}

/// The `profile.proto` message of a view (not gzip'd).
pub fn pprof_message(p: &Profile, v: &ViewOptions) -> Result<pb::Profile, String> {
    if p.meta.decimals > 0 {
        return Err("this profile has fractional weights, which pprof's integer values cannot carry".into());
    }
    let mut t = Tables::new();
    let unit = v.unit(p);
    let type_name = match v.event.and_then(|e| p.events.get(e as usize)) {
        Some(e) => e.name.clone(),
        None if unit == Unit::Samples => "samples".to_string(),
        None => "value".to_string(),
    };
    let sample_type = pb::ValueType {
        r#type: t.string(&type_name),
        unit: t.string(unit_word(&unit)),
    };
    let mut samples = Vec::new();
    // An event with a negative twin (a pprof delta profile): net values per stack, as `scorch fold` prints them.
    let twin = v
        .event
        .and_then(|e| p.events.iter().position(|x| x.negative_of == Some(e)));
    let per_sample = twin.is_none() && (p.samples.time_ns.is_some() || p.samples.labels.is_some());
    if per_sample {
        let ts_key = p.samples.time_ns.as_ref().map(|_| t.string("timestamp_ns"));
        let ns = t.string("nanoseconds");
        for i in 0..p.samples.len() {
            let Some(w) = v.weigh(p, i) else { continue };
            let root = v.root_of(p, i).map_or(NO_ROOT, |f| f.0);
            let s = p.samples.stack.get(i).copied().unwrap_or(EMPTY_STACK);
            let mut label = Vec::new();
            if let (Some(key), Some(&ts)) = (ts_key, p.samples.time_ns.as_ref().and_then(|c| c.get(i))) {
                label.push(pb::Label {
                    key,
                    str: 0,
                    num: value(ts)?,
                    num_unit: ns,
                });
            }
            push_labels(&mut t, p, i, &mut label);
            samples.push(pb::Sample {
                location_id: t.stack(p, root, s),
                value: vec![value(w)?],
                label,
            });
        }
    } else if let Some(twin) = twin {
        let mut net: FxHashMap<(u32, StackId), i128> = FxHashMap::default();
        for (k, w) in crate::view::keyed_weights(p, v) {
            *net.entry(k).or_default() += i128::from(w);
        }
        let neg = ViewOptions {
            event: Some(twin as u16),
            ..v.clone()
        };
        for (k, w) in crate::view::keyed_weights(p, &neg) {
            *net.entry(k).or_default() -= i128::from(w);
        }
        let mut keys: Vec<_> = net.into_iter().filter(|&(_, w)| w != 0).collect();
        keys.sort_unstable_by_key(|&(k, _)| k);
        for ((root, s), w) in keys {
            let w =
                i64::try_from(w).map_err(|_| format!("a net weight of {w} is past pprof's int64 values"))?;
            samples.push(pb::Sample {
                location_id: t.stack(p, root, s),
                value: vec![w],
                label: Vec::new(),
            });
        }
    } else {
        let mut keys: Vec<_> = crate::view::keyed_weights(p, v).into_iter().collect();
        keys.sort_unstable_by_key(|&((r, s), _)| (r, s));
        for ((root, s), w) in keys {
            samples.push(pb::Sample {
                location_id: t.stack(p, root, s),
                value: vec![value(w)?],
                label: Vec::new(),
            });
        }
    }
    let time_nanos = p
        .samples
        .time_ns
        .as_ref()
        .and_then(|c| c.iter().min().copied())
        .map_or(Ok(0), value)?;
    let comment = scrub_comment(&mut t, p);
    Ok(pb::Profile {
        sample_type: vec![sample_type],
        sample: samples,
        mapping: Vec::new(),
        location: t.location,
        function: t.function,
        string_table: t.strings,
        drop_frames: 0,
        keep_frames: 0,
        time_nanos,
        duration_nanos: 0,
        period_type: Some(sample_type),
        period: 0,
        comment,
        default_sample_type: 0,
    })
}

/// A scrubbed profile (`export::scrub`) says so in a comment `scorch-scrubbed: RULES` (`go tool pprof
/// -comments` shows it; scorch's pprof reader shows comments in Info).
fn scrub_comment(t: &mut Tables, p: &Profile) -> Vec<i64> {
    p.meta
        .info
        .iter()
        .filter(|(k, _)| k == crate::model::SCRUBBED_INFO)
        .map(|(_, rules)| t.string(&format!("scorch-scrubbed: {rules}")))
        .collect()
}

/// A whole profile as `profile.proto` (not gzip'd), for `scorch pack`: every recorded event as its own sample
/// type (the derived ones, off-CPU time, are derived again from the switch samples' labels on opening), one
/// pprof sample per sample, its value in its event's column; each sample's thread as the
/// labels `comm` (text), `pid` and `tid` (numbers), its time as `timestamp_ns` and its own labels — the labels
/// the pprof importer turns back into threads and times. No root frame: the threads carry it. Not carried: CPU
/// numbers, lost-event counts, the recording's facts, frame kinds (named as folded text names them).
pub fn pack_message(p: &Profile) -> Result<pb::Profile, String> {
    if p.meta.decimals > 0 {
        return Err("this profile has fractional weights, which pprof's integer values cannot carry".into());
    }
    let mut t = Tables::new();
    let kernel = t.string("[kernel.kallsyms]");
    t.mapping.push(pb::Mapping {
        id: 1,
        filename: kernel,
        ..pb::Mapping::default()
    });
    t.kernel_mapping = Some(1);
    // The recorded events, each its column; the derived ones (off-CPU time) are derived again on opening.
    let mut column = vec![None; p.events.len()];
    let mut types: Vec<(String, Unit)> = Vec::new();
    for (e, info) in p.events.iter().enumerate() {
        if !info.derived {
            if let Some(c) = column.get_mut(e) {
                *c = Some(types.len());
            }
            types.push((info.name.clone(), info.unit.clone()));
        }
    }
    if types.is_empty() {
        let name = if p.meta.unit == Unit::Samples {
            "samples"
        } else {
            "value"
        };
        types.push((name.to_string(), p.meta.unit.clone()));
    }
    let default = column
        .get(p.meta.default_event as usize)
        .copied()
        .flatten()
        .unwrap_or(0);
    let sample_type: Vec<pb::ValueType> = types
        .iter()
        .map(|(name, unit)| pb::ValueType {
            r#type: t.string(name),
            unit: t.string(unit_word(unit)),
        })
        .collect();
    let default_sample_type = types.get(default).map_or(0, |(name, _)| t.string(name));
    let ns = t.string("nanoseconds");
    let keys = [
        t.string("timestamp_ns"),
        t.string("comm"),
        t.string("pid"),
        t.string("tid"),
    ];
    let mut samples = Vec::with_capacity(p.samples.len());
    for i in 0..p.samples.len() {
        let w = value(p.samples.weight.get(i).copied().unwrap_or(0))?;
        let e = p
            .samples
            .event
            .as_ref()
            .and_then(|c| c.get(i))
            .copied()
            .unwrap_or(0) as usize;
        let col = if p.events.is_empty() {
            Some(0)
        } else {
            column.get(e).copied().flatten()
        };
        let Some(col) = col else { continue };
        let mut values = vec![0; types.len()];
        if let Some(v) = values.get_mut(col) {
            *v = w;
        }
        let s = p.samples.stack.get(i).copied().unwrap_or(EMPTY_STACK);
        let mut label = Vec::new();
        let num = |key, num, num_unit| pb::Label {
            key,
            str: 0,
            num,
            num_unit,
        };
        if let Some(&ts) = p.samples.time_ns.as_ref().and_then(|c| c.get(i)) {
            label.push(num(keys[0], value(ts)?, ns));
        }
        if let Some(&th) = p.samples.thread.as_ref().and_then(|c| c.get(i)) {
            let th = th as usize;
            if let (Some(&comm), Some(&tid)) = (p.threads.comm.get(th), p.threads.tid.get(th)) {
                let comm = t.string(p.strings.get(comm));
                label.push(pb::Label {
                    key: keys[1],
                    str: comm,
                    num: 0,
                    num_unit: 0,
                });
                if let Some(pid) = p.threads.pid.get(th).copied().flatten() {
                    label.push(num(keys[2], i64::from(pid), 0));
                }
                label.push(num(keys[3], i64::from(tid), 0));
            }
        }
        push_labels(&mut t, p, i, &mut label);
        samples.push(pb::Sample {
            location_id: t.stack(p, NO_ROOT, s),
            value: values,
            label,
        });
    }
    let time_nanos = p
        .samples
        .time_ns
        .as_ref()
        .and_then(|c| c.iter().min().copied())
        .map_or(Ok(0), value)?;
    Ok(pb::Profile {
        period_type: sample_type.get(default).copied(),
        sample_type,
        sample: samples,
        mapping: std::mem::take(&mut t.mapping),
        location: t.location,
        function: t.function,
        string_table: t.strings,
        drop_frames: 0,
        keep_frames: 0,
        time_nanos,
        duration_nanos: p.meta.duration_ns.map_or(Ok(0), value)?,
        period: 0,
        comment: Vec::new(),
        default_sample_type,
    })
}

/// A sample's own labels, appended to `label`.
fn push_labels(t: &mut Tables, p: &Profile, i: usize, label: &mut Vec<pb::Label>) {
    let set = p.samples.labels.as_ref().and_then(|c| c.get(i)).copied();
    for l in set
        .and_then(|s| p.label_sets.get(s as usize))
        .map_or(&[][..], |v| v)
    {
        let key = t.string(p.strings.get(l.key));
        label.push(match l.value {
            LabelValue::Str(s) => pb::Label {
                key,
                str: t.string(p.strings.get(s)),
                num: 0,
                num_unit: 0,
            },
            LabelValue::Num(n, u) => pb::Label {
                key,
                str: 0,
                num: n,
                num_unit: u.map_or(0, |u| t.string(p.strings.get(u))),
            },
        });
    }
}

/// A whole profile as gzip'd `profile.proto` bytes ([`pack_message`]).
pub fn pack(p: &Profile) -> Result<Vec<u8>, String> {
    gzip(&pack_message(p)?.encode_to_vec())
}

/// The view as gzip'd `profile.proto` bytes.
pub fn to_pprof(p: &Profile, v: &ViewOptions) -> Result<Vec<u8>, String> {
    gzip(&pprof_message(p, v)?.encode_to_vec())
}

fn gzip(raw: &[u8]) -> Result<Vec<u8>, String> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(raw)
        .and_then(|_| e.finish())
        .map_err(|x| format!("compressing the profile: {x}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::folded::parse;

    #[test]
    fn stacks_leaf_first_one_location_per_frame() {
        let p = parse(b"main;a;b 3\nmain;a 2\nmain;c 5\n").unwrap();
        let m = pprof_message(&p, &ViewOptions::default_for(&p)).unwrap();
        assert_eq!(m.location.len(), 4);
        let name = |id: u64| {
            let f = m.function.iter().find(|f| f.id == id).unwrap();
            String::from_utf8(m.string_table[f.name as usize].clone()).unwrap()
        };
        let mut got: Vec<(Vec<String>, i64)> = m
            .sample
            .iter()
            .map(|s| (s.location_id.iter().map(|&l| name(l)).collect(), s.value[0]))
            .collect();
        got.sort();
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            got,
            vec![
                (v(&["a", "main"]), 2),
                (v(&["b", "a", "main"]), 3),
                (v(&["c", "main"]), 5)
            ]
        );
    }

    #[test]
    fn fractional_weights_are_refused() {
        let p = parse(b"main 1.5\n").unwrap();
        assert!(to_pprof(&p, &ViewOptions::default_for(&p)).is_err());
    }
}
