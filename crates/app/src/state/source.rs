//! Where the source view's text comes from, in this order: (a) files or a folder the user picked or dropped,
//! matched by path suffix (`scorch_core::analysis::source::source_candidates`, as `scorch list --source-dir`);
//! (b) the deployment's URL template, `<meta name="scorch-source-url" content="https://host/raw/{path}">`
//! (index.html; empty by default), fetched from that template's origin only — any URL whose origin differs is
//! refused here, in code, whatever the page's CSP allows; (c) none. Docs: docs/SOURCES.md.
//!
//! Text is bounded: at most [`MAX_BYTES`] of a file are read, in [`CHUNK`] slices (`File.slice`, or the response
//! stream), each in a task of its own, and reading stops after the last line the view shows; at most
//! [`MAX_LINES`] lines; each line at most [`MAX_LINE_BYTES`]; a file with a NUL byte in its first
//! [`BINARY_PROBE`] bytes is refused as binary. Lines are plain strings (`safe_line`): the view puts them into
//! the page as text nodes only.

use js_sys::{Reflect, Uint8Array};
use scorch_core::analysis::source::{safe_line, source_candidates};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The most of one source file read.
pub const MAX_BYTES: usize = 16 << 20;
/// The highest line number read.
pub const MAX_LINES: u32 = 200_000;
/// The longest line shown, in bytes.
pub const MAX_LINE_BYTES: usize = 4096;
/// A NUL byte in this many first bytes: a binary file, refused.
pub const BINARY_PROBE: usize = 8192;
/// Bytes read per task.
const CHUNK: usize = 1 << 20;
/// Files kept from picks and drops (a folder of more is cut, with a message).
pub const MAX_FILES: usize = 100_000;

