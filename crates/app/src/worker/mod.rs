//! Importing profiles off the page's main thread.
//!
//! - [`protocol`]: every message between the page and `www/worker.js`, as plain types;
//! - [`side`]: the worker side (the engine's wasm, `src/engine.rs`, started by `www/worker.js`);
//! - [`page`]: the page side: one worker per load, progress, cancellation, the fallback without a worker;
//! - [`build`] (page) and `jobs` (worker): views of a large profile (inverted tree, sandwich, function table)
//!   built in a worker of their own, so no main-thread task runs long;
//! - [`graph`]: the call graph the engine builds and lays out, and its columns both ways;
//! - `slices` (worker): a large plain profile parsed in slices on every core, by the parse workers of
//!   `helpers` — nested in the import worker, or the page's `spare`, started ahead and joined by a port;
//! - below them, shared: `yielding` (ending the current task), `post` (the worker side's messages and progress), `payload` (profiles, trees and
//!   layouts as typed arrays to transfer), `blob` (a file read in slices).
//!
//! Dependencies flow page → protocol ← side, and one way among the rest (side → jobs → build → page, side →
//! slices), `post`, `payload` and `blob` below them all; nothing here knows about the app's state or components.

mod binaries;
mod blob;
pub mod build;
mod clock;
mod copier;
pub mod graph;
mod helpers;
mod here;
mod jobs;
pub mod page;
mod payload;
mod post;
pub mod protocol;
pub mod share;
pub mod side;
mod slices;
mod spare;
mod tierup;
mod views;
mod yielding;

pub use clock::now;
pub use here::import_folded;
pub use payload::Flame;
pub use side::run;
pub use yielding::yield_now;

