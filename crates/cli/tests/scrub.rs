//! `scorch link --scrub` and `scorch export --scrub` on real recordings with a user name, home paths, a
//! hostname and labels in them (`tests/data/scrub/README.md`).
//!
//! The oracles are not scorch: a link is decoded by a Python script written here from docs/SHARING.md (the
//! fragment's `p=`, base64url, raw deflate); a pprof export is gunzipped by Python; the expected stacks are the
//! original's `scorch fold` rewritten by the same rule with `sed -E`, summed per stack here; the hostname is
//! perf's own `perf report --header-only`. Each scrubbed payload must hold none of the scrubbed strings, fold
//! to those stacks with the same total, and say that it was scrubbed; `--scrub none` must round-trip exactly.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

mod common;

use common::scorch_input as scorch;

fn data(name: &str) -> String {
    format!("{}/tests/data/scrub/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The made-up user whose home folder the recordings ran from.
const USER: &str = "hkarlsson";

/// Decodes a scorch link's profile, from docs/SHARING.md: "the folded stacks …, raw-deflated and
/// base64url-encoded" in the fragment's `p=`.
const DECODE_LINK: &str = r#"
import base64, sys, urllib.parse, zlib
url = sys.stdin.read().strip()
fragment = url.split('#', 1)[1]
p = urllib.parse.parse_qs(fragment, keep_blank_values=True)['p'][0]
raw = base64.urlsafe_b64decode(p + '=' * (-len(p) % 4))
sys.stdout.write(zlib.decompress(raw, -15).decode('utf-8'))
"#;

/// Gunzips a file (a pprof export) and prints its bytes as latin-1 text, so a string search sees every byte.
const GUNZIP: &str = r#"
import gzip, sys
sys.stdout.write(gzip.decompress(sys.stdin.buffer.read()).decode('latin-1'))
"#;

/// Runs a program with `input` on its standard input; its standard output.
fn run(program: &str, args: &[&str], input: &[u8]) -> String {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} is needed for this test's oracle: {e}"));
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn python(script: &str, input: &[u8]) -> String {
    run("python3", &["-c", script], input)
}

/// `scorch link ARGS`: the decoded payload (by the Python script) and scorch's stderr line.
fn link(args: &[&str]) -> (String, String) {
    let mut argv = vec!["link"];
    argv.extend_from_slice(args);
    let (code, url, err) = scorch(&argv, None);
    assert_eq!(code, 0, "scorch {argv:?}: {err}");
    (python(DECODE_LINK, url.as_bytes()), err)
}

/// `scorch fold ARGS` (`-` reads `stdin`).
fn fold(args: &[&str], stdin: Option<&str>) -> String {
    let mut argv = vec!["fold"];
    argv.extend_from_slice(args);
    let (code, out, err) = scorch(&argv, stdin.map(str::as_bytes));
    assert_eq!(code, 0, "scorch {argv:?}: {err}");
    out
}

/// Folded lines summed per stack (a rewrite can make two stacks one).
fn summed(folded: &str) -> BTreeMap<String, u128> {
    let mut out = BTreeMap::new();
    for line in folded.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (stack, count) = line.rsplit_once(' ').unwrap();
        *out.entry(stack.to_string()).or_insert(0) += count.parse::<u128>().unwrap();
    }
    out
}

/// The folded lines with their stacks (not their counts) rewritten by `sed -E` with these scripts.
fn sed(folded: &str, scripts: &[&str]) -> String {
    let lines: Vec<(&str, &str)> = folded
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.rsplit_once(' ').unwrap())
        .collect();
    let stacks: String = lines.iter().map(|(s, _)| format!("{s}\n")).collect();
    let mut args = vec!["-E"];
    for s in scripts {
        args.extend(["-e", s]);
    }
    let out = run("sed", &args, stacks.as_bytes());
    let new: Vec<&str> = out.lines().collect();
    assert_eq!(new.len(), lines.len());
    new.iter()
        .zip(&lines)
        .map(|(s, (_, c))| format!("{s} {c}\n"))
        .collect()
}

/// The `paths` rule in sed: the folders of an absolute path or a `file://` URL that starts a frame or follows a
/// space or bracket.
const SED_PATHS: &str = r"s#(^|[ (;=@:,])(file://)?/([^/ ;:()]+/)+#\1#g";
/// The `users` rule in sed.
const SED_USERS: &str = r"s#(/home|/Users)/[^/ ;:()]+#\1/<user>#g";

fn total(m: &BTreeMap<String, u128>) -> u128 {
    m.values().sum()
}

/// Asserts that the payload's stacks are the original's rewritten by `scripts`, with the same total.
fn assert_rewritten(payload: &str, original: &str, scripts: &[&str]) {
    let got = summed(&fold(&["-"], Some(payload)));
    let want = summed(&sed(original, scripts));
    assert_eq!(total(&got), total(&summed(original)), "the total is kept");
    assert_eq!(got, want);
}

