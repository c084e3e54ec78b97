//! A call graph ([`crate::analysis::callgraph`]) as Graphviz DOT, laid out like `go tool pprof -dot`: the
//! legend box, one box per function labelled "name / flat (flat %) / of cum (cum %)", edges labelled with
//! their weight, residual edges dotted, inlined calls marked. Numbers use scorch's units
//! ([`format_value`]); percentages are of the graph's total. Every node and edge also carries its exact raw
//! integers as `scorch_flat`, `scorch_cum` and `scorch_weight` attributes (Graphviz ignores them).

use crate::analysis::callgraph::CallGraph;
use crate::model::units::{format_value, Unit};
use std::fmt::Write;

/// The DOT text of `g`, titled `title`; values are raw integers scaled by `10^decimals` in `unit`.
pub fn to_dot(g: &CallGraph, title: &str, unit: &Unit, decimals: u32) -> String {
    let scale = 10f64.powi(decimals as i32);
    let value = |x: u64| format_value(x as f64 / scale, unit);
    let pct = |x: u64| percentage(x, g.total);
    let mut out = String::new();
    let title = escape(title);
    let _ = writeln!(out, "digraph \"{title}\" {{");
    let _ = writeln!(out, "node [style=filled fillcolor=\"#f8f8f8\"]");
    let mut legend = vec![
        title.clone(),
        format!(
            "Showing nodes accounting for {}, {} of {} total",
            value(g.shown),
            pct(g.shown),
            value(g.total)
        ),
    ];
    if g.total != 0 {
        if g.dropped_nodes > 0 {
            legend.push(format!(
                "Dropped {} node{} (cum <= {})",
                g.dropped_nodes,
                plural(g.dropped_nodes),
                value(g.node_cutoff)
            ));
        }
        if g.dropped_edges > 0 {
            legend.push(format!(
                "Dropped {} edge{} (freq <= {})",
                g.dropped_edges,
                plural(g.dropped_edges),
                value(g.edge_cutoff)
            ));
        }
        if !g.nodes.is_empty() && g.nodes.len() < g.nodes_before_count {
            legend.push(format!(
                "Showing top {} nodes out of {}",
                g.nodes.len(),
                g.nodes_before_count
            ));
        }
    }
    let _ = writeln!(
        out,
        "subgraph cluster_L {{ \"{title}\" [shape=box fontsize=16 label=\"{}\\l\"] }}",
        legend.join("\\l")
    );
    let max_flat = g.nodes.iter().map(|n| n.flat).max().unwrap_or(0);
    for (i, n) in g.nodes.iter().enumerate() {
        let mut label = format!("{}\\n", escape(&n.name));
        if n.flat != 0 {
            let _ = write!(label, "{} ({})", value(n.flat), pct(n.flat));
        } else {
            label.push('0');
        }
        if n.cum != n.flat {
            label.push_str(if n.flat != 0 { "\\n" } else { " " });
            let _ = write!(label, "of {} ({})", value(n.cum), pct(n.cum));
        }
        // pprof's font: 8 points, growing with the square root of flat over the largest flat.
        let mut size = 8;
        if max_flat != 0 && n.flat != 0 {
            size += (16.0 * (n.flat as f64 / max_flat as f64).sqrt()).ceil() as i64;
        }
        let _ = writeln!(
            out,
            "N{} [label=\"{label}\" id=\"node{}\" fontsize={size} shape=box tooltip=\"{} ({})\" scorch_flat={} scorch_cum={}]",
            i + 1,
            i + 1,
            escape(&n.name),
            value(n.cum),
            n.flat,
            n.cum
        );
    }
    let name = |i: u32| g.nodes.get(i as usize).map_or("", |n| n.name.as_str());
    for e in &g.edges {
        let mut attr = format!(
            "label=\" {}{}\"",
            value(e.weight),
            if e.inline { "\\n (inline)" } else { "" }
        );
        if let (Some(weight), Some(width)) = (
            e.weight.saturating_mul(100).checked_div(g.total),
            e.weight.saturating_mul(5).checked_div(g.total),
        ) {
            let weight = 1 + weight.min(100);
            if weight > 1 {
                let _ = write!(attr, " weight={weight}");
            }
            let width = 1 + width.min(5);
            if width > 1 {
                let _ = write!(attr, " penwidth={width}");
            }
        }
        let tip = format!(
            "{} {} {} ({})",
            escape(name(e.from)),
            if e.residual { "..." } else { "->" },
            escape(name(e.to)),
            value(e.weight)
        );
        let _ = write!(attr, " tooltip=\"{tip}\" labeltooltip=\"{tip}\"");
        if e.residual {
            attr.push_str(" style=\"dotted\"");
        }
        let _ = writeln!(
            out,
            "N{} -> N{} [{attr} scorch_weight={}]",
            u64::from(e.from) + 1,
            u64::from(e.to) + 1,
            e.weight
        );
    }
    out.push_str("}\n");
    out
}

fn plural(n: usize) -> &'static str {
    if n > 1 {
        "s"
    } else {
        ""
    }
}

/// pprof's `measurement.Percentage`: "100%", two decimals from 1 %, else two significant digits.
fn percentage(x: u64, total: u64) -> String {
    let r = if total == 0 {
        0.0
    } else {
        x as f64 / total as f64 * 100.0
    };
    if (99.95..=100.05).contains(&r) {
        "100%".to_string()
    } else if r >= 1.0 {
        format!("{r:.2}%")
    } else if r == 0.0 {
        "0%".to_string()
    } else {
        let decimals = (1 - r.log10().floor() as i32).max(0) as usize;
        let text = format!("{r:.decimals$}");
        let text = if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            text
        };
        format!("{text}%")
    }
}

/// Quotes and backslashes escaped for a DOT string; line breaks become `\n`.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::callgraph::{call_graph, GraphOptions};
    use crate::import::folded::parse;
    use crate::view::ViewOptions;

    #[test]
    fn writes_nodes_edges_and_escapes() {
        let p = parse(b"main;say \"hi\" 3\nmain 1\n").unwrap();
        let g = call_graph(&p, &ViewOptions::default_for(&p), &GraphOptions::all()).unwrap();
        let dot = to_dot(&g, "t", &Unit::Samples, 0);
        assert!(dot.starts_with("digraph \"t\" {\n"), "{dot}");
        assert!(
            dot.contains("label=\"say \\\"hi\\\"\\n3 samples (75.00%)\""),
            "{dot}"
        );
        assert!(dot.contains("scorch_flat=1 scorch_cum=4"), "{dot}");
        assert!(dot.contains("N1 -> N2 [label=\" 3 samples\""), "{dot}");
        assert!(dot.ends_with("}\n"));
    }

    #[test]
    fn percentages_as_pprof_writes_them() {
        assert_eq!(percentage(1000, 1000), "100%");
        assert_eq!(percentage(5, 1000), "0.5%");
        assert_eq!(percentage(17, 100_000), "0.017%");
        assert_eq!(percentage(123, 1000), "12.30%");
    }
}
