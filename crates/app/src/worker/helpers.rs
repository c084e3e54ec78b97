//! The import worker's parse workers ([`Helper`]), as `slices` asks them for slices: each is `www/worker.js`
//! again, reached by one of two channels —
//!
//! - a worker this import worker starts itself, for a large input (nested: a worker's constructor inside a
//!   worker, which in Firefox can block that worker's thread for good: [`start_helpers`] tells the page before and
//!   after, and the page ends a worker that goes silent there);
//! - the *spare*: a parse worker the page started ahead for this import worker while both waited for the user's
//!   file (`worker::page`, `Ahead`), joined to it by a `MessageChannel` whose port comes as `{ spare: port }`
//!   ([`take_spare`]). It answers on that port (`www/worker.js` routes its messages there), so it is ready when the
//!   file comes instead of ~100 ms after, and no constructor runs here for it. The page ends it with the load.

use super::js_err;
use super::post::post;
use super::protocol::{FromWorker, Open, SliceRequest, ToWorker};
use js_sys::{Array, Promise, Reflect, Uint8Array};
use scorch_core::import::split::SlicePart;
use scorch_core::{Format, ImportError};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// What a parse worker said, as the coordinating worker keeps it.
#[derive(Default)]
pub(super) struct HelperState {
    ready: bool,
    /// Messages (with what they transfer) waiting for the worker to be ready: it hears nothing before.
    queue: Vec<(JsValue, Option<Array>)>,
    /// Its last progress: bytes read, samples parsed.
    pub(super) read: f64,
    pub(super) samples: f64,
    /// Bytes posted to it (streamed slices).
    sent: f64,
    /// Resolved at its next message (or failure): [`Helper::next_result`] waits on it.
    waiter: Option<js_sys::Function>,
    /// Its slices' results (the encoded bytes) in the order it was asked for them, not yet taken.
    results: std::collections::VecDeque<Result<JsValue, String>>,
    /// It stopped or could not be reached: every result not yet come fails with this.
    pub(super) failed: Option<String>,
    /// Called when it is ready or has failed ([`Helper::started`]).
    on_ready: Option<js_sys::Function>,
    /// It did not say it was ready in time: its slice is read by the worker that cut it.
    pub(super) gave_up: bool,
}

/// How a parse worker is reached.
enum Channel {
    /// Started by this worker.
    Worker(web_sys::Worker),
    /// The page's spare, on its port.
    Port(web_sys::MessagePort),
}

impl Channel {
    fn post(&self, msg: &JsValue, transfer: Option<&Array>) -> Result<(), JsValue> {
        match (self, transfer) {
            (Channel::Worker(w), Some(t)) => w.post_message_with_transfer(msg, t),
            (Channel::Worker(w), None) => w.post_message(msg),
            (Channel::Port(p), Some(t)) => p.post_message_with_transferable(msg, t),
            (Channel::Port(p), None) => p.post_message(msg),
        }
    }
}

impl HelperState {
    /// Posts `msg` to the ready worker; if it cannot be sent, its slice fails (it would never come).
    fn post(&mut self, channel: &Channel, msg: &JsValue, transfer: Option<&Array>) {
        let Err(e) = channel.post(msg, transfer) else {
            return;
        };
        self.fail(format!("a parse worker could not be reached ({})", js_err(e)));
    }

    /// It will answer nothing more: whoever waits for it is woken, and its results not yet come fail.
    fn fail(&mut self, why: String) {
        self.failed.get_or_insert(why);
        if let Some(w) = self.waiter.take() {
            let _ = w.call0(&JsValue::NULL);
        }
        if let Some(f) = self.on_ready.take() {
            let _ = f.call0(&JsValue::NULL);
        }
    }

    /// Bytes posted to it and not yet parsed.
    pub(super) fn backlog(&self) -> f64 {
        (self.sent - self.read).max(0.0)
    }
}

/// One parse worker: the results of the slices it is asked for arrive in order ([`Helper::next_result`]).
pub(super) struct Helper {
    channel: Rc<Channel>,
    pub(super) state: Rc<RefCell<HelperState>>,
    /// How long it may take to say it is ready ([`super::start_limit`]).
    limit: f64,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Option<Closure<dyn FnMut(web_sys::Event)>>,
}

impl Helper {
    /// A parse worker: `www/worker.js` again (this worker's own script), given the compiled module this worker
    /// was given, if any.
    fn start(open: &Open) -> Result<Helper, String> {
        let global = js_sys::global();
        let href = Reflect::get(&global, &"location".into())
            .and_then(|l| Reflect::get(&l, &"href".into()))
            .ok()
            .and_then(|h| h.as_string())
            .ok_or("no worker location")?;
        let opts = web_sys::WorkerOptions::new();
        opts.set_type(web_sys::WorkerType::Module);
        #[cfg(feature = "testing")]
        let (name, limit) = match open.throttle.silent_ms {
            0 => ("parse", super::start_limit()),
            ms => (crate::seams::SILENT, f64::from(ms)),
        };
        #[cfg(not(feature = "testing"))]
        let (name, limit) = {
            let _ = open;
            ("parse", super::start_limit())
        };
        opts.set_name(name);
        let worker = web_sys::Worker::new_with_options(&href, &opts).map_err(js_err)?;
        let module = Reflect::get(&global, &"scorchModule".into()).unwrap_or(JsValue::UNDEFINED);
        let first = js_sys::Object::new();
        let _ = Reflect::set(&first, &"module".into(), &module);
        let helper = Helper::listen(Channel::Worker(worker.clone()), limit);
        worker.post_message(&first).map_err(js_err)?;
        Ok(helper)
    }

