//! `scorch pack FILE -o OUT`: a recording, symbolized on this machine, as one compact file that opens anywhere —
//! gzip'd pprof written by the core (`export::pprof::pack`): every event, each sample's thread and time.

use crate::error::{CliError, Result};
use crate::io::{load, warn, write_out};
use clap::Args;
use scorch_core::{export, ImportOptions};

#[derive(Args, Debug)]
pub struct PackArgs {
    /// Where to write it (`-`: standard output)
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: String,
    /// The profile, usually a perf.data recording (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

pub fn run(a: &PackArgs) -> Result<()> {
    let imp = load(&a.file, ImportOptions::default())?;
    warn(&imp);
    let bytes = export::pprof::pack(&imp.profile)?;
    match a.output.as_str() {
        "-" => write_out(&bytes),
        path => std::fs::write(path, &bytes).map_err(|e| CliError::Input(format!("{path}: {e}"))),
    }
}
