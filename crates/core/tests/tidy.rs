//! Tidy checks over the repository's Rust sources (as rust-analyzer's `tidy.rs`), run with the core's tests:
//! no source file over 800 lines (the app's `lib.rs` over 150); no circle between the modules of a crate (read,
//! like `../shared/tools/arch-check.py`, from the `crate::…`, `super::…` and `self::…` paths of each file outside
//! its `#[cfg(test)] mod tests`); the core's clippy denials of unwrap, expect, panic, unreachable and indexing
//! stay in place and are not allowed away; and (report-only until issue #39) the app's product modules do not
//! call its test hooks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `.rs` files below `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Each crate's `src` folder: `(crate name, src)`.
fn crate_sources() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("src").is_dir())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                p.join("src"),
            )
        })
        .collect();
    out.sort();
    out
}

fn read(p: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned()
}

fn shown(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// Fails with every finding, one a line.
fn assert_none(what: &str, found: &[String]) {
    assert!(found.is_empty(), "{what}:\n{}", found.join("\n"));
}

#[test]
fn no_source_file_is_too_long() {
    let mut found = Vec::new();
    for (name, src) in crate_sources() {
        for f in rust_files(&src) {
            let n = read(&f).lines().count();
            let max = if name == "app" && f == src.join("lib.rs") {
                150
            } else {
                800
            };
            if n > max {
                found.push(format!("{}: {n} lines (over {max})", shown(&f)));
            }
        }
    }
    assert_none("files too long", &found);
}

type Module = Vec<String>;

/// The module a file is: its path below `src` without `.rs`, and without a last `mod`, `lib` or `main`.
fn module_of(src: &Path, f: &Path) -> Module {
    let rel = f.strip_prefix(src).unwrap().with_extension("");
    let mut m: Module = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    if matches!(m.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        m.pop();
    }
    m
}

/// The text of a file before its `#[cfg(test)] mod tests`, without `//` comments.
fn product_text(text: &str) -> String {
    let mut cut = text.len();
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]") {
        let at = from + i;
        let rest = text[at + "#[cfg(test)]".len()..].trim_start();
        if let Some(r) = rest.strip_prefix("mod") {
            if r.starts_with(char::is_whitespace) && r.trim_start().starts_with("tests") {
                let after = r.trim_start()["tests".len()..].chars().next();
                if !after.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    cut = at;
                    break;
                }
            }
        }
        from = at + 1;
    }
    text[..cut]
        .lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The identifier at the start of `s`, if any.
fn ident(s: &str) -> Option<&str> {
    let end = s.find(|c: char| !is_ident(c)).unwrap_or(s.len());
    (end > 0 && !s.starts_with(|c: char| c.is_ascii_digit())).then(|| &s[..end])
}

/// The text between a `{` at the start of `s` and its matching `}`.
fn group(s: &str) -> Option<&str> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&s[1..i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits a use group's inside at its top-level commas.
fn parts(g: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in g.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&g[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&g[start..]);
    out
}

/// Every path of a use group's part below `head`: `b`, `c::{d, e as f}` (leaves only), `x as y`.
fn expand(head: &str, part: &str, out: &mut Vec<String>) {
    let mut path = head.to_string();
    let mut rest = part.trim();
    while let Some(id) = ident(rest) {
        path = format!("{path}::{id}");
        rest = rest[id.len()..].trim_start();
        match rest.strip_prefix("::") {
            Some(r) if r.trim_start().starts_with('{') => {
                if let Some(g) = group(r.trim_start()) {
                    for p in parts(g) {
                        expand(&path, p, out);
                    }
                }
                return;
            }
            Some(r) => rest = r.trim_start(),
            None => break,
        }
    }
    if path != head {
        out.push(path);
    }
}

/// Every path in `text` that starts at `crate::`, `super::` or `self::` (the longest run of `::name`s), and for
/// a `use` group after one, each of its members' paths.
fn paths_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.char_indices() {
        let rest = &text[i..];
        let Some(head) = ["crate", "super", "self"]
            .into_iter()
            .find(|h| rest.starts_with(h))
        else {
            continue;
        };
        // A path's own later segments (`super::super`) and longer names (`myself`) are not a start.
        if text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| is_ident(c) || c == ':')
        {
            continue;
        }
        let mut path = head.to_string();
        let mut tail = &rest[head.len()..];
        if tail.starts_with(|c: char| is_ident(c)) {
            continue;
        }
        while let Some(id) = tail.strip_prefix("::").and_then(ident) {
            path = format!("{path}::{id}");
            tail = &tail[2 + id.len()..];
        }
        if path == head {
            if let Some(g) = tail.strip_prefix("::").and_then(|t| group(t.trim_start())) {
                parts(g).into_iter().for_each(|p| expand(&path, p, &mut out));
            }
            continue;
        }
        if let Some(g) = tail.strip_prefix("::").and_then(|t| group(t.trim_start())) {
            parts(g).into_iter().for_each(|p| expand(&path, p, &mut out));
        }
        out.push(path);
    }
    out
}

