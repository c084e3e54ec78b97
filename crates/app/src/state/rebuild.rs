//! Building what is shown from the loaded profile(s) and the view: the main graph (plain, inverted or diff),
//! the function table and the sandwich's two sides.

use super::view::Mode;
use super::Actions;
use crate::render::{FlameData, Loaded};
use crate::worker::build::{self as worker_build, Built, Channel};
use crate::worker::protocol::Job;
use crate::worker::LoadError;
use scorch_core::analysis::compare;
use scorch_core::analysis::diff::Side;
use scorch_core::analysis::transforms::Transform;
use scorch_core::view::calltree::Order;
use scorch_core::view::granularity::Granularity;
use scorch_core::{RootMode, ViewOptions};
use std::cell::Cell;
use std::sync::Arc;

use leptos::prelude::*;

/// A function table, with the profile (held weakly) and view it is of.
type CachedTable = (std::sync::Weak<Loaded>, ViewOptions, Arc<super::view::FnTable>);

thread_local! {
    /// Bumped by every rebuild of the main graph and of the sandwich: an answer from a worker that finds it
    /// changed is dropped (a newer view replaced it; a newer request also terminates the older one's worker).
    static MAIN_GEN: Cell<u64> = const { Cell::new(0) };
    static SANDWICH_GEN: Cell<u64> = const { Cell::new(0) };
    /// Bumped by every function table asked for ([`Actions::set_fn_table`]).
    static TABLE_GEN: Cell<u64> = const { Cell::new(0) };
    /// The last of each generation above that is done: shown, failed, or given up (its profile closed). A view
    /// whose generation is ahead of its `DONE` is wanted and not shown yet ([`views_waiting`]).
    static MAIN_DONE: Cell<u64> = const { Cell::new(0) };
    static SANDWICH_DONE: Cell<u64> = const { Cell::new(0) };
    static TABLE_DONE: Cell<u64> = const { Cell::new(0) };
    /// The function table last computed, and for which profile (held weakly: it never keeps a closed profile's
    /// memory) and view: going from the sandwich to the table and back does not aggregate millions of stacks
    /// again.
    static FN_TABLE: std::cell::RefCell<Option<CachedTable>> =
        const { std::cell::RefCell::new(None) };
    /// Whether the main graph being shown is still being built by the view engine.
    static MAIN_WAITING: Cell<bool> = const { Cell::new(false) };
    /// A zoom (a path of names: a link's) asked for while the main graph was being built: applied to the graph
    /// shown next.
    static PENDING_ZOOM: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
    /// The profile last shown at a granularity or after transforms, and what it was made of (both held weakly:
    /// it never keeps a closed profile's memory): switching views with a transform on neither makes it again nor
    /// sends it to the view engine again.
    static DERIVED: std::cell::RefCell<Option<CachedDerived>> = const { std::cell::RefCell::new(None) };
}

/// A profile made from another ([`DERIVED`]): the one it was made from, the granularity and the transforms.
type CachedDerived = (
    std::sync::Weak<Loaded>,
    Granularity,
    Vec<Transform>,
    std::sync::Weak<Loaded>,
);

/// What `l` is at granularity `g` after `ts`, when made before and still held.
fn cached_derived(l: &Arc<Loaded>, g: Granularity, ts: &[Transform]) -> Option<Arc<Loaded>> {
    DERIVED.with_borrow(|c| {
        let (from, cg, cts, made) = c.as_ref()?;
        (std::ptr::eq(from.as_ptr(), Arc::as_ptr(l)) && from.strong_count() > 0 && *cg == g && cts == ts)
            .then(|| made.upgrade())
            .flatten()
    })
}

fn cache_derived(l: &Arc<Loaded>, g: Granularity, ts: &[Transform], made: &Arc<Loaded>) {
    DERIVED.with_borrow_mut(|c| *c = Some((Arc::downgrade(l), g, ts.to_vec(), Arc::downgrade(made))));
}

/// Zooms `main` to the frame at the path `names` from the root, if its graph has one.
fn zoom_in(main: super::pane::Pane, names: &[String]) {
    if names.is_empty() {
        return;
    }
    super::refine::zoom_to_names(main, names);
}

