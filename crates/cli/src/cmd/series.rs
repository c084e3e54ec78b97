//! `scorch series`: several profiles in a row (nightly runs, commits of a bisection): each function's self and
//! total share in each profile, sorted by their trend, and a CI gate on the growth from the first to the last.

use crate::error::{CliError, Result};
use crate::io::{load_warn, profile_names, warn_left_out, write_out};
use crate::view::{parse_pct, view, EventArgs, ViewSpec};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};
use scorch_core::analysis::gate::GateOn;
use scorch_core::analysis::series::{change, Series, SeriesBuilder, SortBy};
use scorch_core::import::many::{chosen_event, event_names, has_event, profile_time, LeftOut};
use scorch_core::ImportOptions;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Sort {
    /// The last profile's share minus the previous one's (largest change first)
    Latest,
    /// The largest share minus the smallest
    Spread,
    /// The least-squares slope of the shares over the profile index
    Slope,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Order {
    /// As given on the command line
    File,
    /// By file name
    Name,
    /// By the profile's own time: pprof `time_nanos`, else the first sample's timestamp (perf)
    Time,
}

#[derive(Args, Debug)]
pub struct SeriesArgs {
    #[command(flatten)]
    pub event: EventArgs,
    /// Which share sorts the rows and is gated: each function's self share (default) or total share
    #[arg(long, value_name = "WHAT", value_parser = on(), default_value = "self")]
    pub on: GateOn,
    /// Row order: by the latest change, by the spread, or by the slope (largest magnitude first)
    #[arg(long, value_enum, default_value = "latest")]
    pub sort: Sort,
    /// Column (profile) order
    #[arg(long, value_enum, default_value = "file")]
    pub order: Order,
    /// Show N functions (0 = all)
    #[arg(short = 'n', long = "limit", value_name = "N", default_value_t = 20)]
    pub limit: usize,
    /// Every function, tab-separated: shares as exact fractions
    #[arg(long)]
    pub tsv: bool,
    /// Exit with status 3 when some function's share (see --on) grew by more than PCT percentage points from
    /// the first profile to the last: a CI gate over a window of runs
    #[arg(long, value_name = "PCT", value_parser = parse_pct)]
    pub fail_if_trend: Option<f64>,
    /// The profiles, in order (`-`: standard input, once)
    #[arg(value_name = "FILE", required = true, num_args = 1..)]
    pub files: Vec<String>,
}

fn on() -> impl TypedValueParser<Value = GateOn> {
    PossibleValuesParser::new(["self", "total"]).map(|s| {
        if s == "total" {
            GateOn::Total
        } else {
            GateOn::SelfWeight
        }
    })
}

pub fn run(a: &SeriesArgs) -> Result<()> {
    let mut b = SeriesBuilder::new();
    let mut event: Option<Option<String>> = None;
    let mut left_out: Vec<LeftOut> = Vec::new();
    let mut keys: Vec<(Option<u64>, String)> = Vec::new();
    for (path, name) in a.files.iter().zip(profile_names(&a.files)) {
        let imp = load_warn(path, ImportOptions::default())?;
        let p = &imp.profile;
        let e = event.get_or_insert_with(|| chosen_event(p, a.event.name()));
        if !has_event(p, e) {
            left_out.push(LeftOut {
                name,
                events: event_names(p),
            });
            continue;
        }
        let spec = ViewSpec {
            event: e.as_deref(),
            ..ViewSpec::new(&a.event)
        };
        let v = view(p, &spec)?;
        b.push(&name, p, &v);
        keys.push((profile_time(p), name));
    }
    let event = event.unwrap_or_default();
    warn_left_out(&event, &left_out);
    let mut s = b.finish();
    if s.names.is_empty() {
        let inputs: Vec<String> = left_out.iter().map(|l| l.reason(&event)).collect();
        return Err(CliError::Input(format!(
            "no profile to show: {}",
            inputs.join("; ")
        )));
    }
    let mut order: Vec<usize> = (0..keys.len()).collect();
    match a.order {
        Order::File => {}
        Order::Name => order.sort_by(|&i, &j| keys[i].1.cmp(&keys[j].1)),
        Order::Time => {
            if let Some((_, n)) = keys.iter().find(|k| k.0.is_none()) {
                return Err(CliError::Input(format!(
                    "--order time: {n} states no time (pprof time_nanos or sample timestamps)"
                )));
            }
            order.sort_by_key(|&i| keys[i].0);
        }
    }
    s.reorder(&order);
    let by = match a.sort {
        Sort::Latest => SortBy::Latest,
        Sort::Spread => SortBy::Spread,
        Sort::Slope => SortBy::Slope,
    };
    s.sort(by, a.on);
    let text = if a.tsv {
        tsv(&s, by, a.on)
    } else {
        table(&s, by, a, &event)
    };
    write_out(text.as_bytes())?;
    if let Some(pct) = a.fail_if_trend {
        gate(&s, pct, a.on)?;
    }
    Ok(())
}

fn sort_name(by: SortBy) -> &'static str {
    match by {
        SortBy::Latest => "latest",
        SortBy::Spread => "spread",
        SortBy::Slope => "slope",
    }
}

