//! `scorch diff`: what changed from BASE (before) to TARGET (after) — one file per side, or several runs per
//! side (`--base A1 A2 A3 --target B1 B2 B3`) — the comparability header, and the `--fail-if-grows` gate.

use crate::error::{CliError, Result};
use crate::io::{load, warn, write_out};
use crate::view::{parse_pct, view, EventArgs, GranularityArgs, LimitArgs, ViewSpec};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;
use scorch_core::analysis::compare::{describe_type, differences, fact_rows, facts, Fact, Facts};
use scorch_core::analysis::diff::{two_counts, Diff, MatchBy, Side};
use scorch_core::analysis::gate::{gate, GateOn, GateOptions, GateReport, DEFAULT_ALPHA};
use scorch_core::export::diff_folded;
use scorch_core::model::units::format_value;
use scorch_core::{ImportOptions, Imported};

#[derive(Args, Debug)]
pub struct DiffArgs {
    #[command(flatten)]
    pub event: EventArgs,
    /// Compare raw values instead of shares (only for runs known to be comparable)
    #[arg(long)]
    pub absolute: bool,
    #[command(flatten)]
    pub limit: LimitArgs,
    #[command(flatten)]
    pub granularity: GranularityArgs,
    /// `stack BASE TARGET` lines, as inferno-diff-folded writes them
    #[arg(long)]
    pub folded: bool,
    /// With --folded: scale BASE counts to TARGET's total (difffolded.pl -n)
    #[arg(long)]
    pub normalize: bool,
    /// Exit with status 3 when a function grew by more than PCT percentage points — and, with two or more runs
    /// per side, by more than the run-to-run spread (Welch's t-test, see --alpha): a CI gate
    #[arg(long, value_name = "PCT", allow_negative_numbers = true, value_parser = parse_pct)]
    pub fail_if_grows: Option<f64>,
    /// What the gate compares: each function's total (the stacks that contain it; default) or self share
    #[arg(long, value_name = "WHAT", value_parser = gate_on(), default_value = "total")]
    pub on: GateOn,
    /// The gate's one-sided significance level with two or more runs per side
    #[arg(long, value_name = "A", default_value_t = DEFAULT_ALPHA, value_parser = parse_alpha)]
    pub alpha: f64,
    /// How frames match: by name (default; a changed kind, e.g. inlined, is noted) or by name and kind
    #[arg(long = "match", value_name = "HOW", value_parser = match_by(), default_value = "name")]
    pub match_by: MatchBy,
    /// Diff sides whose sample types or units differ (an error otherwise)
    #[arg(long)]
    pub allow_mismatch: bool,
    /// Only the base's samples with this label or of these threads (KEY=VALUE, KEY=LO:HI, perf's comm=NAME,
    /// pid=N, tid=N: as --tagfilter); with one FILE and
    /// --target-filter, a label-slice diff: one slice of a profile against another
    #[arg(long, value_name = "KEY=VALUE")]
    pub base_filter: Option<String>,
    /// Only the target's samples with this label (see --base-filter)
    #[arg(long, value_name = "KEY=VALUE")]
    pub target_filter: Option<String>,
    /// Several runs of the build before (use with --target)
    #[arg(long = "base", value_name = "FILE", num_args = 1.., conflicts_with = "base", requires = "target_runs")]
    pub base_runs: Vec<String>,
    /// Several runs of the build after (use with --base)
    #[arg(long = "target", value_name = "FILE", num_args = 1.., conflicts_with = "base", requires = "base_runs")]
    pub target_runs: Vec<String>,
    /// The profile before (or one two-count folded file, from difffolded.pl, holding both sides)
    #[arg(value_name = "BASE", required_unless_present = "base_runs")]
    pub base: Option<String>,
    /// The profile after (may be BASE itself: then nothing changed)
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
}

fn parse_alpha(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x < 1.0 => Ok(x),
        _ => Err("takes a probability between 0 and 1".to_string()),
    }
}

fn gate_on() -> impl TypedValueParser<Value = GateOn> {
    PossibleValuesParser::new(["total", "self"]).map(|s| {
        if s == "self" {
            GateOn::SelfWeight
        } else {
            GateOn::Total
        }
    })
}

