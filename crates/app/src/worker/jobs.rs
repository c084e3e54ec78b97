//! The engine, worker side ([`Build`]): holds the profile the page sent with its first request, builds each job
//! of each request ([`compute`]: the page builds none of these views itself) and posts each back as soon as it
//! is done ([`FromWorker::Built`]), its columns transferred. Requests that arrive while a job runs are queued;
//! of those on one channel only the newest is built (the page has stopped waiting for the older ones).

use super::payload::{flame_payload, typed, u32s, u64s};
use super::post::{post, post_answer};
use super::protocol::{Build, FromWorker};
use super::views::{compute, Built, TABLE_CHUNK};
use crate::url::UrlKey;
use js_sys::{Array, Reflect, Uint8Array};
use scorch_core::view::calltree::Order;
use std::cell::{Cell, RefCell};
use wasm_bindgen::{JsCast, JsValue};

thread_local! {
    /// The profiles held, by the page's key, in their [`Slots`](super::protocol::Slots).
    static HELD: RefCell<[Option<(u32, scorch_core::Imported)>; 2]> = const { RefCell::new([None, None]) };
    /// Requests not begun yet, oldest first.
    static QUEUE: RefCell<Vec<Build>> = const { RefCell::new(Vec::new()) };
    static DRAIN_DUE: Cell<bool> = const { Cell::new(false) };
}

/// Holds `imported` under the page's `key`: the profile this import worker read, which the page keeps it as the
/// view engine for (`page::take_kept`).
pub(super) fn hold(key: u32, imported: scorch_core::Imported) {
    HELD.with(|h| *h.borrow_mut() = [Some((key, imported)), None]);
}

/// The keys held, as [`Slots`](super::protocol::Slots).
fn slots() -> super::protocol::Slots {
    HELD.with(|h| {
        let h = h.borrow();
        super::protocol::Slots {
            first: h[0].as_ref().map(|x| x.0),
            other: h[1].as_ref().map(|x| x.0),
        }
    })
}

/// Takes a request: the profile riding with it is held at once (even if the request itself is skipped later);
/// the jobs are built once the messages that came meanwhile are in, newest per channel.
pub(super) fn serve(b: Build, data: &JsValue) {
    crate::seams::engine_took(data);
    let payload = Reflect::get(data, &"payload".into()).unwrap_or(JsValue::UNDEFINED);
    if !payload.is_undefined() {
        let key = b.sent_key();
        // The profile its slot held goes first, so three are never held at once.
        let slot = place(key);
        match receive_profile(&payload) {
            Ok(i) => HELD.with(|h| h.borrow_mut()[slot] = Some((key, i))),
            Err(error) => return post(&FromWorker::Failed { id: b.id, error }, None),
        }
    }
    QUEUE.with(|q| q.borrow_mut().push(b));
    if !DRAIN_DUE.with(|d| d.replace(true)) {
        super::after(0.0, drain);
    }
}

/// Empties the slot a profile of key `key` goes to ([`Slots::put`](super::protocol::Slots::put), the page's rule
/// too) and forgets the whole trees of the profile it held; returns the slot.
fn place(key: u32) -> usize {
    let slot = slots().put(key);
    HELD.with(|h| h.borrow_mut()[slot] = None);
    let s = slots();
    super::views::forget_whole_but(&[s.first, s.other].into_iter().flatten().collect::<Vec<_>>());
    slot
}

/// Makes the profile `key` from the one held under `d.from` ([`Derive`](super::protocol::Derive)) and holds it,
/// unless it is held. [`NOT_HELD`](super::protocol::NOT_HELD) when `d.from` is not: the page sends it.
fn derive(key: u32, d: &super::protocol::Derive) -> Result<(), String> {
    use scorch_core::analysis::transforms::{self, Transform};
    if slots().holds(key) {
        return Ok(());
    }
    let ts = d
        .transforms
        .iter()
        .map(|t| Transform::from_text(t).ok_or_else(|| format!("not a transform: {t}")))
        .collect::<Result<Vec<_>, _>>()?;
    let made = HELD.with(|h| {
        let h = h.borrow();
        let (_, from) = h
            .iter()
            .flatten()
            .find(|(k, _)| *k == d.from)
            .ok_or_else(|| super::protocol::NOT_HELD.to_string())?;
        let p = &from.profile;
        let profile = transforms::derive(p, d.granularity, &ts)?.unwrap_or_else(|| p.clone());
        Ok::<_, String>(scorch_core::Imported {
            profile,
            gzip: from.gzip,
            bytes: from.bytes,
        })
    })?;
    let slot = place(key);
    HELD.with(|h| h.borrow_mut()[slot] = Some((key, made)));
    Ok(())
}

/// Builds the queued requests, skipping each one that a newer request of its channel replaced.
fn drain() {
    DRAIN_DUE.with(|d| d.set(false));
    let queue = QUEUE.with(|q| std::mem::take(&mut *q.borrow_mut()));
    let newest: Vec<bool> = queue
        .iter()
        .enumerate()
        .map(|(i, b)| !queue.iter().skip(i + 1).any(|later| later.channel == b.channel))
        .collect();
    for (b, keep) in queue.into_iter().zip(newest) {
        if keep {
            build(b);
        }
    }
}

