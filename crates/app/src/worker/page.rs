//! Reading profiles: files and URLs in the import worker (`side.rs`, protocol in `protocol.rs`), pasted text
//! and links on the page (they are small).
//!
//! One worker per load: `start` terminates any worker still busy (a second file never mixes with the first;
//! its answers are also told apart by id) and `cancel` terminates it outright. A load takes the worker started
//! ahead of it ([`Ahead`]) when there is one: the worker `boot.js` starts with the page, or a spare started once
//! no load has run for 2 s; the demo starts a worker of its own ([`Source::Demo`]). The page's wasm has no
//! importers (they are the engine's): when a worker cannot start (a one-file HTML export opened from disk, an
//! old server without `www/worker.js`, a browser that refuses module workers) only folded stacks are read on
//! the page — what links and one-file exports carry (`here.rs`).
//!
//! A worker that answered is not ended: it keeps the profile it read (under the key it was given,
//! [`Open::key`]) and is kept here ([`take_kept`]) until the page shows the profile and `build::opened` makes it
//! the view engine — so the profile is never encoded again on the page and sent back to a worker.

use super::copier::Copier;
use super::here;
use super::payload::Flame;
use super::protocol::{FromWorker, Open, Progress, ToWorker, SLICING_LIMIT_MS};
use super::yield_now;
use super::{js_err, LoadError};
use crate::url::UrlKey;
use js_sys::{Array, Promise, Reflect, Uint8Array};
use scorch_core::analysis::heatmap::Heatmap;
use scorch_core::view::calltree::Order;
use scorch_core::{Imported, TreeColumns};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::here::SLICE;
use super::spare::ParseSpare;

/// What to import.
pub enum Source {
    File(web_sys::File),
    /// A perf.data recording and the binaries it names (ELF files), dropped or picked together.
    Recording(web_sys::File, Vec<web_sys::File>),
    Url(String),
    /// A link's `p=` payload (deflate + base64url).
    Link(String),
    /// The demo's URL (26 KB of gzip, 1 MB unpacked): read by a worker of its own, so the worker started ahead
    /// (`boot.js`'s, warmed up while the page starts) stays free for the user's own first file, which may come
    /// while the demo loads (it ends the demo's worker) and then does not wait for a worker to start.
    Demo(String),
}

/// How a worker load ended, before decoding.
enum Outcome {
    Done(JsValue),
    Failed(LoadError),
    Cancelled,
    /// The worker never started: read on the page instead.
    NoWorker(String),
    /// The worker stopped answering while it started its parse workers ([`FromWorker::Slicing`]): read again,
    /// whole, by a new worker.
    Stuck,
}

struct Running {
    worker: web_sys::Worker,
    id: u32,
    /// Whether the worker has said it is ready (it has its wasm): the request was sent at once (the worker
    /// keeps what comes while it starts, `www/worker.js`), but a worker that fails before it is ready means
    /// there is no worker here, and the page reads the profile itself.
    ready: bool,
    /// The last progress report (for the message when the worker dies).
    last: Option<Progress>,
    /// Messages heard from the worker so far: a [`FromWorker::Slicing`] watch compares it.
    heard: u32,
    finish: Option<Box<dyn FnOnce(Outcome)>>,
    on_progress: Rc<dyn Fn(Progress)>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
    /// The key the worker keeps the profile under once it has answered ([`Open::key`]).
    key: u32,
    /// The page's spare parse worker joined to this worker, ended with the load.
    spare: Option<ParseSpare>,
}