    /// Hears `channel`'s parse worker from now on.
    fn listen(channel: Channel, limit: f64) -> Helper {
        let channel = Rc::new(channel);
        let state = Rc::new(RefCell::new(HelperState::default()));
        let on_message = {
            let (state, channel) = (state.clone(), channel.clone());
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let data = e.data();
                let mut s = state.borrow_mut();
                if let Some(w) = s.waiter.take() {
                    let _ = w.call0(&JsValue::NULL);
                }
                // The spare's own error (`www/worker.js`): no `error` event reaches this worker from it.
                if let Some(why) = Reflect::get(&data, &"stopped".into())
                    .ok()
                    .and_then(|w| w.as_string())
                {
                    s.fail(format!("a parse worker stopped ({why})"));
                    return;
                }
                match FromWorker::decode(&data) {
                    Ok(FromWorker::Ready) => {
                        s.ready = true;
                        for (m, t) in std::mem::take(&mut s.queue) {
                            s.post(&channel, &m, t.as_ref());
                        }
                        if let Some(f) = s.on_ready.take() {
                            let _ = f.call0(&JsValue::NULL);
                        }
                    }
                    Ok(FromWorker::Progress(p)) => {
                        s.read = p.read;
                        s.samples = p.samples;
                    }
                    Ok(FromWorker::Part) => {
                        let buffer = Reflect::get(&data, &"buffer".into()).unwrap_or(JsValue::UNDEFINED);
                        s.results.push_back(Ok(buffer));
                    }
                    Ok(FromWorker::Failed { error, .. }) => s.results.push_back(Err(error)),
                    _ => {}
                }
            })
        };
        let on_error = match &*channel {
            Channel::Worker(worker) => {
                let state = state.clone();
                let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
                    e.prevent_default();
                    let message = super::error_message(&e);
                    state
                        .borrow_mut()
                        .fail(format!("a parse worker stopped ({message})"));
                });
                worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
                Some(on_error)
            }
            // Setting a port's handler starts its queue: what the spare said before (`Ready`) comes now.
            Channel::Port(port) => {
                port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                None
            }
        };
        Helper {
            channel,
            state,
            limit,
            _on_message: on_message,
            _on_error: on_error,
        }
    }

    /// Posts `msg` now, or once the worker is ready.
    fn send(&self, msg: JsValue, transfer: Option<Array>) {
        let mut s = self.state.borrow_mut();
        if s.ready {
            s.post(&self.channel, &msg, transfer.as_ref());
        } else {
            s.queue.push((msg, transfer));
        }
    }

    /// Asks for a slice: of `file` (a Blob slice it reads itself), or streamed (`chunk` messages, then `end`).
    pub(super) fn request(&self, format: Format, file: Option<&web_sys::Blob>) {
        let Ok(request) = serde_wasm_bindgen::to_value(&ToWorker::Slice(SliceRequest { format })) else {
            return;
        };
        let msg = js_sys::Object::new();
        let _ = Reflect::set(&msg, &"request".into(), &request);
        if let Some(f) = file {
            let _ = Reflect::set(&msg, &"file".into(), f);
        }
        self.send(msg.into(), None);
    }

    /// Streamed: the next bytes of its slice (copied out of wasm memory, transferred).
    pub(super) fn chunk(&self, bytes: &[u8]) {
        self.forward(Uint8Array::from(bytes));
    }

    /// Streamed: the next bytes of its slice, as they came (transferred when they own their buffer).
    pub(super) fn forward(&self, arr: Uint8Array) {
        let whole = arr.byte_offset() == 0 && arr.buffer().byte_length() == arr.length();
        let arr = if whole { arr } else { arr.slice(0, arr.length()) };
        self.state.borrow_mut().sent += f64::from(arr.length());
        let msg = js_sys::Object::new();
        let _ = Reflect::set(&msg, &"chunk".into(), &arr);
        self.send(msg.into(), Some(Array::of1(&arr.buffer())));
    }

    /// Whether it is ready, waiting for it at most its start limit from the first call: `false` once it failed
    /// to start or was given up on (its slice is then read by the worker that cut it).
    pub(super) async fn started(&self) -> bool {
        let wait = {
            let mut s = self.state.borrow_mut();
            if s.ready || s.gave_up || s.failed.is_some() {
                return s.ready;
            }
            let mut f = None;
            let p = Promise::new(&mut |resolve, _| f = Some(resolve));
            if let Some(f) = f {
                let on_time = f.clone();
                super::after(self.limit, move || {
                    let _ = on_time.call0(&JsValue::NULL);
                });
                s.on_ready = Some(f);
            }
            p
        };
        let _ = JsFuture::from(wait).await;
        let mut s = self.state.borrow_mut();
        if !s.ready {
            s.gave_up = true;
        }
        s.ready
    }

    /// Streamed: its slice ended.
    pub(super) fn end(&self) {
        let msg = js_sys::Object::new();
        let _ = Reflect::set(&msg, &"end".into(), &JsValue::TRUE);
        self.send(msg.into(), None);
    }

    /// The result of the next slice it was asked for, in order.
    pub(super) async fn next_result(&self) -> Result<Result<SlicePart, ImportError>, String> {
        loop {
            let wait = {
                let mut s = self.state.borrow_mut();
                if let Some(r) = s.results.pop_front() {
                    drop(s);
                    let bytes = Uint8Array::new(&r?).to_vec();
                    return SlicePart::decode_result(&bytes).map_err(|e| e.to_string());
                }
                if let Some(why) = &s.failed {
                    return Err(why.clone());
                }
                let mut w = None;
                let p = Promise::new(&mut |resolve, _| w = Some(resolve));
                s.waiter = w;
                p
            };
            let _ = JsFuture::from(wait).await;
        }
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        match &*self.channel {
            Channel::Worker(w) => w.terminate(),
            // The spare closes itself (`www/worker.js`); the page ends it with the load in any case.
            Channel::Port(p) => {
                let msg = js_sys::Object::new();
                let _ = Reflect::set(&msg, &"close".into(), &JsValue::TRUE);
                let _ = p.post_message(&msg);
                p.set_onmessage(None);
                p.close();
            }
        }
    }
}

