//! `scorch export` through the binary.
//!
//! pprof: the gzip'd profile.proto is read back by a minimal protobuf wire decoder written here from
//! profile.proto's field numbers (varints and length-delimited fields only; it shares no code with scorch's
//! prost messages), and by `go tool pprof -raw` where Go is installed; both must give exactly `scorch fold`'s
//! stacks and weights for the same file and options.
//!
//! SVG: the output is well-formed XML (a small tag-nesting and entity checker here, and Python's
//! `xml.etree` where python3 is installed), every frame of the heaviest stack of `scorch fold` has a box with a
//! `<title>`, each box is as wide as its total's share of the graph (totals summed here from the folded lines),
//! and names with `<&"'` are escaped.

use flate2::read::GzDecoder;
use std::collections::BTreeMap;
use std::io::Read;
use std::process::Command;

mod common;

use common::scorch_bytes as scorch;

fn data(name: &str) -> String {
    format!("{}/../core/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn fold(file: &str, opts: &[&str]) -> String {
    let mut args = vec!["fold", file];
    args.extend_from_slice(opts);
    let (code, out, err) = scorch(&args, None);
    assert_eq!(code, 0, "{err}");
    String::from_utf8(out).unwrap()
}

// ---- a minimal protobuf wire reader ----

/// The fields of one message: (field number, wire type, varint value or bytes).
enum Field<'a> {
    Varint(u64, u64),
    Bytes(u64, &'a [u8]),
}

fn varint(b: &[u8], at: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let x = b[*at];
        *at += 1;
        v |= u64::from(x & 0x7f) << shift;
        if x & 0x80 == 0 {
            return v;
        }
        shift += 7;
    }
}

fn fields(b: &[u8]) -> Vec<Field<'_>> {
    let mut at = 0;
    let mut out = Vec::new();
    while at < b.len() {
        let key = varint(b, &mut at);
        let (num, wt) = (key >> 3, key & 7);
        match wt {
            0 => out.push(Field::Varint(num, varint(b, &mut at))),
            2 => {
                let len = varint(b, &mut at) as usize;
                out.push(Field::Bytes(num, &b[at..at + len]));
                at += len;
            }
            1 => at += 8,
            5 => at += 4,
            _ => panic!("wire type {wt}"),
        }
    }
    out
}

/// The values of a repeated varint field, packed or not.
fn repeated(fs: &[Field], num: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for f in fs {
        match *f {
            Field::Varint(n, v) if n == num => out.push(v),
            Field::Bytes(n, b) if n == num => {
                let mut at = 0;
                while at < b.len() {
                    out.push(varint(b, &mut at));
                }
            }
            _ => {}
        }
    }
    out
}

fn one(fs: &[Field], num: u64) -> u64 {
    repeated(fs, num).first().copied().unwrap_or(0)
}

fn messages<'a>(fs: &[Field<'a>], num: u64) -> Vec<&'a [u8]> {
    fs.iter()
        .filter_map(|f| match *f {
            Field::Bytes(n, b) if n == num => Some(b),
            _ => None,
        })
        .collect()
}

/// The folded lines of a gzip'd profile.proto with one value per sample: root first, weights summed, sorted.
fn decode_folded(gz: &[u8]) -> String {
    let mut raw = Vec::new();
    GzDecoder::new(gz).read_to_end(&mut raw).unwrap();
    let top = fields(&raw);
    let strings: Vec<String> = messages(&top, 6)
        .iter()
        .map(|b| String::from_utf8(b.to_vec()).unwrap())
        .collect();
    let functions: BTreeMap<u64, String> = messages(&top, 5)
        .iter()
        .map(|m| {
            let f = fields(m);
            (one(&f, 1), strings[one(&f, 2) as usize].clone())
        })
        .collect();
    let locations: BTreeMap<u64, String> = messages(&top, 4)
        .iter()
        .map(|m| {
            let f = fields(m);
            let lines = messages(&f, 4);
            assert_eq!(lines.len(), 1, "one line per location");
            (one(&f, 1), functions[&one(&fields(lines[0]), 1)].clone())
        })
        .collect();
    assert_eq!(messages(&top, 1).len(), 1, "one sample type");
    // int64 values: a negative one is a 10-byte varint of its two's complement.
    let mut stacks: BTreeMap<String, i64> = BTreeMap::new();
    for s in messages(&top, 2) {
        let f = fields(s);
        let mut names: Vec<&str> = repeated(&f, 1).iter().map(|l| locations[l].as_str()).collect();
        names.reverse();
        let v = repeated(&f, 2);
        assert_eq!(v.len(), 1);
        *stacks.entry(names.join(";")).or_default() += v[0] as i64;
    }
    stacks.iter().map(|(s, w)| format!("{s} {w}\n")).collect()
}

