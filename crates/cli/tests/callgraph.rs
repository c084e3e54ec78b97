//! `scorch graph` against `go tool pprof -dot` (the oracles in `tests/data/callgraph/`, made as its README
//! says): with no pruning, the same nodes with the same flat and cum and the same edges with the same weights;
//! with pprof's default pruning, the same nodes and edges, and the same counts of what was dropped.
//!
//! pprof's labels round values ("28.61s", "648kB"); scorch's exact integers (`--json`) are formatted the way
//! pprof formats them (`measurement.ScaledLabel`: the graph's unit, two decimals, ".00" trimmed) and must
//! give the same text.

mod common;

use common::{core_data, scorch};
use flate2::read::GzDecoder;
use std::collections::BTreeMap;
use std::io::Read;

const PROFILES: [&str; 5] = [
    "gp-large.cpu",
    "parca-alloc_objects",
    "parca-fib",
    "parca-profile-with-labels",
    "gp-sample.cpu",
];

/// What a DOT graph says: per node name its flat and cum text, per (caller, callee) its weight text and
/// whether it is residual and inline, and the legend's lines.
#[derive(Debug, Default)]
struct Dot {
    nodes: BTreeMap<String, (String, String)>,
    edges: BTreeMap<(String, String), (String, bool, bool)>,
    legend: Vec<String>,
}

