//! How a run of `scorch` fails, and the exit status each failure gets.

use std::fmt;
use std::process::ExitCode;

/// A failed run. Each kind has its own exit status, so a CI pipeline can tell them apart:
///
/// | status | meaning |
/// |---|---|
/// | 0 | success (also `--help` and `--version`) |
/// | 1 | [`CliError::Input`]: a file could not be read or is not a profile, or does not have what was asked |
/// | 2 | [`CliError::Usage`]: the command line is wrong (clap's own errors exit 2 too) |
/// | 3 | [`CliError::Regression`]: `scorch diff --fail-if-grows` found a function that grew too much |
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliError {
    /// The command line is wrong: an argument clap could not check alone (e.g. an invalid regular expression).
    Usage(String),
    /// The input: a missing or unreadable file, not a profile, no such event or label in it; or the output
    /// could not be written.
    Input(String),
    /// `diff --fail-if-grows`: the gate found growth (the table has been printed).
    Regression(String),
}

impl CliError {
    pub const EXIT_INPUT: u8 = 1;
    /// The status clap itself exits with on a usage error.
    pub const EXIT_USAGE: u8 = 2;
    pub const EXIT_REGRESSION: u8 = 3;

    pub fn exit_status(&self) -> u8 {
        match self {
            CliError::Input(_) => Self::EXIT_INPUT,
            CliError::Usage(_) => Self::EXIT_USAGE,
            CliError::Regression(_) => Self::EXIT_REGRESSION,
        }
    }

    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.exit_status())
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Input(m) => f.write_str(m),
            CliError::Regression(m) => write!(f, "regression: {m}"),
        }
    }
}

/// Core's errors are strings about the input.
impl From<String> for CliError {
    fn from(msg: String) -> CliError {
        CliError::Input(msg)
    }
}

impl From<&str> for CliError {
    fn from(msg: &str) -> CliError {
        CliError::Input(msg.to_string())
    }
}

pub type Result<T, E = CliError> = std::result::Result<T, E>;
