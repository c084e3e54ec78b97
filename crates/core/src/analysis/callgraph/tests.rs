use super::*;
use crate::import::folded::parse;
use std::collections::{BTreeMap, BTreeSet};

fn graph(text: &str, o: &GraphOptions) -> CallGraph {
    let p = parse(text.as_bytes()).unwrap();
    let v = ViewOptions::default_for(&p);
    call_graph(&p, &v, o).unwrap()
}

type Nodes = BTreeMap<String, (u64, u64)>;
type Edges = BTreeMap<(String, String), u64>;

fn sets(g: &CallGraph) -> (Nodes, Edges) {
    let nodes = g
        .nodes
        .iter()
        .map(|n| (n.name.clone(), (n.flat, n.cum)))
        .collect();
    let edges = g
        .edges
        .iter()
        .map(|e| {
            (
                (
                    g.nodes[e.from as usize].name.clone(),
                    g.nodes[e.to as usize].name.clone(),
                ),
                e.weight,
            )
        })
        .collect();
    (nodes, edges)
}

/// The definition, sample by sample: cum once per function on the path, an edge once per consecutive pair
/// of different functions, flat at the leaf.
fn by_definition(text: &str) -> (Nodes, Edges) {
    let mut nodes = Nodes::new();
    let mut edges = Edges::new();
    for line in text.lines() {
        let (stack, w) = line.rsplit_once(' ').unwrap();
        let w: u64 = w.parse().unwrap();
        if w == 0 {
            continue;
        }
        // The folded importer reads `_[i]` as the inline kind of the same name.
        let names: Vec<String> = stack
            .split(';')
            .map(|f| f.trim_end_matches("_[i]").to_string())
            .collect();
        for n in names.iter().collect::<BTreeSet<_>>() {
            nodes.entry(n.clone()).or_default().1 += w;
        }
        nodes.entry(names.last().unwrap().clone()).or_default().0 += w;
        let pairs: BTreeSet<(String, String)> = names
            .windows(2)
            .filter(|p| p[0] != p[1])
            .map(|p| (p[0].clone(), p[1].clone()))
            .collect();
        for pair in pairs {
            *edges.entry(pair).or_default() += w;
        }
    }
    (nodes, edges)
}

#[test]
fn recursion_counts_once_per_sample() {
    let text = "main;a;b;a;b 3\nmain;a;a;a 2\nmain;b 1\n";
    let g = graph(text, &GraphOptions::all());
    let (nodes, edges) = sets(&g);
    assert_eq!(nodes["main"], (0, 6));
    assert_eq!(nodes["a"], (2, 5));
    assert_eq!(nodes["b"], (4, 4));
    // a → a is no edge; a → b and b → a count once in the first sample.
    assert_eq!(edges.get(&("a".into(), "a".into())), None);
    assert_eq!(edges[&("a".into(), "b".into())], 3);
    assert_eq!(edges[&("b".into(), "a".into())], 3);
    assert_eq!(edges[&("main".into(), "a".into())], 5);
    assert_eq!(edges[&("main".into(), "b".into())], 1);
    assert_eq!(g.total, 6);
    assert_eq!(g.shown, 6);
}

#[test]
fn one_walk_agrees_with_the_definition() {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    for _ in 0..200 {
        let mut text = String::new();
        for _ in 0..(1 + next(12)) {
            let depth = 1 + next(8);
            let frames: Vec<&str> = (0..depth)
                .map(|_| ["a", "b", "c", "d", "a_[i]"][next(5) as usize])
                .collect();
            text.push_str(&format!("{} {}\n", frames.join(";"), next(5)));
        }
        let g = graph(&text, &GraphOptions::all());
        assert_eq!(sets(&g), by_definition(&text), "{text}");
    }
}

#[test]
fn inline_edges_are_marked() {
    let g = graph(
        "main;f;g_[i] 2\nmain;f;g 1\nmain;h;k_[i] 1\n",
        &GraphOptions::all(),
    );
    let edge = |a: &str, b: &str| {
        *g.edges
            .iter()
            .find(|e| g.nodes[e.from as usize].name == a && g.nodes[e.to as usize].name == b)
            .unwrap()
    };
    assert!(!edge("f", "g").inline, "g is called, not inlined, on one path");
    assert!(edge("h", "k").inline);
    assert!(!edge("main", "f").inline);
}

