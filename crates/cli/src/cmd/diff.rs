//! `scorch diff`: what changed from BASE (before) to TARGET (after), and the `--fail-if-grows` gate.

use crate::error::{CliError, Result};
use crate::io::{load, warn, write_out};
use crate::view::{view, EventArgs, LimitArgs, ViewSpec};
use clap::Args;
use scorch_core::analysis::diff::{Diff, Side};
use scorch_core::export::diff_folded;
use scorch_core::model::units::format_value;
use scorch_core::{ImportOptions, Profile};

#[derive(Args, Debug)]
pub struct DiffArgs {
    #[command(flatten)]
    pub event: EventArgs,
    /// Compare raw values instead of shares (only for runs known to be comparable)
    #[arg(long)]
    pub absolute: bool,
    #[command(flatten)]
    pub limit: LimitArgs,
    /// `stack BASE TARGET` lines, as inferno-diff-folded writes them
    #[arg(long)]
    pub folded: bool,
    /// With --folded: scale BASE counts to TARGET's total (difffolded.pl -n)
    #[arg(long)]
    pub normalize: bool,
    /// Exit with status 3 when any function's self share grew by more than PCT percentage points (a CI gate)
    #[arg(long, value_name = "PCT", allow_negative_numbers = true, value_parser = parse_pct)]
    pub fail_if_grows: Option<f64>,
    /// The profile before (or one two-count folded file, from difffolded.pl, holding both sides)
    #[arg(value_name = "BASE")]
    pub base: String,
    /// The profile after (may be BASE itself: then nothing changed)
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
}

fn parse_pct(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err("takes percentage points, a number >= 0".to_string()),
    }
}

/// Does this profile hold two counts per stack (`stack BASE TARGET`)?
fn two_counts(p: &Profile) -> bool {
    p.events.iter().map(|e| e.name.as_str()).eq(["base", "target"])
}

pub fn run(a: &DiffArgs) -> Result<()> {
    let base_file = a.base.as_str();
    let base = load(base_file, ImportOptions::default())?;
    // One file: a two-count file holds both sides. The same file twice is loaded once (standard input can only
    // be read once); it is compared with itself like any pair.
    let (target_file, target, one_file) = match a.target.as_deref() {
        None => {
            if !two_counts(&base.profile) {
                return Err(CliError::Input(
                    "diff takes two files: BASE (before) and TARGET (after), or one two-count (difffolded) file"
                        .into(),
                ));
            }
            (base_file, None, true)
        }
        Some(t) if t == base_file => (t, None, false),
        Some(t) => (t, Some(load(t, ImportOptions::default())?), false),
    };
    warn(&base);
    if let Some(t) = &target {
        warn(t);
    }
    let target = target.as_ref().unwrap_or(&base);
    let view_of = |p: &Profile, side: u16| -> Result<_> {
        let mut v = view(p, &ViewSpec::new(&a.event))?;
        if one_file {
            v.event = Some(side);
        }
        Ok(v)
    };
    let bside = Side {
        profile: &base.profile,
        view: view_of(&base.profile, 0)?,
    };
    let tside = Side {
        profile: &target.profile,
        view: view_of(&target.profile, 1)?,
    };
    if a.folded {
        return write_out(diff_folded(bside, tside, a.normalize).as_bytes());
    }
    let d = Diff::new(bside, tside);
    let movers = d.movers();
    let shown = a.limit.shown(movers.len());
    let mut text = format!(
        "base (before):  {base_file}, total {}\ntarget (after): {target_file}, total {}\n{}\n{:>12} {:>12} {:>10} {:>12} {:>12} {:>10}  function\n",
        format_value(d.base_sum as f64, &d.base_unit),
        format_value(d.target_sum as f64, &d.target_unit),
        if a.absolute {
            "absolute values: the two runs are assumed comparable; Δ = target - base"
        } else {
            "shares of each profile's own total (normalised); Δ in percentage points, + = larger share in target"
        },
        "base self",
        "target self",
        "Δ self",
        "base total",
        "target total",
        "Δ total"
    );
    for m in movers.iter().take(shown) {
        if a.absolute {
            let bt = (m.base_total * d.base_sum as f64).round();
            let tt = (m.target_total * d.target_sum as f64).round();
            text.push_str(&format!(
                "{:>12} {:>12} {:>+10} {:>12} {:>12} {:>+10}  {}\n",
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
                "{:>11.2}% {:>11.2}% {:>+8.2}pp {:>11.2}% {:>11.2}% {:>+8.2}pp  {}\n",
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
    write_out(text.as_bytes())?;
    if let Some(limit) = a.fail_if_grows {
        let grown: Vec<String> = movers
            .iter()
            .filter(|m| m.self_delta() > limit)
            .map(|m| format!("{} ({:+.2} pp)", m.name, m.self_delta()))
            .collect();
        if !grown.is_empty() {
            return Err(CliError::Regression(format!(
                "{} function(s) grew by more than {limit} percentage points of self share: {}",
                grown.len(),
                grown.join(", ")
            )));
        }
    }
    Ok(())
}
