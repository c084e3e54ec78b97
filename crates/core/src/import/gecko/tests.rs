use super::*;

fn import(doc: &str) -> Result<Profile, ImportError> {
    let mut p = GeckoParser::new(&GeckoOptions::default());
    p.feed(doc.as_bytes())?;
    p.finish()
}

const THREAD: &str = r#"{"name":"main","pid":"10","tid":"10.1",
  "samples":{"length":3,"stack":[1,null,2],"time":[1.5,2.000001,3],"weight":null,"weightType":"samples"},
  "stackTable":{"length":3,"prefix":[null,0,0],"frame":[0,1,2]},
  "frameTable":{"length":3,"func":[0,1,2],"category":[0,0,1],"inlineDepth":[0,1,0]},
  "funcTable":{"length":3,"name":[0,1,2],"resource":[null,null,0]},
  "resourceTable":{"length":1,"name":[3]},
  "stringArray":["main","inl","0x1f","libc.so.6"]}"#;

#[test]
fn thread_tables_to_samples() {
    let doc = format!(
        r#"{{"meta":{{"categories":[{{"name":"User"}},{{"name":"Kernel"}}],"preprocessedProfileVersion":49}},"threads":[{THREAD}]}}"#
    );
    let p = import(&doc).unwrap();
    assert_eq!(
        p.samples.time_ns.clone().unwrap(),
        vec![1_500_000, 2_000_001, 3_000_000]
    );
    assert_eq!(p.samples.stack[1], EMPTY_STACK);
    let names = |s: StackId| -> Vec<(String, FrameKind)> {
        p.stack_frames(s)
            .iter()
            .map(|&f| (p.frame_name(f).to_string(), p.frame_kind(f)))
            .collect()
    };
    assert_eq!(
        names(p.samples.stack[0]),
        vec![
            ("main".into(), FrameKind::User),
            ("inl".into(), FrameKind::Inline)
        ]
    );
    assert_eq!(
        names(p.samples.stack[2]),
        vec![
            ("main".into(), FrameKind::User),
            ("0x1f (libc.so.6)".into(), FrameKind::Kernel)
        ]
    );
    assert_eq!((p.threads.pid[0], p.threads.tid[0]), (Some(10), 10));
}

