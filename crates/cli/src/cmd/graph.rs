//! `scorch graph`: the call graph of a view, like `go tool pprof -dot` (`scorch_core::analysis::callgraph`,
//! written by `scorch_core::export::dot`), or its nodes and edges as JSON.

use crate::error::{CliError, Result};
use crate::io::{load_warn, write_out};
use crate::view::WholeViewArgs;
use clap::Args;
use scorch_core::analysis::callgraph::{call_graph, CallGraph, GraphOptions};
use scorch_core::export::dot::to_dot;
use scorch_core::ImportOptions;
use serde::Serialize;

#[derive(Args, Debug)]
pub struct GraphArgs {
    #[command(flatten)]
    pub view: WholeViewArgs,
    /// Graphviz DOT, as `go tool pprof -dot` writes it (the default)
    #[arg(long, conflicts_with = "json")]
    pub dot: bool,
    /// The nodes and edges as JSON, with exact integer weights
    #[arg(long)]
    pub json: bool,
    /// Drop nodes whose cum is under this fraction of the total (pprof's -nodefraction)
    #[arg(long, value_name = "F", default_value_t = 0.005, value_parser = parse_fraction)]
    pub nodefraction: f64,
    /// Drop edges whose weight is under this fraction of the total (pprof's -edgefraction)
    #[arg(long, value_name = "F", default_value_t = 0.001, value_parser = parse_fraction)]
    pub edgefraction: f64,
    /// Show at most N nodes, each label tag counting as one, as pprof counts them (0 = all; pprof's
    /// -nodecount)
    #[arg(long, value_name = "N", default_value_t = 80)]
    pub nodecount: usize,
    /// Only samples whose stack has a function matching this regular expression (case-sensitive; pprof's
    /// -focus)
    #[arg(long, value_name = "REGEX")]
    pub focus: Option<String>,
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err("takes a fraction from 0 to 1".to_string()),
    }
}

pub fn run(a: &GraphArgs) -> Result<()> {
    let imp = load_warn(&a.file, ImportOptions::default())?;
    let (explored, v) = a.view.apply(&imp.profile)?;
    let p = explored.as_ref().unwrap_or(&imp.profile);
    let o = GraphOptions {
        node_fraction: a.nodefraction,
        edge_fraction: a.edgefraction,
        node_count: a.nodecount,
        focus: a.focus.clone(),
    };
    let g = call_graph(p, &v, &o).map_err(CliError::Usage)?;
    let unit = v.unit(p);
    if a.json {
        let out = GraphJson {
            unit: unit.name().to_string(),
            decimals: p.meta.decimals,
            graph: &g,
        };
        let mut text = serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?;
        text.push('\n');
        return write_out(text.as_bytes());
    }
    let title = std::path::Path::new(&a.file)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("profile");
    write_out(to_dot(&g, title, &unit, p.meta.decimals).as_bytes())
}

/// `scorch graph --json`: the graph's fields (nodes, edges, total, what was dropped) with the unit.
#[derive(Serialize)]
struct GraphJson<'a> {
    unit: String,
    /// Weights are integers scaled by 10^decimals.
    decimals: u32,
    #[serde(flatten)]
    graph: &'a CallGraph,
}
