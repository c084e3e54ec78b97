//! Reading a profile on the page: the demo (small, parsed in pieces, each its own task), and the fallback when no
//! import worker can start — a file in slices, a URL fetched whole — as before workers.

use super::yield_now;
use super::{js_err, LoadError};
use js_sys::Uint8Array;
use scorch_core::{ImportOptions, Imported, Loader};
use wasm_bindgen_futures::JsFuture;

/// Slice size when reading a `File`: the whole file is never held in memory at once.
pub(crate) const SLICE: u32 = 4 * 1024 * 1024;

/// The fallback without a worker: a file in slices on the page.
pub(super) async fn read_file_here(file: web_sys::File) -> Result<Imported, String> {
    let size = file.size();
    let mut loader = Loader::new(ImportOptions::default());
    let mut off = 0.0;
    while off < size {
        let end = (off + f64::from(SLICE)).min(size);
        let blob = file.slice_with_f64_and_f64(off, end).map_err(js_err)?;
        let buf = JsFuture::from(blob.array_buffer()).await.map_err(js_err)?;
        let bytes = Uint8Array::new(&buf).to_vec();
        loader.feed(&bytes).map_err(|e| e.to_string())?;
        off = end;
    }
    loader.finish().map_err(|e| e.to_string())
}

/// The fallback without a worker: a URL fetched whole on the page, and parsed from there a slice at a time (a
/// slice in wasm memory at once, not a second copy of the body).
pub(super) async fn fetch_url_here(url: &str) -> Result<Imported, String> {
    let body = fetch_body(url).await?;
    let mut loader = Loader::new(ImportOptions::default());
    let size = body.length();
    let mut off = 0;
    while off < size {
        let end = off.saturating_add(SLICE).min(size);
        loader
            .feed(&body.subarray(off, end).to_vec())
            .map_err(|e| e.to_string())?;
        off = end;
    }
    loader.finish().map_err(|e| e.to_string())
}

/// A URL's body, fetched whole on the page.
async fn fetch_body(url: &str) -> Result<Uint8Array, String> {
    let window = web_sys::window().ok_or("no window")?;
    let resp = super::checked_response(JsFuture::from(window.fetch_with_str(url)).await, url)?;
    let buf = JsFuture::from(resp.array_buffer().map_err(js_err)?)
        .await
        .map_err(js_err)?;
    Ok(Uint8Array::new(&buf))
}

/// A URL's body, fetched whole on the page, in wasm memory.
async fn fetch_here(url: &str) -> Result<Vec<u8>, String> {
    Ok(fetch_body(url).await?.to_vec())
}

/// A small profile (the demo) fetched on the page and parsed in pieces, each its own task (the demo unpacks to
/// 1 MB of `perf script`, 50–70 ms to parse in one task with the parser's first, lazy, compile); it stops as
/// soon as a newer load starts, which then has the main thread to itself.
/// `cancelled` tells whether a newer load started.
pub(super) async fn fetch_small_here(url: &str, cancelled: impl Fn() -> bool) -> Result<Imported, LoadError> {
    /// Bytes of input per task.
    const PIECE: usize = 4 * 1024;
    let bytes = fetch_here(url).await.map_err(LoadError::Import)?;
    let mut loader = Loader::new(ImportOptions::default());
    for piece in bytes.chunks(PIECE) {
        if cancelled() {
            return Err(LoadError::Cancelled);
        }
        loader.feed(piece).map_err(|e| LoadError::Import(e.to_string()))?;
        yield_now().await;
    }
    if cancelled() {
        return Err(LoadError::Cancelled);
    }
    loader.finish().map_err(|e| LoadError::Import(e.to_string()))
}

/// A whole input in memory, parsed at once (a link's profile).
pub fn import(bytes: &[u8]) -> Result<Imported, String> {
    let mut loader = Loader::new(ImportOptions::default());
    loader.feed(bytes).map_err(|e| e.to_string())?;
    loader.finish().map_err(|e| e.to_string())
}
