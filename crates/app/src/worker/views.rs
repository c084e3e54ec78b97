//! What the view engine builds ([`Built`]) and how ([`compute`]): the one place the views besides a load's first
//! flame graph are made. The engine (`jobs.rs`) runs it for every request; the page runs it only where no worker
//! may exist by design, the one-file HTML export (`build::page_is_engine`). `build.rs` takes the engine's answers
//! into the same types.

use super::payload::Flame;
use super::protocol::Job;
use scorch_core::analysis::functions::FunctionRow;
use scorch_core::analysis::sandwich;
use scorch_core::view::calltree::{NodeId, Order};
use scorch_core::{CallTree, Profile, ViewOptions};
use std::cell::RefCell;
use std::rc::Rc;

/// A function table: rows, the view's total weight and sample count.
pub type Table = (Vec<FunctionRow>, u64, u64);

/// Rows per postcard chunk of a function table (one chunk decoded per task on the page).
pub(super) const TABLE_CHUNK: usize = 100_000;

/// What a job builds.
pub enum Built {
    /// A flame graph (the page places what it draws of it: `scorch_core::view::window`).
    Flame(Flame),
    Table(Table),
    /// `None`: the profile has no timestamps.
    Chart(Option<scorch_core::view::StackChart>),
    Graph(super::graph::GraphView),
    Source(super::protocol::SourceLines),
    Figures(super::protocol::ViewFigures),
    Share(Box<super::protocol::Share>),
}

/// Which whole tree: the profile's key, the flame graph job, the view and the order.
type WholeKey = (u32, Job, ViewOptions, Order);
/// A whole tree and its heights (`scorch_core::view::window::heights`).
type Whole = Rc<(CallTree, Vec<u32>)>;

thread_local! {
    /// The whole trees of the last cut graphs built here, with their heights, newest last: a zoom's finer cut
    /// ([`Job::Refine`]) is made from them. At most [`WHOLE_KEPT`].
    static WHOLE: RefCell<Vec<(WholeKey, Whole)>> = const { RefCell::new(Vec::new()) };
}

/// Whole trees kept: the main graph's and one more (the plain graph under the inverted one, or a sandwich side).
const WHOLE_KEPT: usize = 2;

/// Forgets the whole trees of every profile but those of `keys` (the ones held now).
pub(super) fn forget_whole_but(keys: &[u32]) {
    WHOLE.with(|w| w.borrow_mut().retain(|(k, _)| keys.contains(&k.0)));
}

/// The tree of flame graph job `job` of `p`, whole (`Err` for a job that is not a flame graph's).
fn whole_tree(p: &Profile, view: &ViewOptions, order: Order, job: &Job) -> Result<CallTree, String> {
    Ok(match job {
        Job::Plain => CallTree::build(p, view, order),
        Job::Inverted => CallTree::build(&sandwich::invert(p)?, view, order),
        Job::Callers(f) => CallTree::build(&sandwich::callers(p, f)?, view, order),
        Job::Callees(f) => CallTree::build(&sandwich::callees(p, f)?, view, order),
        _ => return Err(format!("a {} job has no flame graph", job.name())),
    })
}

/// The flame graph of `tree`: whole when small (or when the cut would keep every node), else cut to what can be
/// drawn (`scorch_core::view::cut`), the whole tree kept under `key` for the finer cuts zooms ask for (not for
/// profile key 0: no profile the page holds).
pub(super) fn flame_of(tree: CallTree, key: WholeKey) -> Flame {
    use scorch_core::view::cut;
    if tree.len() <= cut::CUT_ABOVE {
        return Flame::whole(tree);
    }
    let min = cut::min_of(tree.total.first().copied().unwrap_or(0));
    if min == 0 {
        // A total under 65,536: every node is kept.
        return Flame::whole(tree);
    }
    let heights = scorch_core::view::window::heights(&tree);
    let c = cut::cut(&tree, &heights, NodeId::ROOT, min);
    if c.tree.len() >= tree.len() {
        return Flame::whole(tree);
    }
    if key.0 != 0 {
        keep_whole(key, Rc::new((tree, heights)));
    }
    Flame {
        tree: c.tree,
        heights: c.heights,
        full: c.full,
    }
}

fn keep_whole(key: WholeKey, whole: Whole) {
    WHOLE.with(|w| {
        let mut w = w.borrow_mut();
        w.retain(|(k, _)| *k != key);
        // The oldest goes before the new one is kept (the caller holds it already).
        while w.len() >= WHOLE_KEPT {
            w.remove(0);
        }
        w.push((key, whole));
    });
}

/// [`Job::Refine`]: node `node` of the whole tree of `of` cut at `min`; the whole tree built again when it is
/// not kept (building is deterministic: the same profile, view and order give the same node ids).
fn refine(
    key: u32,
    p: &Profile,
    view: &ViewOptions,
    order: Order,
    of: &Job,
    node: u32,
    min: u64,
) -> Result<Flame, String> {
    let wkey = (key, of.clone(), view.clone(), order);
    let kept = WHOLE.with(|w| {
        w.borrow()
            .iter()
            .find(|(k, _)| *k == wkey)
            .map(|(_, t)| t.clone())
    });
    let whole = match kept {
        Some(t) => t,
        None => {
            let tree = whole_tree(p, view, order, of)?;
            let heights = scorch_core::view::window::heights(&tree);
            let t = Rc::new((tree, heights));
            keep_whole(wkey, t.clone());
            t
        }
    };
    let (tree, heights) = &*whole;
    if node as usize >= tree.len() {
        return Err("the graph to zoom into is no longer the engine's".to_string());
    }
    let c = scorch_core::view::cut::cut(tree, heights, NodeId(node), min);
    Ok(Flame {
        tree: c.tree,
        heights: c.heights,
        full: c.full,
    })
}

