//! `scorch top`: functions by flat and cumulative weight, like `go tool pprof -top`.

use crate::error::Result;
use crate::io::{load_warn, write_out};
use crate::view::{view, EventArgs, LimitArgs, TagFilterArgs, ViewSpec};
use clap::Args;
use scorch_core::model::units::format_value;
use scorch_core::ImportOptions;

#[derive(Args, Debug)]
pub struct TopArgs {
    #[command(flatten)]
    pub event: EventArgs,
    #[command(flatten)]
    pub filter: TagFilterArgs,
    #[command(flatten)]
    pub limit: LimitArgs,
    /// Exact integers: flat<TAB>cum<TAB>name, all functions
    #[arg(long)]
    pub tsv: bool,
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

pub fn run(a: &TopArgs) -> Result<()> {
    let imp = load_warn(&a.file, ImportOptions::default())?;
    let p = &imp.profile;
    let v = view(p, &ViewSpec::new(&a.event).tagfilter(&a.filter))?;
    let (rows, total) = scorch_core::analysis::top::top(p, &v);
    if a.tsv {
        let text: String = rows
            .iter()
            .map(|r| format!("{}\t{}\t{}\n", r.flat, r.cum, r.name))
            .collect();
        return write_out(text.as_bytes());
    }
    let shown = a.limit.shown(rows.len());
    let unit = v.unit(p);
    let fmt = |x: i128| format_value(x as f64 / 10f64.powi(p.meta.decimals as i32), &unit);
    let pct = |x: i128| {
        if total == 0 {
            0.0
        } else {
            x as f64 * 100.0 / total as f64
        }
    };
    let kind = v
        .event
        .and_then(|e| p.events.get(e as usize))
        .map(|e| e.name.clone())
        .unwrap_or_default();
    let mut text = format!(
        "Showing {shown} of {} functions, {} total{}\n{:>16} {:>7} {:>7} {:>16} {:>7}  function\n",
        rows.len(),
        fmt(total),
        if kind.is_empty() {
            String::new()
        } else {
            format!(" ({kind})")
        },
        "flat",
        "flat%",
        "sum%",
        "cum",
        "cum%"
    );
    let mut sum = 0i128;
    for r in rows.iter().take(shown) {
        sum += r.flat;
        text.push_str(&format!(
            "{:>16} {:>6.2}% {:>6.2}% {:>16} {:>6.2}%  {}\n",
            fmt(r.flat),
            pct(r.flat),
            pct(sum),
            fmt(r.cum),
            pct(r.cum),
            r.name
        ));
    }
    write_out(text.as_bytes())
}