thread_local! {
    /// The page's spare parse worker for this import worker, until a parallel parse takes it or a request ends it.
    static SPARE: RefCell<Option<Helper>> = const { RefCell::new(None) };
    /// A parallel parse took the spare (reported in `Done`).
    pub(super) static SPARE_USED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// What the spare said, also once a parse took it: the page may still say that it stopped.
    static SPARE_STATE: RefCell<Option<Rc<RefCell<HelperState>>>> = const { RefCell::new(None) };
}

/// Takes `{ spare: port, limit? }` (the page's spare parse worker, [`SPARE`]; `limit`: the ms to wait for it to
/// be ready, when a test made it silent); `false`: `data` is something else.
pub(super) fn take_spare(data: &JsValue) -> bool {
    // `{ spareStopped }`: the page heard the spare fail to start (its script did not load).
    if let Some(why) = Reflect::get(data, &"spareStopped".into())
        .ok()
        .and_then(|w| w.as_string())
    {
        if let Some(state) = SPARE_STATE.with(|s| s.borrow().clone()) {
            state.borrow_mut().fail(format!("a parse worker stopped ({why})"));
        }
        return true;
    }
    let Some(port) = Reflect::get(data, &"spare".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::MessagePort>().ok())
    else {
        return false;
    };
    let limit = Reflect::get(data, &"limit".into())
        .ok()
        .and_then(|l| l.as_f64())
        .unwrap_or_else(super::start_limit);
    let spare = Helper::listen(Channel::Port(port), limit);
    SPARE_STATE.with(|s| *s.borrow_mut() = Some(spare.state.clone()));
    SPARE.with(|s| *s.borrow_mut() = Some(spare));
    true
}

/// Ends the spare if no parse has taken it: a request that did not need it (this worker may stay as a view
/// engine, and holds none).
pub(super) fn drop_spare() {
    SPARE.with(|s| s.borrow_mut().take());
}

/// The spare, if it is there and has not failed (test builds: not for a test that asked for parse workers that
/// never start, or for a constructor that blocks — those paths are what the test watches).
fn take_spare_for(open: &Open) -> Option<Helper> {
    #[cfg(feature = "testing")]
    if open.throttle.silent_ms != 0 || open.throttle.stuck {
        return None;
    }
    let _ = open;
    SPARE
        .with(|s| s.borrow_mut().take())
        .filter(|h| h.state.borrow().failed.is_none())
}

/// `n` parse workers: the page's spare first, then workers started here — the page told before and after
/// ([`FromWorker::Slicing`]): a worker constructor that never returns blocks this worker's thread, and the page
/// then ends this worker and reads the input again, whole. `None` when one could not start.
pub(super) fn start_helpers(open: &Open, n: usize) -> Option<Vec<Helper>> {
    let mut helpers: Vec<Helper> = take_spare_for(open).into_iter().take(n).collect();
    SPARE_USED.with(|u| u.set(!helpers.is_empty()));
    drop_spare();
    if helpers.len() == n {
        return Some(helpers);
    }
    let id = open.id;
    post(&FromWorker::Slicing { id, started: false }, None);
    #[cfg(feature = "testing")]
    if open.throttle.stuck {
        // The test's blocked constructor: this thread never runs anything again (the page ends the worker).
        #[allow(clippy::empty_loop)]
        loop {}
    }
    let started: Option<Vec<Helper>> = (helpers.len()..n).map(|_| Helper::start(open).ok()).collect();
    post(&FromWorker::Slicing { id, started: true }, None);
    helpers.extend(started?);
    Some(helpers)
}