thread_local! {
    static RUNNING: RefCell<Option<Running>> = const { RefCell::new(None) };
    /// The import worker of the last load that answered, with the key it holds that profile by: kept until the
    /// page shows it ([`take_kept`]) or the next load starts.
    static KEPT: RefCell<Option<(web_sys::Worker, u32)>> = const { RefCell::new(None) };
    static NEXT_ID: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

/// Stops the load under way, if any. Returns whether there was one.
pub fn cancel() -> bool {
    drop_kept();
    end(None, Outcome::Cancelled)
}

/// The import worker that read the profile now known by `key`, which holds it: the page's next view engine. Any
/// other kept worker is ended.
pub(super) fn take_kept(key: u32) -> Option<web_sys::Worker> {
    let (worker, k) = KEPT.with(|k| k.borrow_mut().take())?;
    if k == key {
        return Some(worker);
    }
    super::retire(&worker, true);
    None
}

/// Ends the kept import worker, if any: its profile will not be shown.
fn drop_kept() {
    if let Some((worker, _)) = KEPT.with(|k| k.borrow_mut().take()) {
        super::retire(&worker, true);
    }
}

/// A worker started ahead of a load, and what it has said so far: the one `boot.js` starts with the page (for
/// a link it fetches the profile while the page starts; adopted by [`take_ahead`]), or a spare started once the
/// page has been quiet for a while after a load, so that the next file or URL goes to a worker whose wasm
/// already runs (starting one takes 30–70 ms after the file is chosen, much of it waiting for the page's main
/// thread, which is busy with the load's own start then).
struct Ahead {
    worker: web_sys::Worker,
    ready: Rc<std::cell::Cell<bool>>,
    failed: Rc<std::cell::Cell<bool>>,
    /// boot.js's worker on a page without a link: its spare parse worker, joined once it is ready (`spare.rs`).
    spare: Rc<RefCell<Option<ParseSpare>>>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl Ahead {
    /// Listens to `worker` from now on; `ready`, `failed`: what it said before. `with_spare`: a spare parse
    /// worker is joined to it once it is ready (its first message taken: the join comes after it).
    fn watch(worker: web_sys::Worker, ready: bool, failed: bool, with_spare: bool) -> Ahead {
        let (ready, failed) = (
            Rc::new(std::cell::Cell::new(ready)),
            Rc::new(std::cell::Cell::new(failed)),
        );
        let spare = Rc::new(RefCell::new(None));
        if with_spare && ready.get() && !failed.get() {
            *spare.borrow_mut() = ParseSpare::join(&worker, &engine_module());
        }
        let (r, s, w) = (ready.clone(), spare.clone(), worker.clone());
        let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            if matches!(FromWorker::decode(&e.data()), Ok(FromWorker::Ready)) {
                r.set(true);
                if with_spare && s.borrow().is_none() {
                    *s.borrow_mut() = ParseSpare::join(&w, &engine_module());
                }
            }
        });
        let f = failed.clone();
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            f.set(true);
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ahead {
            worker,
            ready,
            failed,
            spare,
            _on_message: on_message,
            _on_error: on_error,
        }
    }
}