fn build(b: Build) {
    // A profile made here is made when its request is built, not when it arrives: a request replaced before it
    // began makes none.
    if let Some(d) = &b.derive {
        if let Err(error) = derive(b.profile, d) {
            if error == super::protocol::NOT_HELD {
                HELD.with(|h| *h.borrow_mut() = [None, None]);
            }
            return post(&FromWorker::Failed { id: b.id, error }, None);
        }
    }
    let held = HELD.with(|h| {
        let h = h.borrow();
        match h.iter().flatten().find(|(key, _)| *key == b.profile) {
            Some((_, imported)) => {
                answer(&b, imported);
                true
            }
            None => false,
        }
    });
    if !held {
        // Both sides forget what they hold (`build::on_message`), so they agree again; the page sends the
        // profile once more.
        HELD.with(|h| *h.borrow_mut() = [None, None]);
        let error = super::protocol::NOT_HELD.to_string();
        post(&FromWorker::Failed { id: b.id, error }, None)
    }
}

fn answer(b: &Build, imported: &scorch_core::Imported) {
    let order = Order::from_key(&b.order).unwrap_or_default();
    for (index, job) in b.jobs.iter().enumerate() {
        let transfer = Array::new();
        let msg = js_sys::Object::new();
        let built = if *job == super::protocol::Job::Profile {
            // The profile itself, which the engine keeps: a copy for the page.
            super::payload::payload_of(imported, &transfer).map(|p| {
                let _ = Reflect::set(&msg, &"profile".into(), &p);
                None
            })
        } else {
            compute(b.profile, &imported.profile, &b.view, order, job).map(Some)
        };
        let error = match built {
            Ok(None) => None,
            Ok(Some(built)) => built_payload(built, &msg, &transfer),
            Err(e) => Some(e),
        };
        let head = FromWorker::Built {
            id: b.id,
            index: index as u32,
            error,
        };
        let Ok(head) = serde_wasm_bindgen::to_value(&head) else {
            let error = "the worker could not encode its answer".to_string();
            return post(&FromWorker::Failed { id: b.id, error }, None);
        };
        let _ = Reflect::set(&head, &"payload".into(), &msg);
        post_answer(&head, &transfer, b.id);
    }
}

/// Sets what `built` carries on `msg`, its buffers added to `transfer`; the error when it cannot be encoded.
fn built_payload(built: Built, msg: &js_sys::Object, transfer: &Array) -> Option<String> {
    match built {
        Built::Flame(flame) => {
            flame_payload(msg, flame, transfer);
            None
        }
        Built::Chart(c) => {
            if let Some(c) = c {
                let cols = c.into_columns();
                let _ = Reflect::set(msg, &"chart_u32".into(), &typed(cols.u32s, transfer, u32s));
                let _ = Reflect::set(msg, &"chart_u64".into(), &typed(cols.u64s, transfer, u64s));
            }
            None
        }
        Built::Graph(g) => super::graph::put(msg, g, transfer).err(),
        Built::Source(s) => match s.encode() {
            Ok(bytes) => {
                let buf = Uint8Array::from(bytes.as_slice());
                transfer.push(&buf.buffer());
                let _ = Reflect::set(msg, &"source".into(), &buf);
                None
            }
            Err(e) => Some(e),
        },
        Built::Share(s) => match serde_wasm_bindgen::to_value(&s) {
            Ok(v) => {
                let _ = Reflect::set(msg, &"share".into(), &v);
                None
            }
            Err(e) => Some(format!("the link could not be encoded: {e}")),
        },
        Built::Figures(f) => match serde_wasm_bindgen::to_value(&f) {
            Ok(v) => {
                let _ = Reflect::set(msg, &"figures".into(), &v);
                None
            }
            Err(e) => Some(format!("the view's figures could not be encoded: {e}")),
        },
        Built::Table(t) => match table_payload(&t) {
            Ok(chunks) => {
                for c in chunks.iter() {
                    if let Ok(b) = Reflect::get(&c, &"buffer".into()) {
                        transfer.push(&b);
                    }
                }
                let _ = Reflect::set(msg, &"table".into(), &chunks);
                None
            }
            Err(e) => Some(e),
        },
    }
}

/// The profile the page sent (`payload::profile_payload`).
fn receive_profile(payload: &JsValue) -> Result<scorch_core::Imported, String> {
    let get = |k: &str| Reflect::get(payload, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let bytes = Uint8Array::new(&get("buffer")).to_vec();
    let mut imported = scorch_core::model::wire::decode(&bytes).map_err(|e| e.to_string())?;
    drop(bytes);
    let arrays = |k: &str| -> Vec<JsValue> {
        get(k)
            .dyn_into::<Array>()
            .map(|a| a.iter().collect())
            .unwrap_or_default()
    };
    let u32s = arrays("profile_u32")
        .into_iter()
        .filter_map(|a| a.dyn_into::<js_sys::Uint32Array>().ok())
        .map(|a| a.to_vec())
        .collect();
    let u64s = arrays("profile_u64")
        .into_iter()
        .filter_map(|a| a.dyn_into::<js_sys::BigUint64Array>().ok())
        .map(|a| a.to_vec())
        .collect();
    scorch_core::model::wire::put_columns(&mut imported, scorch_core::TreeColumns { u32s, u64s })
        .map_err(|e| e.to_string())?;
    Ok(imported)
}

/// A function table as postcard buffers: the totals `(weight, samples)`, then the rows, [`TABLE_CHUNK`] at a
/// time (the page decodes one per task).
fn table_payload(t: &super::views::Table) -> Result<Array, String> {
    let out = Array::new();
    let enc = |bytes: Result<Vec<u8>, postcard::Error>| -> Result<JsValue, String> {
        let bytes = bytes.map_err(|e| format!("could not encode the function table: {e}"))?;
        Ok(Uint8Array::from(bytes.as_slice()).into())
    };
    out.push(&enc(postcard::to_allocvec(&(t.1, t.2)))?);
    for rows in t.0.chunks(TABLE_CHUNK) {
        out.push(&enc(postcard::to_allocvec(rows))?);
    }
    Ok(out)
}