fn match_by() -> impl TypedValueParser<Value = MatchBy> {
    PossibleValuesParser::new(["name", "name+kind"]).map(|s| {
        if s == "name+kind" {
            MatchBy::NameKind
        } else {
            MatchBy::Name
        }
    })
}

/// The files of each side, and whether one two-count file holds both.
fn sides_of(a: &DiffArgs) -> Result<(Vec<String>, Vec<String>, bool)> {
    if !a.base_runs.is_empty() {
        return Ok((a.base_runs.clone(), a.target_runs.clone(), false));
    }
    let base = a.base.clone().unwrap_or_default();
    match &a.target {
        Some(t) => Ok((vec![base], vec![t.clone()], false)),
        // One file with a filter on either side: two slices of it.
        None if a.base_filter.is_some() || a.target_filter.is_some() => {
            Ok((vec![base.clone()], vec![base], false))
        }
        None => Ok((vec![base.clone()], vec![base], true)),
    }
}

pub fn run(a: &DiffArgs) -> Result<()> {
    let (base_files, target_files, one_file) = sides_of(a)?;
    // Each distinct file is loaded once (standard input can only be read once; a file named on both sides is
    // compared with itself like any pair).
    let mut loaded: Vec<(String, Imported)> = Vec::new();
    for f in base_files.iter().chain(&target_files) {
        if !loaded.iter().any(|(n, _)| n == f) {
            let imp = load(f, ImportOptions::default())?;
            loaded.push((f.clone(), imp));
        }
    }
    if one_file && !loaded.first().is_some_and(|(_, i)| two_counts(&i.profile)) {
        return Err(CliError::Input(
            "diff takes two files: BASE (before) and TARGET (after), or one two-count (difffolded) file"
                .into(),
        ));
    }
    for (_, imp) in &mut loaded {
        warn(imp);
        // Both sides at the granularity asked for: lines, files or addresses match by their pprof names.
        if let std::borrow::Cow::Owned(g) = a.granularity.apply(&imp.profile) {
            imp.profile = g;
        }
    }
    let side_of = |f: &str, k: u16| -> Result<Side<'_>> {
        let filter = if k == 0 { &a.base_filter } else { &a.target_filter };
        let p = loaded
            .iter()
            .find(|(n, _)| n == f)
            .map(|(_, i)| &i.profile)
            .ok_or_else(|| CliError::Input(format!("{f}: not loaded")))?;
        let spec = ViewSpec {
            tagfilter: filter.as_deref(),
            ..ViewSpec::new(&a.event)
        };
        let mut v = view(p, &spec).map_err(|e| CliError::Input(format!("{f}: {e}")))?;
        if one_file {
            v.event = Some(k);
        }
        Ok(Side { profile: p, view: v })
    };
    let bsides = base_files
        .iter()
        .map(|f| side_of(f, 0))
        .collect::<Result<Vec<_>>>()?;
    let tsides = target_files
        .iter()
        .map(|f| side_of(f, 1))
        .collect::<Result<Vec<_>>>()?;
    if a.folded {
        let (Some(b), Some(t), 1, 1) = (bsides.first(), tsides.first(), bsides.len(), tsides.len()) else {
            return Err(CliError::Usage("--folded takes one file per side".into()));
        };
        return write_out(diff_folded(b.clone(), t.clone(), a.normalize).as_bytes());
    }
    let bfacts: Vec<Facts> = bsides.iter().map(facts).collect();
    let tfacts: Vec<Facts> = tsides.iter().map(facts).collect();
    if !one_file && !a.allow_mismatch {
        check_comparable(&base_files, &bfacts, &target_files, &tfacts)?;
    }
    let d = Diff::pooled(&bsides, &tsides, a.match_by);
    let movers = d.movers();
    let shown = a.limit.shown(movers.len());
    let named = |files: &[String], filter: &Option<String>| -> Vec<String> {
        files
            .iter()
            .map(|f| match filter {
                Some(x) => format!("{f} [{x}]"),
                None => f.clone(),
            })
            .collect()
    };
    let mut text = header(
        &named(&base_files, &a.base_filter),
        &bfacts,
        &named(&target_files, &a.target_filter),
        &tfacts,
        &d,
        one_file,
    );
    text.push_str(if a.absolute {
        "absolute values: the two runs are assumed comparable; Δ = target - base\n"
    } else {
        "shares of each profile's own total (normalised); Δ in percentage points, + = larger share in target\n"
    });
    text.push_str(&format!(
        "{:>12} {:>12} {:>10} {:>12} {:>12} {:>10}  {}\n",
        "base self",
        "target self",
        "Δ self",
        "base total",
        "target total",
        "Δ total",
        a.granularity.singular()
    ));
    for m in movers.iter().take(shown) {
        let kind = m
            .kind_change()
            .map(|k| format!("  (changed kind: {k})"))
            .unwrap_or_default();
        if a.absolute {
            let bt = (m.base_total * d.base_sum as f64).round();
            let tt = (m.target_total * d.target_sum as f64).round();
            text.push_str(&format!(
                "{:>12} {:>12} {:>+10} {:>12} {:>12} {:>+10}  {}{kind}\n",
                m.base_self_raw,
                m.target_self_raw,
                m.target_self_raw as i128 - m.base_self_raw as i128,
                bt,
                tt,
                tt - bt,
                m.name
            ));
        } else {
            text.push_str(&format!(
                "{:>11.2}% {:>11.2}% {:>+8.2}pp {:>11.2}% {:>11.2}% {:>+8.2}pp  {}{kind}\n",
                m.base_self * 100.0,
                m.target_self * 100.0,
                m.self_delta(),
                m.base_total * 100.0,
                m.target_total * 100.0,
                m.total_delta(),
                m.name
            ));
        }
    }
    let Some(limit) = a.fail_if_grows else {
        return write_out(text.as_bytes());
    };
    let opts = GateOptions {
        on: a.on,
        min_pp: limit,
        absolute: a.absolute,
        alpha: a.alpha,
        matching: a.match_by,
    };
    let report = gate(&bsides, &tsides, &opts);
    text.push('\n');
    text.push_str(&gate_text(&report, &opts, bsides.len(), tsides.len()));
    write_out(text.as_bytes())?;
    if report.failures.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = report
        .failures
        .iter()
        .map(|f| match f.test {
            Some(t) => format!("{} ({:+.2} pp, p = {})", f.name, f.delta, p_text(t.p)),
            None => format!("{} ({:+.2} pp)", f.name, f.delta),
        })
        .collect();
    Err(CliError::Regression(format!(
        "{} function(s) grew by more than {limit} percentage points of {}{}: {}",
        names.len(),
        what(&opts),
        if report.statistical {
            format!(", beyond the run-to-run spread (p < {})", opts.alpha)
        } else {
            String::new()
        },
        names.join(", ")
    )))
}