/// Shows `data` in the main pane, then the zoom asked for while it was being built, if any.
fn show_main(main: super::pane::Pane, data: Arc<FlameData>) {
    MAIN_WAITING.with(|w| w.set(false));
    main.show(Some(data));
    if let Some(names) = PENDING_ZOOM.with(|z| z.borrow_mut().take()) {
        zoom_in(main, &names);
    }
}

/// The function table of `target` under `view`, if it is the one cached.
fn cached_table(target: &Arc<Loaded>, view: &ViewOptions) -> Option<Arc<super::view::FnTable>> {
    FN_TABLE.with(|c| {
        c.borrow().as_ref().and_then(|(l, v, t)| {
            (v == view && std::ptr::eq(l.as_ptr(), Arc::as_ptr(target)) && l.strong_count() > 0)
                .then(|| t.clone())
        })
    })
}

fn cache_table(target: &Arc<Loaded>, view: ViewOptions, t: Arc<super::view::FnTable>) {
    FN_TABLE.with(|c| *c.borrow_mut() = Some((Arc::downgrade(target), view, t)));
}

fn bump(g: &'static std::thread::LocalKey<Cell<u64>>) -> u64 {
    g.with(|c| {
        c.set(c.get() + 1);
        c.get()
    })
}

fn current(g: &'static std::thread::LocalKey<Cell<u64>>) -> u64 {
    g.with(Cell::get)
}

/// Generation `gen` of a view is done (shown, failed or given up); an older one never undoes a newer one.
fn done(d: &'static std::thread::LocalKey<Cell<u64>>, gen: u64) {
    d.with(|c| c.set(c.get().max(gen)));
}

thread_local! {
    /// [`Wanted`]s alive.
    static WANTED: Cell<usize> = const { Cell::new(0) };
}

/// A view a component asked the engine for (the stack chart, the call graph, a function's source lines), counted
/// by [`views_waiting`] from the effect that asks for it until this is dropped — with the task that builds and
/// shows it: once it is shown, has failed, or a newer one replaced it.
pub struct Wanted(());

impl Wanted {
    pub fn asked() -> Wanted {
        WANTED.with(|w| w.set(w.get() + 1));
        Wanted(())
    }
}

impl Drop for Wanted {
    fn drop(&mut self) {
        WANTED.with(|w| w.set(w.get().saturating_sub(1)));
    }
}

/// How many views are wanted and not shown yet: the main graph, the sandwich and the function table from the
/// moment they are asked for (synchronously, in the action that changed the view) until their answer is shown,
/// fails, or is given up, and the [`Wanted`] views of components. The test hooks read it
/// (`window.__scorchViewsPending`), so a test reads numbers only once the view it asked for is on the page.
pub fn views_waiting() -> usize {
    [
        (&MAIN_GEN, &MAIN_DONE),
        (&SANDWICH_GEN, &SANDWICH_DONE),
        (&TABLE_GEN, &TABLE_DONE),
    ]
    .into_iter()
    .filter(|(g, d)| current(g) > current(d))
    .count()
        + WANTED.with(Cell::get)
}

/// The flame graph of job `job` of `shown` under `view`, built in a worker on `channel`. `Ok(None)`: a newer
/// request replaced this one. The graph reads names, kinds and colours from `shown` itself: an inverted or
/// sandwich tree is over the same frames.
async fn flame_in_worker(
    channel: Channel,
    shown: &Arc<Loaded>,
    view: ViewOptions,
    order: Order,
    job: Job,
) -> Result<Option<Arc<FlameData>>, String> {
    // The main graph's view's figures (stack health, coverage, sample count) come with it, when the profile does
    // not keep them yet: computed here, the stack health alone was a task of 46 ms after a merge on a 700,000-row
    // table (the status line asks for them at once).
    let figures = channel == Channel::Main && shown.kept_figures(&view).is_none();
    let jobs = if figures {
        vec![job.clone(), Job::Figures]
    } else {
        vec![job.clone()]
    };
    match worker_build::build(channel, shown.key, &shown.imported, view.clone(), order, jobs).await {
        Ok(mut r) => {
            if let Some(Ok(Built::Figures(f))) = figures.then(|| r.pop()).flatten() {
                shown.keep_figures(view.clone(), f);
            }
            match r.pop() {
                Some(Ok(Built::Flame(flame))) => Ok(Some(Arc::new(super::timed("from parts", || {
                    FlameData::from_flame(shown.clone(), view, flame, job, order)
                })))),
                Some(Err(e)) => Err(e),
                _ => Err("the view worker answered nothing".to_string()),
            }
        }
        Err(LoadError::Cancelled) => Ok(None),
        Err(e) => Err(format!("Could not build the view: {e}")),
    }
}