#[test]
fn dropped_nodes_leave_residual_edges_and_no_flat() {
    // `x` has cum 1 of 1000: under 0.005 × 1000 = 5.
    let text = "main;work 995\nmain;x;work 1\nmain;y 4\n";
    let o = GraphOptions {
        node_count: 0,
        ..GraphOptions::default()
    };
    let g = graph(text, &o);
    let (nodes, edges) = sets(&g);
    assert_eq!(g.dropped_nodes, 2, "x and y");
    assert_eq!(g.node_cutoff, 5);
    assert_eq!(nodes.keys().collect::<Vec<_>>(), ["main", "work"]);
    // main's cum keeps every sample through it; `y`'s samples add no flat to anyone.
    assert_eq!(nodes["main"], (0, 1000));
    assert_eq!(nodes["work"], (996, 996));
    assert_eq!(edges[&("main".into(), "work".into())], 996);
    let e = g.edges[0];
    assert!(e.residual, "one of its paths went over x");
    assert_eq!(g.shown, 996);
}

#[test]
fn node_count_keeps_the_top_of_the_entropy_order() {
    let mut text = String::new();
    for (i, w) in [50u64, 40, 30, 20, 10].iter().enumerate() {
        text.push_str(&format!("main;f{i} {w}\n"));
    }
    let o = GraphOptions {
        node_count: 3,
        ..GraphOptions::default()
    };
    let g = graph(&text, &o);
    let names: Vec<&str> = g.nodes.iter().map(|n| n.name.as_str()).collect();
    // main: an entry node (1) and 5-way entropy out; leaves score 1 + 1 each, so cum decides.
    assert_eq!(names, ["main", "f0", "f1"]);
    assert_eq!(g.nodes_before_count, 6);
    // main's cum stays whole: the dropped leaves' samples still pass through it.
    assert_eq!(g.nodes[0].cum, 150);
}

#[test]
fn light_edges_are_dropped_and_counted() {
    let text = "main;a 10000\nmain;b;a 5\nmain;b 5000\n";
    let o = GraphOptions {
        node_fraction: 0.0,
        node_count: 0,
        ..GraphOptions::default()
    };
    let g = graph(text, &o);
    let (_, edges) = sets(&g);
    assert_eq!(g.dropped_edges, 1, "b → a weighs 5 < 15");
    assert_eq!(g.edge_cutoff, 15);
    assert!(!edges.contains_key(&("b".into(), "a".into())));
}

#[test]
fn focus_keeps_samples_through_a_match() {
    let text = "main;a;x 3\nmain;b 4\nmain;c;xy 2\n";
    let o = GraphOptions {
        focus: Some("^x".into()),
        ..GraphOptions::all()
    };
    let g = graph(text, &o);
    let (nodes, _) = sets(&g);
    assert_eq!(nodes.keys().collect::<Vec<_>>(), ["a", "c", "main", "x", "xy"]);
    assert_eq!(g.total, 5);
    let bad = GraphOptions {
        focus: Some("(".into()),
        ..GraphOptions::all()
    };
    let p = parse(text.as_bytes()).unwrap();
    assert!(call_graph(&p, &ViewOptions::default_for(&p), &bad).is_err());
}

#[test]
fn redundant_residual_edges_go() {
    // With `m` dropped, main → leaf over m is residual; main → a → leaf already leads there.
    let text = "main;a;leaf 1000\nmain;m;leaf 1\nmain;a 500\n";
    let o = GraphOptions {
        node_fraction: 0.005,
        edge_fraction: 0.0,
        node_count: 0,
        focus: None,
    };
    let g = graph(text, &o);
    let (_, edges) = sets(&g);
    assert!(!edges.contains_key(&("main".into(), "leaf".into())), "{edges:?}");
    assert_eq!(edges.len(), 2);
}

#[test]
fn go_log2_matches_exact_powers_and_std() {
    assert_eq!(go_log2(0.5), -1.0);
    assert_eq!(go_log2(0.25), -2.0);
    for x in [0.1, 0.3, 0.7, 0.999, 1e-9] {
        assert!((go_log2(x) - x.log2()).abs() < 1e-12, "{x}");
    }
}
