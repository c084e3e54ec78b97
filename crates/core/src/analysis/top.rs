//! The flat/cumulative function table (`go tool pprof -top`): per function name, flat = the weight of samples
//! whose leaf frame it is, cum = the weight of samples whose stack contains it (once per sample, however
//! often it recurs) — [`by_function`]'s self and total. Values are signed: an event with a negative twin (pprof
//! delta profiles) nets both.

use super::functions::{by_function, Tally};
use crate::model::Profile;
use crate::view::{keyed_weights, ViewOptions};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopRow {
    pub name: String,
    pub flat: i128,
    pub cum: i128,
}

/// All functions of a view, by flat (descending), then cum (descending), then name.
/// Returns the rows and the view's signed total.
pub fn top(p: &Profile, v: &ViewOptions) -> (Vec<TopRow>, i128) {
    let (per_stack, total) = signed_per_stack(p, v);
    let mut rows: Vec<TopRow> = by_function(p, &per_stack)
        .into_iter()
        .map(|f| TopRow {
            name: f.name.to_string(),
            flat: f.self_w,
            cum: f.total_w,
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

/// The signed self weight of each stack in a view (an event's negative twin subtracted), and the view's total.
pub fn signed_per_stack(p: &Profile, v: &ViewOptions) -> (Vec<i128>, i128) {
    let mut parts = vec![(v.clone(), 1i128)];
    if let Some(e) = v.event {
        if let Some(twin) = p.events.iter().position(|x| x.negative_of == Some(e)) {
            parts.push((
                ViewOptions {
                    event: Some(twin as u16),
                    ..v.clone()
                },
                -1,
            ));
        }
    }
    let mut per_stack = vec![0i128; p.stacks.len()];
    let mut total: i128 = 0;
    for (view, sign) in parts {
        for ((_, stack), w) in keyed_weights(p, &view) {
            let w = sign * i128::from(w);
            total += w;
            if let Some(x) = per_stack.get_mut(stack.idx()) {
                x.add(w);
            }
        }
    }
    (per_stack, total)
}