impl Actions {
    /// Zooms the main graph to the frame at the path `names` (a link's zoom): at once, or, while the view engine
    /// builds the graph asked for, once it is shown.
    pub(crate) fn zoom_to_path(&self, names: Vec<String>) {
        if MAIN_WAITING.with(Cell::get) {
            PENDING_ZOOM.with(|z| *z.borrow_mut() = Some(names));
        } else {
            zoom_in(self.panes.main, &names);
        }
    }

    /// What the view shows of `l`: `l` itself, or `l` at the view's granularity (`scorch_core::view::granularity`:
    /// lines, files or addresses are a profile of their own, with other frames, so other colours and masks) after
    /// the transforms, when made before; else the granularity and transforms to make it with.
    fn derived_of(&self, l: &Arc<Loaded>) -> Result<Arc<Loaded>, (Granularity, Vec<Transform>)> {
        let g = self.view.options.with_untracked(|o| o.granularity);
        let ts = self.search.transforms.get_untracked();
        if !scorch_core::analysis::transforms::derives(&l.imported.profile, g, &ts) {
            return Ok(l.clone());
        }
        cached_derived(l, g, &ts).ok_or((g, ts))
    }

    /// [`Actions::derived_of`] made on the page when it was not made before, as the CLI makes it; on a transform
    /// error, the error is shown and the profile before them. The diff's sides are made here (a diff is computed
    /// on the page), and a profile whose view engine could not make it.
    fn transformed(&self, l: &Arc<Loaded>) -> Arc<Loaded> {
        let (g, ts) = match self.derived_of(l) {
            Ok(made) => return made,
            Err(how) => how,
        };
        let at = match scorch_core::view::granularity::at(&l.imported.profile, g) {
            std::borrow::Cow::Borrowed(_) => l.clone(),
            std::borrow::Cow::Owned(profile) => Arc::new(Loaded::new(
                l.name.clone(),
                scorch_core::Imported {
                    profile,
                    gzip: l.imported.gzip,
                    bytes: l.imported.bytes,
                },
            )),
        };
        let made = match scorch_core::analysis::transforms::apply_all(&at.imported.profile, &ts) {
            Ok(None) => at,
            Ok(Some(p)) => Arc::new(at.derived(p)),
            Err(e) => {
                self.load.error.set(Some(e));
                at
            }
        };
        // Kept even when a transform failed: the view is not made again (nor the error shown again) until the
        // transforms change.
        cache_derived(l, g, &ts, &made);
        made
    }

    /// [`Actions::derived_of`] made by the view engine (`worker::build::derive`), which then holds it: no task on
    /// the page makes it, and it is not sent back to the engine. Made on the page when the engine could not make
    /// it (a transform's error is then shown); `None` when a newer request replaced this one.
    async fn derive(&self, l: &Arc<Loaded>, g: Granularity, ts: Vec<Transform>) -> Option<Arc<Loaded>> {
        let key = crate::worker::next_profile_key();
        let how = crate::worker::protocol::Derive {
            from: l.key,
            granularity: g,
            transforms: ts.iter().map(Transform::to_text).collect(),
        };
        let imported = match worker_build::derive(&l.imported, key, how).await {
            Ok(imported) => imported,
            Err(LoadError::Cancelled) => return None,
            Err(_) => return Some(self.transformed(l)),
        };
        // At another granularity the frames are others: the colours and masks too.
        let frames_change = scorch_core::analysis::transforms::derives(&l.imported.profile, g, &[]);
        let made = Arc::new(if frames_change {
            Loaded::with_key(l.name.clone(), imported, key)
        } else {
            l.derived_as(imported.profile, key)
        });
        cache_derived(l, g, &ts, &made);
        Some(made)
    }