thread_local! {
    static AHEAD: RefCell<Option<Ahead>> = const { RefCell::new(None) };
    static SPARE_PENDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// When the last load ended (`performance.now()`, ms).
    static LAST_END: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// How long the page must have been without a load before a spare worker starts: starting one competes for the
/// CPU with a load's last steps and its first paints (on 2 cores, measurably).
const SPARE_AFTER_MS: f64 = 2000.0;

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Starts a spare worker once no load has run for [`SPARE_AFTER_MS`], unless there is one or one is due.
fn spare_later() {
    LAST_END.with(|t| t.set(now_ms()));
    if !SPARE_PENDING.with(|p| p.replace(true)) {
        arm_spare(SPARE_AFTER_MS);
    }
}

fn arm_spare(ms: f64) {
    super::after(ms.ceil(), || {
        let quiet = now_ms() - LAST_END.with(std::cell::Cell::get);
        if quiet < SPARE_AFTER_MS {
            return arm_spare(SPARE_AFTER_MS - quiet);
        }
        SPARE_PENDING.with(|p| p.set(false));
        let busy = RUNNING.with(|r| r.borrow().is_some());
        adopt_boot_worker();
        if busy || AHEAD.with(|s| s.borrow().is_some()) {
            return;
        }
        let Ok(worker) = start_worker() else { return };
        let spare = Ahead::watch(worker, false, false, false);
        AHEAD.with(|s| *s.borrow_mut() = Some(spare));
    });
}

/// The worker started ahead, unless it failed, and whether it is ready. Its handlers are removed: the load sets
/// its own before anything more can arrive.
fn take_ahead() -> Option<(web_sys::Worker, bool, Option<ParseSpare>)> {
    adopt_boot_worker();
    let ahead = AHEAD.with(|s| s.borrow_mut().take())?;
    ahead.worker.set_onmessage(None);
    ahead.worker.set_onerror(None);
    let spare = ahead.spare.borrow_mut().take();
    if ahead.failed.get() {
        ahead.worker.terminate();
        drop(spare);
        return None;
    }
    Some((ahead.worker.clone(), ahead.ready.get(), spare))
}

/// Ends the running load (if `id` matches, or any when `None`): terminates its worker and settles its future.
fn end(id: Option<u32>, outcome: Outcome) -> bool {
    let running = RUNNING.with(|r| {
        let mut r = r.borrow_mut();
        if id.is_some_and(|id| r.as_ref().is_some_and(|run| run.id != id)) {
            return None;
        }
        r.take()
    });
    let Some(mut run) = running else {
        return false;
    };
    let keep = match &outcome {
        Outcome::Done(payload) => {
            run.key != 0 && fits_in_memory(payload).is_ok() && super::payload::kept_as_engine(payload)
        }
        _ => false,
    };
    if keep {
        // It keeps the profile it read: kept, until the page shows the profile or drops it. Its handlers are
        // this load's, dropped with it.
        run.worker.set_onmessage(None);
        super::QUIET.with(|q| run.worker.set_onerror(Some(q.as_ref().unchecked_ref())));
        let kept = Some((run.worker.clone(), run.key));
        if let Some((old, _)) = KEPT.with(|k| k.replace(kept)) {
            super::retire(&old, true);
        }
    } else {
        super::retire(&run.worker, run.ready);
    }
    // Its parse is over, whatever the outcome.
    drop(run.spare.take());
    if let Some(finish) = run.finish.take() {
        finish(outcome);
    }
    spare_later();
    true
}

/// A worker import: the profile, and the default view's call tree when the worker built it.
pub struct Done {
    pub imported: Imported,
    pub flame: Option<Flame>,
    /// The default view's figures, computed by the worker.
    pub figures: Option<super::protocol::ViewFigures>,
    /// The default view's heatmap grid with the default options, computed by the worker: `None` when it did
    /// not, `Some(None)` when the profile has none.
    pub heat: Option<Option<Heatmap>>,
    /// A small profile: the page builds what is left of its first view in one task ([`SMALL_ANSWER`]).
    pub small: bool,
    /// The key the import worker that read it keeps it under ([`take_kept`]); `None` when read on the page.
    pub key: Option<u32>,
}

/// Imports a file or URL in a worker; `on_progress` hears about every slice. `order`: the first flame graph's.
pub async fn load(
    source: Source,
    order: Order,
    on_progress: impl Fn(Progress) + 'static,
) -> Result<Done, LoadError> {
    if matches!(source, Source::Demo(_)) {
        // Its worker is given the engine's module `boot.js`'s worker is compiling, not left to compile its own
        // beside it; a load that starts meanwhile (the user's file) goes first, and the demo not at all.
        let started = NEXT_ID.with(std::cell::Cell::get);
        if let Some(engine) = boot()
            .and_then(|b| Reflect::get(&b, &"engine".into()).ok())
            .and_then(|p| p.dyn_into::<Promise>().ok())
        {
            let _ = JsFuture::from(engine).await;
        }
        if NEXT_ID.with(std::cell::Cell::get) != started {
            return Err(LoadError::Cancelled);
        }
    }
    let on_progress: Rc<dyn Fn(Progress)> = Rc::new(on_progress);
    let key = super::next_profile_key();
    let mut outcome = run_in_worker(&source, order, false, key, on_progress.clone()).await;
    if let Outcome::Stuck = outcome {
        web_sys::console::warn_1(
            &"scorch: the import worker stopped answering while it started its parse workers; reading the input again, whole"
                .into(),
        );
        outcome = run_in_worker(&source, order, true, key, on_progress).await;
    }
    let msg = match outcome {
        Outcome::Done(msg) => msg,
        Outcome::Failed(e) => return Err(e),
        Outcome::Cancelled => return Err(LoadError::Cancelled),
        // A second time (read whole, no parse workers started): the worker stopped without a reason.
        Outcome::Stuck => {
            return Err(LoadError::Import(
                "the import worker stopped answering".to_string(),
            ))
        }
        Outcome::NoWorker(why) => {
            web_sys::console::warn_1(
                &format!("scorch: import worker unavailable ({why}); reading folded stacks on the page")
                    .into(),
            );
            let imported = read_here(source, &why).await.map_err(LoadError::Import)?;
            return Ok(Done {
                imported,
                flame: None,
                figures: None,
                heat: None,
                small: false,
                key: None,
            });
        }
    };
    match take(&msg).await {
        Ok(done) => Ok(Done {
            key: Some(key),
            ..done
        }),
        Err(e) => {
            drop_kept();
            Err(e)
        }
    }
}

/// Reads `source` on the page, which reads folded stacks only (its wasm has no other importer: `here.rs`);
/// `why`: why no worker could read it, said when it is not folded (or a recording).
async fn read_here(source: Source, why: &str) -> Result<Imported, String> {
    let only = |e: String| {
        format!("{e} (the import worker could not start: {why}; without it, scorch reads only folded stacks)")
    };
    match source {
        Source::File(file) => here::read_file_folded(file).await.map_err(only),
        Source::Link(payload) => scorch_core::export::links::decode(&payload)
            .map_err(|e| e.to_string())
            .and_then(|text| here::import_folded(&text).map_err(only)),
        Source::Url(url) | Source::Demo(url) => here::fetch_folded(&url).await.map_err(only),
        Source::Recording(..) => Err(format!(
            "the import worker could not start ({why}): a recording and its binaries are read there"
        )),
    }
}

/// The page's part of a load: the worker's answer (`side::answer`) taken into wasm memory.
pub(super) async fn take(msg: &JsValue) -> Result<Done, LoadError> {
    let get = |k: &str| Reflect::get(msg, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let small = fits_in_memory(msg)? < SMALL_ANSWER;
    let figures = serde_wasm_bindgen::from_value(get("figures")).ok();
    let mut copier = Copier::default();
    let imported = take_profile(msg, small, &mut copier).await?;
    let flame = copier.flame(msg).await;
    let heat = copier.heat(msg).await;
    Ok(Done {
        imported,
        flame,
        figures,
        heat,
        small,
        key: None,
    })
}

/// The profile in `msg` (`buffer`, `profile_u32`, `profile_u64`: `payload::profile_payload`) taken into wasm
/// memory: the import worker's answer, or the engine's with a profile it made (`build::derive`). Unless `small`,
/// each step is a task of its own, each column copied in pieces.
pub(super) async fn take_profile(
    msg: &JsValue,
    small: bool,
    copier: &mut Copier,
) -> Result<Imported, LoadError> {
    let get = |k: &str| Reflect::get(msg, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let bytes = Uint8Array::new(&get("buffer")).to_vec();
    if !small {
        yield_now().await;
    }
    let mut imported = scorch_core::model::wire::decode(&bytes)?;
    drop(bytes);
    // The columns are copied into wasm memory in pieces, each its own task.
    if !small {
        yield_now().await;
    }
    let profile_u32 = copier.columns::<js_sys::Uint32Array>(&get("profile_u32")).await;
    let profile_u64 = copier
        .columns::<js_sys::BigUint64Array>(&get("profile_u64"))
        .await;
    scorch_core::model::wire::put_columns(
        &mut imported,
        TreeColumns {
            u32s: profile_u32,
            u64s: profile_u64,
        },
    )?;
    Ok(imported)
}

/// An answer of fewer bytes than this is taken in one task: its steps take a few ms together, and a yield
/// between them can cost a whole frame (the page renders in between).
pub(super) const SMALL_ANSWER: f64 = 4.0 * 1024.0 * 1024.0;

/// Refuses, with a clear message, a profile whose columns would not fit in this page's wasm memory (4 GB at
/// most, and the view needs about as much again), instead of running out of memory halfway and killing the page.
/// Returns the payload's size in bytes.
pub(super) fn fits_in_memory(payload: &JsValue) -> Result<f64, LoadError> {
    let bytes = super::payload::answer_bytes(payload);
    let used = Reflect::get(&wasm_bindgen::memory(), &"buffer".into())
        .map(|b| super::payload::byte_length(&b))
        .unwrap_or(0.0);
    const LIMIT: f64 = 4.0 * 1024.0 * 1024.0 * 1024.0;
    if used + 2.0 * bytes > LIMIT * 0.9 {
        return Err(LoadError::TooLarge {
            needed: used + 2.0 * bytes,
        });
    }
    Ok(bytes)
}

async fn run_in_worker(
    source: &Source,
    order: Order,
    whole: bool,
    key: u32,
    on_progress: Rc<dyn Fn(Progress)>,
) -> Outcome {
    cancel();
    let id = NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    });
    let mut open = Open {
        id,
        url: match source {
            Source::Url(u) | Source::Demo(u) => Some(absolute(u)),
            Source::File(_) | Source::Recording(..) | Source::Link(_) => None,
        },
        link: match source {
            Source::Link(p) => Some(p.clone()),
            Source::File(_) | Source::Recording(..) | Source::Url(_) | Source::Demo(_) => None,
        },
        slice_bytes: SLICE,
        whole,
        order: order.key().to_string(),
        key,
        #[cfg(feature = "testing")]
        throttle: Default::default(),
    };
    crate::seams::throttle_load(&mut open);
    let Ok(request) = serde_wasm_bindgen::to_value(&ToWorker::Open(open)) else {
        return Outcome::NoWorker("could not encode the request".into());
    };
    let message = js_sys::Object::new();
    let _ = Reflect::set(&message, &"request".into(), &request);
    let request: JsValue = message.into();
    let file = match source {
        Source::File(f) | Source::Recording(f, _) => Some(f.clone()),
        Source::Url(_) | Source::Link(_) | Source::Demo(_) => None,
    };
    if let Source::Recording(_, bins) = source {
        let files: Array = bins.iter().map(JsValue::from).collect();
        let _ = Reflect::set(&request, &"binaries".into(), &files);
    }
    let ahead = if matches!(source, Source::Demo(_)) {
        adopt_boot_worker();
        None
    } else {
        take_ahead()
    };
    let (worker, ready, spare) = match ahead {
        Some(w) => w,
        None => match start_worker() {
            Ok(w) => (w, false, None),
            Err(e) => return Outcome::NoWorker(e),
        },
    };
    let mut settle: Option<js_sys::Function> = None;
    let promise = Promise::new(&mut |resolve, _| settle = Some(resolve));
    let holder: Rc<RefCell<Option<Outcome>>> = Rc::new(RefCell::new(None));
    let finish: Box<dyn FnOnce(Outcome)> = {
        let holder = holder.clone();
        Box::new(move |o| {
            *holder.borrow_mut() = Some(o);
            if let Some(f) = settle {
                let _ = f.call0(&JsValue::NULL);
            }
        })
    };
    let message_handler =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            on_message(id, e.data())
        });
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
        let (ready, last) = RUNNING.with(|r| {
            r.borrow()
                .as_ref()
                .map_or((false, None), |run| (run.ready, run.last))
        });
        let msg = super::error_message(&e);
        let msg = if msg.is_empty() {
            "the worker script failed to load".to_string()
        } else {
            msg
        };
        end(
            Some(id),
            if ready {
                Outcome::Failed(LoadError::WorkerDied { message: msg, last })
            } else {
                Outcome::NoWorker(msg)
            },
        );
    });
    worker.set_onmessage(Some(message_handler.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    // Sent now, not once the worker says it is ready: a worker boot.js started for a link is busy reading it
    // while this page starts, and its answer is then waiting when the page's start ends.
    if let Some(file) = file {
        let _ = Reflect::set(&request, &"file".into(), &file);
    }
    if let Err(e) = worker.post_message(&request) {
        // It would never answer: the page reads the profile itself.
        worker.terminate();
        drop(spare);
        return Outcome::NoWorker(format!("the request could not be sent: {}", js_err(e)));
    }
    RUNNING.with(|r| {
        *r.borrow_mut() = Some(Running {
            worker,
            id,
            ready: false,
            last: None,
            heard: 0,
            finish: Some(finish),
            on_progress,
            _on_message: message_handler,
            _on_error: on_error,
            key,
            spare,
        })
    });
    if ready {
        on_message(id, ready_message());
    } else {
        let limit = super::start_limit();
        super::after(limit, move || {
            let starting =
                RUNNING.with(|r| r.borrow().as_ref().is_some_and(|run| run.id == id && !run.ready));
            if starting {
                let why = format!("the import worker did not start within {} s", limit / 1000.0);
                end(Some(id), Outcome::NoWorker(why));
            }
        });
    }
    let _ = JsFuture::from(promise).await;
    let outcome = holder.borrow_mut().take();
    outcome.unwrap_or(Outcome::Cancelled)
}

/// A new worker, given the page's compiled wasm (`boot.js`) so it does not compile it again.
pub(super) fn start_worker() -> Result<web_sys::Worker, String> {
    let opts = web_sys::WorkerOptions::new();
    opts.set_type(web_sys::WorkerType::Module);
    if crate::seams::silent_workers().is_some() {
        opts.set_name(crate::seams::SILENT);
    }
    let worker = web_sys::Worker::new_with_options("www/worker.js", &opts).map_err(js_err)?;
    let first = js_sys::Object::new();
    let _ = Reflect::set(&first, &"module".into(), &engine_module());
    worker.post_message(&first).map_err(js_err)?;
    Ok(worker)
}

/// What `www/boot.js` hands the app (`window.scorchBoot`): the engine's compiled wasm `module`, shared with
/// every worker (`engine`: a promise of it, settled once there is one or will be none), and the `earlyWorker`
/// it started (for a link that names a profile, fetching it), with what that worker has said so far (`earlyReady`, `earlyFailed`). Part of the product (not a test hook).
fn boot() -> Option<JsValue> {
    let w = web_sys::window()?;
    Reflect::get(&w, &"scorchBoot".into())
        .ok()
        .filter(JsValue::is_object)
}

/// The engine's compiled module boot.js's worker made (`undefined` when there is none: a worker compiles its own).
fn engine_module() -> JsValue {
    boot()
        .and_then(|b| Reflect::get(&b, &"module".into()).ok())
        .unwrap_or(JsValue::UNDEFINED)
}

/// Moves the worker `boot.js` started, if it is still there, into [`AHEAD`] (once).
fn adopt_boot_worker() {
    let Some(boot) = boot() else { return };
    let key = JsValue::from_str("earlyWorker");
    let Some(early) = Reflect::get(&boot, &key)
        .ok()
        .and_then(|w| w.dyn_into::<web_sys::Worker>().ok())
    else {
        return;
    };
    let _ = Reflect::delete_property(boot.unchecked_ref::<js_sys::Object>(), &key);
    let said = |k: &str| {
        Reflect::get(&boot, &k.into())
            .ok()
            .and_then(|r| r.as_bool())
            .unwrap_or(false)
    };
    // A page opened without a link: its first file may be large.
    let ahead = Ahead::watch(early, said("earlyReady"), said("earlyFailed"), !said("linked"));
    if let Some(old) = AHEAD.with(|s| s.borrow_mut().replace(ahead)) {
        old.worker.terminate();
        drop(old.spare.borrow_mut().take());
    }
}

fn ready_message() -> JsValue {
    serde_wasm_bindgen::to_value(&FromWorker::Ready).unwrap_or(JsValue::UNDEFINED)
}

fn on_message(id: u32, data: JsValue) {
    // `Done` carries its buffers under `payload`, which is not plain data: set aside before decoding the rest.
    let payload = Reflect::get(&data, &"payload".into()).unwrap_or(JsValue::UNDEFINED);
    if !payload.is_undefined() {
        let _ = Reflect::delete_property(data.unchecked_ref::<js_sys::Object>(), &"payload".into());
    }
    let msg: FromWorker = match FromWorker::decode(&data) {
        Ok(m) => m,
        Err(e) => {
            end(Some(id), Outcome::Failed(LoadError::Protocol(e)));
            return;
        }
    };
    let heard = RUNNING.with(|r| {
        let mut r = r.borrow_mut();
        let run = r.as_mut().filter(|run| run.id == id)?;
        run.heard += 1;
        Some(run.heard)
    });
    match msg {
        FromWorker::Slicing {
            id: slicing,
            started: false,
        } if slicing == id => {
            // Anything heard after this means its thread runs; silence means it is blocked for good.
            super::after(SLICING_LIMIT_MS, move || {
                let silent = RUNNING.with(|r| {
                    r.borrow()
                        .as_ref()
                        .is_some_and(|run| run.id == id && Some(run.heard) == heard)
                });
                if silent {
                    end(Some(id), Outcome::Stuck);
                }
            });
        }
        FromWorker::Slicing { .. } | FromWorker::Compiling | FromWorker::PageModule | FromWorker::Module => {}
        FromWorker::Ready => RUNNING.with(|r| {
            if let Some(run) = r.borrow_mut().as_mut().filter(|run| run.id == id) {
                run.ready = true;
            }
        }),
        FromWorker::Progress(p) => {
            let cb = RUNNING.with(|r| {
                let mut r = r.borrow_mut();
                let run = r.as_mut().filter(|run| run.id == p.id)?;
                run.last = Some(p);
                Some(run.on_progress.clone())
            });
            if let Some(cb) = cb {
                cb(p);
            }
        }
        FromWorker::Done {
            id: done,
            ms,
            prefetched,
            slices,
            spare,
        } => {
            crate::seams::note_worker(ms, prefetched, slices, spare);
            end(Some(done), Outcome::Done(payload));
        }
        FromWorker::Failed { id: failed, error } => {
            end(Some(failed), Outcome::Failed(LoadError::Import(error)));
        }
        FromWorker::Built { .. } | FromWorker::Part => {}
    }
}

/// The worker resolves relative URLs against its own script: give it the page's view of the URL.
fn absolute(url: &str) -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .and_then(|base| web_sys::Url::new_with_base(url, &base).ok())
        .map_or_else(|| url.to_string(), |u| u.href())
}
