//! The link format's tests: round trips, old links, edge cases.
use super::*;

/// The hand-written encoder links were made with before this file: the crate must write the same bytes.
fn old_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b';'
            | b':'
            | b'/'
            | b',' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[test]
fn encodes_as_before() {
    for s in [
        "www/demo/service.perf.gz",
        "a b&c=d#e%f+g",
        "main;do_work;hash<T>::f",
        "ünïcödé → ✓",
        "hide name=^foo.*$\nfocus bar",
        "",
    ] {
        assert_eq!(encode(s), old_encode(s), "{s:?}");
        assert_eq!(decode(&encode(s)), s);
    }
    assert_eq!(decode("a+b%2Bc%zz"), "a b+c%zz");
}

#[test]
fn round_trips_a_link() {
    let link = "#url=www/demo/service.perf.gz&view=icicle&zoom=main;work&ev=cycles&w=count&unit=us&root=tid\
                &tf=a%3Db&rows=100&idle=0&range=1000-2000&a=0-1000&q=hash&qf=rc&mode=sandwich&sel=work\
                &order=heavy&color=module&widths=base&abs=1";
    let s = UrlState::parse(link);
    assert_eq!(s.source, Source::Url("www/demo/service.perf.gz".into()));
    assert_eq!(s.orientation, Orientation::Icicle);
    assert_eq!(s.zoom, ["main", "work"]);
    assert_eq!((s.weight, s.rows, s.idle), (WeightMode::Count, 100, false));
    assert_eq!(s.unit, Some(DeclaredUnit::Microseconds));
    assert_eq!((s.range, s.range_a), (Some((1000, 2000)), Some((0, 1000))));
    assert!(s.search.regex && s.search.case_sensitive);
    assert_eq!(
        (s.mode, s.order, s.scheme),
        (Mode::Sandwich, Order::Weight, ColorScheme::Module)
    );
    assert_eq!((s.widths, s.absolute), (Widths::Base, true));
    assert_eq!(s.render().as_deref(), Some(link));
}

#[test]
fn round_trips_the_graph_and_its_focus() {
    // The focus is a regular expression: its `^`, `$`, `.`, `\\` and `(` survive the link.
    let link = "#url=u.pb.gz&mode=graph&gf=%5Emain%5C.%5C%28%5C%2AT%5C%29%5C.run%24";
    let s = UrlState::parse(link);
    assert_eq!(
        (s.mode, s.graph_focus.as_deref()),
        (Mode::Graph, Some("^main\\.\\(\\*T\\)\\.run$"))
    );
    assert_eq!(s.render().as_deref(), Some(link));
    // No focus, and an empty one, write nothing; older links (no `gf`) open without a focus.
    assert_eq!(UrlState::parse("#mode=graph&gf=").graph_focus, None);
    assert_eq!(
        UrlState::parse("#mode=graph").render().as_deref(),
        Some("#mode=graph")
    );
    // A new focus is a step (Back returns to the graph without it).
    let unfocused = UrlState {
        graph_focus: None,
        ..s.clone()
    };
    assert!(unfocused.is_step_from(&s));
}

#[test]
fn round_trips_the_graph_pruning() {
    let link = "#url=u.pb.gz&mode=graph&gn=0&gnf=0.02&gef=0";
    let s = UrlState::parse(link);
    let g = s.graph_prune;
    assert_eq!((g.node_count, g.node_fraction, g.edge_fraction), (0, 0.02, 0.0));
    assert_eq!(s.render().as_deref(), Some(link));
    // pprof's defaults write nothing; what is no count or no fraction from 0 to 1 keeps the default.
    let d = GraphPrune::default();
    assert_eq!(
        (d.node_count, d.node_fraction, d.edge_fraction),
        (80, 0.005, 0.001)
    );
    assert_eq!(
        UrlState::parse("#mode=graph&gn=80&gnf=0.005&gef=0.001")
            .render()
            .as_deref(),
        Some("#mode=graph")
    );
    for bad in ["gn=-1", "gn=x", "gnf=1.5", "gnf=NaN", "gef=-0.1", "gef=inf"] {
        assert_eq!(UrlState::parse(&format!("#{bad}")).graph_prune, d, "{bad}");
    }
    // Not a history step (as the colours are not).
    let pruned_less = UrlState {
        graph_prune: d,
        ..s.clone()
    };
    assert!(!pruned_less.is_step_from(&s));
}