#[test]
fn errors_name_the_path() {
    let cases = [
        (
            THREAD.replace(r#""prefix":[null,0,0]"#, r#""prefix":[null,2,0]"#),
            "threads[0].stackTable.prefix[1]: 2 is not an earlier stack",
        ),
        (
            THREAD.replace(r#""stack":[1,null,2]"#, r#""stack":[1,null,7]"#),
            "threads[0].samples.stack[2]: stack 7 does not exist",
        ),
        (
            THREAD.replace(r#""name":[0,1,2]"#, r#""name":[0,1,9]"#),
            "funcTable.name[2]: string 9 does not exist",
        ),
        (
            THREAD.replace(r#""time":[1.5,2.000001,3]"#, r#""time":[1.5,-2,3]"#),
            "threads[0].samples.time[1]",
        ),
        (
            THREAD.replace(r#""time":[1.5,2.000001,3]"#, r#""time":[1.5,"x",3]"#),
            "threads[0].samples.time[1]: invalid type",
        ),
        (
            THREAD.replace(r#""stack":[1,null,2]"#, r#""schema":{"stack":0},"data":[[0]]"#),
            "threads[0].samples.data[0]: a sample without a time",
        ),
        (
            THREAD.replace(
                r#""stack":[1,null,2]"#,
                r#""schema":{"stack":0,"time":1},"data":[7]"#,
            ),
            "threads[0].samples.data[0]: a row is an array",
        ),
    ];
    for (thread, want) in cases {
        let doc = format!(r#"{{"meta":{{}},"threads":[{thread}]}}"#);
        let e = import(&doc).unwrap_err();
        assert!(e.message.contains(want), "{want}: {e}");
        assert_eq!(e.format, Some(Format::Gecko));
    }
}

/// The raw format Firefox writes: `schema` + `data` tables, short rows, `stringTable`, a content process in
/// `processes[]` whose times move by its start minus the parent's; markers paired by name; location strings
/// named as the Firefox Profiler names them.
#[test]
fn raw_gecko_tables_and_processes() {
    let thread = |name: &str, tid: u32| {
        format!(
            r#"{{"name":"{name}","pid":{tid},"tid":{tid},
  "samples":{{"schema":{{"stack":0,"time":1,"eventDelay":2}},"data":[[1,10.0,0],[2,20.0],[null,30.0]]}},
  "stackTable":{{"schema":{{"prefix":0,"frame":1}},"data":[[null,0],[0,1],[0,2]]}},
  "frameTable":{{"schema":{{"location":0,"relevantForJS":1,"category":6}},"data":[[0,false],[1,false,0,null,null,null,1],[2]]}},
  "markers":{{"schema":{{"name":0,"startTime":1,"endTime":2,"phase":3,"category":4,"data":5}},
    "data":[[3,12.0,null,2,0],[4,13.0,null,0,0,{{"type":"Text","name":"x"}}],[3,null,15.5,3,0],
            [4,14.0,14.25,1,0],[5,16.0,null,0,0,{{"type":"JS allocation","size":8}}],[3,17.0,null,2,0],
            [6,null,11.0,3,0]]}},
  "stringTable":["fib (file:///p.html:2:13)","non-virtual thunk to Foo::run() (in libxul.so) + 12","0x7f01",
                 "Load","Tick","Alloc","Early"]}}"#
        )
    };
    let doc = format!(
        r#"{{"meta":{{"version":34,"startTime":1000.5,"interval":1,"categories":[{{"name":"Other"}},{{"name":"Kernel"}}]}},
  "libs":[],"threads":[{}],
  "processes":[{{"meta":{{"startTime":1100.25}},"threads":[{}]}}]}}"#,
        thread("GeckoMain", 1),
        thread("Web Content", 2)
    );
    let p = import(&doc).unwrap();
    assert_eq!(
        p.samples.time_ns.clone().unwrap(),
        vec![
            10_000_000,
            20_000_000,
            30_000_000,
            109_750_000,
            119_750_000,
            129_750_000
        ]
    );
    let names = |i: usize| -> Vec<String> {
        p.stack_frames(p.samples.stack[i])
            .iter()
            .map(|&f| format!("{}:{:?}", p.frame_name(f), p.frame_kind(f)))
            .collect()
    };
    assert_eq!(names(0), ["fib:User", "Foo::run():Kernel"]);
    assert_eq!(names(1), ["fib:User", "0x7f01:User"]);
    assert_eq!(p.samples.stack[2], EMPTY_STACK);
    let marks: Vec<(u32, &str, u64, Option<u64>)> = p
        .meta
        .markers
        .iter()
        .map(|m| (m.tid.unwrap(), m.name.as_str(), m.start_ns, m.end_ns))
        .collect();
    let ms = |x: f64| (x * 1e6).round() as u64;
    let mut want = Vec::new();
    for (tid, off) in [(1u32, 0.0), (2, 99.75)] {
        want.extend([
            (tid, "Tick", ms(13.0 + off), None),
            // The first `Load` start pairs with the end, last in first out (one start open: the first).
            (tid, "Load", ms(12.0 + off), Some(ms(15.5 + off))),
            (tid, "Tick", ms(14.0 + off), Some(ms(14.25 + off))),
            // An end without a start: from the earlier of it and the thread's first sample.
            (tid, "Early", ms(10.0 + off), Some(ms(11.0 + off))),
            // A start without an end: to the last sample plus the interval.
            (tid, "Load", ms(17.0 + off), Some(ms(31.0 + off))),
        ]);
    }
    assert_eq!(marks, want);
}

#[test]
fn processed_places_become_locations() {
    // `main` in a.js (its own line 10), `work` in b.js: the frames at lines 12 and 30, the third frame of `work`
    // without a line (its function's 20 then); a function without a file and a frame without a line: no place.
    let thread = r#"{"name":"main","pid":"1","tid":"1",
      "samples":{"length":4,"stack":[1,2,3,0],"time":[1,2,3,4],"weight":null,"weightType":"samples"},
      "stackTable":{"length":4,"prefix":[null,0,0,0],"frame":[0,1,2,3]},
      "frameTable":{"length":4,"func":[0,1,1,2],"line":[12,30,null,null],"column":[3,null,null,null]},
      "funcTable":{"length":3,"name":[0,1,2],"resource":[null,null,null],"fileName":[3,4,null],
        "lineNumber":[10,20,null],"columnNumber":[1,null,null]},
      "stringArray":["main","work","native","a.js","b.js"]}"#;
    let doc = format!(r#"{{"meta":{{"preprocessedProfileVersion":49}},"threads":[{thread}]}}"#);
    let p = import(&doc).unwrap();
    let g = crate::view::granularity::at(&p, crate::view::Granularity::Lines);
    let names: Vec<String> = g
        .samples
        .stack
        .iter()
        .map(|&s| {
            g.stack_frames(s)
                .iter()
                .map(|&f| g.frame_name(f).to_string())
                .collect::<Vec<_>>()
                .join(";")
        })
        .collect();
    assert_eq!(
        names,
        vec![
            "main a.js:12;work b.js:30",
            "main a.js:12;work b.js:20",
            "main a.js:12;native",
            "main a.js:12"
        ]
    );
    // Without fileName or line columns: no locations at all.
    let plain = format!(r#"{{"meta":{{"preprocessedProfileVersion":49}},"threads":[{THREAD}]}}"#);
    assert!(import(&plain).unwrap().sites.is_none());
}
