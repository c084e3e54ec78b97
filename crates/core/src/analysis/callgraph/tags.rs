//! pprof's nodelets, counted: the label tags a node of its DOT graph carries, which count against
//! `nodecount` ([`tag_counts`]).
//!
//! pprof (`graph.go`, `newGraph` → `addSample`) gives each sample's node a tag for its string labels (all of
//! them joined, when it has any) and one for each value of its `bytes` numeric label (formatted like
//! `512B` or `1.50kB`, keyed by the formatted text and the string labels). A tag has a flat (the samples whose
//! leaf the node is) and a cum (every sample through the node, once). Before choosing the top nodes pprof
//! drops the tags whose flat and cum are both under the node cut-off, then counts, per node, the tags with a
//! non-zero flat (`countTags`); a node takes `1 + min(tags, 4)` of the `nodecount` budget.

use super::build::{Paths, Step};
use crate::model::{LabelValue, Profile, StackId, StrId};
use crate::view::{ViewOptions, NO_ROOT};
use rustc_hash::FxHashMap;

/// No string labels.
const NONE: u32 = u32::MAX;

/// A tag: the id of the sample's string labels (or [`NONE`]) and the id of the formatted `bytes` value
/// (or [`NONE`] for the label tag itself).
type Tag = (u32, u32);

/// The weight per (root, leaf stack, tag) of the view's samples; empty when the profile has no labels.
pub(super) fn tag_rows(
    p: &Profile,
    v: &ViewOptions,
    keep: impl Fn(u32, StackId) -> bool,
) -> Vec<(u32, StackId, Tag, u64)> {
    let Some(col) = p.samples.labels.as_ref() else {
        return Vec::new();
    };
    // Per label set: its string labels' id and its formatted `bytes` values' ids.
    let mut strs: FxHashMap<Vec<(StrId, StrId)>, u32> = FxHashMap::default();
    let mut texts: FxHashMap<String, u32> = FxHashMap::default();
    let unit = bytes_unit(p);
    let sets: Vec<(u32, Vec<u32>)> = p
        .label_sets
        .iter()
        .map(|set| {
            let mut pairs: Vec<(StrId, StrId)> = set
                .iter()
                .filter_map(|l| match l.value {
                    LabelValue::Str(s) => Some((l.key, s)),
                    LabelValue::Num(..) => None,
                })
                .collect();
            let key = if pairs.is_empty() {
                NONE
            } else {
                pairs.sort_by(|a, b| {
                    (p.strings.get(a.0), p.strings.get(a.1)).cmp(&(p.strings.get(b.0), p.strings.get(b.1)))
                });
                let next = strs.len() as u32;
                *strs.entry(pairs).or_insert(next)
            };
            let nums = set
                .iter()
                .filter_map(|l| match l.value {
                    LabelValue::Num(x, _) if p.strings.get(l.key) == "bytes" => {
                        let text = scaled_label(x, unit.as_deref());
                        let next = texts.len() as u32;
                        Some(*texts.entry(text).or_insert(next))
                    }
                    _ => None,
                })
                .collect();
            (key, nums)
        })
        .collect();
    let mut out: FxHashMap<(u32, StackId, Tag), u64> = FxHashMap::default();
    for i in 0..p.samples.len() {
        let Some(w) = v.weigh(p, i).filter(|&w| w != 0) else {
            continue;
        };
        let root = v.root_of(p, i).map_or(NO_ROOT, |f| f.0);
        let Some(&s) = p.samples.stack.get(i) else {
            continue;
        };
        if !keep(root, s) {
            continue;
        }
        let Some((key, nums)) = col.get(i).and_then(|&set| sets.get(set as usize)) else {
            continue;
        };
        let mut add = |tag: Tag| {
            let x = out.entry((root, s, tag)).or_insert(0);
            *x = x.saturating_add(w);
        };
        if *key != NONE {
            add((*key, NONE));
        }
        for &n in nums {
            add((*key, n));
        }
    }
    let mut rows: Vec<(u32, StackId, Tag, u64)> =
        out.into_iter().map(|((r, s, t), w)| (r, s, t, w)).collect();
    rows.sort_unstable();
    rows
}

