//! Reading a profile on the page, when no import worker can start (a one-file HTML export opened from disk, a
//! server without `www/worker.js`, a browser that refuses module workers). The page's wasm has no importers
//! (they are the engine's, `src/engine.rs`): only folded stacks are read here — what a link's `p=` payload and
//! a one-file export carry (`scorch_core::export::links`, `scorch_core::export::html`). `page.rs` says why
//! any other input needs the worker.

use super::js_err;
use js_sys::Uint8Array;
use scorch_core::import::folded::{FoldedOptions, FoldedParser};
use scorch_core::Imported;
use wasm_bindgen_futures::JsFuture;

/// Slice size when reading a `File`: the whole file is never held in memory at once.
pub(crate) const SLICE: u32 = 4 * 1024 * 1024;

/// The folded reader, fed slices by the callers below.
fn parser() -> FoldedParser {
    FoldedParser::new(&FoldedOptions::default())
}

/// The profile `parser` read from `bytes` bytes.
fn finish(parser: FoldedParser, bytes: u64) -> Result<Imported, String> {
    Ok(Imported {
        profile: parser.finish().map_err(|e| e.to_string())?,
        gzip: false,
        bytes,
    })
}

/// Folded stacks in memory, read on the page: a link's profile (`p=`, `pb=`) small enough not to need a worker.
pub fn import_folded(bytes: &[u8]) -> Result<Imported, String> {
    let mut p = parser();
    p.feed(bytes).map_err(|e| e.to_string())?;
    finish(p, bytes.len() as u64)
}

/// A file read on the page as folded stacks, in slices (the whole file is never held in memory at once).
pub(super) async fn read_file_folded(file: web_sys::File) -> Result<Imported, String> {
    let mut parser = parser();
    let size = file.size();
    let (mut off, mut bytes) = (0.0, 0u64);
    while off < size {
        let end = (off + f64::from(SLICE)).min(size);
        let blob = file.slice_with_f64_and_f64(off, end).map_err(js_err)?;
        let buf = JsFuture::from(blob.array_buffer()).await.map_err(js_err)?;
        let slice = Uint8Array::new(&buf).to_vec();
        bytes += slice.len() as u64;
        parser.feed(&slice).map_err(|e| e.to_string())?;
        off = end;
    }
    finish(parser, bytes)
}

/// A URL's body, fetched whole on the page and read as folded stacks a slice at a time (a slice in wasm memory
/// at once, not a second copy of the body).
pub(super) async fn fetch_folded(url: &str) -> Result<Imported, String> {
    let window = web_sys::window().ok_or("no window")?;
    let resp = super::checked_response(JsFuture::from(window.fetch_with_str(url)).await, url)?;
    let buf = JsFuture::from(resp.array_buffer().map_err(js_err)?)
        .await
        .map_err(js_err)?;
    let body = Uint8Array::new(&buf);
    let mut parser = parser();
    let size = body.length();
    let mut off = 0;
    while off < size {
        let end = off.saturating_add(SLICE).min(size);
        parser
            .feed(&body.subarray(off, end).to_vec())
            .map_err(|e| e.to_string())?;
        off = end;
    }
    finish(parser, u64::from(size))
}

#[cfg(test)]
mod tests {
    /// The page's folded reader gives the profile the worker's loader gives (the same bytes on the wire), so a
    /// link opened with or without a worker shows the same numbers.
    #[test]
    fn folded_on_the_page_is_the_workers() {
        for text in [
            &b"main;parse;lex 3\nmain;parse 2\n# a comment\nnot a sample line\nmain;draw 1.5\n"[..],
            &b"base;a 1 2\nbase;b 3 0\n"[..],
        ] {
            let page = super::import_folded(text).unwrap();
            let worker = scorch_core::import_bytes(text, Default::default()).unwrap();
            assert_eq!(
                scorch_core::model::wire::encode(&page).unwrap(),
                scorch_core::model::wire::encode(&worker).unwrap()
            );
        }
    }
}
