//! The embedded viewer's message API (`#embed=1`; docs/SHARING.md, "Embedding"). A host page frames the viewer
//! and talks to it with `postMessage`:
//! - host → viewer: `{type: "load", bytes, name}` (bytes: an `ArrayBuffer` or a typed array) or `{type: "load",
//!   url}` (as `#url=`, relative to the viewer), and `{type: "view", state}` (state: a link's fragment without
//!   its source, e.g. `mode=sandwich&sel=main`);
//! - viewer → host: `{type: "ready"}` once it listens, `{type: "loaded", name, format, samples, total}` after each
//!   load, `{type: "select", frame, self, total}` when a function is selected (null `frame`: cleared), `{type:
//!   "error", message}` when a load fails or a message is refused.
//!
//! Messages are untrusted: one from an origin that is neither the viewer's own nor listed by the deployment in
//! `<meta name="scorch-embed-origins" content="https://a.example https://b.example">` (index.html) is ignored
//! without a reply; a message of the wrong shape gets an `error` reply. Replies go to the parent window with the
//! host's origin as the target (never `*`): before the first message, to each allowed origin (the browser
//! delivers only the one that matches the parent).

use super::Actions;
use crate::url::UrlState;
use js_sys::{Object, Reflect, Uint8Array};
use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

/// The largest profile a host may send as bytes (a larger one is refused with an `error` reply).
pub const MAX_BYTES: u32 = 1 << 30;

thread_local! {
    /// The origin of the last message accepted: where replies go.
    static HOST: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The origins allowed to drive the viewer: its own, and those the deployment lists in the meta tag.
fn allowed_origins() -> Vec<String> {
    let Some(w) = web_sys::window() else {
        return Vec::new();
    };
    let mut out: Vec<String> = w.location().origin().ok().into_iter().collect();
    if let Some(list) = w
        .document()
        .and_then(|d| d.query_selector("meta[name=scorch-embed-origins]").ok().flatten())
        .and_then(|m| m.get_attribute("content"))
    {
        out.extend(
            list.split_whitespace()
                .filter(|o| o.starts_with("https://") || o.starts_with("http://"))
                .map(|o| o.trim_end_matches('/').to_string()),
        );
    }
    out
}

fn set(o: &Object, k: &str, v: &JsValue) {
    let _ = Reflect::set(o, &k.into(), v);
}

/// Posts `msg` to the parent window: to the host's origin, or before any message to each allowed origin.
fn post(msg: &Object) {
    let Some(w) = web_sys::window() else { return };
    let Ok(Some(parent)) = w.parent() else { return };
    if parent == w {
        return;
    }
    let targets = HOST
        .with(|h| h.borrow().clone())
        .map_or_else(allowed_origins, |h| vec![h]);
    for t in targets {
        let _ = parent.post_message(msg, &t);
    }
}

fn reply(kind: &str, fields: &[(&str, JsValue)]) {
    let o = Object::new();
    set(&o, "type", &kind.into());
    for (k, v) in fields {
        set(&o, k, v);
    }
    post(&o);
}

fn error(message: &str) {
    reply("error", &[("message", message.into())]);
}

/// Test builds count the ignored messages (`window.__scorchEmbedIgnored`).
#[cfg(feature = "testing")]
fn note_ignored() {
    if let Some(w) = web_sys::window() {
        let key: JsValue = "__scorchEmbedIgnored".into();
        let n = Reflect::get(&w, &key)
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0);
        let _ = Reflect::set(&w, &key, &(n + 1.0).into());
    }
}
#[cfg(not(feature = "testing"))]
fn note_ignored() {}

/// One message from the host.
fn handle(a: Actions, e: web_sys::MessageEvent) {
    let origin = e.origin();
    if !allowed_origins().contains(&origin) {
        note_ignored();
        return;
    }
    let data = e.data();
    let field = |k: &str| Reflect::get(&data, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let Some(kind) = field("type").as_string() else {
        return error("a message needs a string `type`: load or view");
    };
    HOST.with(|h| *h.borrow_mut() = Some(origin));
    match kind.as_str() {
        "load" => {
            let name = field("name")
                .as_string()
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| "profile".to_string());
            let bytes = field("bytes");
            if let Some(url) = field("url").as_string() {
                a.open_url(url);
            } else if bytes.is_instance_of::<js_sys::ArrayBuffer>() || js_sys::ArrayBuffer::is_view(&bytes) {
                let arr = Uint8Array::new(&bytes);
                if arr.length() > MAX_BYTES {
                    return error(&format!(
                        "the profile is {} bytes; the embedded viewer takes at most {MAX_BYTES}",
                        arr.length()
                    ));
                }
                match web_sys::File::new_with_u8_array_sequence(&js_sys::Array::of1(&arr), &name) {
                    Ok(f) => a.open_file(f),
                    Err(_) => error("could not read the bytes"),
                }
            } else {
                error("a load message needs `bytes` (an ArrayBuffer or a typed array) or a `url` string");
            }
        }
        "view" => {
            let Some(state) = field("state").as_string() else {
                return error("a view message needs `state`: a link fragment such as mode=sandwich&sel=main");
            };
            let s = UrlState::parse(state.trim_start_matches('#'));
            a.apply_link(&s);
        }
        other => error(&format!("unknown message type {other:?}: load or view")),
    }
}

/// In embed mode: listens to the host and tells it what happens (ready, loaded, select, error).
pub fn listen(a: Actions) {
    if !a.ui.embed.get_untracked() {
        return;
    }
    let _ = window_event_listener(leptos::ev::message, move |e| handle(a, e));
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let _ = body.class_list().add_1("embed");
    }
    // After each load: what was opened.
    Effect::new(move |_| {
        let Some(l) = a.load.loaded.get() else { return };
        let p = &l.imported.profile;
        reply(
            "loaded",
            &[
                ("name", l.name.clone().into()),
                ("format", p.meta.format.name().into()),
                ("samples", (p.samples.len() as f64).into()),
                ("total", (p.total() as f64).into()),
            ],
        );
    });
    // A selected function, with its self and total in the view (the selection row's numbers).
    Effect::new(move |prev: Option<Option<String>>| {
        let f = a.search.selected.get();
        let data = a.panes.main.data.get();
        // Unchanged, or nothing selected yet: nothing to say.
        if prev.as_ref() == Some(&f) || (prev.is_none() && f.is_none()) {
            return f;
        }
        match (&f, data) {
            (Some(name), Some(d)) => {
                let (total, own) = super::search::selected_weights(&d, name);
                reply(
                    "select",
                    &[
                        ("frame", name.as_str().into()),
                        ("self", (own as f64).into()),
                        ("total", (total as f64).into()),
                    ],
                );
            }
            (None, _) => reply("select", &[("frame", JsValue::NULL)]),
            (Some(_), None) => return None,
        }
        f
    });
    Effect::new(move |_| {
        if let Some(e) = a.load.error.get() {
            error(&e);
        }
    });
    reply("ready", &[]);
}
