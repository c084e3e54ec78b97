//! Reading profiles into the core's streaming loader: files in slices, fetched URLs, pasted text.

use js_sys::Uint8Array;
use scorch_core::{ImportOptions, Imported, Loader};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Slice size when reading a `File`: the whole file is never held in memory at once.
const SLICE: f64 = 4.0 * 1024.0 * 1024.0;

pub async fn read_file(file: web_sys::File) -> Result<Imported, String> {
    let size = file.size();
    let mut loader = Loader::new(ImportOptions::default());
    let mut off = 0.0;
    while off < size {
        let end = (off + SLICE).min(size);
        let blob = file.slice_with_f64_and_f64(off, end).map_err(js_err)?;
        let buf = JsFuture::from(blob.array_buffer()).await.map_err(js_err)?;
        let bytes = Uint8Array::new(&buf).to_vec();
        loader.feed(&bytes).map_err(|e| e.to_string())?;
        off = end;
    }
    loader.finish().map_err(|e| e.to_string())
}

pub async fn fetch_url(url: &str) -> Result<Imported, String> {
    let window = web_sys::window().ok_or("no window")?;
    let resp = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("could not fetch {url}: {} (network error or CORS)", js_err(e)))?;
    let resp: web_sys::Response = resp
        .dyn_into()
        .map_err(|_| "fetch did not return a response".to_string())?;
    if !resp.ok() {
        return Err(format!(
            "could not fetch {url}: HTTP {} {}",
            resp.status(),
            resp.status_text()
        ));
    }
    let buf = JsFuture::from(resp.array_buffer().map_err(js_err)?)
        .await
        .map_err(js_err)?;
    let bytes = Uint8Array::new(&buf).to_vec();
    import(&bytes)
}

pub fn import(bytes: &[u8]) -> Result<Imported, String> {
    let mut loader = Loader::new(ImportOptions::default());
    loader.feed(bytes).map_err(|e| e.to_string())?;
    loader.finish().map_err(|e| e.to_string())
}

fn js_err(e: wasm_bindgen::JsValue) -> String {
    e.as_string()
        .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())))
        .unwrap_or_else(|| "unknown error".to_string())
}
