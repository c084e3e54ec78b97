//! The one-file HTML export: the viewer and a profile in a single file that opens from disk (`file://`) with no
//! server, in the view a link describes — for attaching to a ticket. Pure: the caller gives the viewer's built
//! files (the wasm-bindgen glue, the `.wasm`, the style sheet) and the profile's bytes; both the app's Export menu
//! and `scorch export --to html --viewer DIST` call [`one_file`], so they write the same bytes.
//!
//! The file holds: a CSP that allows its two inline scripts by their SHA-256 (and nothing from elsewhere, no
//! worker: the viewer reads on the page), the style sheet, the wasm and the profile as base64 in inert
//! `<script type="application/octet-stream">` blocks, the view's link fragment, and one module script — the
//! glue followed by a small start-up that compiles the wasm from the page, sets the fragment and hands the
//! profile to the app (`window.scorchBoot.inline`). Every text from outside (the name, the fragment) is escaped.

use base64::Engine;
use sha2::{Digest, Sha256};

/// The largest profile a one-file export carries: past it, the file would be slow to open and heavy to attach.
pub const MAX_PROFILE_BYTES: usize = 64 << 20;

/// What goes into the file.
pub struct HtmlParts<'a> {
    /// The wasm-bindgen glue (`scorch-app.js`), an ES module.
    pub glue_js: &'a str,
    /// The viewer's compiled wasm (`scorch-app_bg.wasm`).
    pub wasm: &'a [u8],
    /// The style sheet.
    pub css: &'a str,
    /// The profile as read from its file (any format the viewer reads, gzip'd or not).
    pub profile: &'a [u8],
    /// The profile's file name.
    pub name: &'a str,
    /// The view as a link's fragment without its source (`mode=sandwich&zoom=…`); may be empty.
    pub fragment: &'a str,
}

/// Why no file was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HtmlError {
    TooLarge {
        bytes: usize,
    },
    /// A part is not what the viewer's build writes (e.g. the glue has `</script>` in it).
    BadPart(&'static str),
}

impl std::fmt::Display for HtmlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HtmlError::TooLarge { bytes } => write!(
                f,
                "the profile is {bytes} bytes; a one-file HTML export carries at most {MAX_PROFILE_BYTES} \
                 (64 MiB): share a link or the file itself"
            ),
            HtmlError::BadPart(what) => write!(f, "cannot inline the viewer's {what}"),
        }
    }
}

impl std::error::Error for HtmlError {}

/// The start-up after the glue: compile the wasm from the page, put the view in the fragment, hand the
/// profile over, start the app (`__wbg_init` is the glue's default export).
const START: &str = r#"
const b64 = (id) => Uint8Array.from(atob(document.getElementById(id).textContent.trim()), (c) => c.charCodeAt(0));
const data = document.getElementById('scorch-profile');
const view = document.getElementById('scorch-view').textContent.trim();
if (view && location.hash.length <= 1) history.replaceState(null, '', '#' + view);
window.scorchBoot = { module: null, earlyWorker: null, earlyReady: false,
  inline: { name: data.dataset.name, bytes: b64('scorch-profile') } };
const module = await WebAssembly.compile(b64('scorch-wasm'));
window.scorchBoot.module = module;
window.scorchBoot.memory = (await __wbg_init({ module_or_path: module })).memory;
"#;

/// `s` escaped for HTML text and attribute values (the SVG writer's escaping: XML's rules hold in HTML too).
fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    super::svg::escape_into(&mut out, s);
    out
}

fn sha256_b64(text: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text.as_bytes()))
}

/// The glue as an inline module: its `export` statements removed (an inline module exports to nobody) and the
/// default export named, so the start-up can call it.
fn inline_glue(glue: &str) -> Result<String, HtmlError> {
    if glue.contains("</script") || !glue.contains("__wbg_init") {
        return Err(HtmlError::BadPart("JavaScript glue"));
    }
    Ok(glue
        .lines()
        .filter(|l| !l.trim_start().starts_with("export {") && !l.trim_start().starts_with("export default"))
        .map(|l| l.strip_prefix("export ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n"))
}

/// The whole file. Errors: a profile past [`MAX_PROFILE_BYTES`], or parts that cannot be inlined.
pub fn one_file(p: &HtmlParts) -> Result<String, HtmlError> {
    if p.profile.len() > MAX_PROFILE_BYTES {
        return Err(HtmlError::TooLarge {
            bytes: p.profile.len(),
        });
    }
    if p.css.contains("</style") {
        return Err(HtmlError::BadPart("style sheet"));
    }
    let b64 = base64::engine::general_purpose::STANDARD;
    let script = format!("{}\n{START}", inline_glue(p.glue_js)?);
    let style_hash = sha256_b64(p.css);
    let script_hash = sha256_b64(&script);
    let csp = format!(
        "default-src 'none'; script-src 'sha256-{script_hash}' 'wasm-unsafe-eval'; style-src 'sha256-{style_hash}'; \
         img-src data: blob:; worker-src 'none'; connect-src 'none'; object-src 'none'; base-uri 'none'; \
         form-action 'none'"
    );
    let mut out = String::with_capacity(p.wasm.len() * 4 / 3 + p.profile.len() * 4 / 3 + script.len() + 4096);
    out.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n"
    ));
    out.push_str(&format!(
        "<title>{} — scorch</title>\n<style>{}</style>\n</head>\n<body>\n",
        escape_text(p.name),
        p.css
    ));
    out.push_str(&format!(
        "<script type=\"application/octet-stream\" id=\"scorch-view\">{}</script>\n",
        // Script text is raw (entities are not decoded): a `<` is percent-encoded instead, as a URL allows.
        p.fragment.trim_start_matches('#').replace('<', "%3C")
    ));
    out.push_str(&format!(
        "<script type=\"application/octet-stream\" id=\"scorch-profile\" data-name=\"{}\">{}</script>\n",
        escape_text(p.name),
        b64.encode(p.profile)
    ));
    out.push_str(&format!(
        "<script type=\"application/octet-stream\" id=\"scorch-wasm\">{}</script>\n",
        b64.encode(p.wasm)
    ));
    out.push_str(&format!(
        "<script type=\"module\">{script}</script>\n</body>\n</html>\n"
    ));
    Ok(out)
}