fn oracle(name: &str) -> Dot {
    let path = format!(
        "{}/tests/data/callgraph/{name}.dot.gz",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut text = String::new();
    GzDecoder::new(std::fs::File::open(&path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    parse_dot(&text)
}

/// The value of attribute `key="…"` in `attrs` (quotes escaped with a backslash).
fn attr(attrs: &str, key: &str) -> Option<String> {
    let start = attrs.find(&format!("{key}=\""))? + key.len() + 2;
    let mut out = String::new();
    let mut chars = attrs[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                '"' => out.push('"'),
                '\\' => out.push('\\'),
                c => {
                    out.push('\\');
                    out.push(c);
                }
            },
            '"' => return Some(out),
            c => out.push(c),
        }
    }
    None
}

/// A pprof function name as scorch's importer writes it: control characters (a tab in a kernel module's
/// symbol) as `\xNN`; a function without a name (pprof's `<unknown>` when it has no mapping either) as `??`.
fn scorch_name(s: &str) -> String {
    if s == "<unknown>" {
        return "??".to_string();
    }
    s.chars()
        .map(|c| {
            if c.is_control() {
                format!("\\x{:02x}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The text before a label's " (P%)".
fn before_pct(s: &str) -> String {
    s.rsplit_once(" (").map_or(s, |(v, _)| v).to_string()
}

fn parse_dot(text: &str) -> Dot {
    let mut dot = Dot::default();
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for line in text.lines() {
        if line.starts_with("subgraph cluster_L") {
            let label = attr(line, "label").unwrap();
            dot.legend = label.split("\\l").map(str::to_string).collect();
            continue;
        }
        let Some((head, attrs)) = line.split_once(" [") else {
            continue;
        };
        if let Some((from, to)) = head.split_once(" -> ") {
            // Nodelets (`NN4_0`) are pprof's label tags, not functions.
            if to.starts_with("NN") || to.contains('_') {
                continue;
            }
            let label = attr(attrs, "label").unwrap();
            let inline = label.ends_with("\\n (inline)");
            let w = label.trim_end_matches("\\n (inline)").trim().to_string();
            let residual = attrs.contains("style=\"dotted\"");
            dot.edges
                .insert((names[from].clone(), names[to].clone()), (w, residual, inline));
        } else if head.starts_with('N') && !head.starts_with("NN") && !head.contains('_') {
            // tooltip="NAME (CUM)"; label="NAME…\nFLAT (P%)\nof CUM (Q%)" or "…\n0 of CUM (Q%)" or "…\nFLAT (P%)".
            let tooltip = attr(attrs, "tooltip").unwrap();
            let name = scorch_name(tooltip.rsplit_once(" (").unwrap().0);
            let label = attr(attrs, "label").unwrap();
            let segs: Vec<&str> = label.split("\\n").collect();
            let last = segs[segs.len() - 1];
            let (flat, cum) = if let Some(c) = last.strip_prefix("of ") {
                (before_pct(segs[segs.len() - 2]), before_pct(c))
            } else if let Some((f, c)) = last.split_once(" of ") {
                (f.to_string(), before_pct(c))
            } else {
                (before_pct(last), before_pct(last))
            };
            names.insert(head.to_string(), name.clone());
            dot.nodes.insert(name, (flat, cum));
        }
    }
    dot
}

/// scorch's graph, exact (`--json`).
struct Exact {
    nodes: BTreeMap<String, (u64, u64)>,
    edges: BTreeMap<(String, String), (u64, bool, bool)>,
    json: serde_json::Value,
}

fn exact(file: &str, args: &[&str]) -> Exact {
    let path = core_data(&format!("pprof/{file}.pb.gz"));
    let mut all = vec!["graph", "--json"];
    all.extend_from_slice(args);
    all.push(&path);
    let (code, out, err) = scorch(&all);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let nodes: Vec<(String, u64, u64)> = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["name"].as_str().unwrap().to_string(),
                n["flat"].as_u64().unwrap(),
                n["cum"].as_u64().unwrap(),
            )
        })
        .collect();
    let edges = json["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let from = nodes[e["from"].as_u64().unwrap() as usize].0.clone();
            let to = nodes[e["to"].as_u64().unwrap() as usize].0.clone();
            (
                (from, to),
                (
                    e["weight"].as_u64().unwrap(),
                    e["residual"].as_bool().unwrap(),
                    e["inline"].as_bool().unwrap(),
                ),
            )
        })
        .collect();
    Exact {
        nodes: nodes.into_iter().map(|(n, f, c)| (n, (f, c))).collect(),
        edges,
        json,
    }
}

/// The unit suffix of a pprof value ("28.61s" → "s", "648kB" → "kB", "462" → "").
fn suffix(v: &str) -> &str {
    v.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-')
}

/// pprof's `measurement.ScaledLabel` of an exact value in the unit `unit` (from nanoseconds, bytes or a
/// count).
fn pprof_text(x: u64, unit: &str) -> String {
    let factor = match unit {
        "" | "ns" | "B" => 1.0,
        "us" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        "hrs" => 3600e9,
        "kB" => 1024.0,
        "MB" => 1048576.0,
        "GB" => 1073741824.0,
        other => panic!("unit {other:?}"),
    };
    let text = format!("{:.2}", x as f64 / factor);
    let text = text.strip_suffix(".00").unwrap_or(&text);
    if text == "0" {
        return "0".to_string();
    }
    format!("{text}{unit}")
}

/// The graph's unit: every value pprof prints in one graph has the same suffix (besides "0").
fn graph_unit(d: &Dot) -> String {
    let units: std::collections::BTreeSet<&str> = d
        .nodes
        .values()
        .flat_map(|(f, c)| [f.as_str(), c.as_str()])
        .filter(|v| *v != "0")
        .map(suffix)
        .collect();
    assert!(units.len() <= 1, "{units:?}");
    units.into_iter().next().unwrap_or("").to_string()
}

fn compare(file: &str, d: &Dot, g: &Exact, numbers: bool) {
    let unit = graph_unit(d);
    let only = |a: Vec<String>, b: Vec<String>| -> Vec<String> {
        let b: std::collections::BTreeSet<String> = b.into_iter().collect();
        a.into_iter().filter(|x| !b.contains(x)).collect()
    };
    let (ours, theirs): (Vec<String>, Vec<String>) = (
        g.nodes.keys().cloned().collect(),
        d.nodes.keys().cloned().collect(),
    );
    assert_eq!(
        (only(ours.clone(), theirs.clone()), only(theirs, ours)),
        (vec![], vec![]),
        "{file}: nodes only scorch has, only pprof has"
    );
    let pairs = |m: Vec<&(String, String)>| {
        m.into_iter()
            .map(|(a, b)| format!("{a} -> {b}"))
            .collect::<Vec<_>>()
    };
    let (ours, theirs) = (pairs(g.edges.keys().collect()), pairs(d.edges.keys().collect()));
    assert_eq!(
        (only(ours.clone(), theirs.clone()), only(theirs, ours)),
        (vec![], vec![]),
        "{file}: edges only scorch has, only pprof has"
    );
    if !numbers {
        return;
    }
    for (name, (flat, cum)) in &d.nodes {
        let (f, c) = g.nodes[name];
        assert_eq!(
            (pprof_text(f, &unit), pprof_text(c, &unit)),
            (flat.clone(), cum.clone()),
            "{file}: {name}: exact flat {f}, cum {c}"
        );
    }
    for (pair, (w, residual, inline)) in &d.edges {
        let (x, r, i) = g.edges[pair];
        assert_eq!(
            (pprof_text(x, &unit), r, i),
            (w.clone(), *residual, *inline),
            "{file}: {pair:?}: exact weight {x}"
        );
    }
}

/// The number in a legend line "Dropped N nodes (…)", "Showing top K nodes out of M".
fn legend_number(d: &Dot, prefix: &str) -> Option<Vec<u64>> {
    let line = d.legend.iter().find(|l| l.starts_with(prefix))?;
    Some(
        line.split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect(),
    )
}

#[test]
fn unpruned_graphs_equal_pprof() {
    for file in PROFILES {
        let d = oracle(&format!("{file}.full"));
        assert!(!d.nodes.is_empty(), "{file}");
        let g = exact(
            file,
            &[
                "--nodefraction",
                "0",
                "--edgefraction",
                "0",
                "--nodecount",
                "100000",
            ],
        );
        compare(file, &d, &g, true);
    }
}

#[test]
fn default_pruning_equals_pprof() {
    for file in PROFILES {
        let d = oracle(&format!("{file}.default"));
        let g = exact(file, &[]);
        compare(file, &d, &g, true);
        // "Dropped N nodes (cum <= X)", "Dropped M edges (freq <= Y)": absent when none was dropped.
        let dropped = |what: &str| {
            d.legend
                .iter()
                .find(|l| l.starts_with("Dropped ") && l.contains(what))
                .map_or(0, |l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        };
        assert_eq!(
            g.json["dropped_nodes"].as_u64().unwrap(),
            dropped(" node"),
            "{file}: {:?}",
            d.legend
        );
        assert_eq!(
            g.json["dropped_edges"].as_u64().unwrap(),
            dropped(" edge"),
            "{file}: {:?}",
            d.legend
        );
        if let Some(n) = legend_number(&d, "Showing top ") {
            assert_eq!(
                (
                    g.nodes.len() as u64,
                    g.json["nodes_before_count"].as_u64().unwrap()
                ),
                (n[0], n[1]),
                "{file}"
            );
        }
    }
}

#[test]
fn dot_output_has_the_json_graph() {
    let path = core_data("pprof/parca-fib.pb.gz");
    let (code, out, err) = scorch(&["graph", "--dot", &path]);
    assert_eq!(code, 0, "{err}");
    let d = parse_dot(&out);
    let g = exact("parca-fib", &[]);
    assert_eq!(
        d.nodes.keys().collect::<Vec<_>>(),
        g.nodes.keys().collect::<Vec<_>>()
    );
    assert_eq!(
        d.edges.keys().collect::<Vec<_>>(),
        g.edges.keys().collect::<Vec<_>>()
    );
    assert!(
        d.legend.iter().any(|l| l.starts_with("Dropped 99 nodes")),
        "{:?}",
        d.legend
    );
}

#[test]
fn focus_keeps_only_paths_through_a_match() {
    let g = exact(
        "parca-fib",
        &["--focus", "^runtime\\.mallocgc$", "--nodecount", "0"],
    );
    assert!(g.nodes.contains_key("runtime.mallocgc"));
    let total = g.json["total"].as_u64().unwrap();
    assert_eq!(
        g.nodes["runtime.mallocgc"].1, total,
        "every sample kept passes through it"
    );
    let path = core_data("pprof/parca-fib.pb.gz");
    let (code, _, err) = scorch(&["graph", "--focus", "(", &path]);
    assert_eq!(code, 2, "{err}");
}

/// A perf recording, which pprof cannot read, against `tests/data/callgraph/perf_oracle.py` (pprof's rules
/// written again in Python, from `scorch fold`'s stacks; `nodecount` 0): the same nodes in the same order with
/// the same flat and cum, the same edges with the same weights, residual and inline flags, the same drops.
#[test]
fn perf_recordings_equal_the_python_oracle() {
    for (file, base) in [
        ("fg-example-perf-stacks.txt.gz", "fg-example-perf-stacks"),
        ("fg-perf-vertx-stacks-01.txt", "fg-perf-vertx-stacks-01"),
        ("inf-java-inline.txt", "inf-java-inline"),
    ] {
        for (mode, nf, ef) in [("full", "0", "0"), ("default", "0.005", "0.001")] {
            let path = format!(
                "{}/tests/data/callgraph/{base}.perf.{mode}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let want: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let input = core_data(&format!("perf/{file}"));
            let (code, out, err) = scorch(&[
                "graph",
                "--json",
                "--nodecount",
                "0",
                "--nodefraction",
                nf,
                "--edgefraction",
                ef,
                &input,
            ]);
            assert_eq!(code, 0, "{err}");
            let got: serde_json::Value = serde_json::from_str(&out).unwrap();
            let nodes = |v: &serde_json::Value| -> Vec<(String, u64, u64)> {
                v["nodes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| {
                        (
                            n["name"].as_str().unwrap().to_string(),
                            n["flat"].as_u64().unwrap(),
                            n["cum"].as_u64().unwrap(),
                        )
                    })
                    .collect()
            };
            let (ours, theirs) = (nodes(&got), nodes(&want));
            assert_eq!(ours, theirs, "{file} {mode}: nodes");
            let edges = |v: &serde_json::Value, by_index: bool| -> Vec<(String, String, u64, bool, bool)> {
                v["edges"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| {
                        let end = |k: &str| {
                            if by_index {
                                ours[e[k].as_u64().unwrap() as usize].0.clone()
                            } else {
                                e[k].as_str().unwrap().to_string()
                            }
                        };
                        (
                            end("from"),
                            end("to"),
                            e["weight"].as_u64().unwrap(),
                            e["residual"].as_bool().unwrap(),
                            e["inline"].as_bool().unwrap(),
                        )
                    })
                    .collect()
            };
            assert_eq!(edges(&got, true), edges(&want, false), "{file} {mode}: edges");
            for k in ["total", "dropped_nodes", "dropped_edges"] {
                assert_eq!(got[k], want[k], "{file} {mode}: {k}");
            }
        }
    }
}
