//! Ending the current task on the page or in a worker ([`yield_now`]): a message to itself, so the rest of a
//! long piece of work runs in a task of its own.

use js_sys::Promise;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Ends the current task; the rest runs in a new one (the page can paint and handle input in between). A
/// message to itself, not `setTimeout(0)`: Chromium holds nested timeouts back to 4 ms each, which made a
/// small profile's thirty-odd steps cost more than its parsing.
pub async fn yield_now() {
    let p = Promise::new(&mut |resolve, _| {
        let sent = YIELD.with(|y| {
            let mut y = y.borrow_mut();
            if y.is_none() {
                let channel = web_sys::MessageChannel::new().ok()?;
                let wake = Closure::<dyn FnMut()>::new(|| {
                    if let Some(f) = WAITING.with(|w| w.borrow_mut().pop_front()) {
                        let _ = f.call0(&JsValue::NULL);
                    }
                });
                channel.port1().set_onmessage(Some(wake.as_ref().unchecked_ref()));
                *y = Some((channel, wake));
            }
            let (channel, _) = y.as_ref()?;
            channel.port2().post_message(&JsValue::NULL).ok()
        });
        match sent {
            Some(()) => WAITING.with(|w| w.borrow_mut().push_back(resolve)),
            None => {
                let _ = resolve.call0(&JsValue::NULL);
            }
        }
    });
    let _ = JsFuture::from(p).await;
}

/// The channel [`yield_now`] posts to, with the handler of its messages.
type Yielder = (web_sys::MessageChannel, Closure<dyn FnMut()>);

thread_local! {
    /// The channel [`yield_now`] posts to, and the continuations waiting for its messages, in order.
    static YIELD: RefCell<Option<Yielder>> = const { RefCell::new(None) };
    static WAITING: RefCell<std::collections::VecDeque<js_sys::Function>> = RefCell::new(Default::default());
}
