//! `scorch link`: a link that carries the profile itself (compressed) to a scorch viewer.

use crate::error::Result;
use crate::io::{load_warn, write_out};
use crate::view::{view, EventArgs, ViewSpec};
use clap::Args;
use scorch_core::export::links::{encode, encode_timed, DEFAULT_MAX};
use scorch_core::model::units::group_thousands;
use scorch_core::ImportOptions;

#[derive(Args, Debug)]
pub struct LinkArgs {
    #[command(flatten)]
    pub event: EventArgs,
    /// The viewer's address (anything after `#` is dropped)
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080/")]
    pub base_url: String,
    /// The longest link to write, in characters (smaller stacks are dropped to fit)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX)]
    pub max: usize,
    /// Leave out the timestamps (and so the receiver's heatmap)
    #[arg(long)]
    pub no_times: bool,
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

pub fn run(a: &LinkArgs) -> Result<()> {
    let imp = load_warn(&a.file, ImportOptions::default())?;
    let v = view(&imp.profile, &ViewSpec::new(&a.event))?;
    let max = a.max;
    // As the app: with every timestamp when the profile has them and they fit (the receiver gets the heatmap).
    let timed = if a.no_times {
        None
    } else {
        encode_timed(&imp.profile, &v, max)
    };
    let s = timed.unwrap_or_else(|| encode(&imp.profile, &v, max));
    let base = a.base_url.split('#').next().unwrap_or(&a.base_url);
    let url = format!("{base}#p={}", s.payload);
    eprintln!(
        "link: {} characters, {} distinct stacks{}{}",
        group_thousands(url.len() as u64),
        group_thousands(s.stacks as u64),
        if s.times { ", with timestamps" } else { "" },
        if s.dropped_stacks > 0 {
            format!(
                "; {} smaller stacks ({:.2} % of the total) dropped to stay under {max} characters",
                group_thousands(s.dropped_stacks as u64),
                s.dropped_ppm as f64 / 1e4
            )
        } else {
            String::new()
        }
    );
    write_out(format!("{url}\n").as_bytes())
}
