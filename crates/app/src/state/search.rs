//! The search, the selected function and the transforms, and what they compute over a flame graph.

use super::pane::Pane;
use crate::render::per_graph::PerGraph;
use crate::render::FlameData;
use leptos::prelude::*;
use scorch_core::analysis::{search::Pattern, transforms::Transform};
use scorch_core::view::calltree::NodeId;
use std::sync::Arc;

#[derive(Clone, Copy)]
pub struct SearchState {
    /// Matches highlighted, the rest dimmed, the matched share shown. Kept across view changes.
    pub pattern: RwSignal<Pattern>,
    /// Which match "next"/"previous" last went to.
    pub match_idx: RwSignal<Option<usize>>,
    /// The selected function (by name): outlined everywhere, the sandwich's subject, the function transforms'
    /// target.
    pub selected: RwSignal<Option<String>>,
    /// Transforms applied in order to the loaded profile(s) before anything is shown.
    pub transforms: RwSignal<Vec<Transform>>,
    /// Bumped when the selected function's weights in a large graph were worked out in a task of their own
    /// ([`selected_weights_soon`]): who showed them as not yet known asks again.
    pub weighed: RwSignal<u64>,
}

impl Default for SearchState {
    fn default() -> SearchState {
        SearchState {
            pattern: RwSignal::new(Pattern::default()),
            match_idx: RwSignal::new(None),
            selected: RwSignal::new(None),
            transforms: RwSignal::new(Vec::new()),
            weighed: RwSignal::new(0),
        }
    }
}

impl SearchState {
    /// The search's frame mask for a view's profile (cached in the view), or None without a valid search.
    pub fn mask(&self, data: &FlameData) -> Option<Arc<Vec<bool>>> {
        let q = self.pattern.get_untracked();
        if q.text.is_empty() {
            return None;
        }
        let m = q.compile().ok()?;
        Some(data.mask(&mask_key(&q), &m))
    }

    /// The search's frame mask for a loaded profile (the stack chart's), or None without a valid search.
    pub fn mask_of(&self, loaded: &crate::render::Loaded) -> Option<Arc<Vec<bool>>> {
        let q = self.pattern.get_untracked();
        if q.text.is_empty() {
            return None;
        }
        let m = q.compile().ok()?;
        Some(loaded.mask(&mask_key(&q), &m))
    }

    /// The selected function's frame mask for a view's profile (cached in the view).
    pub fn selected_mask(&self, data: &FlameData) -> Option<Arc<Vec<bool>>> {
        let f = self.selected.get_untracked()?;
        Some(selected_mask(data, &f))
    }

    /// Zooms `pane` to the next (+1) or previous (-1) match.
    pub fn step_match(&self, pane: Pane, dir: i64) {
        let Some(data) = pane.data.get_untracked() else {
            return;
        };
        let Some(mask) = self.mask(&data) else {
            return;
        };
        let nodes = match_nodes(&data, &mask);
        if nodes.is_empty() {
            return;
        }
        let len = nodes.len() as i64;
        let i = match self.match_idx.get_untracked() {
            None if dir > 0 => 0,
            None => len - 1,
            Some(i) => (i as i64 + dir).rem_euclid(len),
        } as usize;
        self.match_idx.set(Some(i));
        pane.zoom.set(vec![nodes[i]]);
    }