/// A new key for a profile opened or derived on this page (`render::Loaded::key`): the view engine holds a
/// profile by it. An import worker is given its key before it parses (`protocol::Open::key`), so that, kept as
/// the engine afterwards, it holds the profile it read under the key the page will know it by.
pub fn next_profile_key() -> u32 {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// A tiny profile in the shape of a `perf script` import (the format most profiles come in): three samples of
/// one thread, with times, CPUs and an event. Built without an importer (the page's wasm has none: they are the
/// engine's): the page's warm-ups (`render::warm`, `render::graph::warm_up`) run their code on it.
pub fn tiny() -> scorch_core::Imported {
    use scorch_core::model::{FullSample, ProfileBuilder};
    use scorch_core::{Format, FrameKind, Unit, Warnings};
    let mut b = ProfileBuilder::new(Format::PerfScript);
    let thread = b.thread("app", Some(1), 1);
    let event = b.event("cpu-clock", Unit::Samples);
    let samples: [(&[&str], u64); 3] = [
        (&["start", "main"], 1_000_000_000),
        (&["start", "main", "work"], 1_010_000_000),
        (&["start", "main", "work", "draw"], 1_020_000_000),
    ];
    for (i, (frames, time_ns)) in samples.into_iter().enumerate() {
        let mut stack = None;
        for name in frames {
            let frame = b.frame(name, FrameKind::User);
            stack = Some(b.stack(stack, frame));
        }
        let Some(stack) = stack else { continue };
        let sample = FullSample {
            stack,
            weight: 1,
            time_ns: Some(time_ns),
            thread: Some(thread),
            event: Some(event),
            cpu: Some(i as u32),
            labels: None,
        };
        // Three weights of 1 cannot overflow.
        let _ = b.push_full_sample(sample, 0);
    }
    scorch_core::Imported {
        profile: b.build(Unit::Samples, 0, 3, Warnings::default()),
        gzip: false,
        bytes: 0,
    }
}

/// A tiny profile's answer built as the import worker builds one (`side::answer`) and taken as the page takes
/// it: the page's warm-up (`render::warm`) runs this code once before the first real answer comes.
pub async fn take_tiny(order: scorch_core::view::calltree::Order) -> Option<page::Done> {
    let imported = tiny();
    yield_now().await;
    let first = side::first_view(&imported, order, 0);
    yield_now().await;
    let (msg, _, _) = side::answer_of(imported, first).ok()?;
    yield_now().await;
    page::take(&msg).await.ok()
}

use protocol::Progress;
use wasm_bindgen::{JsCast, JsValue};

/// How long a worker may take to say it is ready before it is taken for one that never will: a module worker
/// can fail to start without an `error` event, and the page would wait for it forever. The work is then done
/// without it — an import or a view on the page, a parse worker's slice by the worker that cut it. Starting
/// takes 43–216 ms on the machines measured (a parse worker: docs/BENCHMARKS.md); the limit is seventy times
/// the slowest.
const START_LIMIT_MS: f64 = 15_000.0;

/// [`START_LIMIT_MS`], or in test builds the one a test set (`window.__scorchSilentWorkers`).
pub(crate) fn start_limit() -> f64 {
    if let Some(ms) = crate::seams::silent_workers() {
        return ms;
    }
    START_LIMIT_MS
}

/// `f` as a future of its own function: awaited through a pointer, its state machine is neither inlined into
/// its caller's by the compiler nor by wasm-opt (which inlines any function called from one place). Nested
/// `async fn`s otherwise become one function, and V8 optimises all of it when a little of it runs hot (the
/// import worker's requests were one function of 52,825 bytes, its optimising compile ~100 ms of a core during a
/// large load: docs/BENCHMARKS.md).
pub(crate) fn apart<'a, T>(
    f: impl std::future::Future<Output = T> + 'a,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = T> + 'a>> {
    Box::pin(f)
}

/// Calls `f` once, `ms` from now (on the page or in a worker).
pub(crate) fn after(ms: f64, f: impl FnOnce() + 'static) {
    let global = js_sys::global();
    let Some(set_timeout) = js_sys::Reflect::get(&global, &"setTimeout".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return;
    };
    let _ = set_timeout.call2(
        &global,
        &wasm_bindgen::closure::Closure::once_into_js(f),
        &ms.into(),
    );
}

/// Runs `f` when the page is next idle (`requestIdleCallback`, at most `timeout` ms from now), or after
/// `timeout` ms where the browser has no idle callbacks (Safari).
pub(crate) fn when_idle(timeout: f64, f: impl FnOnce() + 'static) {
    let global = js_sys::global();
    let idle = js_sys::Reflect::get(&global, &"requestIdleCallback".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let Some(idle) = idle else {
        return after(timeout, f);
    };
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"timeout".into(), &timeout.into());
    let _ = idle.call2(&global, &wasm_bindgen::closure::Closure::once_into_js(f), &opts);
}

/// Why a load did not produce a profile.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadError {
    /// The load was cancelled (Esc, the Cancel button, or a newer load): nothing is said.
    Cancelled,
    /// The bytes could not be fetched, read or parsed; the message says the format, byte offset and line.
    Import(String),
    /// The import worker stopped mid-load (in wasm an allocation failure aborts): `message` is the browser's,
    /// `last` the worker's last progress report.
    WorkerDied { message: String, last: Option<Progress> },
    /// The profile was read but its columns would not fit in the page's wasm memory (bytes needed).
    TooLarge { needed: f64 },
    /// The worker answered something the page does not understand.
    Protocol(String),
    /// The worker's profile could not be decoded (another version of scorch, or damaged in transit): the
    /// core's `WireError`, as text.
    Wire(String),
    /// The view engine (`build.rs`) could not start, could not be sent the request, or stopped while building:
    /// what happened, in words. The next request starts a new engine.
    Engine(String),
}

impl From<scorch_core::model::wire::WireError> for LoadError {
    fn from(e: scorch_core::model::wire::WireError) -> LoadError {
        LoadError::Wire(e.to_string())
    }
}