/// Builds one job of profile `key`, `p`, under `view` (also on the page of a one-file HTML export,
/// `build::page_is_engine`).
pub fn compute(key: u32, p: &Profile, view: &ViewOptions, order: Order, job: &Job) -> Result<Built, String> {
    let flame = |job: &Job| -> Result<Built, String> {
        let tree = whole_tree(p, view, order, job)?;
        Ok(Built::Flame(flame_of(
            tree,
            (key, job.clone(), view.clone(), order),
        )))
    };
    Ok(match job {
        Job::Plain | Job::Inverted | Job::Callers(_) | Job::Callees(_) => flame(job)?,
        Job::Whole(of) => Built::Flame(Flame::whole(whole_tree(p, view, order, of)?)),
        Job::Refine { of, node, min } => Built::Flame(refine(key, p, view, order, of, *node, *min)?),
        Job::Functions => Built::Table(scorch_core::analysis::functions::functions(p, view)),
        Job::Chart => Built::Chart(scorch_core::view::StackChart::build(p, view)),
        Job::Graph(g) => Built::Graph(super::graph::compute(p, view, g)?),
        Job::Source(f) => Built::Source(source_lines(p, view, f)),
        Job::Figures => Built::Figures(super::protocol::ViewFigures::of(p, view)),
        Job::Share(s) => Built::Share(Box::new(super::share::share(p, view, s)?)),
        // Answered by the engine with the profile it holds (`jobs.rs`), not built.
        Job::Profile => return Err("the profile is sent, not built".to_string()),
    })
}

/// The lines of function `f` (`scorch list`'s numbers, at the functions granularity of `p`). `f` may be a node
/// name at another granularity (`FUNCTION FILE:LINE`, `FUNCTION FILE`): its function is the name before a space.
pub fn source_lines(p: &Profile, view: &ViewOptions, f: &str) -> super::protocol::SourceLines {
    use super::protocol::{SourceLines, SourceRoutine};
    let mut v = view.clone();
    v.granularity = Default::default();
    let is = |name: &str| f == name || (f.starts_with(name) && f.as_bytes().get(name.len()) == Some(&b' '));
    let l = scorch_core::analysis::source::list(p, &v, is);
    // The longest function name that matched (`a b` over `a` for a node `a b c.go:1`).
    let best = l.routines.iter().map(|r| r.function.len()).max();
    let routines: Vec<SourceRoutine> = l
        .routines
        .into_iter()
        .filter(|r| Some(r.function.len()) == best)
        .map(|r| SourceRoutine {
            lines: r.lines.iter().map(|c| (c.line, c.flat, c.cum)).collect(),
            function: r.function,
            file: r.file,
            flat: r.flat,
            cum: r.cum,
        })
        .collect();
    SourceLines {
        total: l.total,
        no_source: routines.is_empty(),
        routines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::protocol::SourceLines;

    /// A speedscope profile: `a b` (line 3 of x.go) calls `a` (line 7 of y.go), twice as the leaf.
    fn profile() -> Profile {
        let json = r#"{"$schema":"https://www.speedscope.app/file-format-schema.json",
            "shared":{"frames":[{"name":"a b","file":"x.go","line":3},{"name":"a","file":"y.go","line":7}]},
            "profiles":[{"type":"sampled","name":"t","unit":"none","startValue":0,"endValue":3,
            "samples":[[0,1],[0,1],[0]],"weights":[1,1,1]}]}"#;
        scorch_core::import_bytes(json.as_bytes(), Default::default())
            .unwrap()
            .profile
    }

    #[test]
    fn a_function_and_a_line_node_list_the_same_lines() {
        let p = profile();
        let v = ViewOptions::default_for(&p);
        let a = source_lines(&p, &v, "a");
        assert_eq!(a.routines.len(), 1);
        assert_eq!(a.routines[0].file, "y.go");
        assert_eq!(a.routines[0].lines, [(7, 2, 2)]);
        // `a b` is its own function (not `a` with a place), and so is the node `a b x.go:3` at lines.
        let ab = source_lines(&p, &v, "a b");
        assert_eq!(ab.routines[0].lines, [(3, 1, 3)]);
        assert_eq!(source_lines(&p, &v, "a b x.go:3"), ab);
        assert!(source_lines(&p, &v, "c").no_source);
    }

    #[test]
    fn source_lines_travel_and_garbage_is_an_error() {
        let p = profile();
        let s = source_lines(&p, &ViewOptions::default_for(&p), "a b");
        assert_eq!(SourceLines::decode(&s.encode().unwrap()).unwrap(), s);
        assert!(SourceLines::decode(&[0xff; 7]).is_err());
        assert!(SourceLines::decode(&[]).is_err());
    }
}
