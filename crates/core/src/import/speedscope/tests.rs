use super::*;

fn import(doc: &str) -> Result<Profile, ImportError> {
    let mut p = SpeedscopeParser::new(&SpeedscopeOptions::default());
    p.feed(doc.as_bytes())?;
    p.finish()
}

const FRAMES: &str = r#""shared":{"frames":[{"name":"a"},{"name":"b"},{"name":"c"}]}"#;

#[test]
fn evented_intervals_with_exact_times() {
    let doc = format!(
        r#"{{{FRAMES},"profiles":[{{"type":"evented","name":"p","unit":"microseconds","startValue":5,"endValue":30,
        "events":[{{"type":"O","frame":0,"at":10}},{{"type":"O","frame":1,"at":12}},{{"type":"C","frame":1,"at":15}},
        {{"type":"C","frame":0,"at":20}},{{"type":"O","frame":2,"at":25}}]}}]}}"#
    );
    let p = import(&doc).unwrap();
    assert_eq!(p.samples.weight, vec![2000, 3000, 5000, 5000]);
    assert_eq!(
        p.samples.time_ns.clone().unwrap(),
        vec![10_000, 12_000, 15_000, 25_000]
    );
    assert_eq!(p.meta.unit, Unit::Nanoseconds);
    assert_eq!(p.meta.warnings.count, 1, "c is still open at the end");
    assert_eq!(stacks_of(&p), vec!["a", "a;b", "a", "c"]);
}

#[test]
fn sampled_units_events_and_names() {
    let doc = r#"{"shared":{"frames":[{"name":"f","file":"x.py","line":3},{"name":"f","file":"x.py","line":4},{"name":"g"}]},
      "profiles":[{"type":"sampled","name":"T1","unit":"seconds","startValue":1,"endValue":2,"samples":[[2,0],[2,1],[]],"weights":[0.25,0.5,1]},
                  {"type":"sampled","name":"heap","unit":"bytes","startValue":0,"endValue":1,"samples":[[2]],"weights":[4096]}]}"#;
    let p = import(doc).unwrap();
    assert_eq!(p.events.len(), 2);
    assert_eq!(
        p.samples.weight,
        vec![250_000_000, 500_000_000, 1_000_000_000, 4096]
    );
    assert!(p.samples.time_ns.is_none(), "bytes have no time");
    assert_eq!(p.frame_name(p.stack_frames(p.samples.stack[1])[1]), "f (x.py:4)");
    assert_eq!(p.samples.stack[2], EMPTY_STACK);
    assert_eq!(p.threads.len(), 2);
}

#[test]
fn errors_name_the_path() {
    let cases = [
        (
            r#"{"shared":{"frames":[]},"profiles":[{"type":"sampled","samples":[[0]],"weights":[1]}]}"#,
            "profiles[0].samples[0][0]: frame 0 does not exist",
        ),
        (
            r#"{"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","samples":[[0]],"weights":[]}]}"#,
            "profiles[0]: 1 samples but 0 weights",
        ),
        (
            r#"{"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","samples":[[0]],"weights":[-1]}]}"#,
            "profiles[0].weights[0]: the weight -1 is negative",
        ),
        (
            r#"{"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"flat"}]}"#,
            "profiles[0].type: \"flat\"",
        ),
        (
            r#"{"shared":{"frames":[{"name":"a"},{"name":"b"}]},"profiles":[{"type":"evented","events":[{"type":"O","frame":0,"at":0},{"type":"O","frame":1,"at":1},{"type":"C","frame":0,"at":2}]}]}"#,
            "profiles[0].events[2]: closes frame 0 but frame 1",
        ),
        (
            r#"{"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"evented","events":[{"type":"O","frame":0,"at":5},{"type":"C","frame":0,"at":2}]}]}"#,
            "profiles[0].events[1].at: the events go back in time",
        ),
        (
            r#"{"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","samples":[["x"]],"weights":[1]}]}"#,
            "profiles[0].samples[0][0]: invalid type",
        ),
        (
            r#"{"shared":{"frames":[{"name":"a"}]},"profiles":[]}"#,
            "holds no samples",
        ),
        (
            r#"{"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","unit":"seconds","samples":[[0]],"weights":[1e300]}]}"#,
            "out of range",
        ),
    ];
    for (doc, want) in cases {
        let e = import(doc).unwrap_err();
        assert!(e.message.contains(want), "{doc}: {e}");
        assert_eq!(e.format, Some(Format::Speedscope));
    }
}

/// The frames' stacks of each sample, `;`-joined.
fn stacks_of(p: &Profile) -> Vec<String> {
    p.samples
        .stack
        .iter()
        .map(|&s| {
            p.stack_frames(s)
                .iter()
                .map(|&f| p.frame_name(f).to_string())
                .collect::<Vec<_>>()
                .join(";")
        })
        .collect()
}

#[test]
fn frames_places_become_locations_in_sampled_and_evented_profiles() {
    let frames = r#""shared":{"frames":[{"name":"a","file":"x.py","line":3},{"name":"b","file":"x.py","line":7,"col":2},{"name":"c"}]}"#;
    let lines = |doc: &str| {
        let p = import(doc).unwrap();
        assert!(p.sites.is_some(), "a file with places has locations");
        let g = crate::view::granularity::at(&p, crate::view::Granularity::Lines);
        stacks_of(&g)
    };
    let evented = format!(
        r#"{{{frames},"profiles":[{{"type":"evented","name":"p","unit":"none","startValue":0,"endValue":9,
        "events":[{{"type":"O","frame":0,"at":0}},{{"type":"O","frame":1,"at":2}},{{"type":"C","frame":1,"at":5}},
        {{"type":"O","frame":2,"at":6}},{{"type":"C","frame":2,"at":8}},{{"type":"C","frame":0,"at":9}}]}}]}}"#
    );
    assert_eq!(
        lines(&evented),
        vec![
            "a x.py:3",
            "a x.py:3;b x.py:7",
            "a x.py:3",
            "a x.py:3;c",
            "a x.py:3"
        ]
    );
    let sampled = format!(
        r#"{{{frames},"profiles":[{{"type":"sampled","name":"p","unit":"none","samples":[[0,1],[2],[0]],"weights":[1,1,1]}}]}}"#
    );
    assert_eq!(lines(&sampled), vec!["a x.py:3;b x.py:7", "c", "a x.py:3"]);
    // No frame says where it is: no locations at all (nothing costs more).
    let plain = format!(
        r#"{{{FRAMES},"profiles":[{{"type":"sampled","name":"p","unit":"none","samples":[[0,1]],"weights":[1]}}]}}"#
    );
    assert!(import(&plain).unwrap().sites.is_none());
}