    /// Shows the function table of `target` under `view`: the cached one, or built by the view engine (the table
    /// says it is being built meanwhile).
    fn set_fn_table(&self, target: &Arc<Loaded>, view: ViewOptions) {
        let gen = bump(&TABLE_GEN);
        if let Some(t) = cached_table(target, &view) {
            worker_build::cancel(Channel::Table);
            done(&TABLE_DONE, gen);
            return self.view.fn_table.set(Some(t));
        }
        self.view.fn_table.set(None);
        self.view.fn_table_failed.set(false);
        let (a, target) = (*self, target.clone());
        let order = self.view.order.get_untracked();
        leptos::task::spawn_local(async move {
            let r = worker_build::build(
                Channel::Table,
                target.key,
                &target.imported,
                view.clone(),
                order,
                vec![Job::Functions],
            )
            .await;
            done(&TABLE_DONE, gen);
            let current = a
                .load
                .shown
                .get_untracked()
                .is_some_and(|s| Arc::ptr_eq(&s, &target))
                && a.view.options.get_untracked() == view;
            match r {
                Ok(mut r) => match r.pop() {
                    Some(Ok(Built::Table(t))) if current => {
                        let t = Arc::new(t);
                        cache_table(&target, view, t.clone());
                        a.view.fn_table.set(Some(t));
                    }
                    Some(Err(e)) => {
                        a.view.fn_table_failed.set(current);
                        a.load.error.set(Some(e))
                    }
                    _ => {}
                },
                Err(LoadError::Cancelled) => {}
                Err(e) => {
                    a.view.fn_table_failed.set(current);
                    a.load
                        .error
                        .set(Some(format!("Could not build the function table: {e}")))
                }
            }
        });
    }

    /// Adds a transform (it applies on top of the others) and rebuilds.
    pub fn push_transform(&self, t: Transform) {
        self.search.transforms.update(|ts| ts.push(t));
        self.rebuild();
    }

    pub fn remove_transform(&self, i: usize) {
        self.search.transforms.update(|ts| {
            if i < ts.len() {
                ts.remove(i);
            }
        });
        self.rebuild();
    }

    pub fn set_mode(&self, m: Mode) {
        if self.view.mode.get_untracked() != m {
            self.view.mode.set(m);
            self.rebuild();
        }
    }

    pub fn set_order(&self, o: Order) {
        self.view.order.set(o);
        self.rebuild();
    }

    pub fn select(&self, name: Option<String>) {
        if self.search.selected.get_untracked() != name {
            self.search.selected.set(name);
            self.rebuild_sandwich();
        }
    }

    /// Shows the open profile under another view (event, weight, root): only the tree is rebuilt.
    pub fn set_view(&self, view: ViewOptions) {
        if self.load.loaded.get_untracked().is_none() || view == self.view.options.get_untracked() {
            return;
        }
        self.view.options.set(view);
        self.rebuild();
    }

    /// The filter box's text applied: `key=value` (or a range) keeps the samples with that label; `comm=`,
    /// `pid=`, `tid=` choose threads (the thread list shows them; the link carries them as `th`); empty shows
    /// all. The box shows the text (`view.label_text`) whoever set it. An error in words when it does not parse.
    pub fn set_label_filter(&self, text: &str) -> Result<(), String> {
        use scorch_core::view::SampleFilter;
        let Some(loaded) = self.load.loaded.get_untracked() else {
            return Ok(());
        };
        let text = text.trim();
        let filter = if text.is_empty() {
            None
        } else {
            Some(SampleFilter::parse(&loaded.imported.profile, text)?)
        };
        let v = self.view.options.get_untracked();
        self.view.label_text.set(text.to_string());
        self.set_view(match filter {
            Some(SampleFilter::Threads(t)) => ViewOptions {
                label: None,
                threads: Some(t),
                ..v
            },
            Some(SampleFilter::Label(l)) => ViewOptions { label: Some(l), ..v },
            None => ViewOptions { label: None, ..v },
        });
        Ok(())
    }