/// `total share`, `self share`, `total (raw, % of the base's mean total)`.
fn what(o: &GateOptions) -> String {
    if o.absolute {
        format!("{} weight (raw, in % of the base's mean total)", o.on.name())
    } else {
        format!("{} share", o.on.name())
    }
}

fn p_text(p: f64) -> String {
    if p < 1e-4 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

/// Sample types and units must agree across every run of both sides (unless --allow-mismatch).
fn check_comparable(bf: &[String], b: &[Facts], tf: &[String], t: &[Facts]) -> Result<()> {
    let all: Vec<(&str, &String, &Facts)> = bf
        .iter()
        .zip(b)
        .map(|(f, x)| ("base", f, x))
        .chain(tf.iter().zip(t).map(|(f, x)| ("target", f, x)))
        .collect();
    let Some(&(s0, f0, x0)) = all.first() else {
        return Ok(());
    };
    for &(s, f, x) in all.iter().skip(1) {
        let hard: Vec<Fact> = differences(x0, x).into_iter().filter(|d| d.is_hard()).collect();
        if !hard.is_empty() {
            let what = if hard.contains(&Fact::SampleType) {
                "sample types"
            } else {
                "units"
            };
            return Err(CliError::Input(format!(
                "the sides are not comparable, their {what} differ: {s0} {f0} is {}, {s} {f} is {}; \
                 --sample-type picks one, --allow-mismatch diffs them anyway",
                describe_type(x0),
                describe_type(x)
            )));
        }
    }
    Ok(())
}

/// The header: both sides' facts in two columns, `≠` before a row whose values differ.
fn header(bf: &[String], b: &[Facts], tf: &[String], t: &[Facts], d: &Diff, one_file: bool) -> String {
    let runs = |n: usize| {
        if n == 1 {
            String::new()
        } else {
            format!(" ({n} runs)")
        }
    };
    let facts = fact_rows(b, t, one_file);
    let any_differs = facts.iter().any(|r| r.differs);
    let mut rows: Vec<(bool, &str, String, String)> = vec![
        (
            false,
            "",
            format!("base (before){}", runs(b.len())),
            format!("target (after){}", runs(t.len())),
        ),
        (false, "file", bf.join(", "), tf.join(", ")),
    ];
    let mut total = Some((
        false,
        "total",
        format_value(d.base_sum as f64, &d.base_unit),
        format_value(d.target_sum as f64, &d.target_unit),
    ));
    for r in facts {
        let is_labels = r.fact == Fact::Labels;
        if is_labels {
            rows.extend(total.take());
        }
        rows.push((r.differs, r.name, r.base, r.target));
    }
    rows.extend(total);
    let width = rows
        .iter()
        .map(|r| r.2.chars().count())
        .max()
        .unwrap_or(0)
        .max(14);
    let mut out = String::new();
    for (differs, name, bv, tv) in rows {
        let mark = if differs { "≠" } else { " " };
        let pad = width.saturating_sub(bv.chars().count());
        out.push_str(&format!("{mark} {name:<12} {bv}{} {tv}\n", " ".repeat(pad)));
    }
    if any_differs {
        out.push_str(
            "≠ marks facts that differ between the sides (rate, duration, samples: by more than 1.5×)\n",
        );
    }
    out
}

/// The gate's verdict: the test, then each failing function with its heaviest call path and per-run numbers.
fn gate_text(r: &GateReport, o: &GateOptions, nb: usize, nt: usize) -> String {
    let mut out = if r.statistical {
        format!(
            "gate: {} over {nb} base and {nt} target runs; fails when the mean grew by more than {} pp and \
             Welch's one-sided t-test gives p < {} ({} functions)\n",
            what(o),
            o.min_pp,
            o.alpha,
            r.functions
        )
    } else {
        format!(
            "gate: {}, one run on a side so no spread to test against: fails when it grew by more than {} pp \
             ({} functions)\n",
            what(o),
            o.min_pp,
            r.functions
        )
    };
    if r.failures.is_empty() {
        out.push_str("gate passed\n");
    }
    let runs = |xs: &[f64]| xs.iter().map(|x| format!("{x:.2}")).collect::<Vec<_>>().join(" ");
    for f in &r.failures {
        out.push_str(&format!("FAIL {}: {:+.2} pp", f.name, f.delta));
        if let Some(t) = f.test {
            out.push_str(&format!(
                ", t = {:.2}, df = {:.1}, p = {}",
                t.t,
                t.df,
                p_text(t.p)
            ));
        }
        out.push('\n');
        out.push_str(&format!("  base runs (%):   {}\n", runs(&f.base)));
        out.push_str(&format!("  target runs (%): {}\n", runs(&f.target)));
        out.push_str(&format!("  heaviest call path: {}\n", elide(&f.path)));
    }
    out
}

/// A call path joined by `;`, its middle elided past 24 frames.
fn elide(path: &[String]) -> String {
    if path.len() <= 24 {
        return path.join(";");
    }
    let head = path.get(..10).unwrap_or(&[]).join(";");
    let tail = path.get(path.len() - 10..).unwrap_or(&[]).join(";");
    format!("{head};…({} frames)…;{tail}", path.len() - 20)
}