#[test]
fn round_trips_the_chart_window() {
    let link = "#url=u.perf&range=0-9000&mode=chart&cw=1500-2500";
    let s = UrlState::parse(link);
    assert_eq!((s.mode, s.chart_window), (Mode::Chart, Some((1500, 2500))));
    assert_eq!(s.render().as_deref(), Some(link));
    // An empty or reversed window is no window.
    assert_eq!(UrlState::parse("#mode=chart&cw=5-5").chart_window, None);
    assert_eq!(UrlState::parse("#mode=chart&cw=9-2").chart_window, None);
    // A carried profile without timestamps has no clock to place it on.
    let carried = UrlState::parse(link).for_embedded("x".into(), None, false);
    assert_eq!(carried.chart_window, None);
}

#[test]
fn round_trips_a_band() {
    // Band B (seconds 2..10, 200–300 ms of each) compared with band A (seconds 0..2, 0–100 ms).
    let link = "#url=u.perf&range=2000000000-10000000000&a=0-2000000000&off=200000000-300000000\
                &aoff=0-100000000";
    let s = UrlState::parse(link);
    assert_eq!(s.range, Some((2_000_000_000, 10_000_000_000)));
    assert_eq!(s.offsets, Some((200_000_000, 300_000_000)));
    assert_eq!(s.offsets_a, Some((0, 100_000_000)));
    assert!(s.unknown.is_empty());
    assert_eq!(s.render().as_deref(), Some(link));
    assert_eq!(UrlState::parse(&s.render().unwrap()), s);
    // A band is a step in history; a link from before bands has none.
    let before = UrlState::parse("#url=u.perf&range=2000000000-10000000000&a=0-2000000000");
    assert_eq!((before.offsets, before.offsets_a), (None, None));
    assert!(s.is_step_from(&before));
    // Offsets that are no band are ignored, not half-applied.
    for bad in ["300-200", "5-5", "0-1000000001", "x-3", "200"] {
        assert_eq!(UrlState::parse(&format!("#off={bad}")).offsets, None, "{bad}");
    }
    // A link that carries its stacks without timestamps has the band baked in.
    let e = s.clone().for_embedded("P".into(), None, false);
    assert_eq!((e.range, e.offsets, e.offsets_a), (None, None, None));
    let t = s.for_embedded("P".into(), None, true);
    assert_eq!(t.offsets, Some((200_000_000, 300_000_000)));
}

#[test]
fn round_trips_threads_and_a_slice_diff() {
    let link = "#url=t.perf&tf=tenant%3Dacme&th=12,13&btf=tid%3D7";
    let s = UrlState::parse(link);
    assert_eq!(s.threads, [12, 13]);
    assert_eq!(s.base_filter.as_deref(), Some("tid=7"));
    assert_eq!(s.label_filter.as_deref(), Some("tenant=acme"));
    assert!(s.unknown.is_empty());
    assert_eq!(s.render().as_deref(), Some(link));
    // Unsorted, repeated or bad tids are read as the set they name; `all` is a base of every sample.
    let s = UrlState::parse("#th=13,x,12,13&btf=all");
    assert_eq!(
        (s.threads.as_slice(), s.base_filter.as_deref()),
        (&[12, 13][..], Some(""))
    );
    assert_eq!(s.render().as_deref(), Some("#th=12,13&btf=all"));
    // A link from before threads has none and no slice base; choosing threads is a step in history.
    let old = UrlState::parse("#url=t.perf&tf=tenant%3Dacme");
    assert_eq!((old.threads.len(), old.base_filter.clone()), (0, None));
    assert!(UrlState::parse(link).is_step_from(&old));
    // A link that carries its stacks drops both (they are baked in).
    let e = UrlState::parse(link).for_embedded("P".into(), None, true);
    assert_eq!((e.threads.len(), e.base_filter), (0, None));
}

