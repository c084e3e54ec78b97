//! The page's side of an answer's typed arrays: copied into wasm memory in pieces, a task each, and a flame
//! graph's tree made whole again as they come.

use super::payload::Flame;
use super::yield_now;
use js_sys::Reflect;
use scorch_core::analysis::heatmap::Heatmap;
use scorch_core::view::window::Heights;
use scorch_core::view::Rebuild;
use scorch_core::TreeColumns;
use wasm_bindgen::prelude::*;

/// A typed array the worker sent, and the Rust element it holds.
pub(super) trait Column: JsCast {
    type T: Copy + Default;
    fn len(&self) -> u32;
    fn part(&self, begin: u32, end: u32) -> Self;
    fn copy_into(&self, dst: &mut [Self::T]);
}

macro_rules! column {
    ($array:ty, $t:ty) => {
        impl Column for $array {
            type T = $t;
            fn len(&self) -> u32 {
                self.length()
            }
            fn part(&self, begin: u32, end: u32) -> Self {
                self.subarray(begin, end)
            }
            fn copy_into(&self, dst: &mut [$t]) {
                self.copy_to(dst)
            }
        }
    };
}
column!(js_sys::Uint32Array, u32);
column!(js_sys::BigUint64Array, u64);
column!(js_sys::Float64Array, f64);

/// Copies the worker's columns into wasm memory in pieces, a new task every [`Copier::PIECE`] elements, so no
/// task runs long: writing to freshly grown wasm memory can cost a few ms per MB here (first touch of pages).
/// A piece of 2^20 elements (8 MB of a `u64` column) made tasks of 60–90 ms on folded 100 MB's inverted tree;
/// 2^18 makes them a quarter of that, for a yield (a message to itself, well under a millisecond) each.
#[derive(Default)]
pub(super) struct Copier {
    /// Elements copied since the last yield.
    since: u32,
}

impl Copier {
    const PIECE: u32 = 1 << 18;

    /// The flame graph whose columns ride in `payload` (`payload::flame_payload`), made whole again with each
    /// node's height (a cut tree's came with it), in pieces as the copies are; `None` when the columns do not fit
    /// together.
    pub(super) async fn flame(&mut self, payload: &JsValue) -> Option<Flame> {
        let get = |k: &str| Reflect::get(payload, &k.into()).unwrap_or(JsValue::UNDEFINED);
        let tree_u32 = self.columns::<js_sys::Uint32Array>(&get("tree_u32")).await;
        let tree_u64 = self.columns::<js_sys::BigUint64Array>(&get("tree_u64")).await;
        let mut rebuild = Rebuild::new(TreeColumns {
            u32s: tree_u32,
            u64s: tree_u64,
        })?;
        while !rebuild.step(self.room())? {
            self.pause().await;
        }
        let tree = rebuild.finish()?;
        let cut = get("tree_cut");
        if !cut.is_undefined() {
            // A cut tree: its heights and whole-tree ids came with it.
            let [heights, full]: [Vec<u32>; 2] =
                self.columns::<js_sys::Uint32Array>(&cut).await.try_into().ok()?;
            let fits = heights.len() == tree.len() && full.len() == tree.len();
            return fits.then_some(Flame { tree, heights, full });
        }
        let mut heights = Heights::new(&tree);
        while !heights.step(&tree, self.room()) {
            self.pause().await;
        }
        let heights = heights.finish();
        Some(Flame {
            tree,
            heights,
            full: Vec::new(),
        })
    }

    /// Elements (or nodes) the current task may still take before it yields.
    fn room(&self) -> usize {
        (Self::PIECE - self.since.min(Self::PIECE - 1)) as usize
    }

    /// The current task's piece is done: yields.
    async fn pause(&mut self) {
        self.since = 0;
        yield_now().await;
    }

    /// The heatmap grid in `payload` (`payload::heat_payload`): `None` when there is none to read (or it does not
    /// hold together), `Some(None)` when the profile has no heatmap.
    pub(super) async fn heat(&mut self, payload: &JsValue) -> Option<Option<Heatmap>> {
        let get = |k: &str| Reflect::get(payload, &k.into()).unwrap_or(JsValue::UNDEFINED);
        let u32s = get("heat_u32");
        if !u32s.is_array() {
            return None;
        }
        let u32s = self.columns::<js_sys::Uint32Array>(&u32s).await;
        if u32s.is_empty() {
            return Some(None);
        }
        let u64s = self.columns::<js_sys::BigUint64Array>(&get("heat_u64")).await;
        Heatmap::from_columns(TreeColumns { u32s, u64s }).map(Some)
    }

    /// The typed arrays in a JS array, copied into vectors.
    pub(super) async fn columns<A: Column>(&mut self, arr: &JsValue) -> Vec<Vec<A::T>> {
        let Some(arr) = arr.dyn_ref::<js_sys::Array>() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for a in arr.iter().filter_map(|a| a.dyn_into::<A>().ok()) {
            let n = a.len();
            let mut v = Vec::with_capacity(n as usize);
            let mut begin = 0;
            while begin < n {
                let end = n.min(begin + Self::PIECE - self.since.min(Self::PIECE - 1));
                v.resize(end as usize, A::T::default());
                a.part(begin, end).copy_into(&mut v[begin as usize..]);
                self.since += end - begin;
                begin = end;
                if self.since >= Self::PIECE {
                    self.since = 0;
                    yield_now().await;
                }
            }
            out.push(v);
        }
        out
    }
}
