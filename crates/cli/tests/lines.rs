//! Source lines, files and addresses against pprof itself: a real Go CPU profile recorded here from a program
//! whose source is in the repo (`tests/data/lines/`, PROVENANCE there: with inlining and a recursion), and the
//! outputs of `go tool pprof -top -nodecount=0 -functions|-lines|-files|-addresses` and `go tool pprof -list`
//! stored beside it (the test needs no Go). Every row pprof prints is parsed here and its flat and cum must
//! equal scorch's: `scorch top --granularity G --tsv` per node name, `scorch list` per routine and line (with
//! the source text beside it from `--source-dir`, the same lines pprof printed).

mod common;
use common::scorch;

use std::collections::BTreeMap;

fn data(name: &str) -> String {
    format!("{}/tests/data/lines/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

/// An oracle script's `KEY\tCOUNT` lines (`python3 -c SCRIPT FILE`).
fn python_counts(script: &str, file: &str) -> BTreeMap<String, u64> {
    let py = std::process::Command::new("python3")
        .args(["-c", script, file])
        .output()
        .unwrap();
    assert!(py.status.success(), "{}", String::from_utf8_lossy(&py.stderr));
    String::from_utf8(py.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (k, v) = l.rsplit_once('\t').unwrap();
            (k.to_string(), v.parse().unwrap())
        })
        .collect()
}

/// pprof's `-top` table: name → (flat, cum). The rows follow the `flat  flat%   sum%        cum   cum%`
/// header; the name is everything after the fifth column, without pprof's ` (inline)` mark (a label of the
/// row, not part of the node's name).
fn pprof_top(text: &str) -> BTreeMap<String, (i64, i64)> {
    let mut rows = BTreeMap::new();
    let mut body = false;
    for line in text.lines() {
        if !body {
            body = line.trim_start().starts_with("flat  flat%");
            continue;
        }
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert!(cols.len() >= 6, "a -top row: {line:?}");
        let name = cols[5..].join(" ");
        let name = name.strip_suffix(" (inline)").unwrap_or(&name).to_string();
        let flat: i64 = cols[0].parse().unwrap();
        let cum: i64 = cols[3].parse().unwrap();
        assert!(rows.insert(name.clone(), (flat, cum)).is_none(), "{name} twice");
    }
    assert!(body, "no -top header");
    rows
}

/// `scorch top --tsv`: name → (flat, cum).
fn scorch_top(granularity: &str) -> BTreeMap<String, (i64, i64)> {
    let (code, out, err) = scorch(&[
        "top",
        "--sample-type",
        "samples",
        "--granularity",
        granularity,
        "--tsv",
        &data("cpu.pb.gz"),
    ]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| {
            let mut f = l.splitn(3, '\t');
            let flat = f.next().unwrap().parse().unwrap();
            let cum = f.next().unwrap().parse().unwrap();
            (f.next().unwrap().to_string(), (flat, cum))
        })
        .collect()
}

#[test]
fn top_at_every_granularity_equals_pprof() {
    for g in ["functions", "lines", "files", "addresses"] {
        let want = pprof_top(&read(&format!("top-{g}.txt")));
        assert!(want.len() >= 4, "{g}: {} rows", want.len());
        let got = scorch_top(g);
        assert_eq!(
            got, want,
            "scorch top --granularity {g} vs go tool pprof -top -{g}"
        );
    }
    // The recording has what the comparison is for: an inlined hot line, a line whose cum exceeds its flat,
    // and a recursion counted once per sample on each of its lines.
    let lines = pprof_top(&read("top-lines.txt"));
    assert!(lines["main.mix scorchlines/main.go:16"].0 < lines["main.mix scorchlines/main.go:16"].1);
    assert_eq!(
        lines["main.walk scorchlines/main.go:43"],
        lines["main.walk scorchlines/main.go:41"]
    );
    assert!(read("top-lines.txt").contains("main.mix scorchlines/main.go:17 (inline)"));
}

#[test]
fn diff_at_every_granularity_lists_pprofs_nodes() {
    // A profile against itself: each row is one of pprof's nodes at that granularity, every one is there, and
    // nothing moved.
    for g in ["lines", "files", "addresses"] {
        let want: Vec<String> = pprof_top(&read(&format!("top-{g}.txt"))).into_keys().collect();
        let file = data("cpu.pb.gz");
        let (code, out, err) = scorch(&["diff", "--granularity", g, "-n", "0", &file, &file]);
        assert_eq!(code, 0, "{err}");
        let body = out.lines().skip_while(|l| !l.contains("Δ total")).skip(1);
        let mut got: Vec<String> = Vec::new();
        for row in body.filter(|l| !l.trim().is_empty()) {
            let cols: Vec<&str> = row.split_whitespace().collect();
            assert!(cols.len() > 6, "{g}: a row: {row:?}");
            assert!(cols[2] == "+0.00pp" && cols[5] == "+0.00pp", "{g}: {row}");
            got.push(cols[6..].join(" "));
        }
        got.sort();
        assert_eq!(
            got, want,
            "{g}: scorch diff's rows vs go tool pprof -top -{g}'s nodes"
        );
    }
}

/// One routine of `-list`: (function, file) → ((flat, cum) of the header, rows (line, flat, cum, text)).
type Routines = BTreeMap<(String, String), ((i64, i64), Vec<(u32, i64, i64, String)>)>;

/// pprof's `-list` output (and scorch's, which prints the same shape): `ROUTINE ===… NAME in FILE`, then
/// `FLAT CUM (flat, cum) P% of Total`, then `FLAT CUM LINE:TEXT` rows with `.` for zero.
fn parse_list(text: &str) -> Routines {
    let num = |s: &str| if s == "." { 0 } else { s.parse::<i64>().unwrap() };
    let mut out = Routines::new();
    let mut cur: Option<(String, String)> = None;
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("Total: "));
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("ROUTINE ======================== ") {
            let (name, file) = rest.split_once(" in ").unwrap();
            let head = lines.next().unwrap();
            let cols: Vec<&str> = head.split_whitespace().collect();
            assert_eq!(cols[2..4], ["(flat,", "cum)"], "{head:?}");
            let key = (name.to_string(), file.to_string());
            out.insert(key.clone(), ((num(cols[0]), num(cols[1])), Vec::new()));
            cur = Some(key);
            continue;
        }
        let (nums, text) = line.split_once(':').unwrap();
        let cols: Vec<&str> = nums.split_whitespace().collect();
        assert_eq!(cols.len(), 3, "{line:?}");
        let row = (
            cols[2].parse().unwrap(),
            num(cols[0]),
            num(cols[1]),
            text.to_string(),
        );
        out.get_mut(cur.as_ref().unwrap()).unwrap().1.push(row);
    }
    out
}

