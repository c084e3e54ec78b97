//! `scorch search`: the share of samples whose stack has a matching frame.

use crate::error::{CliError, Result};
use crate::io::{load_warn, write_out};
use crate::view::{explore, view, EventArgs, ExploreArgs, TagFilterArgs, TransformArgs, ViewSpec};
use clap::Args;
use scorch_core::analysis::search::{matched_total, Pattern};
use scorch_core::view::calltree::{CallTree, Order};
use scorch_core::ImportOptions;

#[derive(Args, Debug)]
pub struct SearchArgs {
    #[command(flatten)]
    pub event: EventArgs,
    #[command(flatten)]
    pub filter: TagFilterArgs,
    #[command(flatten)]
    pub transforms: TransformArgs,
    /// PATTERN is a regular expression (default: a substring)
    #[arg(long)]
    pub regex: bool,
    /// Match case (default: any case)
    #[arg(long)]
    pub case: bool,
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
    /// What to look for in frame names
    #[arg(value_name = "PATTERN")]
    pub pattern: String,
}

/// The weight of the samples whose stack has a matching frame (each sample once, as flamegraph.pl's
/// "Matched"), of the view's total. Prints `MATCHED TOTAL PERCENT`.
pub fn run(a: &SearchArgs) -> Result<()> {
    let pat = Pattern {
        text: a.pattern.clone(),
        regex: a.regex,
        case_sensitive: a.case,
    };
    // A pattern that does not compile is a usage error, found before reading the file.
    let m = pat.compile().map_err(CliError::Usage)?;
    let imp = load_warn(&a.file, ImportOptions::default())?;
    let v = view(&imp.profile, &ViewSpec::new(&a.event).tagfilter(&a.filter))?;
    let x = ExploreArgs {
        transforms: a.transforms.clone(),
        ..ExploreArgs::default()
    };
    let explored = explore(&imp.profile, &x)?;
    let p = explored.as_ref().unwrap_or(&imp.profile);
    let tree = CallTree::build(p, &v, Order::Alphabetical);
    let matched = matched_total(&tree, &m.frame_mask(p));
    let total = tree.total.first().copied().unwrap_or(0);
    let pct = if total == 0 {
        0.0
    } else {
        matched as f64 / total as f64 * 100.0
    };
    write_out(format!("{matched} {total} {pct}\n").as_bytes())
}
