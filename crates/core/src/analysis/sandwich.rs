//! The inverted (bottom-up) tree and the sandwich (callers and callees of one function). Their output is Σ
//! depth large, so both are capped by [`MAX_INVERTED_NODES`] and fail with a message rather than run away.

use super::search::Matcher;
use super::transforms::{apply, finish, Interner, Transform, EMPTY, GONE};
use crate::model::{FrameId, Profile, StackId, NO_PARENT};
use rustc_hash::FxHashMap;

/// The most nodes the inverted tree or the callers tree may have (their size is Σ depth over sampled stacks).
pub const MAX_INVERTED_NODES: usize = 20_000_000;

/// Stacks that some sample stands on.
fn sampled(p: &Profile) -> Vec<bool> {
    let mut used = vec![false; p.stacks.len()];
    for s in &p.samples.stack {
        if let Some(u) = used.get_mut(s.idx()) {
            *u = true;
        }
    }
    used
}

/// Appends the path from `s` up to the root, leaf first, under `base` in the interner.
fn push_reversed(
    p: &Profile,
    it: &mut Interner,
    base: u32,
    s: StackId,
    budget: &mut usize,
) -> Result<u32, String> {
    let mut node = base;
    let mut cur = Some(s);
    while let Some(c) = cur {
        *budget = budget.checked_sub(1).ok_or_else(|| {
            format!("the inverted tree would have more than {MAX_INVERTED_NODES} nodes; focus on a part of the profile first")
        })?;
        let f = p.stacks.frame.get(c.idx()).copied().unwrap_or(FrameId(0));
        node = it.get(node, f);
        cur = p.stacks.parent(c);
    }
    Ok(node)
}

/// The inverted (bottom-up) profile: every stack reversed, so the roots are the leaf functions merged by name
/// and their children are their callers. Its call tree answers "which function is hottest, whoever called it".
pub fn invert(p: &Profile) -> Result<Profile, String> {
    let used = sampled(p);
    let mut it = Interner::default();
    let mut new = vec![GONE; p.stacks.len()];
    let mut budget = MAX_INVERTED_NODES;
    for (i, (&u, slot)) in used.iter().zip(new.iter_mut()).enumerate() {
        if u {
            *slot = push_reversed(p, &mut it, EMPTY, StackId(i as u32), &mut budget)?;
        }
    }
    Ok(finish(p, new, it, true))
}

/// The callers side of a sandwich: for each sample through the function, the path from its innermost call up to
/// the root, inverted (the function at the root, its callers as children). Samples not through it are dropped.
pub fn callers(p: &Profile, function: &str) -> Result<Profile, String> {
    let mask = Matcher::Exact(function.to_string()).frame_mask(p);
    let n = p.stacks.len();
    // The innermost call of the function at or above each stack.
    let mut inner: Vec<u32> = Vec::with_capacity(n);
    for (i, (&f, &par)) in p.stacks.frame.iter().zip(&p.stacks.parent).enumerate() {
        let v = if mask.get(f.idx()).copied().unwrap_or(false) {
            i as u32
        } else {
            match par {
                NO_PARENT => GONE,
                par => inner.get(par as usize).copied().unwrap_or(GONE),
            }
        };
        inner.push(v);
    }
    let used = sampled(p);
    let mut it = Interner::default();
    let mut memo: FxHashMap<u32, u32> = FxHashMap::default();
    let mut new = vec![GONE; n];
    let mut budget = MAX_INVERTED_NODES;
    for (i, (&t, &u)) in inner.iter().zip(&used).enumerate() {
        if !u || t == GONE {
            continue;
        }
        let id = match memo.get(&t) {
            Some(&id) => id,
            None => {
                let id = push_reversed(p, &mut it, EMPTY, StackId(t), &mut budget)?;
                memo.insert(t, id);
                id
            }
        };
        if let Some(slot) = new.get_mut(i) {
            *slot = id;
        }
    }
    Ok(finish(p, new, it, false))
}

/// The callees side of a sandwich: the samples through the function, re-rooted at its outermost call.
pub fn callees(p: &Profile, function: &str) -> Result<Profile, String> {
    apply(p, &Transform::Focus(function.to_string()))
}
