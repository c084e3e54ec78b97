//! `scorch fold --offsets`: a heatmap band (the same offsets in every second) on a real periodic recording,
//! checked against an independent reading of the perf script text and against `scorch heatmap --json`'s cells.

mod common;
use common::{core_data, scorch};

/// The recording: `periodic_job` runs in [200, 300) ms of every second, `background_work` outside it.
const PERIODIC: &str = "perf-made/periodic.txt";

/// One sample of the perf script text, read without scorch: time (exact ns), period, the frames' function names
/// (leaf first).
struct Sample {
    t: u64,
    period: u64,
    funcs: Vec<String>,
}

fn read_samples(text: &str) -> Vec<Sample> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut lines = block.lines().filter(|l| !l.trim().is_empty());
        let Some(head) = lines.next() else { continue };
        // `periodic  4087 11248.509593:    1003009 cpu-clock: `
        let fields: Vec<&str> = head.split_whitespace().collect();
        let ti = fields.iter().position(|f| f.ends_with(':')).unwrap();
        let (sec, frac) = fields[ti].trim_end_matches(':').split_once('.').unwrap();
        let t = sec.parse::<u64>().unwrap() * 1_000_000_000 + format!("{frac:0<9}").parse::<u64>().unwrap();
        let period = fields[ti + 1].parse().unwrap();
        assert_eq!(fields[ti + 2], "cpu-clock:");
        let funcs = lines
            .map(|l| {
                let sym = l.split_whitespace().nth(1).unwrap();
                sym.split('+').next().unwrap().to_string()
            })
            .collect();
        out.push(Sample { t, period, funcs });
    }
    out
}

/// Sum of the weights of a folded text, and of its lines holding `func`.
fn totals(folded: &str, func: &str) -> (u64, u64) {
    let mut all = 0;
    let mut with = 0;
    for line in folded.lines() {
        let (stack, w) = line.rsplit_once(' ').unwrap();
        let w: u64 = w.parse().unwrap();
        all += w;
        if stack.split(';').any(|f| f == func) {
            with += w;
        }
    }
    (all, with)
}

#[test]
fn a_band_holds_the_periodic_work_and_equals_its_heatmap_cells() {
    let f = core_data(PERIODIC);
    let samples = read_samples(&std::fs::read_to_string(&f).unwrap());
    assert_eq!(samples.len(), 1113);
    // SEMANTICS's grid: t0 = the first sample floored to the second; offset = (t − t0) mod 1 s.
    let t0 = samples.iter().map(|s| s.t).min().unwrap() / 1_000_000_000 * 1_000_000_000;
    let col = |s: &Sample| (s.t - t0) / 1_000_000_000;
    let in_band = |s: &Sample| (200_000_000..300_000_000).contains(&((s.t - t0) % 1_000_000_000));
    let has = |s: &Sample, f: &str| s.funcs.iter().any(|x| x == f);
    let band: Vec<&Sample> = samples.iter().filter(|s| in_band(s)).collect();
    let periodic_all = samples.iter().filter(|s| has(s, "periodic_job")).count() as u64;
    let periodic_band = band.iter().filter(|s| has(s, "periodic_job")).count() as u64;
    // The recording is what it claims: the periodic job lives in the band, the background work outside it.
    assert!(
        periodic_band * 100 >= periodic_all * 95,
        "{periodic_band} of {periodic_all}"
    );
    assert!(
        periodic_band * 100 >= band.len() as u64 * 90,
        "{periodic_band} of {}",
        band.len()
    );
    assert_eq!(band.iter().filter(|s| has(s, "background_work")).count(), 0);
    assert!(samples.iter().any(|s| has(s, "background_work")));

    // Sample counts: the band's fold holds exactly the band's samples, the periodic ones among them.
    let (code, out, err) = scorch(&["fold", "--count", "--offsets", "200", "300", &f]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(totals(&out, "periodic_job"), (band.len() as u64, periodic_band));
    assert!(!out.contains("background_work"), "{out}");
    // Weights (periods, ns): the sum of the band's periods.
    let (_, out_w, _) = scorch(&["fold", "--offsets", "200", "300", &f]);
    assert_eq!(
        totals(&out_w, "periodic_job").0,
        band.iter().map(|s| s.period).sum::<u64>()
    );

    // The heatmap (an independent path through scorch): rows 10–14 of 50 are 200–300 ms.
    let (code, json, err) = scorch(&["heatmap", "--json", &f]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(j["origin_ns"].as_u64(), Some(t0));
    let counts: Vec<Vec<u64>> = j["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect()
        })
        .collect();
    let cells = |cols: std::ops::Range<usize>| -> u64 {
        counts[cols].iter().map(|c| c[10..15].iter().sum::<u64>()).sum()
    };
    assert_eq!(cells(0..counts.len()), band.len() as u64);

    // With a range: seconds 2..10 of the grid, the same offsets in each.
    let (code, out, err) = scorch(&[
        "fold",
        "--count",
        "--range",
        "2",
        "10",
        "--offsets",
        "200",
        "300",
        &f,
    ]);
    assert_eq!(code, 0, "{err}");
    let expected = band.iter().filter(|s| (2..10).contains(&col(s))).count() as u64;
    assert!(expected > 0);
    assert_eq!(totals(&out, "periodic_job").0, expected);
    assert_eq!(cells(2..10), expected);
}

#[test]
fn bands_are_half_open_and_tile_the_second() {
    let f = core_data(PERIODIC);
    let total = |args: &[&str]| {
        let mut argv = vec!["fold", "--count"];
        argv.extend(args);
        argv.push(&f);
        let (code, out, err) = scorch(&argv);
        assert_eq!(code, 0, "{err}");
        totals(&out, "periodic_job").0
    };
    let parts = total(&["--offsets", "0", "200"])
        + total(&["--offsets", "200", "212.5"])
        + total(&["--offsets", "212.5", "300"])
        + total(&["--offsets", "300", "1000"]);
    assert_eq!(parts, 1113);
    assert_eq!(total(&["--offsets", "0", "1000"]), 1113);
}

#[test]
fn bad_offsets_are_usage_errors_and_need_timestamps() {
    let f = core_data(PERIODIC);
    for args in [["300", "200"], ["5", "5"], ["0", "1001"], ["x", "3"]] {
        let (code, out, err) = scorch(&["fold", "--offsets", args[0], args[1], &f]);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            out.is_empty() && (err.contains(" ms") || err.contains("milliseconds")),
            "{err}"
        );
    }
    let (code, _, err) = scorch(&["fold", "--offsets", "200", &f]);
    assert_eq!(code, 2, "{err}");
    let folded = core_data("folded/inf-base-flames.txt");
    let (code, _, err) = scorch(&["fold", "--offsets", "200", "300", &folded]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no timestamps"), "{err}");
    let (code, _, err) = scorch(&["fold", "--compat", "inferno", "--offsets", "200", "300", &f]);
    assert_eq!(code, 2, "{err}");
}
