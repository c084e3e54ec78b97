//! `scorch list`: each matching function's source lines with flat and cum, like `go tool pprof -list`
//! (`scorch_core::analysis::source`); with `--source-dir`, the source text beside them.

use crate::error::{CliError, Result};
use crate::io::{load_warn, write_out};
use crate::view::{view, EventArgs, TagFilterArgs, ViewSpec};
use clap::Args;
use scorch_core::analysis::search::Pattern;
use scorch_core::analysis::source::{list, safe_line, source_candidates, Routine};
use scorch_core::model::units::format_value;
use scorch_core::model::Unit;
use scorch_core::ImportOptions;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// The most of a source file read (a listing needs the lines around the hot ones only).
const MAX_SOURCE_BYTES: u64 = 64 << 20;
/// The longest source line printed, in bytes.
const MAX_LINE_BYTES: usize = 4096;

#[derive(Args, Debug)]
pub struct ListArgs {
    #[command(flatten)]
    pub event: EventArgs,
    #[command(flatten)]
    pub filter: TagFilterArgs,
    /// Where to look for the source files (matched by path suffix, as pprof's -source_path); without it, the
    /// per-line table without text
    #[arg(long, value_name = "DIR")]
    pub source_dir: Option<PathBuf>,
    /// Functions whose name this regular expression matches (anywhere in the name, case-sensitive)
    #[arg(value_name = "REGEX")]
    pub regex: String,
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

pub fn run(a: &ListArgs) -> Result<()> {
    let m = Pattern {
        text: a.regex.clone(),
        regex: true,
        case_sensitive: true,
    }
    .compile()
    .map_err(CliError::Usage)?;
    let imp = load_warn(&a.file, ImportOptions::default())?;
    let p = &imp.profile;
    let v = view(p, &ViewSpec::new(&a.event).tagfilter(&a.filter))?;
    let l = list(p, &v, |name| m.is_match(name));
    if l.routines.is_empty() && l.no_source.is_empty() {
        return Err(CliError::Input(format!(
            "no matches found for regexp: {}",
            a.regex
        )));
    }
    let unit = v.unit(p);
    // Counts as plain numbers, as pprof prints them; other units with theirs.
    let fmt = |x: i128| match unit {
        Unit::Samples if p.meta.decimals == 0 => x.to_string(),
        _ => format_value(x as f64 / 10f64.powi(p.meta.decimals as i32), &unit),
    };
    let dot = |x: i128| if x == 0 { ".".to_string() } else { fmt(x) };
    let pct = |x: i128| match l.total {
        0 => "0%".to_string(),
        t if x == t => "100%".to_string(),
        t => format!("{:.2}%", x as f64 * 100.0 / t as f64),
    };
    let mut text = format!("Total: {}\n", fmt(l.total));
    for r in &l.routines {
        text.push_str(&format!(
            "ROUTINE ======================== {} in {}\n{:>10} {:>10} (flat, cum) {:>6} of Total\n",
            r.function,
            r.file,
            fmt(r.flat),
            fmt(r.cum),
            pct(r.cum)
        ));
        let source = match &a.source_dir {
            Some(dir) => match read_span(dir, r) {
                Ok(lines) => Some(lines),
                Err(e) => {
                    text.push_str(&format!(" Error: {e}\n"));
                    None
                }
            },
            None => None,
        };
        match source {
            Some(lines) => {
                for (n, line) in lines {
                    let c = r.at(n);
                    text.push_str(&format!("{:>10} {:>10} {n:>6}:{line}\n", dot(c.flat), dot(c.cum)));
                }
            }
            None => {
                for c in &r.lines {
                    text.push_str(&format!(
                        "{:>10} {:>10} {:>6}:\n",
                        dot(c.flat),
                        dot(c.cum),
                        c.line
                    ));
                }
            }
        }
    }
    for f in &l.no_source {
        text.push_str(&format!("No source information for {f}\n"));
    }
    write_out(text.as_bytes())
}

/// The lines of the routine's span that its file (found under `dir`) has, numbered.
fn read_span(dir: &Path, r: &Routine) -> std::result::Result<Vec<(u32, String)>, String> {
    let path = source_candidates(&r.file)
        .into_iter()
        .map(|c| dir.join(c))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("could not find file {} on path {}", r.file, dir.display()))?;
    let f = std::fs::File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = std::io::BufReader::new(std::io::Read::take(f, MAX_SOURCE_BYTES));
    let (lo, hi) = r.span();
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for n in 1..=hi {
        buf.clear();
        let got = reader
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if got == 0 {
            break;
        }
        if n >= lo {
            out.push((n, safe_line(&buf, MAX_LINE_BYTES)));
        }
    }
    Ok(out)
}