#[test]
fn perf_script_paths_and_users() {
    let f = data("shop.perf.txt.gz");
    let original = fold(&[&f], None);
    assert!(
        original.contains(&format!("/home/{USER}/src/shop-api/")),
        "the recording names the home folder"
    );
    // The default: paths and header.
    let (payload, err) = link(&[&f]);
    assert!(err.contains("scrubbed: paths,header"), "{err}");
    assert!(
        payload.contains("# scorch-scrubbed: paths,header\n"),
        "the receiver can tell"
    );
    assert!(payload.contains("# scorch-times"), "the timestamps still travel");
    for gone in [USER, "/home/", "shop-api/", "file://"] {
        assert!(!payload.contains(gone), "{gone} in the payload");
    }
    assert_rewritten(&payload, &original, &[SED_PATHS]);
    assert!(
        payload.contains("JS:*work billing.js:2:14_[j]"),
        "the base names stay"
    );
    // Users only: the folders stay, the name goes.
    let (payload, _) = link(&["--scrub", "users", &f]);
    assert!(!payload.contains(USER));
    assert!(payload.contains("/home/<user>/src/shop-api/billing.js"));
    assert_rewritten(&payload, &original, &[SED_USERS]);
    // Timestamps: none travel; the stacks are the same.
    let (payload, err) = link(&["--scrub", "paths,timestamps", &f]);
    assert!(
        !payload.contains("# scorch-times") && !payload.contains(" @"),
        "{payload}"
    );
    assert!(!err.contains("with timestamps"), "{err}");
    assert_rewritten(&payload, &original, &[SED_PATHS]);
    // Unscrubbed: exactly the original, no marker.
    let (payload, err) = link(&["--scrub", "none", &f]);
    assert!(err.contains("not scrubbed"), "{err}");
    assert!(!payload.contains("scorch-scrubbed") && payload.contains(USER));
    assert_eq!(fold(&["-"], Some(&payload)), original, "round-trips exactly");
}

#[test]
fn show_lists_what_goes_and_writes_nothing_else() {
    let f = data("shop.perf.txt.gz");
    let (code, out, _) = scorch(&["link", "--scrub", "none", "--show", &f], None);
    assert_eq!(code, 0);
    assert!(!out.contains("#p="), "no link: {out}");
    for path in ["app.js", "billing.js"] {
        assert!(
            out.contains(&format!("  /home/{USER}/src/shop-api/{path}\n")),
            "{out}"
        );
    }
    assert!(out.contains(&format!("user names: {USER}\n")), "{out}");
    assert!(
        out.contains("timestamps: carried") && out.contains("scrubbed: no"),
        "{out}"
    );
    let (_, out, _) = scorch(&["link", "--show", &f], None);
    assert!(
        out.contains("file paths: 0\n") && out.contains("user names: none\n"),
        "{out}"
    );
    assert!(out.contains("scrubbed: paths,header\n"), "{out}");
    // The samples the link carries: perf script's own sample headers (unindented lines), counted here.
    let text = run("gzip", &["-dc"], &std::fs::read(&f).unwrap());
    let samples = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(['\t', ' ', '#']))
        .count();
    assert!(
        out.starts_with(&format!("carries: {samples} samples as ")),
        "{out}"
    );
}

#[test]
fn perf_data_header_and_hostname() {
    let f = data("shop.perf.data");
    let header = std::fs::read_to_string(data("shop.perf.header")).unwrap();
    let host = header
        .lines()
        .find_map(|l| l.strip_prefix("# hostname : "))
        .unwrap()
        .trim();
    assert_eq!(host, "build-07.shop.internal");
    let (code, out, _) = scorch(&["link", "--scrub", "none", "--show", &f], None);
    assert_eq!(code, 0);
    let facts = out.lines().find(|l| l.starts_with("header: ")).unwrap();
    assert!(facts.contains("hostname") && facts.contains("command"), "{facts}");
    assert!(facts.ends_with("not carried"), "{facts}");
    let (_, out, _) = scorch(&["link", "--show", &f], None);
    assert!(out.contains("header: none\n"), "{out}");
    let original = fold(&[&f], None);
    let (payload, _) = link(&[&f]);
    for gone in [host, USER, "6.18.44"] {
        assert!(!payload.contains(gone), "{gone} in the payload");
    }
    assert_rewritten(&payload, &original, &[SED_PATHS]);
}

