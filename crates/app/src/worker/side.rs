//! The import worker: the engine's wasm (`src/engine.rs`, whose `main` calls [`run`]), started by
//! `www/worker.js` in a dedicated worker. It reads a file in slices (or a URL as a stream), feeds the core's
//! streaming [`Loader`], reports progress, and sends back the parsed profile as one transferred buffer; or it
//! builds views of a profile the page sends (`jobs.rs`). Protocol: `protocol.rs`.

use super::blob::{BlobReader, Byob};
use super::js_err;
use super::payload::{flame_payload, heat_payload, profile_payload};
use super::post::{post, post_answer, progress_of, scope, EARLY_ID, EARLY_READ};
use super::protocol::{FromWorker, Open, ToWorker};
use crate::url::UrlKey;
use js_sys::{Array, Promise, Reflect, Uint8Array};
use scorch_core::view::calltree::Order;
use scorch_core::{ImportOptions, Loader};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Installs the message handler, takes the requests that came while the wasm started (`www/worker.js` kept
/// them), and says it is ready.
pub fn run() {
    if crate::seams::is_silent_worker() {
        return;
    }
    fn on_data(data: JsValue) {
        if super::slices::on_stream_message(&data) || super::helpers::take_spare(&data) {
            return;
        }
        wasm_bindgen_futures::spawn_local(async move { handle(data).await });
    }
    let handler =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|e: web_sys::MessageEvent| on_data(e.data()));
    scope().set_onmessage(Some(handler.as_ref().unchecked_ref()));
    handler.forget();
    post(&FromWorker::Ready, None);
    // The early read first: a request for the link's profile that is already waiting takes it.
    start_early_read();
    let pending = Reflect::get(&js_sys::global(), &"scorchPending".into()).unwrap_or(JsValue::UNDEFINED);
    if let Some(pending) = pending.dyn_ref::<Array>() {
        for data in pending.iter() {
            on_data(data);
        }
        pending.set_length(0);
    }
    warm_later();
}

