use super::*;

fn import(text: &str, chunk: usize) -> Result<Profile, ImportError> {
    let mut p = BpftraceParser::new(&BpftraceOptions::default());
    for c in text.as_bytes().chunks(chunk) {
        p.feed(c)?;
    }
    p.finish()
}

fn folded(p: &Profile) -> Vec<(String, u64)> {
    let mut v: Vec<_> = (0..p.samples.len())
        .map(|i| {
            let s = p.samples.stack[i];
            let names: Vec<String> = if s == EMPTY_STACK {
                vec![]
            } else {
                p.stack_frames(s)
                    .iter()
                    .map(|&f| format!("{}:{}", p.frame_name(f), p.frame_kind(f).name()))
                    .collect()
            };
            (names.join(";"), p.samples.weight[i])
        })
        .collect();
    v.sort();
    v
}

#[test]
fn keys_stacks_offsets_and_kinds() {
    let text = "Attaching 2 probes...\n\n\n@[\n    k_leaf+25\n    entry_SYSCALL_64+118\n, \n    close+58\n    worker+0x11\n, busy]: 2\n\
@[, \n    spin+38\n    main+42\n, busy]: 152\n@[busy, \n    f+1\n    g\n]: 3\n@[\n    0x7f5cc53a6a1a\n]: 4\n@x[busy]: 5\n@scalar: 9\n";
    for chunk in [1, 7, 4096] {
        let p = import(text, chunk).unwrap();
        assert_eq!(p.events.len(), 2, "@ and @x");
        assert_eq!(
            folded(&p),
            vec![
                ("0x7f5cc53a6a1a:user".to_string(), 4),
                ("busy:process".to_string(), 5),
                ("busy:process;g:user;f:user".to_string(), 3),
                ("busy:process;main:user;spin:user".to_string(), 152),
                (
                    "busy:process;worker:user;close:user;entry_SYSCALL_64:kernel;k_leaf:kernel".to_string(),
                    2
                ),
            ]
        );
        assert_eq!(p.meta.records, 5);
        assert!(p.meta.warnings.is_empty());
    }
}

#[test]
fn cut_and_bad_blocks_are_warnings() {
    let p = import("@[\n  a+1\n]: x\n@[\n  b\n@[\n  c\n]: 1\n@[\n  d\n", 3).unwrap();
    assert_eq!(folded(&p), vec![("c:user".to_string(), 1)]);
    assert_eq!(p.meta.warnings.count, 3);
    let e = import("@[\n  a+1\n", 4).unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::NoValidRecords);
}