impl From<String> for LoadError {
    fn from(e: String) -> LoadError {
        LoadError::Import(e)
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Cancelled => f.write_str("cancelled"),
            LoadError::Import(e) => f.write_str(e),
            LoadError::Wire(e) => f.write_str(e),
            LoadError::Engine(e) => write!(f, "{e}; asking for the view again starts a new view engine"),
            LoadError::Protocol(e) => write!(f, "unexpected message from the import worker: {e}"),
            LoadError::TooLarge { needed } => write!(
                f,
                "the profile was read, but showing it needs about {:.1} GB, more than a page's WebAssembly memory \
                 (4 GB). `scorch fold FILE > smaller.folded` (or `--transform`) on the command line gives a smaller \
                 profile to open here",
                needed / 1e9
            ),
            LoadError::WorkerDied { message, last } => {
                let mb = |b: f64| format!("{:.0} MB", b / 1e6);
                let at = match last {
                    Some(Progress {
                        read, total: Some(t), ..
                    }) => format!(" after reading {} of {}", mb(*read), mb(*t)),
                    Some(Progress { read, .. }) => format!(" after reading {}", mb(*read)),
                    None => String::new(),
                };
                write!(
                    f,
                    "the import worker stopped{at} ({message}). The profile is most likely too large for the browser: \
                     a page's WebAssembly memory is limited to 4 GB. `scorch fold FILE > smaller.folded` on the command line \
                     reads it without that limit and gives a smaller profile to open here"
                )
            }
        }
    }
}

/// A JavaScript error (or thrown string) as text.
pub(crate) fn js_err(e: JsValue) -> String {
    e.as_string()
        .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())))
        .unwrap_or_else(|| "unknown error".to_string())
}

/// The response of a fetch of `url` (`fetched`: the fetch promise's outcome), or what went wrong: a network
/// error or CORS, something that is not a response, an HTTP error status.
pub(crate) fn checked_response(
    fetched: Result<JsValue, JsValue>,
    url: &str,
) -> Result<web_sys::Response, String> {
    let resp: web_sys::Response = fetched
        .map_err(|e| format!("could not fetch {url}: {} (network error or CORS)", js_err(e)))?
        .dyn_into()
        .map_err(|_| "fetch did not return a response".to_string())?;
    if !resp.ok() {
        return Err(format!(
            "could not fetch {url}: HTTP {} {}",
            resp.status(),
            resp.status_text()
        ));
    }
    Ok(resp)
}

/// The message of a worker's `error` event; empty when there is none. A module worker whose script fails to load
/// fires a plain `Event`, not an `ErrorEvent`: reading `message` through the `ErrorEvent` binding threw there, so
/// the page never heard that the worker was missing and waited forever instead of reading on the page.
pub(crate) fn error_message(e: &web_sys::Event) -> String {
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_default()
}

thread_local! {
    /// The error handler of a worker being terminated (one closure for all of them).
    static QUIET: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::Event)> =
        wasm_bindgen::closure::Closure::new(|e: web_sys::Event| {
            e.prevent_default();
            end_retiring(&e);
        });
    /// Its message handler: the first message (it is ready) ends a worker that was still starting.
    static ON_READY: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::Event)> =
        wasm_bindgen::closure::Closure::new(|e: web_sys::Event| end_retiring(&e));
    /// Workers no longer wanted that were still starting: each is terminated when it is ready (or fails).
    static RETIRING: std::cell::RefCell<Vec<web_sys::Worker>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn end_retiring(e: &web_sys::Event) {
    if let Some(w) = e
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Worker>().ok())
    {
        w.terminate();
        RETIRING.with(|r| r.borrow_mut().retain(|x| !js_sys::Object::is(x, &w)));
    }
}

/// Terminates a worker whose answers no longer matter (`ready`: it has said it is ready). One still starting
/// is terminated once it is ready instead: cut short while importing its module, Firefox reports the import's
/// failure as an error of the page (a view request replaced by a newer one at once). An error it still reports
/// is handled here, not shown as the page's.
pub(crate) fn retire(worker: &web_sys::Worker, ready: bool) {
    QUIET.with(|q| worker.set_onerror(Some(q.as_ref().unchecked_ref())));
    if ready {
        worker.set_onmessage(None);
        worker.terminate();
    } else {
        ON_READY.with(|h| worker.set_onmessage(Some(h.as_ref().unchecked_ref())));
        RETIRING.with(|r| r.borrow_mut().push(worker.clone()));
    }
}