thread_local! {
    /// Whether a request has come: the warm-up ([`warm_later`]) stops there.
    static ASKED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Two samples of perf script, as `perf script` prints them (the first profile is most often one).
const TINY_PERF: &[u8] = b"app 1/1 [000] 1.000000: 1 cpu-clock:ppp: \n\
\t    1000 main+0x1 (/bin/app)\n\
\t    2000 start+0x2 (/bin/app)\n\
\n\
app 1/1 [001] 1.010000: 1 cpu-clock:ppp: \n\
\t    3000 work+0x3 (/bin/app)\n\
\t    1000 main+0x1 (/bin/app)\n\
\t    2000 start+0x2 (/bin/app)\n\
\n";

/// Two lines of folded stacks: with [`TINY_PERF`], the formats most profiles come in.
const TINY_FOLDED: &[u8] = b"main;work;leaf 3\nmain;idle 1\n";

/// The import worker boot.js starts for a page opened without a link (`import`) waits for the user's first
/// file: meanwhile it imports two tiny profiles and builds their answers, so the code a load runs is compiled
/// before the file comes (V8 compiles a wasm function on its first call; a folded file's load spent 10–18 ms of
/// its worker's time on that, Chromium trace). Stopped by the first request; nothing is kept.
fn warm_later() {
    if js_sys::global()
        .dyn_into::<web_sys::DedicatedWorkerGlobalScope>()
        .map_or(true, |g| g.name() != "import")
    {
        return;
    }
    let asked = || ASKED.with(std::cell::Cell::get);
    super::after(0.0, move || {
        for tiny in [TINY_FOLDED, TINY_PERF] {
            if asked() {
                return;
            }
            if let Ok(imported) = scorch_core::import_bytes(tiny, ImportOptions::default()) {
                let _ = answer(imported, Order::Alphabetical, 0);
            }
        }
        wasm_bindgen_futures::spawn_local(super::tierup::warm(asked, |imported| {
            let _ = answer(imported, Order::Alphabetical, 0);
        }));
    });
}

/// The early read of a link's profile: the worker boot.js starts for a link (`www/worker.js` fetches its URL at
/// once) reads and parses it as soon as the wasm is ready, without waiting for the page's request — which
/// comes only once the page's own start (instantiating the wasm, mounting the app: 100+ ms) is done. The
/// request for the same URL then takes this read ([`take_early`]); its progress goes out under the request's
/// id from then on.
struct Early {
    url: String,
    /// Resolves when the read ended; its result is then in `result`.
    done: Promise,
    result: Option<Result<scorch_core::Imported, String>>,
}

thread_local! {
    static EARLY: std::cell::RefCell<Option<Early>> = const { std::cell::RefCell::new(None) };
}

fn start_early_read() {
    let Some(url) = Reflect::get(&js_sys::global(), &"scorchPrefetch".into())
        .ok()
        .filter(JsValue::is_object)
        .and_then(|p| Reflect::get(&p, &"url".into()).ok())
        .and_then(|u| u.as_string())
    else {
        return;
    };
    let open = Open {
        id: EARLY_READ,
        url: Some(url.clone()),
        link: None,
        slice_bytes: 1 << 20,
        whole: false,
        order: String::new(),
        key: 0,
        #[cfg(feature = "testing")]
        throttle: Default::default(),
    };
    let target = url.clone();
    let done = wasm_bindgen_futures::future_to_promise(async move {
        let r = read_url(&open, &target).await;
        EARLY.with(|e| {
            if let Some(e) = e.borrow_mut().as_mut() {
                e.result = Some(r);
            }
        });
        Ok(JsValue::UNDEFINED)
    });
    EARLY.with(|e| {
        *e.borrow_mut() = Some(Early {
            url,
            done,
            result: None,
        })
    });
}

/// The early read of `url`, if one was started: awaited, and taken (once). A request for another URL drops
/// it (its result, when it ends, is not kept).
async fn take_early(id: u32, url: &str) -> Option<Result<scorch_core::Imported, String>> {
    let done = EARLY.with(|e| {
        let mut early = e.borrow_mut();
        match early.as_ref() {
            Some(x) if x.url == url => Some(x.done.clone()),
            _ => early.take().and(None),
        }
    })?;
    EARLY_ID.with(|i| i.set(Some(id)));
    let _ = JsFuture::from(done).await;
    EARLY.with(|e| e.borrow_mut().take().and_then(|e| e.result))
}

/// A request is `{ request, file?, payload? }`: `request` a [`ToWorker`], beside it what is not plain data.
async fn handle(data: JsValue) {
    ASKED.with(|a| a.set(true));
    let request = Reflect::get(&data, &"request".into()).unwrap_or(JsValue::UNDEFINED);
    match serde_wasm_bindgen::from_value(request) {
        // Each request's future apart, and each read's below ([`super::apart`]).
        Ok(ToWorker::Open(open)) => super::apart(open_profile(open, &data)).await,
        Ok(ToWorker::Build(build)) => super::jobs::serve(build, &data),
        Ok(ToWorker::Slice(req)) => super::apart(super::slices::serve(req, &data)).await,
        Err(e) => {
            let error = format!("bad request to the import worker: {e}");
            post(&FromWorker::Failed { id: 0, error }, None);
        }
    }
}

async fn open_profile(open: Open, data: &JsValue) {
    let id = open.id;
    let start = now();
    let result = match (&open.url, &open.link) {
        (Some(url), _) => match super::apart(take_early(id, url)).await {
            Some(r) => r,
            None => super::apart(read_url(&open, url)).await,
        },
        (None, Some(link)) => scorch_core::export::links::decode(link)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                scorch_core::import_bytes(&bytes, ImportOptions::default()).map_err(|e| e.to_string())
            }),
        (None, None) => match Reflect::get(data, &"file".into())
            .ok()
            .and_then(|f| f.dyn_into::<web_sys::Blob>().ok())
        {
            Some(file) => super::apart(read_blob(&open, &file)).await,
            None => Err("no file in the request".to_string()),
        },
    };
    // A perf.data recording's binaries, when they ride beside it (`binaries`, an array of `File`s).
    let result = match (result, Reflect::get(data, &"binaries".into())) {
        (Ok(mut imported), Ok(files)) if files.is_instance_of::<Array>() => {
            super::binaries::name_frames(&mut imported, files.unchecked_ref())
                .await
                .map(|()| imported)
        }
        (r, _) => r,
    };
    // Read: the page's spare parse worker, if no parallel parse took it, is not kept (this worker may stay as a
    // view engine).
    super::helpers::drop_spare();
    let imported = match result {
        Ok(i) => i,
        Err(e) => {
            return post(
                &FromWorker::Failed {
                    id,
                    error: e.to_string(),
                },
                None,
            )
        }
    };
    let order = Order::from_key(&open.order).unwrap_or(Order::Alphabetical);
    let (msg, transfer, imported) = match answer(imported, order, open.key) {
        Ok(m) => m,
        Err(error) => return post(&FromWorker::Failed { id, error }, None),
    };
    // Kept: the page keeps this worker as its view engine (`page::take_kept`), which builds every further view of
    // this profile without being sent it.
    if open.key != 0 {
        super::jobs::hold(open.key, imported);
    } else {
        drop(imported);
    }
    let ms = now() - start;
    let Ok(head) = serde_wasm_bindgen::to_value(&FromWorker::Done {
        id,
        ms,
        prefetched: PREFETCHED.with(std::cell::Cell::get),
        slices: super::slices::SLICES.with(std::cell::Cell::get).max(1),
        spare: super::helpers::SPARE_USED.with(std::cell::Cell::get),
    }) else {
        let error = "the worker could not encode its answer".to_string();
        return post(&FromWorker::Failed { id, error }, None);
    };
    let _ = Reflect::set(&head, &"payload".into(), &msg);
    post_answer(&head, &transfer, id);
}