    /// The two sides of the sandwich for the selected function (empty outside the sandwich).
    pub fn rebuild_sandwich(&self) {
        let gen = bump(&SANDWICH_GEN);
        let (callers, callees) = (self.panes.callers, self.panes.callees);
        let (Some(shown), Some(f), Mode::Sandwich) = (
            self.load.shown.get_untracked(),
            self.search.selected.get_untracked(),
            self.view.mode.get_untracked(),
        ) else {
            worker_build::cancel(Channel::Sandwich);
            done(&SANDWICH_DONE, gen);
            callers.data.set(None);
            callees.data.set(None);
            return;
        };
        let view = ViewOptions {
            root: RootMode::None,
            ..self.view.options.get_untracked()
        };
        let order = self.view.order.get_untracked();
        for pane in [callers, callees] {
            pane.zoom.set(Vec::new());
            pane.hover.set(None);
            pane.data.set(None);
        }
        let a = *self;
        leptos::task::spawn_local(async move {
            let jobs = vec![Job::Callers(f.clone()), Job::Callees(f)];
            let r = worker_build::build(
                Channel::Sandwich,
                shown.key,
                &shown.imported,
                view.clone(),
                order,
                jobs.clone(),
            )
            .await;
            if current(&SANDWICH_GEN) != gen {
                return;
            }
            let sides = match r {
                Ok(sides) => sides,
                Err(LoadError::Cancelled) => return done(&SANDWICH_DONE, gen),
                Err(e) => {
                    done(&SANDWICH_DONE, gen);
                    return a
                        .load
                        .error
                        .set(Some(format!("Could not build the sandwich: {e}")));
                }
            };
            for ((pane, side), job) in [callers, callees].into_iter().zip(sides).zip(jobs) {
                // Each side made whole in a task of its own, not in the one that took the last of the answer: on
                // a million-deep stack the two were one task of 50–60 ms (`bench/hostile-browser.mjs`).
                crate::worker::yield_now().await;
                if current(&SANDWICH_GEN) != gen {
                    return;
                }
                match side {
                    Ok(Built::Flame(flame)) => {
                        pane.data.set(Some(Arc::new(super::timed("from parts", || {
                            FlameData::from_flame(shown.clone(), view.clone(), flame, job, order)
                        }))))
                    }
                    Ok(
                        Built::Table(_)
                        | Built::Chart(_)
                        | Built::Graph(_)
                        | Built::Source(_)
                        | Built::Figures(_)
                        | Built::Share(_),
                    ) => {}
                    Err(e) => a.load.error.set(Some(e)),
                }
            }
            // (Done once both sides are shown: what waits for the views sees them.)
            done(&SANDWICH_DONE, gen);
        });
    }

