//! What the view engine builds ([`Built`]) and how ([`compute`]): the one place the views besides a load's first
//! flame graph are made. The engine (`jobs.rs`) runs it for every request; the page runs it only where no worker
//! may exist by design, the one-file HTML export (`build::page_is_engine`). `build.rs` takes the engine's answers
//! into the same types.

use super::payload::Flame;
use super::protocol::Job;
use scorch_core::analysis::functions::FunctionRow;
use scorch_core::analysis::sandwich;
use scorch_core::view::calltree::Order;
use scorch_core::{CallTree, Profile, ViewOptions};

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

/// Builds one job of `p` under `view` (also on the page of a one-file HTML export, `build::page_is_engine`).
pub fn compute(p: &Profile, view: &ViewOptions, order: Order, job: &Job) -> Result<Built, String> {
    let flame = |p: &Profile| {
        Built::Flame(Flame {
            tree: CallTree::build(p, view, order),
            heights: Vec::new(),
        })
    };
    Ok(match job {
        Job::Plain => flame(p),
        Job::Inverted => flame(&sandwich::invert(p)?),
        Job::Callers(f) => flame(&sandwich::callers(p, f)?),
        Job::Callees(f) => flame(&sandwich::callees(p, f)?),
        Job::Functions => Built::Table(scorch_core::analysis::functions::functions(p, view)),
        Job::Chart => Built::Chart(scorch_core::view::StackChart::build(p, view)),
        Job::Graph(g) => Built::Graph(super::graph::compute(p, view, g)?),
        Job::Source(f) => Built::Source(source_lines(p, view, f)),
        Job::Figures => Built::Figures(super::protocol::ViewFigures::of(p, view)),
        Job::Share(s) => Built::Share(Box::new(super::share::share(p, view, s)?)),
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