/// The module of `mods` a path from module `me` names (the longest that matches).
fn resolve(me: &Module, path: &str, mods: &BTreeSet<Module>) -> Option<Module> {
    let parts: Vec<&str> = path.split("::").collect();
    let (mut base, mut rest) = (me.clone(), parts.as_slice());
    if parts.first() == Some(&"crate") {
        base.clear();
        rest = &parts[1..];
    } else {
        while let Some((&h, r)) = rest.split_first() {
            match h {
                "super" => {
                    base.pop();
                }
                "self" => {}
                _ => break,
            }
            rest = r;
        }
    }
    (0..=rest.len()).rev().find_map(|i| {
        let mut cand = base.clone();
        cand.extend(rest[..i].iter().map(|s| s.to_string()));
        mods.contains(&cand).then_some(cand)
    })
}

/// The modules of a crate and whom each uses (its own parents left out: `mod.rs` declaring it is no use).
fn module_graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let files = rust_files(src);
    let mods: BTreeSet<Module> = files.iter().map(|f| module_of(src, f)).collect();
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for f in &files {
        let me = module_of(src, f);
        let uses = graph.entry(me.clone()).or_default();
        for p in paths_in(&product_text(&read(f))) {
            if let Some(to) = resolve(&me, &p, &mods) {
                if to != me && !me.starts_with(&to) {
                    uses.insert(to);
                }
            }
        }
    }
    graph
}

/// The groups of two or more modules that reach each other.
fn circles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    let reach = |from: &Module| -> BTreeSet<Module> {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&Module> = graph.get(from).into_iter().flatten().collect();
        while let Some(m) = todo.pop() {
            if seen.insert(m.clone()) {
                todo.extend(graph.get(m).into_iter().flatten());
            }
        }
        seen
    };
    let reaches: BTreeMap<&Module, BTreeSet<Module>> = graph.keys().map(|m| (m, reach(m))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for (m, r) in &reaches {
        if done.contains(*m) || !r.contains(*m) {
            continue;
        }
        let comp: Vec<Module> = r
            .iter()
            .filter(|o| reaches.get(o).is_some_and(|back| back.contains(*m)))
            .cloned()
            .collect();
        done.extend(comp.iter().cloned());
        out.push(comp);
    }
    out
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "lib".to_string()
    } else {
        m.join("::")
    }
}

/// The circles of the named crates, one finding each.
fn circles_in(crates: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (crate_name, src) in crate_sources() {
        if !crates.contains(&crate_name.as_str()) {
            continue;
        }
        for comp in circles(&module_graph(&src)) {
            let names: Vec<String> = comp.iter().map(name).collect();
            found.push(format!(
                "crates/{crate_name}: {} modules in a circle: {}",
                comp.len(),
                names.join(", ")
            ));
        }
    }
    found
}

#[test]
fn no_circle_between_the_modules_of_the_core_or_the_cli() {
    assert_none("circles between modules", &circles_in(&["core", "cli"]));
}

