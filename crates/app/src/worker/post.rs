//! The worker side's messages to the page (or, from a parse worker, to the worker that started it): each
//! posted, or if it cannot be, its request failed instead; and a load's progress, under its request's id.

use super::protocol::{FromWorker, Open, Progress};
use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::DedicatedWorkerGlobalScope;

pub(super) fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

pub(super) fn post(msg: &FromWorker, buffer: Option<&JsValue>) {
    let Ok(value) = serde_wasm_bindgen::to_value(msg) else {
        return unsent(request_of(msg), "it could not be encoded".into());
    };
    let r = match buffer {
        Some(buf) => {
            let _ = Reflect::set(&value, &"buffer".into(), buf);
            scope().post_message_with_transfer(&value, &Array::of1(buf))
        }
        None => scope().post_message(&value),
    };
    if let Err(e) = r {
        unsent(request_of(msg), super::js_err(e));
    }
}

/// `head` (a message with its `payload`) posted with `transfer`; if it cannot be, the request fails instead.
pub(super) fn post_answer(head: &JsValue, transfer: &Array, id: u32) {
    if let Err(e) = scope().post_message_with_transfer(head, transfer) {
        unsent(Some(id), super::js_err(e));
    }
}

/// The request a message belongs to (0: the only one, a parse worker's); `None` for a failure, which has
/// nothing left to say when it cannot be sent.
fn request_of(msg: &FromWorker) -> Option<u32> {
    match msg {
        FromWorker::Failed { .. } => None,
        FromWorker::Progress(p) => Some(p.id),
        FromWorker::Done { id, .. } | FromWorker::Built { id, .. } | FromWorker::Slicing { id, .. } => {
            Some(*id)
        }
        FromWorker::Ready
        | FromWorker::Part
        | FromWorker::Compiling
        | FromWorker::PageModule
        | FromWorker::Module => Some(0),
    }
}

/// A message that could not be sent: the request it belongs to fails with the reason, so the other side does
/// not wait for it forever (a structured clone can fail: out of memory, a buffer that cannot be transferred).
fn unsent(request: Option<u32>, why: String) {
    web_sys::console::error_1(&format!("scorch worker: a message could not be sent ({why})").into());
    let Some(id) = request else { return };
    let error = format!("the worker could not send its answer: {why}");
    if let Ok(value) = serde_wasm_bindgen::to_value(&FromWorker::Failed { id, error }) {
        let _ = scope().post_message(&value);
    }
}

/// The id of an early read's [`Open`] (never a page's: the page counts from 1).
pub(super) const EARLY_READ: u32 = u32::MAX;

thread_local! {
    /// The id progress of the early read is reported under: none (not reported) until a request takes it.
    pub(super) static EARLY_ID: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

/// A load's progress goes to the page at most this often. Sent after every slice (1 MiB), it was 200–260
/// messages a second on a 400 MB download, and the page spent a third of a core taking them and drawing the
/// progress line at every frame: a core the parse shares on a two-core machine (docs/BENCHMARKS.md).
const PROGRESS_MS: f64 = 100.0;

thread_local! {
    /// The request whose progress was last posted, and when.
    static LAST_PROGRESS: std::cell::Cell<(u32, f64)> = const { std::cell::Cell::new((0, 0.0)) };
}

/// Reports `read` bytes of `total` and `samples` parsed, under the request's id: the first report of a
/// request, then at most one every [`PROGRESS_MS`].
pub(super) fn progress_of(open: &Open, read: f64, total: Option<f64>, samples: f64) {
    // An early read reports under the id of the request that took it, and nothing before.
    let id = match open.id {
        EARLY_READ => match EARLY_ID.with(std::cell::Cell::get) {
            Some(id) => id,
            None => return,
        },
        id => id,
    };
    let now = js_sys::Date::now();
    let (last_id, last_at) = LAST_PROGRESS.with(std::cell::Cell::get);
    let due = last_id != id || now - last_at >= PROGRESS_MS;
    // Test builds: a load set to trap after some slices reports every slice, so the page's message says how
    // far it got exactly.
    #[cfg(feature = "testing")]
    let due = due || open.throttle.trap_after != 0;
    if !due {
        return;
    }
    LAST_PROGRESS.with(|c| c.set((id, now)));
    post(
        &FromWorker::Progress(Progress {
            id,
            read,
            total,
            samples,
        }),
        None,
    );
}
