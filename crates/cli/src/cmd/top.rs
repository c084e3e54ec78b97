//! `scorch top`: functions by flat and cumulative weight, like `go tool pprof -top`, with the 95 % interval of
//! each cumulative share (Wilson, from the sample counts behind it: `scorch_core::analysis::stats`).

use crate::error::Result;
use crate::io::{load_warn, write_out};
use crate::view::{view, EventArgs, GranularityArgs, LimitArgs, TagFilterArgs, ViewSpec};
use clap::Args;
use scorch_core::analysis::functions;
use scorch_core::analysis::stats::{self, CountSource, Interval};
use scorch_core::model::units::format_value;
use scorch_core::ImportOptions;
use serde::Serialize;
use std::collections::HashMap;

#[derive(Args, Debug)]
pub struct TopArgs {
    #[command(flatten)]
    pub event: EventArgs,
    #[command(flatten)]
    pub filter: TagFilterArgs,
    #[command(flatten)]
    pub limit: LimitArgs,
    #[command(flatten)]
    pub granularity: GranularityArgs,
    /// Exact integers: flat<TAB>cum<TAB>name, all functions
    #[arg(long, conflicts_with = "json")]
    pub tsv: bool,
    /// All functions as JSON, with shares, the sample counts behind them and their 95 % intervals
    #[arg(long)]
    pub json: bool,
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

pub fn run(a: &TopArgs) -> Result<()> {
    let imp = load_warn(&a.file, ImportOptions::default())?;
    let p = &*a.granularity.apply(&imp.profile);
    let mut v = view(p, &ViewSpec::new(&a.event).tagfilter(&a.filter))?;
    v.granularity = a.granularity.granularity;
    let (rows, total) = scorch_core::analysis::top::top(p, &v);
    if a.tsv {
        let text: String = rows
            .iter()
            .map(|r| format!("{}\t{}\t{}\n", r.flat, r.cum, r.name))
            .collect();
        return write_out(text.as_bytes());
    }
    // Sample counts behind the shares, per function name.
    let counts = functions::function_counts(p, &v);
    let (by_name, n): (HashMap<&str, (u64, u64)>, Option<u64>) = match &counts {
        Some((c, n, _)) => (
            c.iter()
                .map(|f| (f.name.as_str(), (f.self_n, f.total_n)))
                .collect(),
            Some(*n),
        ),
        None => (HashMap::new(), None),
    };
    let interval = |k: Option<u64>| n.and_then(|n| stats::wilson(k?, n));
    if a.json {
        let share = |x: i128| if total == 0 { 0.0 } else { x as f64 / total as f64 };
        let out = TopJson {
            total: total.to_string().parse().unwrap_or_else(|_| 0.into()),
            unit: v.unit(p).name().to_string(),
            decimals: p.meta.decimals,
            samples: n,
            samples_source: counts.as_ref().map(|c| c.2),
            functions: rows
                .iter()
                .map(|r| {
                    let c = by_name.get(r.name.as_str()).copied();
                    TopJsonRow {
                        name: r.name.clone(),
                        flat: r.flat.to_string().parse().unwrap_or_else(|_| 0.into()),
                        cum: r.cum.to_string().parse().unwrap_or_else(|_| 0.into()),
                        flat_share: share(r.flat),
                        cum_share: share(r.cum),
                        flat_samples: c.map(|c| c.0),
                        cum_samples: c.map(|c| c.1),
                        flat_interval: interval(c.map(|c| c.0)),
                        cum_interval: interval(c.map(|c| c.1)),
                    }
                })
                .collect(),
        };
        let mut text = serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?;
        text.push('\n');
        return write_out(text.as_bytes());
    }
    let shown = a.limit.shown(rows.len());
    let unit = v.unit(p);
    let fmt = |x: i128| format_value(x as f64 / 10f64.powi(p.meta.decimals as i32), &unit);
    let pct = |x: i128| {
        if total == 0 {
            0.0
        } else {
            x as f64 * 100.0 / total as f64
        }
    };
    let kind = v
        .event
        .and_then(|e| p.events.get(e as usize))
        .map(|e| e.name.clone())
        .unwrap_or_default();
    let few = n
        .and_then(stats::few_samples_notice)
        .map(|t| format!("; {t}"))
        .unwrap_or_default();
    let mut text = format!(
        "Showing {shown} of {} {}, {} total{}{few}\n{:>16} {:>7} {:>7} {:>16} {:>7} {:>6}  {}\n",
        rows.len(),
        a.granularity.noun(),
        fmt(total),
        if kind.is_empty() {
            String::new()
        } else {
            format!(" ({kind})")
        },
        "flat",
        "flat%",
        "sum%",
        "cum",
        "cum%",
        "±pp",
        a.granularity.singular(),
    );
    let mut sum = 0i128;
    for r in rows.iter().take(shown) {
        sum += r.flat;
        // Half the width of the cum share's 95 % interval (the exact interval is in --json).
        let pm = interval(by_name.get(r.name.as_str()).map(|c| c.1))
            .map_or("-".to_string(), |i| format!("±{:.1}", i.half_pp()));
        text.push_str(&format!(
            "{:>16} {:>6.2}% {:>6.2}% {:>16} {:>6.2}% {:>6}  {}\n",
            fmt(r.flat),
            pct(r.flat),
            pct(sum),
            fmt(r.cum),
            pct(r.cum),
            pm,
            r.name
        ));
    }
    write_out(text.as_bytes())
}

/// `scorch top --json`.
#[derive(Serialize)]
struct TopJson {
    /// The view's signed total in raw units (see `decimals`).
    total: serde_json::Number,
    unit: String,
    decimals: u32,
    /// The sample count the shares rest on (`null`: the profile has no sample counts).
    samples: Option<u64>,
    samples_source: Option<CountSource>,
    functions: Vec<TopJsonRow>,
}

#[derive(Serialize)]
struct TopJsonRow {
    name: String,
    flat: serde_json::Number,
    cum: serde_json::Number,
    /// flat / total and cum / total (fractions of the weight).
    flat_share: f64,
    cum_share: f64,
    /// Samples whose leaf is the function / whose stack contains it.
    flat_samples: Option<u64>,
    cum_samples: Option<u64>,
    /// 95 % Wilson intervals of the sample shares, as fractions `{lo, hi}`.
    flat_interval: Option<Interval>,
    cum_interval: Option<Interval>,
}