/// The answer's payload for an imported profile, with the buffers to transfer: the profile, its first flame
/// graph (the tree of the default view in `order`, built here rather than in long tasks on the page)
/// and that view's figures (`ViewFigures`); and the profile back. The page's warm-up (`worker::warm`) takes one of a tiny
/// profile.
pub(super) fn answer(imported: scorch_core::Imported, order: Order, key: u32) -> Result<Answer, String> {
    let first = first_view(&imported, order, key);
    let (msg, transfer, imported) = answer_of(imported, first)?;
    // The page keeps this worker as the profile's view engine when the answer is small enough (`payload::
    // KEEP_BELOW`); then a large profile's figures, left out above, are asked of it later. Otherwise the page
    // would have to send the profile to a new engine at once to ask for them: they go in now.
    let kept = key != 0 && super::payload::kept_as_engine(&msg);
    if !kept && Reflect::get(&msg, &"figures".into()).map_or(true, |f| f.is_undefined()) {
        let view = scorch_core::ViewOptions::default_for(&imported.profile);
        let figures = super::protocol::ViewFigures::of(&imported.profile, &view);
        if let Ok(f) = serde_wasm_bindgen::to_value(&figures) {
            let _ = Reflect::set(&msg, &"figures".into(), &f);
        }
    }
    Ok((msg, transfer, imported))
}

/// The first flame graph's tree, and that view's figures ([`answer`]'s first half).
pub(super) fn first_view(imported: &scorch_core::Imported, order: Order, key: u32) -> FirstView {
    let p = &imported.profile;
    let view = scorch_core::ViewOptions::default_for(p);
    // Cut to what can be drawn when large, the whole kept here (this worker stays the profile's view engine) for
    // the finer cuts zooms ask for. A large plain tree is cut from the stack table without building the whole
    // (`cut_stacks`: half the time on folded 400 MB); the whole is built when a zoom first needs a finer cut
    // (`views::refine`). Built here after the answer instead, the worker's memory at the load's peak grew by
    // 25–30 MB (folded 100 MB: the cut's scratch and the tree, side by side).
    let cut = scorch_core::CallTree::stack_weights(p, &view)
        .and_then(|w| scorch_core::view::cut::cut_stacks(p, &w, order));
    let tree = match cut {
        Some(c) => super::payload::Flame {
            tree: c.tree,
            heights: c.heights,
            full: c.full,
        },
        None => {
            let whole_key = (key, super::protocol::Job::Plain, view.clone(), order);
            super::views::flame_of(scorch_core::CallTree::build(p, &view, order), whole_key)
        }
    };
    // The first view's figures too, for a profile of at most `FIGURES_WITH_ANSWER` stacks and samples: the stack
    // health walks the whole stack table (200 ms for a 5,000,000-frame stack), the coverage and the sample count
    // the samples (30 ms for a million), which the page would otherwise do in its tasks. A larger profile's are
    // not waited for: the page asks the view engine for them once it has drawn its first picture
    // (`Job::Figures`; [`answer`] adds them when this worker will not be that engine).
    let figures = (p.stacks.len() + p.samples.len() <= FIGURES_WITH_ANSWER)
        .then(|| serde_wasm_bindgen::to_value(&super::protocol::ViewFigures::of(p, &view)).ok())
        .flatten();
    // And its heatmap grid, with the page's default options (the page computes its own when the user chose
    // others): a pass over the samples, 26–34 ms of a task on the page for a million events.
    let heat = scorch_core::analysis::heatmap::heatmap(p, &view, &Default::default());
    (tree, figures, heat)
}

