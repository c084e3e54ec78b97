use super::*;
use crate::export::links::{decode, encode, encode_timed, DEFAULT_MAX};
use crate::export::report::{report, Carries};
use crate::export::to_folded_view;
use crate::import::{import_bytes, ImportOptions};
use crate::view::SampleFilter;

fn folded(text: &str) -> Profile {
    import_bytes(text.as_bytes(), ImportOptions::default())
        .unwrap()
        .profile
}

fn fold(p: &Profile, v: &ViewOptions) -> String {
    to_folded_view(p, v)
}

#[test]
fn rules_parse_and_name() {
    let r = Rules::parse("paths,header").unwrap();
    assert_eq!(r, Rules::link_default());
    assert_eq!(r.names(), "paths,header");
    assert!(Rules::parse("none").unwrap().is_empty());
    assert!(Rules::parse("none,paths").is_err());
    assert!(Rules::parse("path").is_err());
    let r = Rules::parse("timestamps,labels=user,users,labels=host").unwrap();
    assert_eq!(r.labels, LabelRule::Keys(vec!["user".into(), "host".into()]));
    assert_eq!(r.names(), "users,labels=user,labels=host,timestamps");
    let r = Rules {
        redact: Some("secret".into()),
        ..Rules::parse("labels,labels=x").unwrap()
    };
    assert_eq!(r.names(), "labels,redact", "the expression itself is not named");
}

#[test]
fn paths_users_and_redact_rename_frames() {
    let p = folded(
        "node;fn (file:///home/alice/app/a.js:3);b (/Users/bob/x/y.py:9) 5\n\
         node;github.com/acme/pkg.Run;java/lang/String.foo 2\n\
         node;C:\\Users\\carol\\src\\prog.exe;secret_token_check 3\n\
         node;load https://cdn.example.com/assets/v2/main.js 1\n",
    );
    let v = ViewOptions::default_for(&p);
    let rules = Rules::parse("paths").unwrap();
    let (s, sv) = scrub(&p, &v, &rules).unwrap();
    s.validate().unwrap();
    assert_eq!(
        fold(&s, &sv),
        "node;fn (a.js:3);b (y.py:9) 5\n\
         node;github.com/acme/pkg.Run;java/lang/String.foo 2\n\
         node;load main.js 1\n\
         node;prog.exe;secret_token_check 3\n"
    );
    assert_eq!(s.total(), p.total());
    // Users only: the folders stay, the names go.
    let (s, sv) = scrub(&p, &v, &Rules::parse("users").unwrap()).unwrap();
    let text = fold(&s, &sv);
    assert!(text.contains("file:///home/<user>/app/a.js:3"), "{text}");
    assert!(
        text.contains("/Users/<user>/x/y.py") && text.contains("C:\\Users\\<user>\\src"),
        "{text}"
    );
    assert!(!text.contains("alice") && !text.contains("bob") && !text.contains("carol"));
    // Redact: the whole frame, wherever the expression matches in it.
    let r = Rules {
        redact: Some("secret_[a-z]+".into()),
        ..Rules::default()
    };
    let (s, sv) = scrub(&p, &v, &r).unwrap();
    assert!(fold(&s, &sv).contains("prog.exe;<redacted> 3"));
    assert!(scrub(
        &p,
        &v,
        &Rules {
            redact: Some("(".into()),
            ..Rules::default()
        }
    )
    .is_err());
}

#[test]
fn merged_frames_merge_their_stacks() {
    let p = folded("m;/home/a/x.c 1\nm;/home/b/x.c 2\n");
    let v = ViewOptions::default_for(&p);
    let (s, sv) = scrub(&p, &v, &Rules::parse("paths").unwrap()).unwrap();
    assert_eq!(fold(&s, &sv), "m;x.c 3\n");
    s.validate().unwrap();
}

#[test]
fn the_marker_travels_in_a_link_and_back() {
    let p = folded("# scorch-unit: nanoseconds\nmain;/home/alice/w.c 5\n");
    let v = ViewOptions::default_for(&p);
    let plain = encode(&p, &v, DEFAULT_MAX);
    let text = String::from_utf8(decode(&plain.payload).unwrap()).unwrap();
    assert!(
        !text.contains("scorch-scrubbed"),
        "an unscrubbed link has no marker"
    );
    let (s, sv) = scrub(&p, &v, &Rules::link_default()).unwrap();
    let shared = encode(&s, &sv, DEFAULT_MAX);
    let text = String::from_utf8(decode(&shared.payload).unwrap()).unwrap();
    assert_eq!(
        text,
        "# scorch-unit: nanoseconds\n# scorch-scrubbed: paths,header\n# scorch-data\nmain;w.c 5\n"
    );
    let back = folded(&text);
    let note = back.meta.info.iter().find(|(k, _)| k == SCRUBBED_INFO);
    assert_eq!(note.map(|(_, x)| x.as_str()), Some("paths,header"));
    // Scrubbed again with more rules: both are named once.
    let (again, _) = scrub(
        &back,
        &ViewOptions::default_for(&back),
        &Rules::parse("users,paths").unwrap(),
    )
    .unwrap();
    let note = again.meta.info.iter().find(|(k, _)| k == SCRUBBED_INFO);
    assert_eq!(note.map(|(_, x)| x.as_str()), Some("paths,header,users"));
}

