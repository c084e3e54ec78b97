//! Reading bytes: a `Blob` (a file) in slices or by ranges (where a parallel parse cuts it), and a byte stream (a
//! file's or a download's) into one buffer used again and again.
//!
//! Read chunk by chunk (`blob.slice().arrayBuffer()`, or a stream's default reader), every chunk is a new
//! `ArrayBuffer` that stays in memory until V8 collects it, and V8 lets tens of megabytes of them pile up first:
//! reading 100 MB that way in a worker raised the renderer's resident memory by 31–40 MB here, read into one
//! reused buffer (a "bring your own buffer" reader) by none (docs/BENCHMARKS.md). So a byte stream is read with
//! [`Byob`] wherever the browser allows one; the chunk-by-chunk reads stay for a browser that does not.

use super::js_err;
use js_sys::{ArrayBuffer, Reflect, Uint8Array};
use scorch_core::import::split::CutSearch;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Slices being read ahead of the parser (when a file cannot be read as a byte stream).
const READ_AHEAD: usize = 4;

/// A byte stream read into one buffer of a fixed size, used again for every read: no garbage per chunk.
pub(super) struct Byob {
    reader: web_sys::ReadableStreamByobReader,
    /// The buffer; each read takes it (the stream detaches it) and gives it back in its result.
    buf: Option<ArrayBuffer>,
    size: u32,
    done: bool,
}

impl Byob {
    /// `None` when `stream` is not a byte stream (it must then be read chunk by chunk).
    pub(super) fn new(stream: &web_sys::ReadableStream, size: u32) -> Option<Byob> {
        let reader = web_sys::ReadableStreamByobReader::new(stream).ok()?;
        Some(Byob {
            reader,
            buf: Some(ArrayBuffer::new(size.max(1))),
            size: size.max(1),
            done: false,
        })
    }

    /// The next bytes, copied to the start of `out` over the last read's: as many as the stream has ready (at
    /// least one), or, with `fill`, the buffer's whole size unless the stream ends first. Returns how many came;
    /// 0: the stream has ended. `out` keeps the buffer's length from read to read, so it is zeroed once, when
    /// first grown, not before every copy (emptied and grown again, each read wrote every byte twice).
    pub(super) async fn next(&mut self, out: &mut Vec<u8>, fill: bool) -> Result<usize, String> {
        if out.len() < self.size as usize {
            out.resize(self.size as usize, 0);
        }
        let mut filled = 0u32;
        while !self.done && (filled == 0 || (fill && filled < self.size)) {
            let buf = self.buf.take().ok_or("the stream's buffer was lost")?;
            let view = Uint8Array::new_with_byte_offset_and_length(&buf, filled, self.size - filled);
            let result = JsFuture::from(self.reader.read_with_array_buffer_view(&view))
                .await
                .map_err(js_err)?;
            self.done = Reflect::get(&result, &"done".into())
                .ok()
                .and_then(|d| d.as_bool())
                .unwrap_or(true);
            let Some(value) = Reflect::get(&result, &"value".into())
                .ok()
                .and_then(|v| v.dyn_into::<Uint8Array>().ok())
            else {
                // A cancelled stream gives no view back: nothing more comes.
                self.done = true;
                break;
            };
            let n = value.length();
            // The view read into was `size - filled` bytes long: a stream cannot give more.
            let dst = out
                .get_mut(filled as usize..(filled + n) as usize)
                .ok_or("the stream gave more bytes than were asked for")?;
            value.copy_to(dst);
            filled += n;
            self.buf = Some(value.buffer());
        }
        Ok(filled as usize)
    }
}

/// A `Blob` read in slices of `slice_bytes` (reading a file goes through the browser process): as a byte
/// stream into one reused buffer where the browser allows, else slice by slice, the next few read ahead while
/// one is parsed.
pub(super) struct BlobReader {
    how: How,
    /// The bytes of the last slice read, at its start: one buffer for every slice. A new one each time, grown
    /// read by read, cost 14 ms of reallocation in the ~205 ms an import worker spent parsing its half of folded
    /// 100 MB from a file (Chromium profile); 4 ms since.
    buf: Vec<u8>,
}

enum How {
    Stream(Byob),
    Slices(Slices),
}

struct Slices {
    file: web_sys::Blob,
    size: f64,
    slice: f64,
    off: f64,
    queued: std::collections::VecDeque<Result<JsFuture, String>>,
}

impl BlobReader {
    pub(super) fn new(file: web_sys::Blob, slice_bytes: u32) -> BlobReader {
        let slice_bytes = slice_bytes.max(64 * 1024);
        if let Some(byob) = Byob::new(&file.stream(), slice_bytes) {
            return BlobReader {
                how: How::Stream(byob),
                buf: Vec::new(),
            };
        }
        let mut r = Slices {
            size: file.size(),
            file,
            slice: f64::from(slice_bytes),
            off: 0.0,
            queued: std::collections::VecDeque::new(),
        };
        while r.off < r.size && r.queued.len() < READ_AHEAD {
            r.queue_next();
        }
        BlobReader {
            how: How::Slices(r),
            buf: Vec::new(),
        }
    }

    /// The next slice's bytes (`slice_bytes` of them, fewer only at the end); `None` at the end.
    pub(super) async fn next(&mut self) -> Option<Result<&[u8], String>> {
        let read = match &mut self.how {
            How::Stream(byob) => byob.next(&mut self.buf, true).await,
            How::Slices(s) => s.next(&mut self.buf).await,
        };
        match read {
            Ok(0) => None,
            Ok(n) => self.buf.get(..n).map(Ok),
            Err(e) => Some(Err(e)),
        }
    }
}

impl Slices {
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

    /// The next slice's bytes, copied to the start of `out` (which keeps its length: see [`Byob::next`]);
    /// returns how many; 0 at the end.
    async fn next(&mut self, out: &mut Vec<u8>) -> Result<usize, String> {
        let Some(pending) = self.queued.pop_front() else {
            return Ok(0);
        };
        if self.off < self.size {
            self.queue_next();
        }
        let bytes = Uint8Array::new(&pending?.await.map_err(js_err)?);
        Ok(copy_over(&bytes, out))
    }
}

/// Copies `bytes` to the start of `out`, grown (and zeroed) only when shorter; returns how many.
pub(super) fn copy_over(bytes: &Uint8Array, out: &mut Vec<u8>) -> usize {
    let n = bytes.length() as usize;
    if out.len() < n {
        out.resize(n, 0);
    }
    if let Some(dst) = out.get_mut(..n) {
        bytes.copy_to(dst);
    }
    n
}

/// `0 = c0 < c1 < … < ck = size`: the core's `CutSearch` over the file (the CLI's cuts of the same file).
pub(super) async fn cut_points(
    file: &web_sys::Blob,
    format: scorch_core::Format,
    size: f64,
    n: usize,
) -> Result<Vec<f64>, String> {
    let mut search = CutSearch::new(format, size as u64, n);
    while let Some((at, window)) = search.want() {
        search.feed(&read_range(file, at as f64, window as f64).await?);
    }
    Ok(search.finish().into_iter().map(|c| c as f64).collect())
}

/// Up to `len` bytes of `file` at `at`.
pub(super) async fn read_range(file: &web_sys::Blob, at: f64, len: f64) -> Result<Vec<u8>, String> {
    let part = file
        .slice_with_f64_and_f64(at, (at + len).min(file.size()))
        .map_err(js_err)?;
    let ab = JsFuture::from(part.array_buffer()).await.map_err(js_err)?;
    Ok(Uint8Array::new(&ab).to_vec())
}
