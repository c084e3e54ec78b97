//! Reading a `Blob` (a file) in slices, a few read ahead while one is parsed.

use super::js_err;
use js_sys::Uint8Array;
use wasm_bindgen_futures::JsFuture;

/// Slices being read ahead of the parser.
const READ_AHEAD: usize = 4;

/// A `Blob` read in slices of `slice_bytes`, the next few read ahead while one is parsed (reading a file goes
/// through the browser process).
pub(super) struct BlobReader {
    file: web_sys::Blob,
    size: f64,
    slice: f64,
    off: f64,
    queued: std::collections::VecDeque<Result<JsFuture, String>>,
}

impl BlobReader {
    pub(super) fn new(file: web_sys::Blob, slice_bytes: u32) -> BlobReader {
        let mut r = BlobReader {
            size: file.size(),
            file,
            slice: f64::from(slice_bytes.max(64 * 1024)),
            off: 0.0,
            queued: std::collections::VecDeque::new(),
        };
        while r.off < r.size && r.queued.len() < READ_AHEAD {
            r.queue_next();
        }
        r
    }

    fn queue_next(&mut self) {
        let end = (self.off + self.slice).min(self.size);
        let read = self
            .file
            .slice_with_f64_and_f64(self.off, end)
            .map_err(js_err)
            .map(|blob| JsFuture::from(blob.array_buffer()));
        self.queued.push_back(read);
        self.off = end;
    }

    /// The next slice's bytes; `None` at the end.
    pub(super) async fn next(&mut self) -> Option<Result<Vec<u8>, String>> {
        let pending = self.queued.pop_front()?;
        if self.off < self.size {
            self.queue_next();
        }
        Some(match pending {
            Ok(p) => p.await.map(|ab| Uint8Array::new(&ab).to_vec()).map_err(js_err),
            Err(e) => Err(e),
        })
    }
}
