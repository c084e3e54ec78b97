//! The flat/cumulative function table (`go tool pprof -top`): per function name, flat = the weight of samples
//! whose leaf frame it is, cum = the weight of samples whose stack contains it (once per sample, however
//! often it recurs). Values are signed: an event with a negative twin (pprof delta profiles) nets both.

use crate::model::{Profile, EMPTY_STACK};
use crate::view::{keyed_weights, ViewOptions};
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopRow {
    pub name: String,
    pub flat: i128,
    pub cum: i128,
}

/// All functions of a view, by flat (descending), then cum (descending), then name.
/// Returns the rows and the view's signed total.
pub fn top(p: &Profile, v: &ViewOptions) -> (Vec<TopRow>, i128) {
    let mut parts = vec![(*v, 1i128)];
    if let Some(e) = v.event {
        if let Some(twin) = p.events.iter().position(|x| x.negative_of == Some(e)) {
            parts.push((
                ViewOptions {
                    event: Some(twin as u16),
                    ..*v
                },
                -1,
            ));
        }
    }
    let mut flat: FxHashMap<&str, i128> = FxHashMap::default();
    let mut cum: FxHashMap<&str, i128> = FxHashMap::default();
    let mut total: i128 = 0;
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    for (view, sign) in parts {
        for ((_, stack), w) in keyed_weights(p, &view) {
            let w = sign * i128::from(w);
            total += w;
            if stack == EMPTY_STACK {
                continue;
            }
            let frames = p.stack_frames(stack);
            if let Some(&leaf) = frames.last() {
                *flat.entry(p.frame_name(leaf)).or_default() += w;
            }
            seen.clear();
            for f in frames {
                let name = p.frame_name(f);
                if seen.insert(name) {
                    *cum.entry(name).or_default() += w;
                }
            }
        }
    }
    let mut rows: Vec<TopRow> = cum
        .iter()
        .map(|(&name, &c)| TopRow {
            name: name.to_string(),
            flat: flat.get(name).copied().unwrap_or(0),
            cum: c,
        })
        .filter(|r| r.flat != 0 || r.cum != 0)
        .collect();
    rows.sort_by(|a, b| {
        b.flat
            .cmp(&a.flat)
            .then(b.cum.cmp(&a.cum))
            .then(a.name.cmp(&b.name))
    });
    (rows, total)
}
