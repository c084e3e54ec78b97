//! The command line: one module per subcommand, each with its arguments and its `run`.

pub mod diff;
pub mod export;
pub mod fold;
pub mod graph;
pub mod heatmap;
pub mod info;
pub mod link;
pub mod list;
pub mod markers;
pub mod pack;
pub mod search;
pub mod series;
pub mod top;

use crate::error::Result;
use clap::{Parser, Subcommand};

/// The one-line description: every format the core's loader recognises, from its own list.
fn about() -> String {
    let formats: Vec<&str> = scorch_core::import::formats()
        .into_iter()
        .map(scorch_core::Format::description)
        .collect();
    format!(
        "scorch — read profiles ({}; plain or gzip'd) on the command line",
        formats.join(", ")
    )
}

#[derive(Parser, Debug)]
#[command(
    name = "scorch",
    version,
    about = about(),
    subcommand_required = true,
    arg_required_else_help = true,
    args_override_self = true,
    after_help = "FILE may be `-` for standard input. The format is recognised from the content; gzip by its \
                  magic bytes.\n\nExit status: 0 success, 1 input error (a file unreadable or not a profile), \
                  2 usage error, 3 regression (diff --fail-if-grows, series --fail-if-trend)."
)]
pub struct Cli {
    /// Threads for parsing large plain folded and perf script files (default: the cores available, or
    /// `SCORCH_THREADS`); the output is the same for any count.
    #[arg(long, global = true, hide = true, value_name = "N")]
    pub threads: Option<usize>,
    /// perf.data: keep frames as `module+0xOFFSET` instead of naming them from the binaries' symbol tables
    /// and /proc/kallsyms on this machine
    #[arg(long, global = true)]
    pub no_symbols: bool,
    /// perf.data: add the functions inlined at each address as inline frames, from the binaries' DWARF
    /// (`perf script` 6.1 shows none for frame-pointer call chains, so the default leaves them out)
    #[arg(long, global = true, conflicts_with = "no_symbols")]
    pub inline: bool,
    /// Warnings on standard error: `kinds` (one line per kind: its first example and how many there are) or
    /// `all` (every warning, one per line)
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHICH",
        default_value_t = crate::io::WarningsMode::Kinds,
        hide_possible_values = true,
        hide_default_value = true
    )]
    pub warnings: crate::io::WarningsMode,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Canonical folded stacks: one line per distinct stack, sorted, weights summed
    Fold(fold::FoldArgs),
    /// Functions by flat and cumulative weight, like `go tool pprof -top`
    Top(top::TopArgs),
    /// Each matching function's source lines with flat and cum, like `go tool pprof -list`
    List(list::ListArgs),
    /// The call graph: a node per function (flat, cum), an edge per call, pruned like `go tool pprof -dot`
    Graph(graph::GraphArgs),
    /// The share of samples whose stack has a matching frame (each sample once): prints MATCHED TOTAL PERCENT
    Search(search::SearchArgs),
    /// Format, samples, total, events, distinct stacks, maximum depth
    Info(info::InfoArgs),
    /// FlameScope's subsecond-offset heatmap: sample counts per second (column) and offset within it (row)
    Heatmap(heatmap::HeatmapArgs),
    /// Markers (trace duration and instant events, Gecko markers) by thread: name, start, duration
    Markers(markers::MarkersArgs),
    /// A link that carries the profile itself (compressed) to a scorch viewer, with its timestamps when they fit
    Link(link::LinkArgs),
    /// What changed from BASE (before) to TARGET (after): functions by change in their share of each total
    Diff(diff::DiffArgs),
    /// The view as a file: an SVG flame graph, gzip'd pprof or folded text (what the app's Export menu writes)
    Export(export::ExportArgs),
    /// Several profiles in a row: each function's self and total share in each, sorted by trend; a CI gate
    Series(series::SeriesArgs),
    /// A recording symbolized here as one compact file that opens anywhere (gzip'd pprof: every event, each
    /// sample's thread and time)
    Pack(pack::PackArgs),
}

impl Command {
    pub fn run(&self) -> Result<()> {
        match self {
            Command::Fold(a) => fold::run(a),
            Command::Top(a) => top::run(a),
            Command::List(a) => list::run(a),
            Command::Graph(a) => graph::run(a),
            Command::Search(a) => search::run(a),
            Command::Info(a) => info::run(a),
            Command::Heatmap(a) => heatmap::run(a),
            Command::Markers(a) => markers::run(a),
            Command::Link(a) => link::run(a),
            Command::Diff(a) => diff::run(a),
            Command::Export(a) => export::run(a),
            Command::Series(a) => series::run(a),
            Command::Pack(a) => pack::run(a),
        }
    }
}
