//! `scorch fold`: canonical folded stacks, or exactly what inferno-collapse-perf writes.

use crate::error::{CliError, Result};
use crate::io::{load, load_many, warn, write_lines, write_out};
use crate::view::WholeViewArgs;
use clap::{Args, ValueEnum};
use scorch_core::import::perf::{InfernoFlags, Naming};
use scorch_core::view::{RootMode, ViewOptions};
use scorch_core::{export, ImportOptions};

/// The options `--compat inferno` cannot be combined with.
const VIEW_ARGS: [&str; 13] = [
    "event",
    "sample_type",
    "root",
    "tagroot",
    "count",
    "tagfilter",
    "range",
    "offsets",
    "transform",
    "invert",
    "callers",
    "callees",
    "granularity",
];

#[derive(Args, Debug)]
pub struct FoldArgs {
    #[command(flatten)]
    pub view: WholeViewArgs,
    /// The profile (`-`: standard input); several are merged (summed, as `go tool pprof` merges them), each
    /// sample labelled `profile=FILE` (`--tagroot profile`, `--tagfilter profile=FILE`)
    #[arg(value_name = "FILE", required = true, num_args = 1..)]
    pub file: Vec<String>,
    #[command(flatten)]
    pub compat: CompatArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Compat {
    Inferno,
}

/// `--compat inferno` and inferno's own flags.
#[derive(Args, Debug)]
#[command(next_help_heading = "Compatibility")]
pub struct CompatArgs {
    /// Write exactly what inferno-collapse-perf writes; then inferno's flags below apply
    #[arg(long, value_enum, value_name = "TOOL", conflicts_with_all = VIEW_ARGS)]
    pub compat: Option<Compat>,
    /// inferno: include the PID with process names
    #[arg(long, requires = "compat")]
    pub pid: bool,
    /// inferno: include the TID and PID with process names
    #[arg(long, requires = "compat")]
    pub tid: bool,
    /// inferno: annotate kernel functions with _[k]
    #[arg(long, requires = "compat")]
    pub kernel: bool,
    /// inferno: annotate JIT functions with _[j]
    #[arg(long, requires = "compat")]
    pub jit: bool,
    /// inferno: include raw addresses where symbols cannot be found
    #[arg(long, requires = "compat")]
    pub addrs: bool,
    /// inferno: --kernel and --jit
    #[arg(long, requires = "compat")]
    pub all: bool,
    /// inferno: fold only this event (none matches: empty output)
    #[arg(long, value_name = "EVENT", requires = "compat")]
    pub event_filter: Option<String>,
}

pub fn run(a: &FoldArgs) -> Result<()> {
    match a.compat.compat {
        None => fold(a),
        Some(Compat::Inferno) => match a.file.as_slice() {
            [file] => inferno(&a.compat, file),
            _ => Err(CliError::Usage("--compat inferno folds one file".into())),
        },
    }
}

fn fold(a: &FoldArgs) -> Result<()> {
    let profile = match a.file.as_slice() {
        [file] => {
            let imp = load(file, ImportOptions::default())?;
            warn(&imp);
            imp.profile
        }
        files => load_many(files, ImportOptions::default(), a.view.event.name())?.profile,
    };
    let (explored, v) = a.view.apply(&profile)?;
    let p = explored.as_ref().unwrap_or(&profile);
    write_lines(export::fold_view_lines(p, &v, explored.is_some()))
}

/// What `scorch fold` prints for a view (`explored`: transforms or a sandwich side made `p`).
pub fn folded_text(p: &scorch_core::Profile, v: &ViewOptions, explored: bool) -> String {
    export::fold_view(p, v, explored)
}

fn inferno(c: &CompatArgs, file: &str) -> Result<()> {
    let flags = InfernoFlags {
        pid: c.pid,
        tid: c.tid,
        kernel: c.kernel || c.all,
        jit: c.jit || c.all,
        addrs: c.addrs,
    };
    let opts = ImportOptions {
        perf_naming: Naming::Inferno(flags),
        ..ImportOptions::default()
    };
    let imp = match load(file, opts) {
        Ok(imp) => imp,
        // inferno writes nothing for an input without samples; so does its compat mode.
        Err(CliError::Input(e)) if e.contains("no samples") || e.contains("input is empty") => return Ok(()),
        Err(e) => return Err(e),
    };
    warn(&imp);
    let p = &imp.profile;
    let mut v = ViewOptions {
        root: RootMode::None,
        ..ViewOptions::default_for(p)
    };
    if let Some(name) = &c.event_filter {
        match p.events.iter().position(|e| &e.name == name) {
            Some(i) => v.event = Some(i as u16),
            None => return Ok(()), // inferno: no sample matches, empty output
        }
    }
    write_out(export::to_folded_view(p, &v).as_bytes())
}