/// Per function, how many tags with a non-zero flat it keeps once tags whose flat and cum are both under
/// `cutoff` are dropped, in the graph of the functions `kept` marks.
pub(super) fn tag_counts(
    paths: &Paths,
    rows: &[(u32, StackId, Tag, u64)],
    kept: Option<&[bool]>,
    cutoff: u64,
) -> Vec<usize> {
    let is_kept = |f: u32| kept.is_none_or(|k| k.get(f as usize).copied().unwrap_or(false));
    let mut buf: Vec<Step> = Vec::new();
    // Flat per (function, tag): the samples whose leaf function is kept and is that function.
    let mut flat: FxHashMap<(u32, Tag), u64> = FxHashMap::default();
    for &(root, leaf, tag, w) in rows {
        paths.walk(root, leaf, &mut buf);
        if let Some(last) = buf.last().filter(|s| is_kept(s.function)) {
            let x = flat.entry((last.function, tag)).or_insert(0);
            *x = x.saturating_add(w);
        }
    }
    // Cum, only where it decides: a tag with a flat under the cut-off stays when its cum reaches it.
    let mut cum: FxHashMap<(u32, Tag), u64> = flat
        .iter()
        .filter(|(_, &f)| f < cutoff)
        .map(|(&k, _)| (k, 0))
        .collect();
    if !cum.is_empty() {
        let mut seen: FxHashMap<u32, u32> = FxHashMap::default();
        for (generation, &(root, leaf, tag, w)) in rows.iter().enumerate() {
            paths.walk(root, leaf, &mut buf);
            for step in &buf {
                if !is_kept(step.function) {
                    continue;
                }
                if seen.insert(step.function, generation as u32) == Some(generation as u32) {
                    continue;
                }
                if let Some(x) = cum.get_mut(&(step.function, tag)) {
                    *x = x.saturating_add(w);
                }
            }
        }
    }
    let mut counts = vec![0usize; paths.names.len()];
    for (&(f, tag), &fl) in &flat {
        let stays = fl >= cutoff || cum.get(&(f, tag)).is_some_and(|&c| c >= cutoff);
        if fl != 0 && stays {
            if let Some(c) = counts.get_mut(f as usize) {
                *c += 1;
            }
        }
    }
    counts
}

/// The unit of the `bytes` numeric label: the first one a sample states, else `bytes` (pprof's
/// `NumLabelUnits`).
fn bytes_unit(p: &Profile) -> Option<String> {
    p.label_sets
        .iter()
        .flatten()
        .find_map(|l| match l.value {
            LabelValue::Num(_, Some(u))
                if p.strings.get(l.key) == "bytes" && !p.strings.get(u).is_empty() =>
            {
                Some(p.strings.get(u).to_string())
            }
            _ => None,
        })
        .or_else(|| Some("bytes".to_string()))
}

/// pprof's `measurement.ScaledLabel(v, unit, "minimum")` for a memory unit: the largest unit that keeps the
/// value at least 1, two decimals, `.00` trimmed; a unit that is not memory prints the bare number.
pub(super) fn scaled_label(v: i64, unit: Option<&str>) -> String {
    const UNITS: [(&str, f64); 6] = [
        ("B", 1.0),
        ("kB", 1024.0),
        ("MB", 1048576.0),
        ("GB", 1073741824.0),
        ("TB", 1099511627776.0),
        ("PB", 1125899906842624.0),
    ];
    let factor = unit.and_then(memory_factor);
    let (x, name) = match factor {
        Some(f) => {
            let bytes = v.unsigned_abs() as f64 * f;
            let (un, uf) = UNITS
                .iter()
                .rev()
                .find(|(_, uf)| bytes / uf >= 1.0)
                .copied()
                .unwrap_or(("B", 1.0));
            (bytes / uf, un)
        }
        None => (v.unsigned_abs() as f64, ""),
    };
    let text = format!("{x:.2}");
    let text = text.strip_suffix(".00").unwrap_or(&text);
    if text == "0" {
        return "0".to_string();
    }
    let sign = if v < 0 { "-" } else { "" };
    format!("{sign}{text}{name}")
}

/// The factor of a memory unit's name in bytes (pprof's aliases; a name over two letters may end in `s`).
fn memory_factor(unit: &str) -> Option<f64> {
    let lower = unit.to_lowercase();
    let u = if lower.len() > 2 {
        lower.strip_suffix('s').unwrap_or(&lower)
    } else {
        &lower
    };
    let k = 1024.0f64;
    Some(match u {
        "b" | "byte" => 1.0,
        "kb" | "kbyte" | "kilobyte" => k,
        "mb" | "mbyte" | "megabyte" => k * k,
        "gb" | "gbyte" | "gigabyte" => k * k * k,
        "tb" | "tbyte" | "terabyte" => k * k * k * k,
        "pb" | "pbyte" | "petabyte" => k * k * k * k * k,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_labels_as_pprof_writes_them() {
        assert_eq!(scaled_label(0, Some("bytes")), "0");
        assert_eq!(scaled_label(16, Some("bytes")), "16B");
        assert_eq!(scaled_label(663552, Some("bytes")), "648kB");
        assert_eq!(scaled_label(1536, Some("bytes")), "1.50kB");
        assert_eq!(scaled_label(1332000, Some("bytes")), "1.27MB");
        assert_eq!(scaled_label(7, Some("count")), "7");
    }
}
