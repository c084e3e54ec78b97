//! The page's spare parse worker: started for the import worker that waits for the user's first file (boot.js's,
//! on a page opened without a link), and joined to it by a `MessageChannel` — the import worker reaches it on one
//! port as one of its parse workers (`helpers.rs`), it answers on the other (`www/worker.js`). A large file then
//! has its second parse worker ready when it comes: started with the file, that worker said it was ready ~100 ms
//! after the import worker began its own slice, and the file's two halves ended that far apart
//! (docs/BENCHMARKS.md). Started here rather than by the import worker, so that no worker's constructor runs
//! inside a worker for it (in Firefox that can block the worker's thread for good). It lives as long as the load
//! that takes its import worker (dropped, it ends).

use js_sys::{Array, Reflect};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

pub(super) struct ParseSpare {
    worker: web_sys::Worker,
    /// It may be terminated at once: it said it is up (`www/worker.js`: its one message to the page), or it
    /// failed. Before, it is ended once it is up ([`super::retire`]: Firefox reports a worker cut short while
    /// importing its module as an error of the page).
    ready: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl ParseSpare {
    /// Starts a parse worker for `import` (whose wasm runs: its first message was taken) and joins the two;
    /// `module`: the engine's compiled module, if there is one. `None` on one core (nothing to run it on), or
    /// when it cannot start.
    pub(super) fn join(import: &web_sys::Worker, module: &JsValue) -> Option<ParseSpare> {
        let cores = web_sys::window()?.navigator().hardware_concurrency();
        if cores < 2.0 {
            return None;
        }
        let silent = crate::seams::silent_spare();
        let opts = web_sys::WorkerOptions::new();
        opts.set_type(web_sys::WorkerType::Module);
        opts.set_name(if silent.is_some() {
            crate::seams::SILENT
        } else {
            "parse"
        });
        let worker = web_sys::Worker::new_with_options("www/worker.js", &opts).ok()?;
        let ready = Rc::new(Cell::new(false));
        let on_message = {
            let ready = ready.clone();
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_: web_sys::MessageEvent| ready.set(true))
        };
        // It stopped: its import worker hears it from here (the spare's own errors it hears on the port).
        let on_error = {
            let (import, ready) = (import.clone(), ready.clone());
            Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
                e.prevent_default();
                ready.set(true);
                let msg = js_sys::Object::new();
                let why = format!("it could not start ({})", super::error_message(&e));
                let _ = Reflect::set(&msg, &"spareStopped".into(), &why.into());
                let _ = import.post_message(&msg);
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let spare = ParseSpare {
            worker,
            ready,
            _on_message: on_message,
            _on_error: on_error,
        };
        let joined = (|| {
            let channel = web_sys::MessageChannel::new().ok()?;
            let first = js_sys::Object::new();
            let _ = Reflect::set(&first, &"module".into(), module);
            let _ = Reflect::set(&first, &"port".into(), &channel.port2());
            spare
                .worker
                .post_message_with_transfer(&first, &Array::of1(&channel.port2()))
                .ok()?;
            let join = js_sys::Object::new();
            let _ = Reflect::set(&join, &"spare".into(), &channel.port1());
            if let Some(ms) = silent {
                let _ = Reflect::set(&join, &"limit".into(), &ms.into());
            }
            import
                .post_message_with_transfer(&join, &Array::of1(&channel.port1()))
                .ok()
        })();
        joined.map(|()| spare)
    }
}

/// Dropped, it ends: its import worker's load is over (or it will not have one).
impl Drop for ParseSpare {
    fn drop(&mut self) {
        super::retire(&self.worker, self.ready.get());
    }
}