fn tsv(s: &Series, by: SortBy, on: GateOn) -> String {
    let mut out = String::from("function");
    for n in &s.names {
        out.push_str(&format!("\tself {n}"));
    }
    for n in &s.names {
        out.push_str(&format!("\ttotal {n}"));
    }
    out.push_str(&format!("\t{} ({})\n", sort_name(by), on.name()));
    for r in &s.rows {
        out.push_str(&r.name);
        for x in r.self_share.iter().chain(&r.total_share) {
            out.push_str(&format!("\t{x}"));
        }
        out.push_str(&format!("\t{}\n", by.key(r.shares(on))));
    }
    out
}

fn table(s: &Series, by: SortBy, a: &SeriesArgs, event: &Option<String>) -> String {
    let shown = if a.limit == 0 {
        s.rows.len()
    } else {
        a.limit.min(s.rows.len())
    };
    let ev = event.as_ref().map(|e| format!(" ({e})")).unwrap_or_default();
    let mut out = format!(
        "{} profiles{ev}; showing {shown} of {} functions by {} change of the {} share (percentage points)\n",
        s.names.len(),
        s.rows.len(),
        sort_name(by),
        a.on.name()
    );
    for (i, n) in s.names.iter().enumerate() {
        out.push_str(&format!("  #{} {n}\n", i + 1));
    }
    let cols = |label: &str| -> String {
        (1..=s.names.len())
            .map(|i| format!("{:>7}", format!("{label}{i}")))
            .collect::<Vec<_>>()
            .join(" ")
    };
    out.push_str(&format!(
        "{}  |{}  | {:>8}  function\n",
        cols("self#"),
        cols("tot#"),
        sort_name(by)
    ));
    for r in s.rows.iter().take(shown) {
        let pcts = |xs: &[f64]| -> String {
            xs.iter()
                .map(|x| format!("{:>6.2}%", x * 100.0))
                .collect::<Vec<_>>()
                .join(" ")
        };
        out.push_str(&format!(
            "{}  |{}  | {:>+8.2}  {}\n",
            pcts(&r.self_share),
            pcts(&r.total_share),
            by.key(r.shares(a.on)) * 100.0,
            r.name
        ));
    }
    out
}

/// The gate: an error (exit 3) naming each function whose share grew more than `pct` points.
fn gate(s: &Series, pct: f64, on: GateOn) -> Result<()> {
    let grown = s.trend_gate(pct, on);
    if grown.is_empty() {
        eprintln!(
            "scorch: series: no function's {} share grew by more than {pct} points from the first profile to the last",
            on.name()
        );
        return Ok(());
    }
    let lines: Vec<String> = grown
        .iter()
        .map(|(r, pp)| {
            let shares: Vec<String> = r
                .shares(on)
                .iter()
                .map(|x| format!("{:.2}%", x * 100.0))
                .collect();
            format!("{} +{pp:.2} points ({})", r.name, shares.join(" → "))
        })
        .collect();
    debug_assert!(grown.iter().all(|(r, _)| change(r.shares(on)) * 100.0 > pct));
    Err(CliError::Regression(format!(
        "{} function(s) grew by more than {pct} points of the {} share from the first profile to the last: {}",
        grown.len(),
        on.name(),
        lines.join("; ")
    )))
}
