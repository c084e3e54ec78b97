//! `scorch`: the same core as the viewer, on the command line.
//!
//! Thin by design: clap parses the arguments (`cmd`), each subcommand reads files in chunks and prints; all
//! logic lives in scorch-core. Exit status: see [`error::CliError`].

mod cmd;
mod error;
mod io;
mod scrub;
mod symbols;
mod view;

use clap::Parser;
use error::CliError;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match cmd::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // `--help` and `--version` print to standard output and succeed; every other clap error is a
            // usage error.
            return if e.use_stderr() {
                ExitCode::from(CliError::EXIT_USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    io::set_threads(cli.threads);
    io::set_warnings(cli.warnings);
    io::set_symbolize(!cli.no_symbols);
    io::set_inline(cli.inline);
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("scorch: {e}");
            e.exit_code()
        }
    }
}