#[test]
fn sources_and_versions() {
    let s = UrlState::parse("#pb=B&p=P&zz=1");
    assert_eq!(
        s.source,
        Source::Embedded {
            profile: "P".into(),
            base: Some("B".into())
        }
    );
    assert_eq!(s.unknown, [("zz".to_string(), "1".to_string())]);
    assert_eq!(s.version, 1);
    assert_eq!(
        UrlState::parse("#base=x&target=y&v=1").render().as_deref(),
        Some("#base=x&target=y")
    );
    assert_eq!(UrlState::parse("#v=2&url=u").version, 2);
    assert_eq!(UrlState::default().render(), None);
}

#[test]
fn a_series_and_the_embed_switch() {
    let s = UrlState::parse("#series=a.pb.gz%2C%2Fx%2Fb.pb.gz,,c&embed=1");
    assert_eq!(
        s.source,
        Source::Series(vec!["a.pb.gz".into(), "/x/b.pb.gz".into(), "c".into()])
    );
    assert!(s.embed);
    assert_eq!(UrlState::parse(&s.render().unwrap()), s, "round trip");
    let long = format!("#series={}", vec!["u"; MAX_SERIES + 5].join(","));
    assert!(matches!(UrlState::parse(&long).source, Source::Series(v) if v.len() == MAX_SERIES));
    let c = UrlState::parse("#ps=a%3Ab.pb.gz:PA&ps=two,x:PB&ps=bad&root=label%3Aprofile");
    assert_eq!(
        c.source,
        Source::Carried(vec![
            ("a:b.pb.gz".into(), "PA".into()),
            ("two,x".into(), "PB".into())
        ])
    );
    assert_eq!(UrlState::parse(&c.render().unwrap()), c, "round trip");
    // A named profile wins over a series.
    assert_eq!(
        UrlState::parse("#url=x&series=a,b").source,
        Source::Url("x".into())
    );
}

#[test]
fn notes_round_trip_raw_and_capped() {
    use scorch_core::view::notes::NoteTarget;
    // Written by hand from docs/SHARING.md: each part percent-encoded, `.` as `%2E`.
    let hash =
        "#url=a.pb.gz&note=f.main.look%20%3Cb%3Ehere%3C%2Fb%3E&note=r.1000-2000~0-500.GC%2E&note=v..x%2By";
    let s = UrlState::parse(hash);
    assert_eq!(s.notes.len(), 3);
    assert_eq!(s.notes[0].target, NoteTarget::Frame("main".into()));
    assert_eq!(s.notes[0].text, "look <b>here</b>");
    assert_eq!(
        s.notes[1].target,
        NoteTarget::Range {
            start: 1000,
            end: 2000,
            band: Some((0, 500))
        }
    );
    assert_eq!(s.notes[1].text, "GC.");
    // `%2B` is a plus (the fragment's `+` as a space does not apply to a note's raw value).
    assert_eq!(s.notes[2].text, "x+y");
    assert!(s.unknown.is_empty(), "{:?}", s.unknown);
    assert!(s.note_messages.is_empty());
    let out = s.render().unwrap();
    assert_eq!(
        out,
        "#url=a.pb.gz&note=f.main.look%20%3Cb%3Ehere%3C%2Fb%3E&note=r.1000-2000~0-500.GC%2E&note=v..x%2By"
    );
    // Only notes: still a fragment.
    let only = UrlState {
        notes: s.notes.clone(),
        ..UrlState::default()
    };
    assert!(only.render().unwrap().starts_with("#note=f.main."));
    // 10,000 notes: the first 100 and the core's message.
    let many: String = (0..10_000).map(|i| format!("&note=v..n{i}")).collect();
    let s = UrlState::parse(&format!("#url=a{many}"));
    assert_eq!(s.notes.len(), 100);
    assert_eq!(
        s.note_messages,
        vec!["9900 notes left out: a link carries at most 100".to_string()]
    );
}

#[test]
fn round_trips_the_granularity() {
    let link = "#url=u.pb.gz&gran=lines";
    let s = UrlState::parse(link);
    assert_eq!(s.granularity, scorch_core::view::Granularity::Lines);
    assert_eq!(s.render().as_deref(), Some(link));
    // Functions (the default) writes nothing; an unknown word reads as functions.
    assert_eq!(
        UrlState::parse("#url=u.pb.gz&gran=functions").render().as_deref(),
        Some("#url=u.pb.gz")
    );
    assert_eq!(
        UrlState::parse("#gran=bytes").granularity,
        scorch_core::view::Granularity::Functions
    );
}