/// The folded lines `go tool pprof -raw` gives for a file: samples `VALUE: LOC LOC …` (leaf first), locations
/// `ID: 0xADDR M=N NAME :LINE s=0`, then `(FULL NAME)` when pprof shortened it (an empty name would
/// show as `??`: the files here have none). `None` without Go.
fn go_folded(path: &str) -> Option<String> {
    let out = Command::new("go")
        .args(["tool", "pprof", "-raw", path])
        .output()
        .ok()?;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let (mut samples, mut locs) = (Vec::new(), BTreeMap::new());
    let mut section = "";
    for line in text.lines() {
        match line.trim() {
            "Samples:" | "Locations" | "Mappings" => {
                section = line.trim();
                continue;
            }
            _ => {}
        }
        let Some((head, rest)) = line.split_once(": ") else {
            continue;
        };
        let Ok(n) = head.trim().parse::<i64>() else {
            continue;
        };
        match section {
            "Samples:" => {
                let ids: Vec<u64> = rest.split_whitespace().map(|x| x.parse().unwrap()).collect();
                samples.push((n, ids));
            }
            "Locations" => {
                // `NAME :LINE s=START`, and `(FULL NAME)` after it when pprof shortened the name.
                let after = rest.split_once(" M=").unwrap().1.split_once(' ').unwrap().1;
                let (head, start) = after.rsplit_once(" s=").unwrap();
                let name = match start.split_once('(') {
                    Some((_, full)) => full.strip_suffix(')').unwrap(),
                    None => head.rsplit_once(" :").unwrap().0,
                };
                locs.insert(n as u64, name.to_string());
            }
            _ => {}
        }
    }
    let mut stacks: BTreeMap<String, i64> = BTreeMap::new();
    for (v, ids) in samples {
        let names: Vec<&str> = ids.iter().rev().map(|i| locs[i].as_str()).collect();
        *stacks.entry(names.join(";")).or_default() += v;
    }
    Some(stacks.iter().map(|(s, w)| format!("{s} {w}\n")).collect())
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("scorch-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

#[test]
fn pprof_reads_back_to_the_folded_stacks() {
    let cases: [(&str, &[&str]); 6] = [
        ("perf/fg-perf-java-stacks-01.txt", &[]),
        ("perf/fg-perf-iperf-stacks-pidtid-01.txt", &["--root", "tid"]),
        ("folded/inf-base-flames.txt", &[]),
        ("pprof/gp-sample.cpu.pb.gz", &[]),
        ("pprof/parca-profile-with-labels.pb.gz", &[]),
        // A delta profile: net (signed) values per stack.
        ("pprof/parca-alloc_space_delta.pb.gz", &[]),
    ];
    let mut go_checked = 0;
    for (i, (file, opts)) in cases.iter().enumerate() {
        let out = tmp(&format!("{i}.pb.gz"));
        let mut args = vec!["export", "--to", "pprof", "-o", &out];
        args.extend_from_slice(opts);
        let path = data(file);
        args.push(&path);
        let (code, _, err) = scorch(&args, None);
        assert_eq!(code, 0, "{file}: {err}");
        let want = fold(&path, opts);
        assert!(want.lines().count() > 1, "{file}");
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(decode_folded(&bytes), want, "{file}: our decoder");
        if let Some(go) = go_folded(&out) {
            assert_eq!(go, want, "{file}: go tool pprof -raw");
            go_checked += 1;
        }
    }
    eprintln!("go tool pprof checked {go_checked} files");
}

#[test]
fn pprof_keeps_timestamps_and_labels() {
    let out = tmp("labels.pb.gz");
    let path = data("perf/fg-perf-java-stacks-01.txt");
    let (code, _, err) = scorch(&["export", "--to", "pprof", "-o", &out, &path], None);
    assert_eq!(code, 0, "{err}");
    let mut raw = Vec::new();
    GzDecoder::new(&std::fs::read(&out).unwrap()[..])
        .read_to_end(&mut raw)
        .unwrap();
    let top = fields(&raw);
    let strings: Vec<String> = messages(&top, 6)
        .iter()
        .map(|b| String::from_utf8(b.to_vec()).unwrap())
        .collect();
    let samples = messages(&top, 2);
    // One sample per perf sample (46 in the file, as `scorch info` and the oracle fold agree).
    assert_eq!(samples.len(), 46);
    let first = fields(samples[0]);
    let label = fields(messages(&first, 3)[0]);
    assert_eq!(strings[one(&label, 1) as usize], "timestamp_ns");
    assert_eq!(strings[one(&label, 4) as usize], "nanoseconds");
    // perf script's first sample: `java 29914 184694.229089: ...` (seconds with µs precision).
    let t = one(&label, 3);
    assert_eq!(t, 184_694_229_089_000);
}

// ---- SVG ----

/// A small well-formedness check: tags nest and close, attributes are quoted, `&` only starts a known entity.
fn well_formed(s: &str) -> Result<(), String> {
    let body = s.strip_prefix("<?xml").ok_or("no XML declaration")?;
    let body = &body[body.find("?>").ok_or("declaration not closed")? + 2..];
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = body;
    let check_text = |t: &str| -> Result<(), String> {
        if t.contains('<') || t.contains('>') {
            return Err(format!("bare < or > in {t:?}"));
        }
        for (i, _) in t.match_indices('&') {
            let ent = &t[i..];
            if !["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                .iter()
                .any(|e| ent.starts_with(e))
            {
                return Err(format!("bad entity at {:?}", &ent[..ent.len().min(10)]));
            }
        }
        Ok(())
    };
    while let Some(open) = rest.find('<') {
        check_text(&rest[..open])?;
        let close = rest[open..].find('>').ok_or("tag not closed")? + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            if stack.pop() != Some(name) {
                return Err(format!("</{name}> closes the wrong element"));
            }
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, mut attrs) = tag.split_once(' ').unwrap_or((tag, ""));
        while !attrs.trim().is_empty() {
            let (_, v) = attrs
                .split_once("=\"")
                .ok_or(format!("unquoted attribute in <{name}>"))?;
            let end = v.find('"').ok_or("attribute not closed")?;
            check_text(&v[..end])?;
            attrs = &v[end + 1..];
        }
        if !self_closing {
            stack.push(name);
        }
    }
    check_text(rest.trim())?;
    if stack.is_empty() {
        Ok(())
    } else {
        Err(format!("unclosed: {stack:?}"))
    }
}

/// Python's own XML parser, where python3 is installed.
fn python_parses(path: &str) -> Option<bool> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])",
            path,
        ])
        .output()
        .ok()?;
    Some(out.status.success())
}

