//! [`PerGraph`]: the last figure computed over one flame graph, kept for the next ask.

use super::data::FlameData;
use std::sync::Arc;

/// The last value computed over one graph for one key, for a figure that is asked for again and again over the
/// same graph (the selected function's weights, a hover's sample counts) and costs a walk of it. The graph is
/// held weakly and compared by pointer: a graph that is gone, or another graph, is a miss, never a stale hit.
/// Meant for a `thread_local!` (`const { PerGraph::new() }`).
pub struct PerGraph<K, V> {
    last: std::cell::RefCell<Option<(std::sync::Weak<FlameData>, K, V)>>,
}

impl<K, V: Clone> PerGraph<K, V> {
    pub const fn new() -> PerGraph<K, V> {
        PerGraph {
            last: std::cell::RefCell::new(None),
        }
    }

    /// The value for `data` and `key`: the one kept if it was computed for them, else `compute()`'s, kept.
    pub fn get_or<Q>(&self, data: &Arc<FlameData>, key: &Q, compute: impl FnOnce() -> V) -> V
    where
        K: std::borrow::Borrow<Q>,
        Q: PartialEq + ToOwned<Owned = K> + ?Sized,
    {
        self.peek(data, key).unwrap_or_else(|| {
            let v = compute();
            *self.last.borrow_mut() = Some((Arc::downgrade(data), key.to_owned(), v.clone()));
            v
        })
    }

    /// The value kept for `data` and `key`, if it was computed for them.
    pub fn peek<Q>(&self, data: &Arc<FlameData>, key: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: PartialEq + ?Sized,
    {
        self.last.borrow().as_ref().and_then(|(graph, k, v)| {
            (std::ptr::eq(graph.as_ptr(), Arc::as_ptr(data)) && k.borrow() == key).then(|| v.clone())
        })
    }
}

impl<K, V: Clone> Default for PerGraph<K, V> {
    fn default() -> PerGraph<K, V> {
        PerGraph::new()
    }
}
