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
            THREAD.replace(r#""stack":[1,null,2]"#, r#""schema":{"stack":0},"data":[]"#),
            "a raw Gecko profile",
        ),
    ];
    for (thread, want) in cases {
        let doc = format!(r#"{{"meta":{{}},"threads":[{thread}]}}"#);
        let e = import(&doc).unwrap_err();
        assert!(e.message.contains(want), "{want}: {e}");
        assert_eq!(e.format, Some(Format::Gecko));
    }
}