    /// Rebuilds the tree and layout from the loaded profile(s), the view and the diff settings.
    pub fn rebuild(&self) {
        let gen = bump(&MAIN_GEN);
        // A main graph still being built is replaced by this rebuild's.
        MAIN_WAITING.with(|w| w.set(false));
        // The plain flame graph last built (during the load, or by an earlier rebuild): switching to the
        // inverted tree, the sandwich or the table and back must not rebuild a tree of millions of nodes.
        let pre = self.load.prebuilt.get_value();
        let Some(target) = self.load.loaded.get_untracked() else {
            done(&MAIN_DONE, gen);
            return;
        };
        let view = self.view.options.get_untracked();
        let order = self.view.order.get_untracked();
        let mode = self.view.mode.get_untracked();
        let same = self
            .diff
            .base
            .get_untracked()
            .is_some_and(|b| Arc::ptr_eq(&b, &target));
        let target = match self.derived_of(&target) {
            Ok(made) => made,
            // The view engine makes it (not for a diff: computed on the page, from the page's copies); the view
            // is rebuilt once it has (the graph shown so far stays until then).
            Err((g, ts)) if self.diff.base.get_untracked().is_none() => {
                MAIN_WAITING.with(|w| w.set(true));
                let a = *self;
                leptos::task::spawn_local(async move {
                    let made = a.derive(&target, g, ts).await;
                    if current(&MAIN_GEN) != gen {
                        return;
                    }
                    match made {
                        // (Held here while the view is rebuilt: the cache holds it weakly.)
                        Some(_made) => a.rebuild(),
                        None => {
                            MAIN_WAITING.with(|w| w.set(false));
                            done(&MAIN_DONE, gen)
                        }
                    }
                });
                return;
            }
            Err(_) => super::timed("transformed", || self.transformed(&target)),
        };
        self.load.shown.set(Some(target.clone()));
        let data = match self.diff.base.get_untracked() {
            None => {
                self.diff.refused.set(None);
                if matches!(mode, Mode::Functions | Mode::Sandwich) {
                    self.set_fn_table(&target, view.clone());
                } else {
                    worker_build::cancel(Channel::Table);
                    done(&TABLE_DONE, current(&TABLE_GEN));
                    self.view.fn_table.set(None);
                }
                let plain = match pre {
                    Some((d, o)) if o == order && d.view == view && Arc::ptr_eq(&d.loaded, &target) => {
                        Some(d)
                    }
                    _ => None,
                };
                // The call-tree table lists every node: its tree is never cut (`scorch_core::view::cut`).
                let whole = |j: Job| Job::Whole(Box::new(j));
                let job = match mode {
                    Mode::Inverted => Job::Inverted,
                    Mode::CallTree if self.view.tree_inverted.get_untracked() => whole(Job::Inverted),
                    Mode::CallTree => whole(Job::Plain),
                    _ => Job::Plain,
                };
                let reuse =
                    |d: &Arc<FlameData>| job == Job::Plain || (job == whole(Job::Plain) && d.cut.is_none());
                match plain {
                    Some(d) if reuse(&d) => {
                        worker_build::cancel(Channel::Main);
                        d
                    }
                    _ => {
                        // Built by the view engine; the graph shown so far stays until then.
                        self.search.match_idx.set(None);
                        self.rebuild_sandwich();
                        MAIN_WAITING.with(|w| w.set(true));
                        let a = *self;
                        leptos::task::spawn_local(async move {
                            let r = flame_in_worker(Channel::Main, &target, view, order, job.clone()).await;
                            if current(&MAIN_GEN) != gen {
                                return;
                            }
                            done(&MAIN_DONE, gen);
                            match r {
                                Ok(Some(d)) => {
                                    if job == Job::Plain {
                                        a.load.prebuilt.set_value(Some((d.clone(), order)));
                                    }
                                    super::timed("worker show", || show_main(a.panes.main, d));
                                }
                                Ok(None) => {}
                                Err(e) => {
                                    MAIN_WAITING.with(|w| w.set(false));
                                    PENDING_ZOOM.with(|z| z.borrow_mut().take());
                                    a.load.error.set(Some(e))
                                }
                            }
                        });
                        return;
                    }
                }
            }
            Some(base) => {
                // Transforms apply to both sides; a profile compared with itself (ranges, two counts) is one.
                let base = if same {
                    target.clone()
                } else {
                    self.transformed(&base)
                };
                worker_build::cancel(Channel::Table);
                worker_build::cancel(Channel::Main);
                done(&TABLE_DONE, current(&TABLE_GEN));
                self.view.fn_table.set(None);
                let (bview, tview, names) = self.diff_sides(&base, &target, view);
                let side = |l: &Loaded, v: ViewOptions| {
                    compare::facts(&Side {
                        profile: &l.imported.profile,
                        view: v,
                    })
                };
                let (bf, tf) = (side(&base, bview.clone()), side(&target, tview.clone()));
                // The two counts of one file are one recording's two columns: comparable by construction.
                let two_counts = self.diff.events.get_untracked().is_some();
                let rows =
                    compare::fact_rows(std::slice::from_ref(&bf), std::slice::from_ref(&tf), two_counts);
                match compare::refusal(&bf, &tf).filter(|_| !two_counts) {
                    Some(why) if !self.diff.allow_mismatch.get_untracked() => {
                        // The graph shown so far stays; the diff bar says why and offers "Diff anyway".
                        self.diff.refused.set(Some((why, rows)));
                        done(&MAIN_DONE, gen);
                        return;
                    }
                    _ => self.diff.refused.set(None),
                }
                Arc::new(FlameData::new_diff(
                    rows,
                    &base,
                    bview,
                    &target,
                    tview,
                    names,
                    self.diff.widths.get_untracked(),
                    self.diff.absolute.get_untracked(),
                    order,
                ))
            }
        };
        self.search.match_idx.set(None);
        show_main(self.panes.main, data);
        done(&MAIN_DONE, gen);
        self.rebuild_sandwich();
    }