    /// The search over a pane's view: the matched share (matched, shown total) and how many matching nodes have
    /// no matching ancestor. One walk of the graph per graph and pattern, shared by the explore bar and the
    /// announcer (on a 5,000,000-frame stack each walk is tens of ms; they were four).
    ///
    /// `None` while a large graph's walk (more than [`WEIGH_NOW`] items: [`FlameData::weighing_work`]) is under
    /// way in short tasks of its own; `weighed` is bumped when it is done. On a 5,000,000-node graph the walk made
    /// a keystroke in the search one task of 45–51 ms (`bench/hostile-browser.mjs`, `deep.folded`).
    pub fn matched(&self, pane: Pane) -> Option<Matched> {
        let q = self.pattern.get();
        let data = pane.data.get()?;
        let mask = self.mask(&data)?;
        self.weighed.track();
        let key = mask_key(&q);
        if let Some(m) = MATCHED.with(|c| c.peek(&data, &key)) {
            return Some(m);
        }
        if data.weighing_work() <= WEIGH_NOW {
            return Some(MATCHED.with(|c| c.get_or(&data, &key, || matched_now(&data, &mask))));
        }
        let d = data.clone();
        weigh_later(&MATCHED, &MATCHING, &data, &key, self.weighed, async move {
            let w = d.matched_weights_in_steps(&mask).await;
            // A cut tree's figures come from the profile; its frames to step through are its kept nodes (few).
            let count = if d.cut.is_some() {
                tops(&d, &mask).len()
            } else {
                w.tops
            };
            Matched {
                matched: w.sum,
                total: d.tree.total.first().copied().unwrap_or(0),
                count,
            }
        });
        None
    }
}

/// [`SearchState::matched`]'s figures, in one walk of the graph (a cut one's share from the profile).
fn matched_now(data: &FlameData, mask: &[bool]) -> Matched {
    let tops = tops(data, mask);
    let matched = if data.cut.is_some() {
        data.matched_weights(mask).0
    } else {
        tops.iter().fold(0u64, |s, n| {
            s.saturating_add(data.tree.total.get(n.idx()).copied().unwrap_or(0))
        })
    };
    Matched {
        matched,
        total: data.tree.total.first().copied().unwrap_or(0),
        count: tops.len(),
    }
}

/// The key a search's frame mask (and its figures) are kept under.
fn mask_key(q: &Pattern) -> String {
    format!("q\n{}", q.to_text())
}

/// The search's figures over a view ([`SearchState::matched`]).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Matched {
    /// The weight of the matching nodes, each counted once where they nest.
    pub matched: u64,
    /// The view's total.
    pub total: u64,
    /// Matching nodes that have no matching ancestor.
    pub count: usize,
}

impl Matched {
    /// The matched share in percent.
    pub fn percent(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.matched as f64 / self.total as f64 * 100.0
        }
    }
}

/// The mask of the frames named exactly `f`.
pub fn selected_mask(data: &FlameData, f: &str) -> Arc<Vec<bool>> {
    data.mask(
        &format!("sel\n{f}"),
        &scorch_core::analysis::search::Matcher::Exact(f.to_string()),
    )
}

/// Matching nodes that have no matching ancestor, left to right: where "next match" goes.
pub fn match_nodes(data: &FlameData, mask: &[bool]) -> Vec<NodeId> {
    let t = &data.tree;
    let mut out = tops(data, mask);
    // Left to right: none is inside another, so their order in a walk that goes down each node's children
    // in turn (the tree's left-to-right order) is their order in x.
    let mut rank = vec![0u32; t.len()];
    let mut stack = vec![NodeId::ROOT];
    let mut next = 0u32;
    while let Some(n) = stack.pop() {
        if let Some(r) = rank.get_mut(n.idx()) {
            *r = next;
        }
        next += 1;
        stack.extend(t.children(n).iter().rev().copied());
    }
    out.sort_by_key(|n| rank.get(n.idx()).copied().unwrap_or(0));
    out
}

/// Matching nodes that have no matching ancestor, in id order.
fn tops(data: &FlameData, mask: &[bool]) -> Vec<NodeId> {
    let t = &data.tree;
    let mut covered = vec![false; t.len()];
    let mut out = Vec::new();
    for n in 1..t.len() {
        let above = covered[t.parent[n] as usize];
        let m = data.node_in(mask, NodeId(n as u32));
        if m && !above {
            out.push(NodeId(n as u32));
        }
        covered[n] = above || m;
    }
    out
}

