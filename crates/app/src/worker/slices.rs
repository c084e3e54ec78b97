//! The parallel parse in the browser: a large plain folded or perf script input is cut at record boundaries
//! (the core's [`split`](scorch_core::import::split)) and parsed on every core — this import worker parses the
//! first slice and has one *parse worker* (the same `www/worker.js`) per further slice — the page's spare for
//! this worker when it has one, else one nested in this worker (`helpers.rs`); each sends back its slice's
//! result as bytes ([`SlicePart::encode_result`]) and this worker merges them in input order. The profile is
//! the one a single parse gives, byte for byte (the core's tests).
//!
//! A file: each parse worker reads its own part of the `File` (a `Blob` slice: a handle, not the bytes). A
//! download: this worker reads the stream and cuts it into blocks as the bytes pass ([`StreamCutter`]); each
//! block goes to a parse worker that has little left to parse, its bytes posted as they arrive, or is parsed
//! here ([`Blocks`]), so every worker parses while the download goes on.
//!
//! Parse workers live as long as this worker's request; terminating this worker (a cancelled load) ends the
//! nested ones, and the page ends its spare with the load.

use super::blob::{cut_points, read_range, BlobReader};
use super::helpers::{start_helpers, Helper};
use super::js_err;
use super::post::{post, progress_of};
use super::protocol::{FromWorker, Open, SliceRequest};
use js_sys::{Reflect, Uint8Array};
use scorch_core::import::split::{merge_slices, splittable_input, SliceParser, SlicePart, StreamCutter};
use scorch_core::import::SNIFF_WINDOW;
use scorch_core::{Format, ImportError, ImportOptions, Imported};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Inputs at least this large are parsed in slices (below it, starting a parse worker costs more than it saves).
pub(super) const PARALLEL_MIN: f64 = (8 << 20) as f64;

/// How many slices: one per core, but one core left to the page's thread when `page_busy` (a download: a link
/// is read while the page starts), at most 16; at most one per 16 MiB of input beyond the first two (a parse worker
/// costs 50–200 ms to start and 15–40 MB: worth it only for a slice that takes longer to parse, ~70 ms at ~220
/// MB/s). So on two cores a download has no parse worker — the page's start and the import worker already share
/// them, and one only added its memory and its share of the CPU (perf script 400 MB by link: peak 331–334 →
/// 290–292 MB, drawn in 2,808–4,217 → 2,609–2,798 ms) — while a file, given to a page that is up and idle, has
/// one (perf script 400 MB from a file: drawn in 1,831–2,294 → 1,209–1,239 ms; docs/BENCHMARKS.md).
pub(super) fn slice_count(open: &Open, size: f64, page_busy: bool) -> usize {
    let cores = test_cores(open).unwrap_or_else(|| {
        Reflect::get(&js_sys::global(), &"navigator".into())
            .ok()
            .and_then(|n| Reflect::get(&n, &"hardwareConcurrency".into()).ok())
            .and_then(|c| c.as_f64())
            .unwrap_or(2.0)
    });
    let by_size = (size / f64::from(16u32 << 20)).floor().max(2.0);
    let spare = if page_busy { 1.0 } else { 0.0 };
    (cores - spare).clamp(1.0, 16.0).min(by_size) as usize
}

/// Test builds: the cores a test asked the load to assume (`window.__scorchCores`).
#[cfg(feature = "testing")]
fn test_cores(open: &Open) -> Option<f64> {
    (open.throttle.cores > 0).then_some(f64::from(open.throttle.cores))
}
#[cfg(not(feature = "testing"))]
fn test_cores(_: &Open) -> Option<f64> {
    None
}