/// A drawn frame: (name from its title, x, y, width).
fn boxes(svg: &str) -> Vec<(String, f64, f64, f64)> {
    let attr = |s: &str, a: &str| -> f64 {
        let i = s.find(&format!(" {a}=\"")).unwrap() + a.len() + 3;
        s[i..i + s[i..].find('"').unwrap()].parse().unwrap()
    };
    svg.split("<g><title>")
        .skip(1)
        .map(|g| {
            let name = g.split_once('\n').unwrap().0;
            let name = name
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&");
            let rect = &g[g.find("<rect").unwrap()..];
            (name, attr(rect, "x"), attr(rect, "y"), attr(rect, "width"))
        })
        .collect()
}

#[test]
fn svg_is_xml_with_titled_proportional_boxes() {
    for file in ["perf/fg-perf-java-stacks-01.txt", "folded/inf-base-flames.txt"] {
        let path = data(file);
        let out = tmp("graph.svg");
        let (code, _, err) = scorch(
            &["export", "--to", "svg", "--width", "1200", "-o", &out, &path],
            None,
        );
        assert_eq!(code, 0, "{err}");
        let svg = std::fs::read_to_string(&out).unwrap();
        well_formed(&svg).unwrap();
        if let Some(ok) = python_parses(&out) {
            assert!(ok, "python's xml.etree rejects {file}");
        }
        // Totals per path prefix, from the folded lines.
        let folded = fold(&path, &[]);
        let mut prefix: BTreeMap<Vec<&str>, u64> = BTreeMap::new();
        let mut all = 0;
        let mut heaviest = (0, Vec::new());
        for line in folded.lines() {
            let (stack, w) = line.rsplit_once(' ').unwrap();
            let w: u64 = w.parse().unwrap();
            all += w;
            let frames: Vec<&str> = stack.split(';').collect();
            for d in 1..=frames.len() {
                *prefix.entry(frames[..d].to_vec()).or_default() += w;
            }
            if w > heaviest.0 {
                heaviest = (w, frames);
            }
        }
        let b = boxes(&svg);
        let graph_w = 1200.0 - 20.0;
        // The root `all` spans the graph; walk the heaviest stack up from it, each box inside its parent.
        let root = b.iter().find(|x| x.0 == "all").unwrap();
        assert!((root.3 + 1.0 - graph_w).abs() < 0.011);
        let (mut px, mut pw, mut py) = (root.1, root.3 + 1.0, root.2);
        for d in 1..=heaviest.1.len() {
            let path = heaviest.1[..d].to_vec();
            // Titles name the function; folded text marks kernel, JIT and inline frames with a suffix.
            let name = ["_[k]", "_[j]", "_[i]"]
                .iter()
                .fold(path[d - 1], |n, s| n.strip_suffix(s).unwrap_or(n));
            let y = py - 18.0; // flame: each depth one row up
            let found = b
                .iter()
                .find(|x| x.0 == name && x.2 == y && x.1 >= px - 1e-6 && x.1 < px + pw)
                .unwrap_or_else(|| panic!("{file}: no box for {name} at depth {d}"));
            let want = prefix[&path] as f64 / all as f64 * graph_w;
            let gap = if want > 3.0 { 1.0 } else { 0.0 };
            assert!(
                (found.3 + gap - want).abs() < 0.011,
                "{file}: {name}: width {} for a share {want}",
                found.3
            );
            (px, pw, py) = (found.1, want, y);
        }
    }
}

