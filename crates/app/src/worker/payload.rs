//! A profile, a call tree and a flame layout as typed arrays with their buffers to transfer: the import
//! worker's answer to the page, the page's profile to a worker that builds views of it, and those views back.

use super::yield_now;
use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

/// A profile as an object of `buffer` (the encoded rest) and `profile_u32`, `profile_u64` (its big columns as
/// typed arrays, copied out of `imported`, which keeps them), their buffers added to `transfer`. Used both
/// ways: the worker's import to the page (the worker keeps the profile as the page's view engine), the page's
/// profile to an engine that does not hold it.
pub(crate) fn profile_payload(
    imported: &mut scorch_core::Imported,
    transfer: &Array,
) -> Result<js_sys::Object, String> {
    use scorch_core::model::wire;
    // Taken out while the rest is encoded, then put back.
    let pc = wire::take_columns(imported);
    let bytes = wire::encode(imported).map_err(|e| e.to_string());
    let msg = js_sys::Object::new();
    if let Ok(bytes) = &bytes {
        let buf = Uint8Array::from(bytes.as_slice()).buffer();
        transfer.push(&buf);
        let _ = Reflect::set(&msg, &"buffer".into(), &buf);
        let a = Array::new();
        for c in &pc.u32s {
            let arr = js_sys::Uint32Array::from(c.as_slice());
            transfer.push(&arr.buffer());
            a.push(&arr);
        }
        let _ = Reflect::set(&msg, &"profile_u32".into(), &a);
        let a = Array::new();
        for c in &pc.u64s {
            let arr = js_sys::BigUint64Array::new_with_length(c.len() as u32);
            arr.copy_from(c);
            transfer.push(&arr.buffer());
            a.push(&arr);
        }
        let _ = Reflect::set(&msg, &"profile_u64".into(), &a);
    }
    wire::put_columns(imported, pc).map_err(|e| e.to_string())?;
    bytes.map(|_| msg)
}

/// [`profile_payload`] of `imported`, which keeps its columns, made in several tasks: the encoded rest, then each
/// big column as a typed array (nothing is copied whole first). A profile of a million stack rows sent to the
/// view engine in one task was 100 ms of the page's main thread (the hostile `wide` shape, whose import worker
/// was too large to keep as its engine), and a million distinct frames encoded with the rest 60–70 ms (the
/// hostile `deep-distinct`).
pub(crate) async fn payload_in_steps(
    imported: &scorch_core::Imported,
    transfer: &Array,
) -> Result<js_sys::Object, String> {
    let msg = js_sys::Object::new();
    for part in 0..PARTS {
        yield_now().await;
        payload_part(imported, part, &msg, transfer)?;
    }
    Ok(msg)
}

/// [`payload_in_steps`] in one call: the engine's answer with a profile it made (`Job::Profile`), which it keeps.
pub(crate) fn payload_of(
    imported: &scorch_core::Imported,
    transfer: &Array,
) -> Result<js_sys::Object, String> {
    let msg = js_sys::Object::new();
    for part in 0..PARTS {
        payload_part(imported, part, &msg, transfer)?;
    }
    Ok(msg)
}

/// The parts of a profile's payload: the encoded rest, the u32 columns, the weights.
const PARTS: usize = scorch_core::model::wire::U32_COLUMNS + 2;

/// Sets part `part` of `imported`'s payload on `msg` ([`PARTS`]), its buffer added to `transfer`.
fn payload_part(
    imported: &scorch_core::Imported,
    part: usize,
    msg: &js_sys::Object,
    transfer: &Array,
) -> Result<(), String> {
    use scorch_core::model::wire;
    let set = |k: &str, v: &JsValue| {
        let _ = Reflect::set(msg, &k.into(), v);
    };
    if part == 0 {
        let bytes = wire::encode_rest(imported).map_err(|e| e.to_string())?;
        let buf = Uint8Array::from(bytes.as_slice()).buffer();
        transfer.push(&buf);
        set("buffer", &buf);
    } else if part <= wire::U32_COLUMNS {
        let c = wire::u32_column(imported, part - 1);
        let arr = js_sys::Uint32Array::from(&c[..]);
        transfer.push(&arr.buffer());
        let cols = Reflect::get(msg, &"profile_u32".into())
            .ok()
            .and_then(|a| a.dyn_into::<Array>().ok())
            .unwrap_or_else(|| {
                let a = Array::new();
                set("profile_u32", &a);
                a
            });
        cols.push(&arr);
    } else {
        let w = &imported.profile.samples.weight;
        let arr = js_sys::BigUint64Array::new_with_length(w.len() as u32);
        arr.copy_from(w);
        transfer.push(&arr.buffer());
        set("profile_u64", &Array::of1(&arr));
    }
    Ok(())
}

/// A flame graph's tree and, per node, how many rows its subtree reaches below it
/// (`scorch_core::view::window::heights`): what every paint needs besides the tree. A whole tree's heights do not travel:
/// the page works them out as it takes the tree, a piece at a time (`copier::Copier::flame`); built on the page
/// (the one-file HTML export), they are left empty and worked out at the first paint.
pub struct Flame {
    pub tree: scorch_core::CallTree,
    pub heights: Vec<u32>,
    /// Per node of a cut tree (`scorch_core::view::cut::Cut`), its id in the whole tree (a stand-in's: how many
    /// frames it stands for); empty when the tree is whole. A cut tree's heights travel with it (a stand-in's are
    /// its frames' subtrees', which the page cannot work out).
    pub full: Vec<u32>,
}