#[test]
fn pprof_labels() {
    let f = data("orders.pb.gz");
    // A link grouped by a label carries its values as root frames; `labels` drops them.
    let original = fold(&["--tagroot", "user", &f], None);
    assert!(
        original.lines().any(|l| l.starts_with(&format!("user={USER};"))),
        "{original}"
    );
    let (payload, _) = link(&["--tagroot", "user", "--scrub", "none", &f]);
    assert!(payload.contains(&format!("user={USER};")));
    let (payload, _) = link(&["--tagroot", "user", "--scrub", "labels", &f]);
    assert!(!payload.contains(USER) && !payload.contains("user="), "{payload}");
    assert!(payload.contains("# scorch-scrubbed: labels\n"));
    assert_rewritten(&payload, &original, &[r"s#^user=[^;]*;##"]);
    // A label filter on a dropped key is baked in: the same samples, without the label.
    let filtered = fold(&["--tagfilter", "tenant=acme-corp", &f], None);
    let (payload, _) = link(&["--tagfilter", "tenant=acme-corp", "--scrub", "labels", &f]);
    assert_eq!(summed(&fold(&["-"], Some(&payload))), summed(&filtered));
    // pprof carries every label; the keys asked for go, the others stay.
    let pprof = |args: &[&str]| {
        let mut argv = vec!["export", "--to", "pprof"];
        argv.extend_from_slice(args);
        argv.push(&f);
        let (code, out, err) = common::scorch_bytes(&argv, None);
        assert_eq!(code, 0, "{err}");
        python(GUNZIP, &out)
    };
    let all = pprof(&[]);
    for kept in [USER, "db-03.orders.internal", "acme-corp"] {
        assert!(all.contains(kept), "{kept} is carried unscrubbed");
    }
    assert!(!all.contains("scorch-scrubbed"));
    let some = pprof(&["--scrub", "labels=user,labels=db_host"]);
    assert!(!some.contains(USER) && !some.contains("db-03.orders.internal"));
    assert!(
        some.contains("acme-corp") && some.contains("tenant"),
        "the other key stays"
    );
    assert!(
        some.contains("scorch-scrubbed: labels=user,labels=db_host"),
        "a comment says so"
    );
    let (code, out, _) = scorch(&["export", "--to", "pprof", "--show", &f], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("labels: db_host (1 value), tenant (2 values), user (1 value) — carried"),
        "{out}"
    );
}

#[test]
fn v8_file_urls_and_redact() {
    let f = data("shop.cpuprofile");
    let original = fold(&[&f], None);
    assert!(original.contains(&format!("file:///home/{USER}/")) && original.contains("secret_rotate_keys"));
    let (payload, _) = link(&["--redact", "secret_[a-z_]+", &f]);
    for gone in [USER, "file://", "secret_rotate_keys"] {
        assert!(!payload.contains(gone), "{gone} in the payload");
    }
    assert!(payload.contains("# scorch-scrubbed: paths,header,redact\n"));
    assert!(payload.contains("<redacted>") && payload.contains("work (billing.js:2)"));
    assert_rewritten(
        &payload,
        &original,
        &[r"s#(^|;)[^;]*secret_[a-z_]+[^;]*#\1<redacted>#g", SED_PATHS],
    );
    // The same rules in a folded export, which says so in its first line.
    let (code, out, err) = scorch(&["export", "--to", "folded", "--scrub", "paths,users", &f], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# scorch-scrubbed: paths,users\n"), "{out}");
    assert!(!out.contains(USER));
    assert_eq!(summed(&out), summed(&sed(&original, &[SED_PATHS])));
    let (code, _, err) = scorch(&["link", "--redact", "(", &f], None);
    assert_eq!(code, 2, "a bad expression is a usage error: {err}");
}

#[test]
fn a_note_travels_as_text() {
    let f = data("orders.pb.gz");
    let text = "GC <b>pause</b> & <script>alert(1)</script> — see INC-42";
    let (code, url, err) = scorch(&["link", "--note", text, "--note", "second", &f], None);
    assert_eq!(code, 0, "{err}");
    // Python reads the fragment's `note=` values from the rule in docs/SHARING.md: KIND.TARGET.TEXT, each part
    // percent-encoded.
    let notes = python(
        r#"
import sys, urllib.parse
fragment = sys.stdin.read().strip().split('#', 1)[1]
for part in fragment.split('&'):
    key, _, value = part.partition('=')
    if key == 'note':
        kind, target, text = value.split('.', 2)
        print(kind, urllib.parse.unquote(target), urllib.parse.unquote(text), sep='|')
"#,
        url.as_bytes(),
    );
    assert_eq!(notes, format!("v||{text}\nv||second\n"));
    assert!(
        !url.contains('<') && !url.contains(' '),
        "the link is URL-safe: {url}"
    );
    // The profile in it is unchanged by the notes.
    let (payload, _) = link(&["--note", text, &f]);
    assert_eq!(summed(&fold(&["-"], Some(&payload))), summed(&fold(&[&f], None)));
}