#[test]
fn list_equals_pprof_line_by_line() {
    let want = parse_list(&read("list-main.txt"));
    assert_eq!(want.len(), 5, "hash, main, mix, sum, walk");
    let dir = data("");
    let (code, out, err) = scorch(&[
        "list",
        "--sample-type",
        "samples",
        "main\\.",
        &data("cpu.pb.gz"),
        "--source-dir",
        &dir,
    ]);
    assert_eq!(code, 0, "{err}");
    let got = parse_list(&out);
    for (key, (head, rows)) in &want {
        let (ghead, grows) = got.get(key).unwrap_or_else(|| panic!("{key:?} missing:\n{out}"));
        assert_eq!(ghead, head, "{key:?}: the header's flat and cum");
        assert_eq!(grows, rows, "{key:?}: every line's flat, cum and text");
    }
    assert_eq!(got.len(), want.len());
    // Without the source: the same numbers on the lines that have samples.
    let (code, bare, err) = scorch(&["list", "--sample-type", "samples", "main\\.", &data("cpu.pb.gz")]);
    assert_eq!(code, 0, "{err}");
    for (key, (head, rows)) in parse_list(&bare) {
        let (whead, wrows) = &want[&key];
        assert_eq!(&head, whead);
        let hot: Vec<(u32, i64, i64)> = wrows
            .iter()
            .filter(|r| r.1 != 0 || r.2 != 0)
            .map(|r| (r.0, r.1, r.2))
            .collect();
        let rows: Vec<(u32, i64, i64)> = rows.iter().map(|r| (r.0, r.1, r.2)).collect();
        assert_eq!(rows, hot, "{key:?}");
    }
}

