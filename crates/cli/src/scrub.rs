//! `--scrub`, `--redact` and `--show`, shared by `scorch link` and `scorch export`: the core's scrub
//! (`scorch_core::export::scrub`) before the payload is written, and its report (`export::report`) instead of it.

use crate::error::{CliError, Result};
use crate::io::write_out;
use clap::Args;
use scorch_core::export::report::{report, Carries};
use scorch_core::export::scrub::{scrub, Rules};
use scorch_core::{Profile, ViewOptions};

#[derive(Args, Debug, Clone, Default)]
pub struct ScrubArgs {
    /// Scrub before writing (comma-separated): paths (file paths and URLs to base names), users (user names in
    /// home folders to <user>), header (the recording's facts; its hostname to <host>), labels (all) or
    /// labels=KEY, threads (those with no sample in the view), timestamps; or none. `link` scrubs paths,header
    /// unless told otherwise; `export` scrubs nothing unless told
    #[arg(long, value_name = "RULES")]
    pub scrub: Option<String>,
    /// Rename every frame (thread name, label value) this regular expression matches to <redacted>
    #[arg(long, value_name = "REGEX")]
    pub redact: Option<String>,
    /// Print what the payload would carry (samples, stacks, frames, threads, labels, file paths, user names,
    /// timestamps, header, scrub rules) and write nothing
    #[arg(long)]
    pub show: bool,
}

impl ScrubArgs {
    /// The rules asked for: `--scrub` (else `default`), with `--redact`.
    pub fn rules(&self, default: Rules) -> Result<Rules> {
        let mut r = match &self.scrub {
            Some(list) => Rules::parse(list).map_err(CliError::Usage)?,
            None => default,
        };
        if let Some(re) = &self.redact {
            r.redact = Some(re.clone());
        }
        Ok(r)
    }

    /// The profile and view scrubbed by the rules asked for (`default` when `--scrub` is not given); `None`
    /// when there are none (`--scrub none`): the profile goes as it is.
    pub fn apply(
        &self,
        p: &Profile,
        v: &ViewOptions,
        default: Rules,
    ) -> Result<Option<(Profile, ViewOptions)>> {
        let r = self.rules(default)?;
        if r.is_empty() {
            return Ok(None);
        }
        scrub(p, v, &r).map(Some).map_err(CliError::Usage)
    }
}

/// `--show`: the report of the payload a view makes, to standard output.
pub fn show(p: &Profile, v: &ViewOptions, c: &Carries) -> Result<()> {
    write_out(report(p, v, c).text().as_bytes())
}
