//! `scorch info`: format, samples, total, events, distinct stacks, maximum depth.

use crate::error::Result;
use crate::io::{load_warn, write_out};
use clap::Args;
use scorch_core::model::units::{format_value, group_thousands, Weight};
use scorch_core::view::calltree::{CallTree, Order};
use scorch_core::view::ViewOptions;
use scorch_core::ImportOptions;

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

pub fn run(a: &InfoArgs) -> Result<()> {
    let imp = load_warn(&a.file, ImportOptions::default())?;
    let p = &imp.profile;
    let v = ViewOptions::default_for(p);
    let tree = CallTree::build(p, &v, Order::Alphabetical);
    let used_stacks = {
        let mut seen = vec![false; p.stacks.len()];
        for s in &p.samples.stack {
            if let Some(x) = seen.get_mut(s.idx()) {
                *x = true;
            }
        }
        seen.iter().filter(|&&b| b).count()
    };
    let unit = v.unit(p);
    let shown = Weight {
        raw: tree.total.first().copied().unwrap_or(0),
        decimals: p.meta.decimals,
    };
    let mut text = format!(
        "format:          {}{}\nsamples:         {}\ntotal:           {} ({})\nunit:            {}\n",
        p.meta.format,
        if imp.gzip { " (gzip)" } else { "" },
        p.meta.records,
        shown,
        format_value(shown.as_f64(), &unit),
        unit.name(),
    );
    if !p.events.is_empty() {
        text.push_str("events:\n");
        for (i, e) in p.events.iter().enumerate() {
            text.push_str(&format!(
                "  {}{}: {} samples, total {} {}\n",
                e.name,
                if Some(i as u16) == v.event { " (shown)" } else { "" },
                group_thousands(e.samples),
                group_thousands(e.total),
                e.unit.name()
            ));
        }
    }
    if let Some(times) = &p.samples.time_ns {
        if let (Some(a), Some(b)) = (times.iter().min(), times.iter().max()) {
            text.push_str(&format!("time span:       {:.6} s\n", (b - a) as f64 / 1e9));
        }
    }
    if !p.threads.is_empty() {
        text.push_str(&format!(
            "threads:         {}\n",
            group_thousands(p.threads.len() as u64)
        ));
    }
    text.push_str(&format!(
        "distinct stacks: {}\nframes:          {}\ncall-tree nodes: {}\nmax depth:       {}\nwarnings:        {}\n",
        group_thousands(used_stacks as u64),
        group_thousands(p.frames.len() as u64),
        group_thousands(tree.len() as u64 - 1),
        p.max_depth(),
        p.meta.warnings.count,
    ));
    write_out(text.as_bytes())
}