thread_local! {
    /// The files picked or dropped, by their path (`webkitRelativePath`, or the name).
    static FILES: RefCell<Vec<(String, web_sys::File)>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `files` (with their paths) as sources, after those kept already (a path given again is replaced).
/// Returns how many are kept in all.
pub fn add_files(files: Vec<(String, web_sys::File)>) -> usize {
    FILES.with(|f| {
        let mut f = f.borrow_mut();
        for (path, file) in files {
            if let Some(old) = f.iter_mut().find(|(p, _)| *p == path) {
                old.1 = file;
            } else if f.len() < MAX_FILES {
                f.push((path, file));
            }
        }
        f.len()
    })
}

/// Forgets the files picked or dropped.
pub fn clear_files() {
    FILES.with(|f| f.borrow_mut().clear());
}

/// How many files are kept.
pub fn file_count() -> usize {
    FILES.with(|f| f.borrow().len())
}

/// A file's path as a folder pick gives it (`webkitRelativePath`), or its name.
pub fn path_of(file: &web_sys::File) -> String {
    Reflect::get(file, &"webkitRelativePath".into())
        .ok()
        .and_then(|p| p.as_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| file.name())
}

/// Whether `path` (a picked file's) is `candidate` or ends with `/candidate`.
pub fn path_matches(path: &str, candidate: &str) -> bool {
    let path = path.replace('\\', "/");
    path == candidate
        || path
            .strip_suffix(candidate)
            .is_some_and(|head| head.ends_with('/'))
}

/// The picked file for the profile's `file`: the most specific candidate that some picked path ends with.
fn find_file(file: &str) -> Option<(String, web_sys::File)> {
    FILES.with(|f| {
        let f = f.borrow();
        source_candidates(file)
            .iter()
            .find_map(|c| f.iter().find(|(p, _)| path_matches(p, c)).cloned())
    })
}

/// What a drop carries, taken while its event runs (its items are gone after): per item its file-system entry
/// (`webkitGetAsEntry`: a folder can be walked), or the `File` where there is none.
pub fn drop_entries(dt: &web_sys::DataTransfer) -> Vec<JsValue> {
    let mut out = Vec::new();
    let items = Reflect::get(dt, &"items".into()).unwrap_or(JsValue::UNDEFINED);
    let n = Reflect::get(&items, &"length".into())
        .ok()
        .and_then(|n| n.as_f64())
        .unwrap_or(0.0) as u32;
    for i in 0..n {
        let Ok(item) = Reflect::get_u32(&items, i) else {
            continue;
        };
        let entry = call0(&item, "webkitGetAsEntry");
        if entry.is_object() {
            out.push(entry);
        } else {
            let f = call0(&item, "getAsFile");
            if f.is_instance_of::<web_sys::File>() {
                out.push(f);
            }
        }
    }
    out
}

/// `o.name()`, or undefined.
fn call0(o: &JsValue, name: &str) -> JsValue {
    Reflect::get(o, &name.into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(o).ok())
        .unwrap_or(JsValue::UNDEFINED)
}

/// `o.name(resolve, reject)` as a future (the file-system entries' callback API).
async fn callback(o: &JsValue, name: &str) -> Option<JsValue> {
    let f = Reflect::get(o, &name.into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let p = js_sys::Promise::new(&mut |resolve, reject| {
        let _ = f.call2(o, &resolve, &reject);
    });
    JsFuture::from(p).await.ok()
}

/// The files under dropped entries (folders walked, at most [`MAX_FILES`]), with their paths.
pub async fn entry_files(entries: Vec<JsValue>) -> Vec<(String, web_sys::File)> {
    let mut out = Vec::new();
    let mut todo = entries;
    while let Some(e) = todo.pop() {
        if out.len() >= MAX_FILES {
            break;
        }
        if let Some(f) = e.dyn_ref::<web_sys::File>() {
            out.push((f.name(), f.clone()));
            continue;
        }
        let flag = |k: &str| Reflect::get(&e, &k.into()).ok().and_then(|v| v.as_bool()) == Some(true);
        let path = Reflect::get(&e, &"fullPath".into())
            .ok()
            .and_then(|p| p.as_string())
            .unwrap_or_default();
        if flag("isFile") {
            if let Some(f) = callback(&e, "file")
                .await
                .and_then(|f| f.dyn_into::<web_sys::File>().ok())
            {
                out.push((path.trim_start_matches('/').to_string(), f));
            }
        } else if flag("isDirectory") {
            let reader = call0(&e, "createReader");
            // readEntries gives a batch at a time, an empty one at the end.
            while let Some(batch) = callback(&reader, "readEntries").await {
                let batch: js_sys::Array = batch.unchecked_into();
                if batch.length() == 0 || todo.len() + out.len() >= MAX_FILES {
                    break;
                }
                todo.extend(batch.iter());
            }
        }
    }
    out
}

/// What the view shows of a file.
#[derive(Debug, Clone, PartialEq)]
pub enum Text {
    /// Lines `first..` of the file (as many as it has, up to the last asked for), where they came from, and
    /// why fewer were read than asked for, if so.
    Lines {
        first: u32,
        lines: Vec<String>,
        from: String,
        cut: Option<String>,
    },
    /// The file was found but not shown (binary, unreadable, refused): why.
    Refused(String),
    /// No source for it: why, and how to give one.
    Missing(String),
}

/// The deployment's source URL template (`<meta name="scorch-source-url">`), if it set one.
pub fn url_template() -> Option<String> {
    web_sys::window()?
        .document()?
        .query_selector("meta[name=scorch-source-url]")
        .ok()??
        .get_attribute("content")
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
}

/// The text of lines `lo..=hi` of the profile's `file`: from a picked file, else through the URL template.
pub async fn text(file: &str, lo: u32, hi: u32) -> Text {
    let hi = hi.min(MAX_LINES);
    if let Some((path, f)) = find_file(file) {
        return read_file(&f, &path, lo, hi).await;
    }
    let picked = file_count();
    let Some(template) = url_template() else {
        return Text::Missing(if picked > 0 {
            format!(
                "None of the {picked} source files picked ends with a path of {file}. Pick the folder that holds it \
                 (matched by path suffix: the file's path, or any shorter tail of it)."
            )
        } else {
            "No source text: pick or drop the source folder (or files) here to see the lines; the deployment can \
             also name a source URL template (docs/SOURCES.md)."
                .to_string()
        });
    };
    let mut why = Vec::new();
    for c in source_candidates(file).into_iter().take(4) {
        match source_url(&template, &c) {
            Err(e) => return Text::Refused(e),
            Ok(url) => match fetch_text(&url, lo, hi).await {
                Ok(t) => return t,
                Err(e) => why.push(e),
            },
        }
    }
    Text::Missing(format!(
        "No source text for {file}: {}",
        if why.is_empty() {
            "its path is empty".to_string()
        } else {
            why.join("; ")
        }
    ))
}

/// The URL of relative path `rel` under `template` (each path component percent-encoded): an error when the
/// template has no `{path}`, is no http(s) URL, or the URL's origin is not the template's (nothing is fetched
/// from another origin).
pub fn source_url(template: &str, rel: &str) -> Result<String, String> {
    if !template.contains("{path}") {
        return Err("the source URL template has no {path}".to_string());
    }
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let origin_of = |u: &str| -> Option<String> {
        let u = web_sys::Url::new_with_base(u, &base).ok()?;
        matches!(u.protocol().as_str(), "http:" | "https:").then(|| u.origin())
    };
    let allowed = origin_of(&template.replace("{path}", "x"))
        .ok_or_else(|| "the source URL template is no http(s) URL".to_string())?;
    let encoded: Vec<String> = rel
        .split('/')
        .filter(|c| !c.is_empty() && *c != "." && *c != "..")
        .map(|c| String::from(js_sys::encode_uri_component(c)))
        .collect();
    let url = template.replace("{path}", &encoded.join("/"));
    match origin_of(&url) {
        Some(o) if o == allowed => Ok(url),
        _ => Err(format!(
            "refused: the source URL is not on the template's origin {allowed}"
        )),
    }
}

/// Lines `lo..=hi` from bytes handed over in pieces: stops as soon as line `hi` is complete.
#[derive(Default)]
struct Lines {
    first: u32,
    last: u32,
    /// The line being read (its bytes, up to the cap).
    line: Vec<u8>,
    n: u32,
    read: usize,
    out: Vec<String>,
    binary: bool,
}

impl Lines {
    fn new(lo: u32, hi: u32) -> Lines {
        Lines {
            first: lo.max(1),
            last: hi,
            n: 1,
            ..Lines::default()
        }
    }

    /// Takes the next bytes; `false` once nothing more is wanted.
    fn feed(&mut self, bytes: &[u8]) -> bool {
        if self.read < BINARY_PROBE {
            let probe = &bytes[..bytes.len().min(BINARY_PROBE - self.read)];
            if probe.contains(&0) {
                self.binary = true;
                return false;
            }
        }
        self.read += bytes.len();
        for part in bytes.split_inclusive(|&b| b == b'\n') {
            if self.n >= self.first && self.line.len() < MAX_LINE_BYTES + 4 {
                let room = MAX_LINE_BYTES + 4 - self.line.len();
                self.line.extend_from_slice(&part[..part.len().min(room)]);
            }
            if part.last() == Some(&b'\n') {
                self.end_line();
                if self.n > self.last {
                    return false;
                }
            }
        }
        self.read < MAX_BYTES
    }

    /// After [`Lines::feed`] said stop: whether it was for a reason other than the byte cap (binary, or every
    /// line wanted read).
    fn stopped_at_end(&self) -> bool {
        self.binary || self.n > self.last
    }

    fn end_line(&mut self) {
        if self.n >= self.first && self.n <= self.last {
            self.out.push(safe_line(&self.line, MAX_LINE_BYTES));
        }
        self.line.clear();
        self.n += 1;
    }

    /// The text read, `from` where.
    fn finish(mut self, from: String, ended: bool) -> Text {
        if self.binary {
            return Text::Refused(format!(
                "{from} looks binary (a NUL byte in its first {BINARY_PROBE} bytes): not shown"
            ));
        }
        // A last line without a newline.
        if ended && !self.line.is_empty() && self.n <= self.last {
            self.end_line();
        }
        let cut = (!ended && self.n <= self.last).then(|| {
            format!(
                "Only the first {} MiB of {from} are read: lines from {} on are not shown.",
                MAX_BYTES >> 20,
                self.n
            )
        });
        Text::Lines {
            first: self.first,
            lines: self.out,
            from,
            cut,
        }
    }
}

/// Lines `lo..=hi` of a picked file, read [`CHUNK`] bytes a task up to [`MAX_BYTES`].
async fn read_file(f: &web_sys::File, path: &str, lo: u32, hi: u32) -> Text {
    let size = f.size() as usize;
    let mut lines = Lines::new(lo, hi);
    let mut at = 0usize;
    while at < size && at < MAX_BYTES {
        let end = (at + CHUNK).min(size).min(MAX_BYTES);
        let chunk = match f.slice_with_f64_and_f64(at as f64, end as f64) {
            Ok(b) => JsFuture::from(b.array_buffer()).await,
            Err(e) => Err(e),
        };
        let bytes = match chunk {
            Ok(b) => Uint8Array::new(&b).to_vec(),
            Err(e) => {
                return Text::Refused(format!("{path} could not be read: {}", crate::worker::js_err(e)))
            }
        };
        at = end;
        if !lines.feed(&bytes) {
            let ended = lines.stopped_at_end();
            return lines.finish(path.to_string(), ended);
        }
    }
    lines.finish(path.to_string(), at >= size)
}

/// Lines `lo..=hi` from `url` (no redirects, no credentials), read as it streams up to [`MAX_BYTES`].
async fn fetch_text(url: &str, lo: u32, hi: u32) -> Result<Text, String> {
    let w = web_sys::window().ok_or("no window")?;
    let init = web_sys::RequestInit::new();
    init.set_redirect(web_sys::RequestRedirect::Error);
    init.set_credentials(web_sys::RequestCredentials::Omit);
    let resp = JsFuture::from(w.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|e| format!("{url}: {}", crate::worker::js_err(e)))?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| format!("{url}: no response"))?;
    if !resp.ok() {
        return Err(format!("{url}: HTTP {}", resp.status()));
    }
    let mut lines = Lines::new(lo, hi);
    let Some(body) = resp.body() else {
        return Ok(lines.finish(url.to_string(), true));
    };
    let reader: web_sys::ReadableStreamDefaultReader = body
        .get_reader()
        .dyn_into()
        .map_err(|_| format!("{url}: the response cannot be streamed"))?;
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| format!("{url}: {}", crate::worker::js_err(e)))?;
        let done = Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            return Ok(lines.finish(url.to_string(), true));
        }
        let value: JsValue = Reflect::get(&chunk, &"value".into()).unwrap_or(JsValue::UNDEFINED);
        let bytes = value.unchecked_into::<Uint8Array>().to_vec();
        if !lines.feed(&bytes) {
            let _ = reader.cancel();
            let ended = lines.stopped_at_end();
            return Ok(lines.finish(url.to_string(), ended));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(bytes: &[u8], lo: u32, hi: u32, piece: usize) -> Text {
        let mut l = Lines::new(lo, hi);
        let mut ended = true;
        for c in bytes.chunks(piece.max(1)) {
            if !l.feed(c) {
                ended = l.stopped_at_end();
                return l.finish("f".into(), ended);
            }
        }
        if bytes.is_empty() {
            ended = true;
        }
        l.finish("f".into(), ended)
    }

    #[test]
    fn lines_in_any_pieces() {
        let text = b"one\ntwo\n<b>three</b>\nfour";
        for piece in 1..8 {
            match take(text, 2, 4, piece) {
                Text::Lines {
                    first, lines, cut, ..
                } => {
                    assert_eq!(first, 2);
                    assert_eq!(lines, ["two", "<b>three</b>", "four"]);
                    assert_eq!(cut, None);
                }
                t => panic!("{t:?}"),
            }
        }
    }

    #[test]
    fn the_byte_cap_cuts_with_a_message() {
        let big = format!("{}\n", "x".repeat(99)).repeat(MAX_BYTES / 100 + 10);
        match take(big.as_bytes(), 1, u32::MAX, CHUNK) {
            Text::Lines { lines, cut, .. } => {
                assert_eq!(lines.len(), MAX_BYTES / 100);
                assert!(cut.is_some_and(|c| c.contains("16 MiB")));
            }
            t => panic!("{t:?}"),
        }
    }

    #[test]
    fn binary_is_refused() {
        assert!(matches!(take(b"ab\0cd\n", 1, 3, 2), Text::Refused(_)));
    }

    #[test]
    fn suffixes_match_at_a_component() {
        assert!(path_matches("src/scorchlines/main.go", "scorchlines/main.go"));
        assert!(path_matches("main.go", "main.go"));
        assert!(!path_matches("src/xmain.go", "main.go"));
    }
}
