//! The stack chart's thread lanes: with two or more threads chosen, each lane shows, at any time, exactly the
//! stack of *its* thread's latest sample — computed here straight from the perf script text, not by scorch.

use scorch_core::view::{StackChart, ThreadSet};
use scorch_core::{import_bytes, ImportOptions, Profile, RootMode, ViewOptions};

/// (comm, tid, time in µs, stack leaf first) of each sample, as the text below prints them.
const SAMPLES: &[(&str, u32, u64, &[&str])] = &[
    ("web", 11, 1_000, &["parse", "handle", "main"]),
    ("db", 12, 1_500, &["scan", "query", "main"]),
    ("web", 11, 2_000, &["parse", "handle", "main"]),
    ("web", 11, 3_000, &["write", "handle", "main"]),
    ("db", 12, 3_500, &["lock", "query", "main"]),
    ("gc", 13, 3_600, &["mark", "gc"]),
    ("db", 12, 4_000, &["lock", "query", "main"]),
    ("web", 11, 5_000, &["main"]),
    ("db", 12, 6_000, &["scan", "query", "main"]),
];

fn text() -> String {
    let mut s = String::new();
    for (comm, tid, us, stack) in SAMPLES {
        s.push_str(&format!(
            "{comm} {tid} {}.{:06}: 1000 cpu-clock:\n",
            us / 1_000_000,
            us % 1_000_000
        ));
        for f in stack.iter() {
            s.push_str(&format!("\tffff {f} (/bin/x)\n"));
        }
        s.push('\n');
    }
    s
}

fn profile() -> Profile {
    import_bytes(text().as_bytes(), ImportOptions::default())
        .unwrap()
        .profile
}

/// The thread-table rows of these tids.
fn threads(p: &Profile, tids: &[u32]) -> ThreadSet {
    ThreadSet::new((0..p.threads.len() as u32).filter(|&i| tids.contains(&p.threads.tid[i as usize])))
}

/// The stack (root first) of thread `tid`'s latest sample at or before `t_ns`, from the samples above.
fn expected(tid: u32, t_ns: u64) -> Vec<String> {
    SAMPLES
        .iter()
        .rfind(|s| s.1 == tid && s.2 * 1_000 <= t_ns)
        .map(|s| s.3.iter().rev().map(|f| f.to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn each_lane_is_its_threads_latest_stack() {
    let p = profile();
    let v = ViewOptions {
        threads: Some(threads(&p, &[11, 12])),
        root: RootMode::None,
        ..ViewOptions::default_for(&p)
    };
    let c = StackChart::build(&p, &v).unwrap();
    assert_eq!(c.lanes.len(), 2);
    let tids: Vec<u32> = c.lanes.iter().map(|l| p.threads.tid[l.thread as usize]).collect();
    assert_eq!(tids, [11, 12]);
    assert_eq!(c.lanes.iter().map(|l| l.samples).collect::<Vec<_>>(), [4, 4]);
    assert_eq!(c.samples, 8, "gc's sample is not chosen");
    // The lanes follow each other: a header row, then the lane's rows.
    assert_eq!(c.lanes[0].header, 0);
    assert_eq!(c.lanes[1].header, 1 + c.lanes[0].depth);
    assert_eq!(c.depth_count(), 2 + c.lanes[0].depth + c.lanes[1].depth);
    assert!(c.row(c.lanes[1].header).unwrap().is_empty());
    let names = |fs: Vec<scorch_core::FrameId>| -> Vec<String> {
        fs.into_iter().map(|f| p.frame_name(f).to_string()).collect()
    };
    // Every sample time and the times between them, until the last sample (which lasts the lane's interval).
    for (k, &tid) in tids.iter().enumerate() {
        for t_us in (1_000..=6_000).step_by(250) {
            let t = t_us * 1_000;
            let last = SAMPLES.iter().filter(|s| s.1 == tid).map(|s| s.2).max().unwrap();
            if t_us > last {
                continue;
            }
            assert_eq!(
                names(c.lane_stack_at(k, t)),
                expected(tid, t),
                "lane {k} (tid {tid}) at {t_us} µs"
            );
        }
    }
    // Rows map back to their lanes.
    assert_eq!(c.lane_of_row(0).map(|l| l.thread), Some(c.lanes[0].thread));
    assert_eq!(
        c.lane_of_row(c.lanes[1].header + 1).map(|l| l.thread),
        Some(c.lanes[1].thread)
    );
    assert_eq!(c.lane_of_row(c.depth_count()), None);
    // The lanes survive the trip between threads.
    assert_eq!(
        StackChart::from_columns(c.clone().into_columns(), p.frames.len()),
        Some(c.clone())
    );
    let mut bad = c.clone().into_columns();
    let lanes = bad.u64s.last_mut().unwrap();
    lanes[5] = 0; // lane 1's header on lane 0's rows
    assert_eq!(StackChart::from_columns(bad, p.frames.len()), None);
}

#[test]
fn one_thread_or_all_threads_is_one_chart() {
    let p = profile();
    let one = ViewOptions {
        threads: Some(threads(&p, &[12])),
        ..ViewOptions::default_for(&p)
    };
    assert!(StackChart::build(&p, &one).unwrap().lanes.is_empty());
    let all = ViewOptions::default_for(&p);
    let c = StackChart::build(&p, &all).unwrap();
    assert!(c.lanes.is_empty());
    assert_eq!(c.samples, SAMPLES.len() as u64);
}
