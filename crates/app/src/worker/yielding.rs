//! Ending the current task on the page or in a worker ([`yield_now`]): a message to itself, so the rest of a
//! long piece of work runs in a task of its own.

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Ends the current task; the rest runs in a new one (the page can paint and handle input in between). A
/// message to itself, not `setTimeout(0)`: Chromium holds nested timeouts back to 4 ms each, which made a
/// small profile's thirty-odd steps cost more than its parsing. A channel of its own each time: Chromium
/// dispatches the messages waiting on one port in one task, so two pieces of work yielding at once (the page's
/// start and a load's copy) ran on in one task of 50–67 ms where each was meant to be one of 20–40.
pub async fn yield_now() {
    let p = Promise::new(&mut |resolve, _| {
        let woken = resolve.clone();
        let sent = (|| {
            let channel = web_sys::MessageChannel::new().ok()?;
            let (mine, other) = (channel.port1(), channel.port2());
            let (a, b) = (mine.clone(), other.clone());
            let wake = Closure::once_into_js(move || {
                a.close();
                b.close();
                let _ = woken.call0(&JsValue::NULL);
            });
            mine.set_onmessage(Some(wake.unchecked_ref()));
            other.post_message(&JsValue::NULL).ok()
        })();
        if sent.is_none() {
            // No channel: the rest runs at once (in a microtask).
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let _ = JsFuture::from(p).await;
}