/// The app's modules too: its test hooks install themselves into `seams` (a ground floor), and the worker's
/// shared helpers sit below the modules that use them.
#[test]
fn no_circle_between_the_modules_of_the_app() {
    assert_none("circles between modules", &circles_in(&["app"]));
}

#[test]
fn the_module_reader_sees_uses_and_circles() {
    let paths = paths_in("use crate::a::{b, c::{d, e as f}};\nuse super::super::g;\nlet x = self::h::i();");
    assert_eq!(
        paths.into_iter().collect::<BTreeSet<_>>(),
        [
            "crate::a",
            "crate::a::b",
            "crate::a::c::d",
            "crate::a::c::e",
            "super::super::g",
            "self::h::i"
        ]
        .map(String::from)
        .into_iter()
        .collect()
    );
    assert_eq!(
        product_text("use crate::a;\n#[cfg(test)]\nmod tests {\n use crate::b;\n}"),
        "use crate::a;"
    );
    let m = |s: &str| -> Module {
        s.split("::")
            .filter(|x| !x.is_empty())
            .map(String::from)
            .collect()
    };
    let mods: BTreeSet<Module> = [m("a"), m("a::b"), m("c")].into_iter().collect();
    assert_eq!(resolve(&m("a::b"), "super::super::c::X", &mods), Some(m("c")));
    assert_eq!(resolve(&m("c"), "crate::a::b::f", &mods), Some(m("a::b")));
    let graph: BTreeMap<Module, BTreeSet<Module>> = [
        (m("a"), [m("c")].into_iter().collect()),
        (m("c"), [m("a::b")].into_iter().collect()),
        (m("a::b"), [m("a")].into_iter().collect()),
    ]
    .into_iter()
    .collect();
    assert_eq!(circles(&graph), vec![vec![m("a"), m("a::b"), m("c")]]);
}

#[test]
fn the_core_denies_panics_outside_tests() {
    let lib = read(&root().join("crates/core/src/lib.rs"));
    let lints = [
        "unwrap_used",
        "expect_used",
        "panic",
        "unreachable",
        "indexing_slicing",
    ];
    let deny = lib
        .find("#![cfg_attr(")
        .and_then(|i| lib[i..].find(")]").map(|j| &lib[i..i + j]))
        .unwrap_or("");
    let compact: String = deny.chars().filter(|c| !c.is_whitespace()).collect();
    let mut found = Vec::new();
    if !compact.starts_with("#![cfg_attr(not(test),deny(") {
        found.push("crates/core/src/lib.rs: no `#![cfg_attr(not(test), deny(clippy::…))]`".to_string());
    }
    for l in lints {
        if !compact.contains(&format!("clippy::{l},")) && !compact.contains(&format!("clippy::{l})")) {
            found.push(format!("crates/core/src/lib.rs: clippy::{l} is not denied"));
        }
    }
    for f in rust_files(&root().join("crates/core/src")) {
        for (i, line) in read(&f).lines().enumerate() {
            if line.contains("allow(") && lints.iter().any(|l| line.contains(&format!("clippy::{l}"))) {
                found.push(format!("{}:{}: {}", shown(&f), i + 1, line.trim()));
            }
        }
    }
    assert_none("the core must not panic on input", &found);
}

/// Product modules report to `crate::seams`; only `lib.rs` and `testing/` name the hooks.
#[test]
fn app_product_modules_do_not_call_the_test_hooks() {
    let src = root().join("crates/app/src");
    let files = rust_files(&src);
    let mods: BTreeSet<Module> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut found = Vec::new();
    for f in &files {
        let me = module_of(&src, f);
        if me.is_empty() || me.first().is_some_and(|m| m == "testing") {
            continue;
        }
        let calls = paths_in(&product_text(&read(f)))
            .iter()
            .filter_map(|p| resolve(&me, p, &mods))
            .any(|to| to.first().is_some_and(|m| m == "testing"));
        if calls {
            found.push(format!(
                "{}: a product module calls the test hooks (crate::testing)",
                shown(f)
            ));
        }
    }
    assert_none("test hooks called from the product", &found);
}