/// perf script text with two threads, timestamps and a JIT frame naming a home folder.
const PERF: &str = "\
app 100/100 1.000000: 10 cpu-clock:\n\
\tffff1 work (/home/alice/bin/app)\n\
\tffff2 LazyCompile:*run /home/alice/app/run.js:3 (/tmp/perf-100.map)\n\
\n\
app 100/101 1.500000: 20 cpu-clock:\n\
\tffff1 work (/home/alice/bin/app)\n\
\n\
other 200/200 2.000000: 30 cpu-clock:\n\
\tffff3 idle (/usr/lib/libc.so.6)\n\
\n";

#[test]
fn threads_and_timestamps_bake_the_selection_in() {
    let p = folded(PERF);
    assert!(
        p.samples.time_ns.is_some() && p.threads.len() == 3,
        "{:?}",
        p.meta.format
    );
    let mut v = ViewOptions::default_for(&p);
    SampleFilter::parse(&p, "comm=app").unwrap().apply(&mut v);
    let before = fold(&p, &v);
    let (s, sv) = scrub(&p, &v, &Rules::parse("threads,timestamps").unwrap()).unwrap();
    s.validate().unwrap();
    assert_eq!(fold(&s, &sv), before, "the same stacks and weights");
    assert_eq!(s.threads.len(), 2, "the thread not shown is gone");
    assert!(s.samples.time_ns.is_none() && sv.threads.is_none());
    assert!(
        encode_timed(&s, &sv, DEFAULT_MAX).is_none(),
        "no timestamps to carry"
    );
    assert!((0..s.strings.len() as u32)
        .all(|i| s.strings.get(StrId(i)) != "other" || s.threads.comm.iter().all(|&c| c.0 != i)));
    // A time range under `timestamps`: baked in.
    let v = ViewOptions {
        time_range: Some((1_200_000_000, 3_000_000_000)),
        ..ViewOptions::default_for(&p)
    };
    let (s, sv) = scrub(&p, &v, &Rules::parse("timestamps").unwrap()).unwrap();
    assert_eq!(fold(&s, &sv), fold(&p, &v));
    assert_eq!(s.total(), 50);
}

#[test]
fn the_report_finds_paths_users_and_hosts() {
    let mut p = folded(PERF);
    p.meta.info.push(("hostname".into(), "build-07.corp".into()));
    p.meta
        .info
        .push(("command".into(), "/usr/bin/perf record -g ./app".into()));
    let v = ViewOptions::default_for(&p);
    let r = report(&p, &v, &Carries::link(true));
    assert_eq!((r.samples, r.stacks, r.threads), (3, 3, 3));
    // app, other (roots), work, the JIT frame, idle.
    assert_eq!(r.frames, 5);
    assert_eq!(r.paths, vec!["/home/alice/app/run.js".to_string()]);
    assert_eq!(r.users, vec!["alice".to_string()]);
    assert!(r.timestamps && !r.header_carried && r.scrubbed.is_none());
    assert_eq!(r.header.len(), 2);
    let (s, sv) = scrub(&p, &v, &Rules::parse("paths,users,header").unwrap()).unwrap();
    let r = report(&s, &sv, &Carries::link(true));
    assert!(
        r.paths.is_empty() && r.users.is_empty() && r.header.is_empty(),
        "{r:?}"
    );
    assert_eq!(r.scrubbed.as_deref(), Some("paths,users,header"));
    assert!(r.text().contains("scrubbed: paths,users,header"));
}

#[test]
fn header_hostname_is_replaced_where_frames_name_it() {
    let mut p = folded("svc@build-07.corp;main 4\nvmlinux;vm 1\n");
    p.meta.info.push(("hostname".into(), "build-07.corp".into()));
    p.meta.info.push(("hostname".into(), "vm".into()));
    let v = ViewOptions::default_for(&p);
    let r = report(&p, &v, &Carries::default());
    assert_eq!(r.hosts, vec!["build-07.corp".to_string(), "vm".to_string()]);
    let (s, sv) = scrub(&p, &v, &Rules::parse("header").unwrap()).unwrap();
    // Only where the name stands whole: `vmlinux` keeps its name.
    assert_eq!(fold(&s, &sv), "svc@<host>;main 4\nvmlinux;<host> 1\n");
    assert!(s.meta.info.iter().all(|(k, _)| k != "hostname"));
}