thread_local! {
    /// The last [`SearchState::matched`]: the graph, the pattern's key and its figures.
    static MATCHED: PerGraph<String, Matched> = const { PerGraph::new() };
    /// The last [`selected_weights`]: the graph it was computed over, the function and its weights. The explore
    /// bar asks again whenever the shown graph is set, also to the graph it already shows (a switch back from the
    /// table or the chart); over a tree of a million nodes each walk is 30–70 ms.
    static SELECTED: PerGraph<String, (u64, u64)> = const { PerGraph::new() };
    /// The graph (its address) and search whose figures [`SearchState::matched`] is working out.
    static MATCHING: std::cell::RefCell<Option<(usize, String)>> = const { std::cell::RefCell::new(None) };
    /// The graph (its address) and function whose weights [`selected_weights_soon`] is working out.
    static WEIGHING: std::cell::RefCell<Option<(usize, String)>> = const { std::cell::RefCell::new(None) };
}

/// The selected function's weight in the view: (total, self) — its nodes' totals counted once where they nest,
/// and their self weights summed. Computed once per graph and function.
pub fn selected_weights(data: &Arc<FlameData>, f: &str) -> (u64, u64) {
    SELECTED.with(|c| c.get_or(data, f, || walk_selected_weights(data, f)))
}

/// A walk of more items than this (nodes, or stacks and samples: [`FlameData::weighing_work`]) gives the
/// selected function's weights a few tasks after the selection ([`selected_weights_soon`]).
const WEIGH_NOW: usize = 250_000;

/// [`selected_weights`] when they are known or quick to know (a walk of at most [`WEIGH_NOW`] items); else
/// `None`, and they are worked out in short tasks of their own (`FlameData::matched_weights_in_steps`), after
/// which `weighed` is bumped so that the reader asks again. With the walk of a 5,000,000-node graph (26 ms) a
/// click's selection was one task of 55–59 ms (`bench/hostile-browser.mjs`, the `deep.folded` sandwich's
/// selection).
pub fn selected_weights_soon(data: &Arc<FlameData>, f: &str, weighed: RwSignal<u64>) -> Option<(u64, u64)> {
    if let Some(w) = SELECTED.with(|c| c.peek(data, f)) {
        return Some(w);
    }
    if data.weighing_work() <= WEIGH_NOW {
        return Some(selected_weights(data, f));
    }
    let d = data.clone();
    let g = f.to_string();
    weigh_later(&SELECTED, &WEIGHING, data, f, weighed, async move {
        let mask = selected_mask(&d, &g);
        crate::worker::yield_now().await;
        let w = d.matched_weights_in_steps(&mask).await;
        (w.sum, w.own)
    });
    None
}

/// Works `figures` out in short tasks of their own, unless the same graph and key already is (`busy`: the
/// readers ask on every change they hear); keeps them in `cache` and bumps `weighed`, so that who showed them as
/// not yet known asks again.
fn weigh_later<V: Clone + 'static>(
    cache: &'static std::thread::LocalKey<PerGraph<String, V>>,
    busy: &'static std::thread::LocalKey<std::cell::RefCell<Option<(usize, String)>>>,
    data: &Arc<FlameData>,
    key: &str,
    weighed: RwSignal<u64>,
    figures: impl std::future::Future<Output = V> + 'static,
) {
    let me = (Arc::as_ptr(data) as usize, key.to_string());
    if busy.with(|w| w.borrow().as_ref() == Some(&me)) {
        return;
    }
    busy.with(|w| *w.borrow_mut() = Some(me.clone()));
    let (data, key) = (data.clone(), key.to_string());
    leptos::task::spawn_local(async move {
        crate::worker::yield_now().await;
        let v = figures.await;
        cache.with(|c| c.get_or(&data, key.as_str(), || v));
        busy.with(|w| {
            let mut w = w.borrow_mut();
            if w.as_ref() == Some(&me) {
                *w = None;
            }
        });
        weighed.update(|n| *n += 1);
    });
}

fn walk_selected_weights(data: &FlameData, f: &str) -> (u64, u64) {
    data.matched_weights(&selected_mask(data, f))
}
