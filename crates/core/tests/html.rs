//! The one-file HTML export (`export::html`): the profile's bytes come back exactly from the page, the view's
//! fragment is kept as text, every inline script and the style are allowed by the CSP by their SHA-256 (computed
//! here by Python's hashlib, not by scorch), names are escaped, and the size cap is enforced.

use base64::Engine;
use scorch_core::export::html::{one_file, HtmlError, HtmlParts, MAX_PROFILE_BYTES};
use std::io::Write;
use std::process::{Command, Stdio};

const GLUE: &str = "export class IntoUnderlyingSink {}\nasync function __wbg_init(m) { return {}; }\n\
export { initSync, __wbg_init as default };\n";

fn parts<'a>(profile: &'a [u8], name: &'a str) -> HtmlParts<'a> {
    HtmlParts {
        glue_js: GLUE,
        wasm: b"\0asm\x01\0\0\0",
        css: "body { color: red; }",
        profile,
        name,
        fragment: "#zoom=main&q=a%3Cb",
    }
}

/// The text between `open` and the next `close` after it.
fn between<'a>(s: &'a str, open: &str, close: &str) -> &'a str {
    let i = s.find(open).unwrap() + open.len();
    let j = s[i..].find(close).unwrap() + i;
    &s[i..j]
}

fn python_sha256_b64(text: &str) -> String {
    let mut child = Command::new("python3")
        .args(["-c", "import sys,hashlib,base64;print(base64.b64encode(hashlib.sha256(sys.stdin.buffer.read()).digest()).decode())"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    String::from_utf8(child.wait_with_output().unwrap().stdout)
        .unwrap()
        .trim()
        .to_string()
}

#[test]
fn the_page_holds_the_profile_and_its_csp_names_its_scripts() {
    let profile: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
    let html = one_file(&parts(&profile, "a<b>&\"c\".perf")).unwrap();
    // The profile, exactly.
    let b64 = between(
        &html,
        "id=\"scorch-profile\" data-name=\"a&lt;b&gt;&amp;&quot;c&quot;.perf\">",
        "</script>",
    );
    assert_eq!(
        base64::engine::general_purpose::STANDARD.decode(b64).unwrap(),
        profile
    );
    // The fragment as text (no entities in script text).
    assert_eq!(
        between(&html, "id=\"scorch-view\">", "</script>"),
        "zoom=main&q=a%3Cb"
    );
    assert!(html.contains("<title>a&lt;b&gt;&amp;&quot;c&quot;.perf — scorch</title>"));
    // The CSP allows exactly the module script and the style, by hash.
    let module = between(&html, "<script type=\"module\">", "</script>");
    let style = between(&html, "<style>", "</style>");
    let csp = between(&html, "Content-Security-Policy\" content=\"", "\"");
    assert!(
        csp.contains(&format!(
            "script-src 'sha256-{}' 'wasm-unsafe-eval'",
            python_sha256_b64(module)
        )),
        "{csp}"
    );
    assert!(
        csp.contains(&format!("style-src 'sha256-{}'", python_sha256_b64(style))),
        "{csp}"
    );
    assert!(csp.contains("worker-src 'none'") && csp.contains("connect-src 'none'"));
    // The glue is inlined without its exports, its default named for the start-up.
    assert!(!module.contains("export "));
    assert!(
        module.contains("class IntoUnderlyingSink")
            && module.contains("__wbg_init({ module_or_path: module })")
    );
    assert_eq!(html.matches("<script").count(), 4, "view, profile, wasm, module");
}

#[test]
fn too_large_or_unsafe_parts_are_refused() {
    let big = vec![0u8; MAX_PROFILE_BYTES + 1];
    assert_eq!(
        one_file(&parts(&big, "x")),
        Err(HtmlError::TooLarge {
            bytes: MAX_PROFILE_BYTES + 1
        })
    );
    let mut p = parts(b"x", "x");
    let glue = format!("{GLUE}\n// </script><script>alert(1)</script>");
    p.glue_js = &glue;
    assert!(matches!(one_file(&p), Err(HtmlError::BadPart(_))));
    let mut p = parts(b"x", "x");
    p.css = "</style><script>";
    assert!(matches!(one_file(&p), Err(HtmlError::BadPart(_))));
}