#[test]
fn svg_escapes_names() {
    let input = b"main;<script>&\"quote\"'s 3\nmain;plain 1\n";
    let (code, out, err) = scorch(&["export", "--to", "svg", "--title", "a<b & c", "-"], Some(input));
    assert_eq!(code, 0, "{err}");
    let svg = String::from_utf8(out).unwrap();
    well_formed(&svg).unwrap();
    assert!(svg.contains("&lt;script&gt;&amp;&quot;quote&quot;&apos;s"));
    assert!(svg.contains("a&lt;b &amp; c"));
    assert!(!svg.contains("<script"));
    let b = boxes(&svg);
    assert!(b.iter().any(|x| x.0 == "<script>&\"quote\"'s"));
}

#[test]
fn folded_export_is_scorch_fold() {
    let path = data("perf/fg-perf-iperf-stacks-pidtid-01.txt");
    let (code, out, err) = scorch(&["export", "--to", "folded", "--root", "pid", &path], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(String::from_utf8(out).unwrap(), fold(&path, &["--root", "pid"]));
}

#[test]
fn png_and_html_need_the_app() {
    let (code, _, err) = scorch(
        &["export", "--to", "png", &data("folded/inf-base-flames.txt")],
        None,
    );
    assert_eq!(code, 2);
    assert!(err.contains("browser"), "{err}");
}