    /// The views and names of a diff's two sides: two counts of one file, two time ranges (or bands) of one
    /// profile, or two profiles.
    fn diff_sides(
        &self,
        base: &Loaded,
        target: &Loaded,
        view: ViewOptions,
    ) -> (ViewOptions, ViewOptions, (String, String)) {
        if let Some((be, te)) = self.diff.events.get_untracked() {
            let counts = |e: u16| if e == 0 { "first counts" } else { "second counts" };
            (
                ViewOptions {
                    event: Some(be),
                    ..view.clone()
                },
                ViewOptions {
                    event: Some(te),
                    ..view
                },
                (
                    format!("{} ({})", base.name, counts(be)),
                    format!("{} ({})", target.name, counts(te)),
                ),
            )
        } else if let Some(text) = self.diff.slice_a.get_untracked() {
            // A slice diff: the base is this profile under the base's filters.
            let name = |t: &str| {
                let t = if t.is_empty() { "all samples" } else { t };
                format!("{} [{t}]", target.name)
            };
            let labels = (name(&text), name(&self.slice_text()));
            let bview = super::slice::slice_view(&target.imported.profile, &view, &text);
            (bview, view, labels)
        } else if let (Some(a), Some(b)) = (self.heat.range_a.get_untracked(), view.time_range) {
            let origin = self.heat.heat.get_untracked().map_or(0, |h| h.origin_ns);
            let a_offsets = self.heat.band_a.get_untracked();
            let label = |(s, e): (u64, u64), offsets: Option<(u64, u64)>| {
                let band = offsets
                    .map(|o| format!(", {} of each second", super::heatmap::offsets_text(o)))
                    .unwrap_or_default();
                format!(
                    "{} [{:.3}–{:.3} s{band}]",
                    target.name,
                    (s - origin.min(s)) as f64 / 1e9,
                    (e - origin.min(e)) as f64 / 1e9
                )
            };
            let labels = (label(a, a_offsets), label(b, view.offsets));
            (
                ViewOptions {
                    time_range: Some(a),
                    offsets: a_offsets,
                    ..view.clone()
                },
                view,
                labels,
            )
        } else {
            let bview = matching_view(&base.imported.profile, &target.imported.profile, view.clone());
            (bview, view, (base.name.clone(), target.name.clone()))
        }
    }
}

/// The base's view matching the target's: the same event (by name), weight and root where the base has them.
pub fn matching_view(
    base: &scorch_core::Profile,
    target: &scorch_core::Profile,
    v: ViewOptions,
) -> ViewOptions {
    let mut b = ViewOptions::default_for(base);
    if let Some(name) = v
        .event
        .and_then(|e| target.events.get(e as usize))
        .map(|e| &e.name)
    {
        if let Some(i) = base.events.iter().position(|e| &e.name == name) {
            b.event = Some(i as u16);
        }
    }
    b.weight = v.weight;
    if !base.threads.is_empty() && !matches!(v.root, RootMode::Label(_)) {
        b.root = v.root;
    }
    b
}