#[test]
fn list_refuses_what_matches_nothing_and_reads_no_file_outside_the_folder() {
    let (code, _, err) = scorch(&["list", "^nothing$", &data("cpu.pb.gz")]);
    assert_eq!(code, 1);
    assert!(err.contains("no matches"), "{err}");
    let (code, _, _) = scorch(&["list", "(", &data("cpu.pb.gz")]);
    assert_eq!(code, 2, "a bad regex is a usage error");
    // A folder without the file: pprof's error line, then the per-line table.
    let empty = std::env::temp_dir().join(format!("scorch-lines-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let (code, out, err) = scorch(&[
        "list",
        "main\\.sum",
        &data("cpu.pb.gz"),
        "--source-dir",
        empty.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_dir(&empty);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(" Error: could not find file scorchlines/main.go"),
        "{out}"
    );
    assert!(out.contains("    32:\n"), "{out}");
}

/// Per-line self sample counts of a V8 `.cpuprofile`, by an independent reading of the file (Python's json):
/// each node's `positionTicks` summed per `url:line`. Fails when some node with a URL has samples its ticks
/// do not account for (the comparison below would then not be of the ticks alone).
const V8_TICKS: &str = r#"
import json, sys, collections
d = json.load(open(sys.argv[1]))
hits = collections.Counter(d["samples"])
out = collections.Counter()
for n in d["nodes"]:
    ticks = n.get("positionTicks", [])
    if n["callFrame"]["url"] and hits[n["id"]] != sum(t["ticks"] for t in ticks):
        sys.exit("node %d: %d samples, ticks for %d" % (n["id"], hits[n["id"]], sum(t["ticks"] for t in ticks)))
    for t in ticks:
        out["%s:%d" % (n["callFrame"]["url"], t["line"])] += t["ticks"]
for k, v in sorted(out.items()):
    print("%s\t%d" % (k, v))
"#;

#[test]
fn v8_line_self_counts_equal_position_ticks() {
    let file = data("hot.cpuprofile");
    let want = python_counts(V8_TICKS, &file);
    assert!(want["file:///tmp/lines/hot.js:15"] > 50, "{want:?}");
    // scorch: samples per stack at the lines granularity; a leaf `FUNCTION URL:LINE` is a sample on that line.
    let (code, out, err) = scorch(&["fold", "--count", "--granularity", "lines", &file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(leaf_places(&out), want, "per-line self counts vs positionTicks");
}

/// Independent: each `perf script -F …,srcline` sample's leaf frame line, and the `FILE:LINE` printed under it,
/// counted per place (samples whose leaf has no place — `??:0`, `DSO[ADDRESS]` — are left out).
const PERF_SRCLINES: &str = r#"
import collections, re, sys
out = collections.Counter()
lines = open(sys.argv[1]).read().split("\n")
i = 0
while i < len(lines):
    if lines[i] and not lines[i][0].isspace() and lines[i].rstrip().endswith(":"):
        # a sample header; its first frame line is the leaf, the line under it that frame's srcline
        leaf = lines[i + 1] if i + 1 < len(lines) else ""
        src = lines[i + 2].strip() if i + 2 < len(lines) else ""
        if leaf.startswith("\t"):
            m = re.fullmatch(r"(.+):(\d+)", src)
            if m and m.group(1) != "??" and int(m.group(2)) > 0:
                out[src] += 1
    i += 1
for k, v in sorted(out.items()):
    print("%s\t%d" % (k, v))
"#;

/// Samples per leaf place at the lines granularity, from `scorch fold --count --granularity lines` (a leaf
/// `FUNCTION FILE:LINE` is a sample on that line).
fn leaf_places(folded: &str) -> BTreeMap<String, u64> {
    let mut got: BTreeMap<String, u64> = BTreeMap::new();
    for line in folded.lines() {
        let (stack, n) = line.rsplit_once(' ').unwrap();
        let leaf = stack.rsplit(';').next().unwrap();
        let Some((_, place)) = leaf.rsplit_once(' ') else {
            continue;
        };
        if place
            .rsplit_once(':')
            .is_some_and(|(f, l)| !f.is_empty() && l.parse::<u32>().is_ok())
        {
            *got.entry(place.to_string()).or_default() += n.parse::<u64>().unwrap();
        }
    }
    got
}

#[test]
fn perf_script_srcline_self_counts_equal_the_leaf_srclines() {
    let file = data("spin.srcline.txt");
    let want = python_counts(PERF_SRCLINES, &file);
    assert!(want["spin.c:5"] > 100, "{want:?}");
    // On one thread and in slices on two (the location columns of the slices merged).
    for threads in ["1", "2"] {
        let (code, out, err) = scorch(&[
            "fold",
            "--count",
            "--granularity",
            "lines",
            "--threads",
            threads,
            &file,
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            !err.contains("unreadable"),
            "srclines are not unreadable lines: {err}"
        );
        assert_eq!(
            leaf_places(&out),
            want,
            "per-line self counts vs the leaf srclines ({threads} thread(s))"
        );
    }
    // The functions granularity is the file without srclines.
    let plain: String = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("  "))
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = std::env::temp_dir().join(format!("scorch-srcline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plain_file = dir.join("spin.txt");
    std::fs::write(&plain_file, plain).unwrap();
    let (_, a, _) = scorch(&["fold", &file]);
    let (_, b, _) = scorch(&["fold", plain_file.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(a, b, "function stacks with and without srclines");
}

/// Independent: each speedscope sample's leaf frame, counted per `file:line` of that shared frame (Python's json).
const SPEEDSCOPE_LEAVES: &str = r#"
import json, sys, collections
d = json.load(open(sys.argv[1]))
frames = d["shared"]["frames"]
out = collections.Counter()
for p in d["profiles"]:
    for s in p["samples"]:
        if s:
            f = frames[s[-1]]
            if f.get("file") and f.get("line"):
                out["%s:%d" % (f["file"], f["line"])] += 1
for k, v in sorted(out.items()):
    print("%s\t%d" % (k, v))
"#;

#[test]
fn speedscope_line_self_counts_equal_the_leaf_frames_lines() {
    let file = data("hot.speedscope.json");
    // The program's own lines (frames of the interpreter's frozen modules have spaces in their file names,
    // which a folded leaf cannot be split at).
    let mine = |m: BTreeMap<String, u64>| -> BTreeMap<String, u64> {
        m.into_iter()
            .filter(|(k, _)| k.starts_with("/tmp/lines/"))
            .collect()
    };
    let want = mine(python_counts(SPEEDSCOPE_LEAVES, &file));
    assert!(want["/tmp/lines/hot.py:6"] > 100, "{want:?}");
    let (code, out, err) = scorch(&["fold", "--count", "--granularity", "lines", &file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        mine(leaf_places(&out)),
        want,
        "per-line self counts vs the leaf frames"
    );
    // Files: the same samples, per file (a leaf that is the file's name).
    let (code, out, err) = scorch(&["fold", "--count", "--granularity", "files", &file]);
    assert_eq!(code, 0, "{err}");
    let in_file: u64 = out
        .lines()
        .filter_map(|l| l.rsplit_once(' '))
        .filter(|(stack, _)| stack.rsplit(';').next() == Some("/tmp/lines/hot.py"))
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(in_file, want.values().sum::<u64>(), "{out}");
}

/// Independent: each sample of a raw Gecko profile (every thread, the content processes' too) counted per place
/// of its leaf frame — the URL of a JS location `name (url:line:col)` (the Firefox Profiler's pattern) and the
/// frame row's own `line`, else the location's.
const GECKO_LEAVES: &str = r#"
import gzip, json, re, sys, collections
js = re.compile(r"^(.*) \((.+?):([0-9]+)(?::([0-9]+))?\)(?:\[(\d+)\])?$")
out = collections.Counter()
def threads(p):
    for t in p["threads"]:
        yield t
    for sub in p.get("processes", []):
        yield from threads(sub)
for t in threads(json.load(gzip.open(sys.argv[1]))):
    strings = t["stringTable"]
    fs, frames = t["frameTable"]["schema"], t["frameTable"]["data"]
    ss, stacks = t["stackTable"]["schema"], t["stackTable"]["data"]
    cell = lambda row, i: row[i] if i < len(row) else None
    for sample in t["samples"]["data"]:
        s = cell(sample, t["samples"]["schema"]["stack"])
        if s is None:
            continue
        frame = frames[stacks[s][ss["frame"]]]
        m = js.match(strings[frame[fs["location"]]])
        if not m:
            continue
        line = cell(frame, fs["line"])
        out["%s:%d" % (m.group(2), line if line is not None else int(m.group(3)))] += 1
for k, v in sorted(out.items()):
    print("%s\t%d" % (k, v))
"#;

#[test]
fn gecko_line_self_counts_equal_the_leaf_frames_lines() {
    let file = format!(
        "{}/tests/data/gecko/firefox-raw.json.gz",
        env!("CARGO_MANIFEST_DIR")
    );
    let want = python_counts(GECKO_LEAVES, &file);
    // The page's fib loop: most of its samples are on line 3.
    assert!(want["file:///tmp/gecko-rec/page.html:3"] > 10, "{want:?}");
    let (code, out, err) = scorch(&["fold", "--count", "--granularity", "lines", &file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(leaf_places(&out), want, "per-line self counts vs the leaf frames");
}

#[test]
fn hostile_source_is_text_and_bounded() {
    // A "source" whose hot line is 8 MB of bytes with escapes, HTML and invalid UTF-8, and no end of line.
    let dir = std::env::temp_dir().join(format!("scorch-lines-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = Vec::new();
    for i in 1..32 {
        text.extend_from_slice(format!("line {i}\n").as_bytes());
    }
    text.extend_from_slice(b"\x1b[31m<script>alert(1)</script>\x00\xff\xfe");
    text.extend(std::iter::repeat_n(b'a', 8 << 20));
    std::fs::write(dir.join("main.go"), &text).unwrap();
    let (code, out, err) = scorch(&[
        "list",
        "main\\.sum",
        &data("cpu.pb.gz"),
        "--source-dir",
        dir.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}");
    let hot = out
        .lines()
        .find(|l| l.contains("    32:"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(hot.len() < 5000, "the line is cut: {} bytes", hot.len());
    assert!(hot.contains("\\x1b[31m<script>"), "{hot}");
    assert!(
        !out.chars().any(|c| c.is_control() && c != '\n' && c != '\t'),
        "text only"
    );
    // The file ends on line 32: nothing past it is printed.
    assert!(!out.contains("    33:"), "{out}");
}