thread_local! {
    /// The slices of this worker's last parallel parse (0: none; reported in `Done`).
    pub(super) static SLICES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Test builds: a load throttled or set to trap (`window.__scorchLoadThrottle`: the tests watching the
/// streaming loader's slices) is read whole, by this worker.
fn throttled(open: &Open) -> bool {
    if open.whole {
        return true;
    }
    #[cfg(feature = "testing")]
    return open.throttle.ms != 0 || open.throttle.trap_after != 0;
    #[cfg(not(feature = "testing"))]
    false
}

/// Progress of the whole parse: `read` bytes (plus the parse workers' when each reads its own: a file) and this
/// worker's `samples` plus the parse workers'.
fn report(open: &Open, helpers: &[Helper], read: f64, samples: f64, total: f64, own_reads: bool) {
    let (r, s) = helpers.iter().fold((read, samples), |(r, s), h| {
        let st = h.state.borrow();
        (if own_reads { r + st.read } else { r }, s + st.samples)
    });
    progress_of(open, r, Some(total), s);
}

/// Merges this worker's slice result with the parse workers' (in input order); `Ok(None)`: the input cannot be
/// merged from slices (read it whole).
async fn merge(
    own: Result<SlicePart, ImportError>,
    helpers: &[Helper],
    size: f64,
) -> Result<Option<Imported>, String> {
    // An error in the first slice is positioned already (nothing comes before it): no need to wait for the rest.
    let own = own.map_err(|e| e.to_string())?;
    let mut results = vec![Ok(own)];
    for h in helpers {
        // One that never started (or failed to): the input is read whole instead.
        if !h.started().await {
            web_sys::console::warn_1(&"scorch: a parse worker did not start; reading the input whole".into());
            return Ok(None);
        }
        results.push(h.next_result().await?);
    }
    merged(results, size)
}

/// The slices' results merged in input order ([`merge_slices`]); `Ok(None)`: the input cannot be merged from
/// slices (read it whole).
fn merged(results: Vec<Result<SlicePart, ImportError>>, size: f64) -> Result<Option<Imported>, String> {
    SLICES.with(|s| s.set(results.len() as u32));
    Ok(merge_slices(results)
        .map_err(|e| e.to_string())?
        .map(|profile| Imported {
            profile,
            gzip: false,
            bytes: size as u64,
        }))
}

/// A file in slices on every core. `None`: not worth it, not splittable, or no parse worker could start (read
/// it whole); `Some(Ok(None))`: read, but it must be read whole after all (a two-count folded file).
pub(super) async fn read_blob(open: &Open, file: &web_sys::Blob) -> Option<Result<Option<Imported>, String>> {
    let size = file.size();
    let n = slice_count(open, size, false);
    if size < PARALLEL_MIN || n < 2 || throttled(open) {
        return None;
    }
    let head = read_range(file, 0.0, SNIFF_WINDOW as f64).await.ok()?;
    let format = splittable_input(&head)?;
    let helpers = start_helpers(open, n - 1)?;
    Some(super::apart(read_blob_sliced(open, file, format, helpers)).await)
}

async fn read_blob_sliced(
    open: &Open,
    file: &web_sys::Blob,
    format: Format,
    mut helpers: Vec<Helper>,
) -> Result<Option<Imported>, String> {
    let size = file.size();
    let cuts = cut_points(file, format, size, helpers.len() + 1).await?;
    // Fewer cuts than workers where boundaries are missing: the extra workers are not needed.
    helpers.truncate(cuts.len().saturating_sub(2));
    for (h, (&start, &end)) in helpers.iter().zip(cuts.iter().zip(cuts.iter().skip(1)).skip(1)) {
        let part = file.slice_with_f64_and_f64(start, end).map_err(js_err)?;
        h.request(format, Some(&part));
    }
    let first = file
        .slice_with_f64_and_f64(0.0, cuts.get(1).copied().unwrap_or(size))
        .map_err(js_err)?;
    let mut parser = SliceParser::new(format, &ImportOptions::default()).ok_or("not splittable")?;
    let mut reader = BlobReader::new(first, open.slice_bytes);
    let mut read = 0.0;
    let own = loop {
        match reader.next().await {
            None => break parser.finish(),
            Some(Err(e)) => return Err(e),
            Some(Ok(bytes)) => {
                read += bytes.len() as f64;
                if let Err(e) = parser.feed(bytes) {
                    break Err(e);
                }
                report(open, &helpers, read, parser.samples() as f64, size, true);
            }
        }
    };
    super::apart(merge(own, &helpers, size)).await
}

/// A download to be read in slices on every core, cut into blocks as the bytes arrive ([`read_download`]): its
/// parse workers are started, and asked for a streamed slice per block given to them.
pub(super) struct Download {
    pub total: f64,
    pub format: Format,
    helpers: Vec<Helper>,
}

/// Whether a download of `total` bytes may be read in slices on every core ([`Download::start`] may still
/// refuse it: not splittable, or no parse worker could start). When not, its reader need not keep its chunks.
pub(super) fn may_slice(open: &Open, total: Option<f64>) -> bool {
    total.is_some_and(|t| t >= PARALLEL_MIN && slice_count(open, t, true) >= 2 && !throttled(open))
}

impl Download {
    /// `head`: the first bytes (at least the sniff window, or all there is). `None`: not worth it, not
    /// splittable, or no parse worker could start (read it whole).
    pub(super) fn start(open: &Open, total: Option<f64>, head: &[u8]) -> Option<Download> {
        let total = total?;
        if !may_slice(open, Some(total)) {
            return None;
        }
        let n = slice_count(open, total, true);
        let format = splittable_input(head)?;
        let helpers = start_helpers(open, n - 1)?;
        Some(Download {
            total,
            format,
            helpers,
        })
    }
}

/// A download is cut into blocks of about this size (at most [`MAX_BLOCKS`]), each parsed as a slice of its own
/// by whichever worker is free when its first byte arrives. Its bytes come in order, one stream: cut in one
/// slice per worker, the second worker's bytes would come only once the first worker had parsed its whole
/// slice (it reads the stream), and the two would parse one after the other (perf script 100 MB by link: the
/// download's end 1.1 s after its start, against 0.5 s for the bytes alone; docs/BENCHMARKS.md).
const BLOCK: f64 = (4 << 20) as f64;
const MAX_BLOCKS: f64 = 64.0;

/// Who parses a block of a download.
#[derive(Clone, Copy)]
enum Who {
    Own,
    Helper(usize),
}

/// The blocks of a download so far: who parses each, in input order, and this worker's own results.
struct Blocks {
    format: Format,
    plan: Vec<Who>,
    /// The parser of this worker's current block.
    own: Option<SliceParser>,
    own_results: std::collections::VecDeque<Result<SlicePart, ImportError>>,
    /// Samples of this worker's finished blocks.
    own_samples: usize,
}

impl Blocks {
    /// Hands `bytes` of block `slice` to its parser, giving the block to a worker first when it is new.
    fn deliver(&mut self, helpers: &[Helper], slice: usize, bytes: &[u8]) {
        match self.begin(helpers, slice) {
            Who::Own => {
                if let Some(p) = &mut self.own {
                    if let Err(e) = p.feed(bytes) {
                        // The block's result is this error; the rest of the block is not parsed.
                        self.own = None;
                        self.own_results.push_back(Err(e));
                    }
                }
            }
            Who::Helper(i) => helpers[i].chunk(bytes),
        }
    }

    /// Who parses block `slice`; a new block (the one after the last) is given to a parse worker that has
    /// little left to parse — never the first block, which would then wait for the worker to start — or else
    /// to this worker. A parse worker still starting is given at most one block: what it was sent counts
    /// until it has parsed it.
    fn begin(&mut self, helpers: &[Helper], slice: usize) -> Who {
        while self.plan.len() <= slice {
            self.end_current(helpers);
            let free = helpers
                .iter()
                .enumerate()
                .filter(|(_, h)| {
                    let s = h.state.borrow();
                    s.failed.is_none() && !s.gave_up
                })
                .map(|(i, h)| (i, h.state.borrow().backlog()))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            let who = match free {
                Some((i, backlog)) if !self.plan.is_empty() && backlog <= BLOCK => {
                    helpers[i].request(self.format, None);
                    Who::Helper(i)
                }
                _ => {
                    self.own = SliceParser::new(self.format, &ImportOptions::default());
                    Who::Own
                }
            };
            self.plan.push(who);
        }
        self.plan[slice]
    }

    /// The block being read is complete: its parser's result is kept, or its parse worker told.
    fn end_current(&mut self, helpers: &[Helper]) {
        match self.plan.last() {
            Some(Who::Own) => {
                if let Some(p) = self.own.take() {
                    self.own_samples += p.samples();
                    self.own_results.push_back(p.finish());
                }
            }
            Some(Who::Helper(i)) => helpers[*i].end(),
            None => {}
        }
    }

    fn samples(&self) -> usize {
        self.own_samples + self.own.as_ref().map_or(0, SliceParser::samples)
    }
}

/// Reads a download in blocks ([`BLOCK`]): `chunks` are the bytes already read, `next` reads the next chunk
/// (`None` at the end). `Ok(None)`: the input must be read whole after all (the caller has lost the bytes: it
/// fetches again).
pub(super) async fn read_download<F, Fut>(
    open: &Open,
    d: Download,
    chunks: Vec<Uint8Array>,
    mut next: F,
) -> Result<Option<Imported>, String>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Option<Uint8Array>, String>>,
{
    let Download {
        total,
        format,
        helpers,
    } = d;
    let count = (total / BLOCK).ceil().clamp(2.0, MAX_BLOCKS) as usize;
    let mut cutter = StreamCutter::new(format, total as u64, count);
    let mut blocks = Blocks {
        format,
        plan: Vec::new(),
        own: None,
        own_results: Default::default(),
        own_samples: 0,
    };
    let (mut read, mut since) = (0.0, 0.0);
    let mut pending = chunks.into_iter();
    let mut buf = Vec::new();
    loop {
        let chunk = match pending.next() {
            Some(b) => b,
            None => match next().await? {
                Some(b) => b,
                None => break,
            },
        };
        let len = chunk.length() as usize;
        read += len as f64;
        since += len as f64;
        match cutter.take_whole(len) {
            // A parse worker's bytes go on as they came, never copied into this worker.
            Some(slice) => match blocks.begin(&helpers, slice) {
                Who::Helper(i) => helpers[i].forward(chunk),
                Who::Own => {
                    buf.resize(len, 0);
                    chunk.copy_to(&mut buf);
                    blocks.deliver(&helpers, slice, &buf);
                }
            },
            None => {
                buf.resize(len, 0);
                chunk.copy_to(&mut buf);
                cutter.push(&buf, &mut |slice, bytes: &[u8]| {
                    blocks.deliver(&helpers, slice, bytes);
                    Ok::<(), String>(())
                })?;
            }
        }
        if since >= f64::from(open.slice_bytes) {
            since = 0.0;
            report(open, &helpers, read, blocks.samples() as f64, total, false);
            // A task of its own from here: the parse workers' messages (their progress, which says who is free
            // for the next block; their start) are taken only between tasks, and bytes already downloaded
            // resolve the reads without one.
            super::yield_now().await;
        }
    }
    cutter.finish(&mut |slice, bytes: &[u8]| {
        blocks.deliver(&helpers, slice, bytes);
        Ok::<(), String>(())
    })?;
    blocks.end_current(&helpers);
    report(open, &helpers, read, blocks.samples() as f64, total, false);
    let mut results = Vec::with_capacity(blocks.plan.len());
    for who in &blocks.plan {
        results.push(match who {
            Who::Own => blocks
                .own_results
                .pop_front()
                .ok_or("a block's result is missing")?,
            Who::Helper(i) => {
                // One that never started (or failed to): the input is read whole instead.
                if !helpers[*i].started().await {
                    web_sys::console::warn_1(
                        &"scorch: a parse worker did not start; reading the input whole".into(),
                    );
                    return Ok(None);
                }
                helpers[*i].next_result().await?
            }
        });
    }
    merged(results, total)
}

/// A parse worker's side: parse the slice asked for (a Blob slice, or streamed bytes) and answer its result.
pub(super) async fn serve(req: SliceRequest, data: &JsValue) {
    let Some(mut parser) = SliceParser::new(req.format, &ImportOptions::default()) else {
        return post(
            &FromWorker::Failed {
                id: 0,
                error: "this format is not parsed in slices".into(),
            },
            None,
        );
    };
    match Reflect::get(data, &"file".into())
        .ok()
        .and_then(|f| f.dyn_into::<web_sys::Blob>().ok())
    {
        Some(file) => {
            let mut reader = BlobReader::new(file, 1 << 20);
            let mut read = 0.0;
            let result = loop {
                match reader.next().await {
                    None => break parser.finish(),
                    Some(Err(error)) => return post(&FromWorker::Failed { id: 0, error }, None),
                    Some(Ok(bytes)) => {
                        read += bytes.len() as f64;
                        if let Err(e) = parser.feed(bytes) {
                            break Err(e);
                        }
                        slice_progress(read, parser.samples());
                    }
                }
            };
            answer(result);
        }
        None => STREAM.with(|s| {
            *s.borrow_mut() = Some(Stream {
                parser: Some(parser),
                error: None,
                read: 0.0,
                since: 0.0,
            })
        }),
    }
}

/// A streamed slice being parsed in a parse worker.
struct Stream {
    parser: Option<SliceParser>,
    error: Option<ImportError>,
    read: f64,
    since: f64,
}

thread_local! {
    static STREAM: RefCell<Option<Stream>> = const { RefCell::new(None) };
    /// Bytes and samples of the streamed slices this parse worker finished: its progress counts every slice
    /// it was given (the coordinating worker compares it with the bytes it sent).
    static FINISHED: std::cell::Cell<(f64, usize)> = const { std::cell::Cell::new((0.0, 0)) };
}

/// A parse worker's handling of `{ chunk }` and `{ end }` (true when `data` was one of them). Synchronous, so
/// chunks are parsed in the order they came.
pub(super) fn on_stream_message(data: &JsValue) -> bool {
    if let Some(chunk) = Reflect::get(data, &"chunk".into())
        .ok()
        .and_then(|c| c.dyn_into::<Uint8Array>().ok())
    {
        STREAM.with(|s| {
            let mut s = s.borrow_mut();
            let Some(st) = s.as_mut() else { return };
            let bytes = chunk.to_vec();
            st.read += bytes.len() as f64;
            st.since += bytes.len() as f64;
            if let (None, Some(p)) = (&st.error, &mut st.parser) {
                if let Err(e) = p.feed(&bytes) {
                    st.error = Some(e);
                }
                if st.since >= f64::from(1u32 << 20) {
                    st.since = 0.0;
                    let (read, samples) = FINISHED.get();
                    slice_progress(read + st.read, samples + p.samples());
                }
            }
        });
        return true;
    }
    if Reflect::get(data, &"end".into()).ok().and_then(|e| e.as_bool()) == Some(true) {
        if let Some(st) = STREAM.with(|s| s.borrow_mut().take()) {
            let (read, samples) = FINISHED.get();
            let done = (
                read + st.read,
                samples + st.parser.as_ref().map_or(0, SliceParser::samples),
            );
            FINISHED.set(done);
            slice_progress(done.0, done.1);
            let result = match (st.error, st.parser) {
                (Some(e), _) => Err(e),
                (None, Some(p)) => p.finish(),
                (None, None) => return true,
            };
            answer(result);
        }
        return true;
    }
    false
}

fn slice_progress(read: f64, samples: usize) {
    post(
        &FromWorker::Progress(super::protocol::Progress {
            id: 0,
            read,
            total: None,
            samples: samples as f64,
        }),
        None,
    );
}

/// Sends a slice's result, encoded, its buffer transferred.
fn answer(result: Result<SlicePart, ImportError>) {
    match SlicePart::encode_result(result) {
        Ok(bytes) => {
            let buf = Uint8Array::from(bytes.as_slice()).buffer();
            drop(bytes);
            post(&FromWorker::Part, Some(&buf));
        }
        Err(e) => post(
            &FromWorker::Failed {
                id: 0,
                error: e.to_string(),
            },
            None,
        ),
    }
}