impl Flame {
    /// A tree not cut; its heights worked out where it is taken.
    pub fn whole(tree: scorch_core::CallTree) -> Flame {
        Flame {
            tree,
            heights: Vec::new(),
            full: Vec::new(),
        }
    }
}

/// Sets a flame graph's tree columns on `msg` as typed arrays (`tree_u32`, `tree_u64`: what
/// `CallTree::into_columns` keeps; a cut tree's heights and whole-tree ids as `tree_cut`), their buffers added to
/// `transfer`. No layout travels: the page places what it
/// draws from the tree (`scorch_core::view::window`).
pub(super) fn flame_payload(msg: &js_sys::Object, flame: Flame, transfer: &Array) {
    let set = |k: &str, v: &JsValue| {
        let _ = Reflect::set(msg, &k.into(), v);
    };
    let Flame { tree, heights, full } = flame;
    let tc = tree.into_columns();
    set("tree_u32", &typed(tc.u32s, transfer, u32s));
    set("tree_u64", &typed(tc.u64s, transfer, u64s));
    if !full.is_empty() {
        set("tree_cut", &typed(vec![heights, full], transfer, u32s));
    }
}

/// A heatmap grid as `heat_u32` and `heat_u64` (`Heatmap::into_columns`); `heat_u32` empty: the profile has no
/// heatmap. Read back by `copier::Copier::heat`.
pub(super) fn heat_payload(
    msg: &js_sys::Object,
    heat: Option<scorch_core::analysis::heatmap::Heatmap>,
    transfer: &Array,
) {
    let c = heat.map(|h| h.into_columns()).unwrap_or_default();
    let _ = Reflect::set(msg, &"heat_u32".into(), &typed(c.u32s, transfer, u32s));
    let _ = Reflect::set(msg, &"heat_u64".into(), &typed(c.u64s, transfer, u64s));
}

pub(super) fn u32s(v: Vec<u32>) -> JsValue {
    js_sys::Uint32Array::from(v.as_slice()).into()
}

pub(super) fn u64s(v: Vec<u64>) -> JsValue {
    let a = js_sys::BigUint64Array::new_with_length(v.len() as u32);
    a.copy_from(&v);
    a.into()
}

/// Columns as typed arrays (each copied out of wasm memory once), their buffers added to `transfer`.
pub(super) fn typed<T>(cols: Vec<Vec<T>>, transfer: &Array, make: impl Fn(Vec<T>) -> JsValue) -> Array {
    let out = Array::new();
    for c in cols {
        let arr = make(c);
        if let Ok(b) = Reflect::get(&arr, &"buffer".into()) {
            transfer.push(&b);
        }
        out.push(&arr);
    }
    out
}

/// An import worker whose answer (the profile and its first view's tree: a measure of what the worker
/// built, and so of its wasm memory) is at least this large is ended, not kept as the engine: its memory, at the
/// parse's and the build's peak, cannot shrink, and kept beside the page's copy while the page takes the answer
/// it raised the load's peak (folded 100 MB: +77 MB above the floor; 400 MB: +257 MB; docs/BENCHMARKS.md) —
/// their profiles are small, their trees are not. Below it (the 1 MB files, perf script 100 MB) keeping it cost
/// 0–10 MB. Until the page stops holding the profile and its tree itself, a larger one's engine is a fresh
/// worker sent the profile with the first view asked for.
const KEEP_BELOW: f64 = 32.0 * 1024.0 * 1024.0;

/// Whether the page keeps the import worker that sent `payload` as its view engine ([`KEEP_BELOW`]): the worker
/// asks itself too, to know whether it will be asked for more of this profile (`side::answer`).
pub(super) fn kept_as_engine(payload: &JsValue) -> bool {
    answer_bytes(payload) < KEEP_BELOW
}

/// An answer's size as the page would hold it: the profile's buffer and columns, and its tree's nodes.
pub(super) fn answer_bytes(payload: &JsValue) -> f64 {
    payload_bytes(payload, &["profile_u32", "profile_u64"]) + tree_nodes(payload) * TREE_NODE_BYTES
}

/// Bytes per node of a call tree as the page holds it: its columns travel without what follows from them
/// (`CallTree::into_columns`, 24 bytes per node) and are made whole again on arrival (`Rebuild`).
const TREE_NODE_BYTES: f64 = 40.0;

/// Nodes of the tree in a payload (the length of its one `tree_u64` column, the totals); 0 without one.
fn tree_nodes(payload: &JsValue) -> f64 {
    Reflect::get(payload, &"tree_u64".into())
        .ok()
        .and_then(|a| a.dyn_into::<js_sys::Array>().ok())
        .map(|a| {
            Reflect::get(&a.get(0), &"length".into())
                .ok()
                .and_then(|l| l.as_f64())
                .unwrap_or(0.0)
        })
        .unwrap_or(0.0)
}

/// Bytes of a payload's `buffer` and of the typed arrays under `columns`.
fn payload_bytes(payload: &JsValue, columns: &[&str]) -> f64 {
    let mut bytes = byte_length(&Reflect::get(payload, &"buffer".into()).unwrap_or(JsValue::UNDEFINED));
    for k in columns {
        if let Ok(arr) = Reflect::get(payload, &(*k).into()).and_then(|a| a.dyn_into::<js_sys::Array>()) {
            bytes += arr.iter().map(|a| byte_length(&a)).sum::<f64>();
        }
    }
    bytes
}

pub(super) fn byte_length(v: &JsValue) -> f64 {
    Reflect::get(v, &"byteLength".into())
        .ok()
        .and_then(|b| b.as_f64())
        .unwrap_or(0.0)
}
