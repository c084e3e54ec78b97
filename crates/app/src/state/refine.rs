//! Zooming into a cut flame graph (`scorch_core::view::cut`). A large tree comes to the page cut to what can be
//! drawn whole; when a pane zooms into a node whose cut is now too coarse to draw (`FlameData::finer_for`), the
//! view engine, which keeps the whole tree, cuts that node's subtree finer (`Job::Refine`) and the page grafts it
//! into the graph (`FlameData::refined`): the nodes it had keep their ids, so the zoom, the hover and the focus
//! stay where they were. Until the answer comes the graph shows the stand-ins it has.
//!
//! A zoom by names (a link's) that goes through a stand-in zooms as deep as the graph has the path, and on after
//! each finer cut, until the path is whole or a cut adds nothing to it.

use super::pane::{Pane, PaneId};
use crate::render::FlameData;
use crate::worker::build::{self as worker_build, Built, Channel};
use crate::worker::protocol::Job;
use leptos::prelude::*;
use scorch_core::view::calltree::NodeId;
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    /// The main pane's zoom by names still under way, and how many of its names the graph had last time.
    static WANTED: RefCell<Option<(Vec<String>, usize)>> = const { RefCell::new(None) };
}

/// Asks for the finer cut each zoom of `pane` needs, for as long as the page lives.
pub fn follow_zooms(pane: Pane) {
    Effect::new(move |_| {
        let zoom = pane.current_zoom();
        let Some(data) = pane.data.get() else {
            return;
        };
        let Some((node, min)) = data.finer_for(zoom) else {
            return;
        };
        let Some(cut) = data.cut.as_ref() else {
            return;
        };
        let job = Job::Refine {
            of: Box::new(cut.job.clone()),
            node,
            min,
        };
        let order = cut.order;
        leptos::task::spawn_local(async move {
            let loaded = &data.loaded;
            let r = worker_build::build(
                Channel::Refine,
                loaded.key,
                &loaded.imported,
                data.view.clone(),
                order,
                vec![job],
            )
            .await;
            let Some(Ok(Built::Flame(part))) = r.ok().and_then(|mut r| r.pop()) else {
                return;
            };
            // Only onto the graph it was asked for (a newer view or a refined one took its place otherwise).
            if !pane
                .data
                .with_untracked(|d| d.as_ref().is_some_and(|d| Arc::ptr_eq(d, &data)))
            {
                return;
            }
            if let Some(finer) = super::timed("graft", || data.refined(zoom, min, part)) {
                pane.data.set(Some(Arc::new(finer)));
                if pane.id == PaneId::Main {
                    if let Some((names, had)) = WANTED.with(|w| w.borrow_mut().take()) {
                        zoom_by_names(pane, &names, had);
                    }
                }
            }
        });
    });
}

/// Zooms the main pane `main` to the frame at the path `names` from the root: at once when its graph has it, else
/// (a cut graph) as deep as it has the path, and on as finer cuts come ([`follow_zooms`]).
pub fn zoom_to_names(main: Pane, names: &[String]) {
    WANTED.with(|w| *w.borrow_mut() = None);
    zoom_by_names(main, names, 0);
}

/// [`zoom_to_names`], the graph having had `had` of the names before.
fn zoom_by_names(main: Pane, names: &[String], had: usize) {
    let Some(data) = main.data.get_untracked() else {
        return;
    };
    let (node, found) = deepest(&data, names);
    if found == names.len() {
        main.zoom.set(vec![node]);
    } else if data.cut.is_some() && found > had {
        WANTED.with(|w| *w.borrow_mut() = Some((names.to_vec(), found)));
        main.zoom.set(vec![node]);
    }
}

/// The deepest node of `data`'s tree on the path `names` from the root, and how many names it took.
fn deepest(data: &FlameData, names: &[String]) -> (NodeId, usize) {
    let (t, p) = (&data.tree, data.profile());
    let mut cur = NodeId::ROOT;
    for (i, name) in names.iter().enumerate() {
        let next =
            t.children(cur).iter().copied().find(|&c| {
                !data.is_elided(c) && t.frame.get(c.idx()).is_some_and(|&f| p.frame_name(f) == name)
            });
        match next {
            Some(c) => cur = c,
            None => return (cur, i),
        }
    }
    (cur, names.len())
}