/// The largest profile (stacks and samples) whose first answer carries its figures ([`first_view`]): a few ms
/// of the worker's time. Folded 100 MB (788,126 stacks, 1,068,275 samples) took 40–70 ms for them.
const FIGURES_WITH_ANSWER: usize = 400_000;

/// A first view's tree, figures (as a JS value) and heatmap grid (`None`: the profile has no timestamps).
pub(super) type FirstView = (
    super::payload::Flame,
    Option<JsValue>,
    Option<scorch_core::analysis::heatmap::Heatmap>,
);

/// An answer's payload, the buffers to transfer, and the profile it was made of.
pub(super) type Answer = (js_sys::Object, Array, scorch_core::Imported);

/// [`answer`]'s second half: the payload of the profile and its first view.
pub(super) fn answer_of(
    mut imported: scorch_core::Imported,
    (tree, figures, heat): FirstView,
) -> Result<Answer, String> {
    // The profile's big columns go as typed arrays; the rest, encoded, is small and quick to decode.
    let transfer = Array::new();
    let msg = profile_payload(&mut imported, &transfer)?;
    flame_payload(&msg, tree, &transfer);
    heat_payload(&msg, heat, &transfer);
    if let Some(f) = figures {
        let _ = Reflect::set(&msg, &"figures".into(), &f);
    }
    Ok((msg, transfer, imported))
}

fn progress(open: &Open, loader: &Loader, total: Option<f64>) {
    progress_of(
        open,
        loader.bytes_fed() as f64,
        total,
        loader.samples_so_far() as f64,
    );
}

async fn read_blob(open: &Open, file: &web_sys::Blob) -> Result<scorch_core::Imported, String> {
    // A large plain file: in slices on every core.
    match super::apart(super::slices::read_blob(open, file)).await {
        Some(Ok(Some(imported))) => return Ok(imported),
        Some(Err(e)) => return Err(e),
        Some(Ok(None)) | None => {}
    }
    let size = file.size();
    let mut loader = Loader::new(ImportOptions::default());
    #[cfg(feature = "testing")]
    let mut slices = 0u32;
    let mut reader = BlobReader::new(file.clone(), open.slice_bytes);
    while let Some(bytes) = reader.next().await {
        loader.feed(bytes?).map_err(|e| e.to_string())?;
        progress(open, &loader, Some(size));
        #[cfg(feature = "testing")]
        {
            slices += 1;
            throttle(open, slices).await;
        }
    }
    loader.finish().map_err(|e| e.to_string())
}

/// The response `www/worker.js` started fetching for boot.js (the profile a link names), if it is for `url`;
/// taken once.
fn prefetched(url: &str) -> Option<Promise> {
    let global = js_sys::global();
    let key = JsValue::from_str("scorchPrefetch");
    let pre = Reflect::get(&global, &key).ok().filter(JsValue::is_object)?;
    let _ = Reflect::delete_property(global.unchecked_ref::<js_sys::Object>(), &key);
    let same = Reflect::get(&pre, &"url".into()).ok()?.as_string()? == url;
    let response = Reflect::get(&pre, &"response".into())
        .ok()?
        .dyn_into::<Promise>()
        .ok()?;
    if same {
        PREFETCHED.with(|p| p.set(true));
        Some(response)
    } else {
        None
    }
}

thread_local! {
    /// Whether this worker's load read the response boot.js asked for (reported in `Done`, for tests).
    static PREFETCHED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

async fn read_url(open: &Open, url: &str) -> Result<scorch_core::Imported, String> {
    let resp = JsFuture::from(prefetched(url).unwrap_or_else(|| scope().fetch_with_str(url))).await;
    let resp = super::checked_response(resp, url)?;
    if let Some(imported) = super::apart(read_response(open, resp, true)).await? {
        return Ok(imported);
    }
    // Read in slices, it could not be merged from them (a two-count folded file): read it again, whole.
    let resp = JsFuture::from(scope().fetch_with_str(url)).await;
    let resp = super::checked_response(resp, url)?;
    read_response(open, resp, false)
        .await?
        .ok_or_else(|| "the profile could not be read".to_string())
}

/// The next chunk of a response body; `None` at its end.
async fn read_chunk(reader: web_sys::ReadableStreamDefaultReader) -> Result<Option<Uint8Array>, String> {
    let chunk = JsFuture::from(reader.read()).await.map_err(js_err)?;
    if Reflect::get(&chunk, &"done".into())
        .ok()
        .and_then(|d| d.as_bool())
        .unwrap_or(true)
    {
        return Ok(None);
    }
    let Ok(value) = Reflect::get(&chunk, &"value".into()) else {
        return Ok(None);
    };
    Ok(Some(value.unchecked_into::<Uint8Array>()))
}

/// Reads a response; a large plain one in slices on every core when `parallel` (`Ok(None)`: it must be read
/// whole after all, and its bytes are gone: fetch it again).
async fn read_response(
    open: &Open,
    resp: web_sys::Response,
    parallel: bool,
) -> Result<Option<scorch_core::Imported>, String> {
    // Content-Length counts the bytes on the wire; with a Content-Encoding the stream yields more.
    let headers = resp.headers();
    let encoded = headers.get("content-encoding").ok().flatten().is_some();
    let total = headers
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|_| !encoded);
    let mut loader = Loader::new(ImportOptions::default());
    let Some(body) = resp.body() else {
        return loader.finish().map(Some).map_err(|e| e.to_string());
    };
    // Read whole, a byte stream goes into one reused buffer (no chunk is kept); read in slices, its chunks are
    // handed on.
    let sliced = parallel && super::slices::may_slice(open, total);
    let mut byob = if sliced { None } else { Byob::new(&body, 1 << 20) };
    let reader: Option<web_sys::ReadableStreamDefaultReader> = match byob {
        Some(_) => None,
        None => Some(
            body.get_reader()
                .dyn_into()
                .map_err(|_| "the response cannot be streamed".to_string())?,
        ),
    };
    // A large plain profile: its first bytes say whether it can be cut into slices.
    let mut head = Vec::new();
    if let (true, Some(reader)) = (sliced, &reader) {
        let mut len = 0;
        while len < scorch_core::import::SNIFF_WINDOW {
            match read_chunk(reader.clone()).await? {
                Some(b) => {
                    len += b.length() as usize;
                    head.push(b);
                }
                None => break,
            }
        }
        let mut first = Vec::new();
        for b in &head {
            first.extend_from_slice(&b.to_vec());
        }
        first.truncate(scorch_core::import::SNIFF_WINDOW);
        if let Some(d) = super::slices::Download::start(open, total, &first) {
            return super::apart(super::slices::read_download(open, d, head, || {
                read_chunk(reader.clone())
            }))
            .await;
        }
    }
    let mut since = 0.0;
    let mut buf = Vec::new();
    let mut head = head.into_iter();
    loop {
        // The bytes go to the start of `buf`, which keeps its length (`blob::copy_over`).
        let n = match (&mut byob, &reader) {
            (Some(byob), _) => byob.next(&mut buf, false).await?,
            (None, Some(reader)) => {
                let chunk = match head.next() {
                    Some(b) => Some(b),
                    None => read_chunk(reader.clone()).await?,
                };
                match chunk {
                    // An empty chunk is not the end.
                    Some(c) if c.length() == 0 => continue,
                    Some(c) => super::blob::copy_over(&c, &mut buf),
                    None => 0,
                }
            }
            (None, None) => 0,
        };
        let Some(bytes) = buf.get(..n).filter(|_| n > 0) else {
            break;
        };
        loader.feed(bytes).map_err(|e| e.to_string())?;
        since += n as f64;
        if since >= f64::from(open.slice_bytes) {
            since = 0.0;
            progress(open, &loader, total);
            #[cfg(feature = "testing")]
            throttle(open, 0).await;
        }
    }
    progress(open, &loader, total);
    loader.finish().map(Some).map_err(|e| e.to_string())
}

/// Test builds: waits `throttle.ms` after a slice; after `throttle.trap_after` slices (`slices`, 0 for a URL's
/// chunks) traps as running out of memory does in wasm (the allocator aborts): the test of the page's message.
#[cfg(feature = "testing")]
async fn throttle(open: &Open, slices: u32) {
    if open.throttle.ms != 0 {
        let ms = open.throttle.ms as i32;
        let p = Promise::new(&mut |resolve, _| {
            let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        });
        let _ = JsFuture::from(p).await;
    }
    if open.throttle.trap_after != 0 && slices >= open.throttle.trap_after {
        std::process::abort();
    }
}

use super::now;
