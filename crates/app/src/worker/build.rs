//! The engine, page side: every view the page asks of a profile besides its first flame graph — the inverted
//! tree, the sandwich's two sides, the function table, a plain tree under another view, the stack chart, the call
//! graph — is built off the page's main thread, whatever the profile's size: one way for every profile, no
//! "here or in a worker" branch per view. Each can take seconds on millions of stacks, in one call that cannot be
//! cut into tasks.
//!
//! One long-lived worker (the engine, `jobs.rs` its side) holds the profile and builds every view asked of it:
//! the import worker that read the profile, kept ([`opened`]), or for a profile read on the page one sent the
//! profile once; the page sends a profile again only when it is another one (a transform, a diff).
//! [`warm`] starts the engine once the page is quiet after a load (2 s, then idle: `state::open`) (without the profile: sending it ahead would
//! cost a large profile a long task and a second copy before any view is asked for), so the first view asked for
//! does not wait for a worker to start. Requests travel on [`Channel`]s: a newer request on a channel cancels the older one's future,
//! and the engine skips a request that a newer one of its channel has replaced before it began. [`release`] ends
//! the engine when its profile is closed, which is the one way to give its wasm memory back. Each answer is taken
//! in short tasks ([`Copier`]). An engine that cannot start, cannot be sent a request, or stops is an error
//! ([`LoadError::Engine`]) the page shows, the open profile kept; the next request starts a new engine. The one
//! exception is the one-file HTML export, which allows no worker by design: there the page is the engine.

use super::copier::Copier;
use super::page::{fits_in_memory, start_worker};
use super::protocol::{Build, FromWorker, Job, Slots, ToWorker};
use super::yield_now;
use super::LoadError;
use crate::url::UrlKey;
use js_sys::{Array, Promise, Reflect, Uint8Array};
use scorch_core::analysis::functions::FunctionRow;
use scorch_core::view::calltree::Order;
use scorch_core::{Imported, ViewOptions};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

pub use super::views::{Built, Table};

/// Independent streams of requests: a newer request cancels only the older one of its own channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// The main graph (inverted, or plain under another view).
    Main = 0,
    /// The sandwich's two sides.
    Sandwich = 1,
    /// The function table.
    Table = 2,
    /// The stack chart.
    Chart = 3,
    /// The call graph.
    Graph = 4,
    /// The source view's lines.
    Source = 5,
    /// What Copy link carries.
    Share = 6,
    /// A zoom's finer cut of a cut flame graph (`Job::Refine`).
    Refine = 7,
    /// A large profile's first view's figures, asked once its first picture is drawn (`Job::Figures`).
    Figures = 8,
}

/// How many channels there are (the last one's number + 1).
const CHANNELS: usize = Channel::Figures as usize + 1;

/// Each job's error, or the payload its answer carried.
type Answers = Vec<(Option<String>, JsValue)>;
/// Settles a request's future.
type Finish = Box<dyn FnOnce(Result<Answers, Failure>)>;

/// Why a request ended without answers.
enum Failure {
    Load(LoadError),
    /// The engine said it does not hold the request's profile (it could not take the one sent, or the message
    /// carrying it never arrived): asked again, with the profile.
    NotHeld,
}

/// A request under way: its channel and the answers so far.
struct Request {
    id: u32,
    channel: Channel,
    jobs: usize,
    answers: Answers,
    finish: Option<Finish>,
}

/// The engine: one long-lived worker that holds the open profile (and one derived from it, [`Slots`]) and builds every view of it asked
/// for. It lives until the profile is closed or replaced ([`release`]) or it dies; the next request then starts
/// a new one.
struct Engine {
    worker: web_sys::Worker,
    /// Counts engines started, so a start limit armed for one never ends the next.
    serial: u32,
    /// The keys of the profiles it holds, or will hold once the messages carrying them are taken.
    holds: Slots,
    ready: bool,
    /// Messages (with their request's id and transfer list) held until it says it is ready.
    queued: Vec<(u32, JsValue, Array)>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

thread_local! {
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
    static REQUESTS: RefCell<Vec<Request>> = const { RefCell::new(Vec::new()) };
    static NEXT_ID: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
    static SERIAL: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// Per channel, how many times [`cancel`] was called on it.
    static CANCELS: std::cell::Cell<[u32; CHANNELS]> = const { std::cell::Cell::new([0; CHANNELS]) };
}

thread_local! {
    /// Profiles sent to an engine so far.
    static SENT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// [`build`]s under way ([`running`]).
    static BUILDING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Engines started, profiles sent to them, whether one runs now and whether it holds a profile (a test hook
/// reads them).
pub fn engine_stats() -> (u32, u32, bool, bool) {
    (
        SERIAL.with(std::cell::Cell::get),
        SENT.with(std::cell::Cell::get),
        ENGINE.with(|e| e.borrow().is_some()),
        ENGINE.with(|e| e.borrow().as_ref().is_some_and(|x| x.holds.first.is_some())),
    )
}

/// How many [`build`]s are under way: asked of the engine, and their answers not yet all taken (a test hook
/// reads it).
pub fn running() -> usize {
    BUILDING.with(std::cell::Cell::get)
}

/// Counts a [`build`] under way for as long as it lives (whether it returns or its future is dropped).
struct Building;

impl Building {
    fn new() -> Building {
        BUILDING.with(|b| b.set(b.get() + 1));
        Building
    }
}

impl Drop for Building {
    fn drop(&mut self) {
        BUILDING.with(|b| b.set(b.get().saturating_sub(1)));
    }
}

/// Stops waiting for the request under way on `channel`, if any (the engine skips it if it has not begun it).
pub fn cancel(channel: Channel) {
    CANCELS.with(|c| {
        let mut n = c.get();
        if let Some(x) = n.get_mut(channel as usize) {
            *x = x.wrapping_add(1);
        }
        c.set(n)
    });
    let old = REQUESTS.with(|r| {
        let mut r = r.borrow_mut();
        let i = r.iter().position(|q| q.channel == channel)?;
        Some(r.remove(i))
    });
    if let Some(mut q) = old {
        if let Some(f) = q.finish.take() {
            f(Err(Failure::Load(LoadError::Cancelled)));
        }
    }
}

/// Ends the engine (its wasm memory is given back): the profile it held was closed or replaced. Requests under
/// way end as cancelled.
pub fn release() {
    let engine = ENGINE.with(|e| e.borrow_mut().take());
    if let Some(e) = engine {
        super::retire(&e.worker, e.ready);
        settle_all(|_| Failure::Load(LoadError::Cancelled));
    }
}

/// Ends request `id` with `outcome`.
fn end(id: u32, outcome: Result<Answers, Failure>) {
    let q = REQUESTS.with(|r| {
        let mut r = r.borrow_mut();
        let i = r.iter().position(|q| q.id == id)?;
        Some(r.remove(i))
    });
    if let Some(mut q) = q {
        if let Some(f) = q.finish.take() {
            f(outcome);
        }
    }
}

/// Ends every request under way.
fn settle_all(why: impl Fn(&Request) -> Failure) {
    let all = REQUESTS.with(|r| std::mem::take(&mut *r.borrow_mut()));
    for mut q in all {
        let failure = why(&q);
        if let Some(f) = q.finish.take() {
            f(Err(failure));
        }
    }
}

/// The engine stopped or never started: it is dropped, and every request under way fails with what happened
/// (the page shows it); the next request starts a new engine.
fn lost(serial: u32, message: String) {
    let engine = ENGINE.with(|e| {
        let mut e = e.borrow_mut();
        if e.as_ref().is_some_and(|x| x.serial == serial) {
            e.take()
        } else {
            None
        }
    });
    let Some(engine) = engine else { return };
    super::retire(&engine.worker, engine.ready);
    let why = if engine.ready {
        format!(
            "the view engine stopped while building it ({message}); a view of a very large profile can need more \
             than a worker's 4 GB of WebAssembly memory"
        )
    } else {
        format!("the view engine could not start: {message}")
    };
    settle_all(|_| Failure::Load(LoadError::Engine(why.clone())));
}

/// Starts the engine unless one runs.
fn ensure_engine() -> Result<(), String> {
    if ENGINE.with(|e| e.borrow().is_some()) {
        return Ok(());
    }
    install(start_worker()?, None);
    Ok(())
}

/// The profile known by `key` is the one open now (a load landed): the engine that held the one before is ended
/// (its memory comes back), and the import worker that read this one, which holds it, becomes the engine
/// (`page::take_kept`) — the profile is not sent to a worker again. A profile read on the page has none: the
/// next view asked for starts an engine and sends it.
pub fn opened(key: u32) {
    let kept = super::page::take_kept(key);
    release();
    if let Some(worker) = kept {
        install(worker, Some(key));
    }
}

/// Makes `worker` the engine: a new one (`holds: None`; given [`START_LIMIT_MS`](super::start_limit) to say it is
/// ready), or an import worker that answered and holds the profile `key` (ready).
fn install(worker: web_sys::Worker, holds: Option<u32>) {
    let ready = holds.is_some();
    let holds = Slots {
        first: holds,
        other: None,
    };
    let serial = SERIAL.with(|s| {
        s.set(s.get().wrapping_add(1));
        s.get()
    });
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        on_message(serial, e.data())
    });
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
        let message = super::error_message(&e);
        let message = if message.is_empty() {
            "the worker script failed to load".to_string()
        } else {
            message
        };
        lost(serial, message);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    ENGINE.with(|e| {
        *e.borrow_mut() = Some(Engine {
            worker,
            serial,
            holds,
            ready,
            queued: Vec::new(),
            _on_message: on_message,
            _on_error: on_error,
        })
    });
    if ready {
        return;
    }
    let limit = super::start_limit();
    super::after(limit, move || {
        let silent = ENGINE.with(|e| {
            e.borrow()
                .as_ref()
                .is_some_and(|x| x.serial == serial && !x.ready)
        });
        if silent {
            lost(serial, format!("it did not start within {} s", limit / 1000.0));
        }
    });
}

/// Posts request `id`'s message to the engine (or holds it until the engine is ready). A message that cannot
/// be posted ends its request with that error, and the engine holds no profile the page knows of.
fn send(id: u32, message: JsValue, transfer: Array) {
    let failed = ENGINE.with(|e| {
        let mut e = e.borrow_mut();
        let Some(engine) = e.as_mut() else {
            return Some("the engine stopped".to_string());
        };
        if !engine.ready {
            engine.queued.push((id, message, transfer));
            return None;
        }
        match engine.worker.post_message_with_transfer(&message, &transfer) {
            Ok(()) => None,
            Err(err) => {
                engine.holds = Slots::default();
                Some(super::js_err(err))
            }
        }
    });
    if let Some(why) = failed {
        let why = format!("the request could not be sent to the view engine: {why}");
        end(id, Err(Failure::Load(LoadError::Engine(why))));
    }
}

/// Builds `jobs` of the profile `imported` (known by `key`, the same for as long as it is open) under `view` in
/// the engine; one result per job, in order. The profile is sent to the engine only when it does not hold it
/// yet. `Err` when the request was cancelled by a newer one on its channel, or the engine could not start, could
/// not be sent the request, stopped, or answered nonsense ([`LoadError::Engine`], [`LoadError::Protocol`]).
pub async fn build(
    channel: Channel,
    key: u32,
    imported: &Imported,
    view: ViewOptions,
    order: Order,
    jobs: Vec<Job>,
) -> Result<Vec<Result<Built, String>>, LoadError> {
    cancel(channel);
    let _building = Building::new();
    if page_is_engine() {
        return Ok(jobs
            .iter()
            .map(|j| super::views::compute(key, &imported.profile, &view, order, j))
            .collect());
    }
    let n = jobs.len();
    let request = Build {
        id: 0,
        channel: channel as u8,
        profile: key,
        view,
        order: order.key().to_string(),
        jobs: jobs.clone(),
        derive: None,
    };
    let answers = answers_to(channel, imported, request).await?;
    // Each answer taken in short tasks.
    let mut copier = Copier::default();
    let mut out = Vec::with_capacity(n);
    for (job, (error, payload)) in jobs.iter().zip(answers) {
        if let Some(e) = error {
            out.push(Err(e));
            continue;
        }
        fits_in_memory(&payload)?;
        crate::seams::note_engine_job(job.name());
        yield_now().await;
        out.push(match job {
            Job::Functions => table(&payload).await.map(Built::Table),
            Job::Chart => chart(&payload, imported.profile.frames.len())
                .await
                .map(Built::Chart),
            Job::Graph(_) => take_graph(&payload, &mut copier).await.map(Built::Graph),
            Job::Source(_) => Reflect::get(&payload, &"source".into())
                .map_err(|_| "the worker sent no source lines".to_string())
                .and_then(|b| super::protocol::SourceLines::decode(&Uint8Array::new(&b).to_vec()))
                .map(Built::Source),
            Job::Share(_) => Reflect::get(&payload, &"share".into())
                .ok()
                .and_then(|f| serde_wasm_bindgen::from_value(f).ok())
                .map(|s| Built::Share(Box::new(s)))
                .ok_or_else(|| "the worker sent no link".to_string()),
            Job::Figures => Reflect::get(&payload, &"figures".into())
                .ok()
                .and_then(|f| serde_wasm_bindgen::from_value(f).ok())
                .map(Built::Figures)
                .ok_or_else(|| "the worker sent no figures of the view".to_string()),
            _ => copier
                .flame(&payload)
                .await
                .map(Built::Flame)
                .ok_or_else(|| "the view built in the worker did not fit together".to_string()),
        });
    }
    Ok(out)
}

/// The answers to `request` on `channel`. An engine that says it does not hold the profile is asked once more,
/// the profile (`imported`) sent with the request.
async fn answers_to(channel: Channel, imported: &Imported, request: Build) -> Result<Answers, LoadError> {
    let answers = match ask(channel, imported, request.clone()).await {
        Err(Failure::NotHeld) => match ask(channel, imported, request).await {
            Err(Failure::NotHeld) => {
                return Err(LoadError::Engine(
                    "the view engine could not take the profile sent to it".to_string(),
                ))
            }
            other => other,
        },
        other => other,
    };
    match answers {
        Ok(a) => Ok(a),
        Err(Failure::Load(e)) => Err(e),
        Err(Failure::NotHeld) => Err(LoadError::Cancelled),
    }
}

/// The profile `from` (the one known by `d.from`) at `d`'s granularity after its transforms, made by the engine,
/// which then holds it under `key`; a copy for the page, taken in short tasks. `from` is sent only when the engine
/// does not hold it. A request on the main graph's channel: a newer one cancels it. `Err` where the page is the
/// engine (the one-file HTML export), and whatever a view's request can fail with, a transform's own error
/// ([`LoadError::Import`]) among them.
pub async fn derive(from: &Imported, key: u32, d: super::protocol::Derive) -> Result<Imported, LoadError> {
    if page_is_engine() {
        return Err(LoadError::Engine("this page is its own view engine".to_string()));
    }
    cancel(Channel::Main);
    let _building = Building::new();
    let request = Build {
        id: 0,
        channel: Channel::Main as u8,
        profile: key,
        view: ViewOptions::default(),
        order: Order::default().key().to_string(),
        jobs: vec![Job::Profile],
        derive: Some(d),
    };
    let (error, payload) = answers_to(Channel::Main, from, request)
        .await?
        .pop()
        .ok_or_else(|| LoadError::Protocol("the view engine answered nothing".to_string()))?;
    if let Some(e) = error {
        return Err(LoadError::Import(e));
    }
    let profile = Reflect::get(&payload, &"profile".into()).unwrap_or(JsValue::UNDEFINED);
    let small = fits_in_memory(&profile)? < super::page::SMALL_ANSWER;
    crate::seams::note_engine_job(Job::Profile.name());
    yield_now().await;
    super::page::take_profile(&profile, small, &mut Copier::default()).await
}

/// Whether this page is a one-file HTML export (`scorch_core::export::html`: it carries its wasm in
/// `<script id="scorch-wasm">`), which opens from `file://` and whose CSP allows no worker by design: there the
/// page builds the views itself, the one host where it does. Anywhere else a view comes from the engine.
fn page_is_engine() -> bool {
    thread_local! {
        static ONE_FILE: bool = web_sys::window()
            .and_then(|w| w.document())
            .is_some_and(|d| d.get_element_by_id("scorch-wasm").is_some());
    }
    ONE_FILE.with(|o| *o)
}

/// A fresh request id.
fn next_id() -> u32 {
    NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    })
}

/// The engine started if none runs, and the message carrying `request` (and the profile, when the engine does
/// not hold it) made and counted.
fn prepare(
    imported: &Imported,
    request: &Build,
    ready: Option<(js_sys::Object, Array)>,
) -> Result<(JsValue, Array), LoadError> {
    ensure_engine().map_err(|why| LoadError::Engine(format!("the view engine could not start: {why}")))?;
    let holds = engine_holds(request.sent_key());
    let message = request_message(if holds { None } else { Some(imported) }, request, ready)?;
    // The engine places what it is sent, then what it makes, by the same rule (`jobs.rs`).
    ENGINE.with(|e| {
        if let Some(x) = e.borrow_mut().as_mut() {
            if !holds {
                SENT.with(|n| n.set(n.get() + 1));
                x.holds.put(request.sent_key());
            }
            if request.derive.is_some() && !x.holds.holds(request.profile) {
                x.holds.put(request.profile);
            }
        }
    });
    Ok(message)
}

/// Whether the engine holds (or will, once the messages under way are taken) the profile `key`.
fn engine_holds(key: u32) -> bool {
    ENGINE.with(|e| e.borrow().as_ref().is_some_and(|x| x.holds.holds(key)))
}

/// Sends `request` (under a fresh id) to the engine and waits for its answers.
async fn ask(channel: Channel, imported: &Imported, mut request: Build) -> Result<Answers, Failure> {
    // A profile the engine does not hold is copied into the message in tasks of its own (`payload_in_steps`), not
    // in the one that made it (a transform: 37 ms of the same task), nor in one (a million stack rows: 100 ms). A
    // newer request of the channel meanwhile cancels this one.
    let mut ready = None;
    if !engine_holds(request.sent_key()) {
        let cancels = || CANCELS.with(|c| c.get().get(channel as usize).copied());
        let before = cancels();
        let transfer = Array::new();
        let payload = super::payload::payload_in_steps(imported, &transfer).await;
        if cancels() != before {
            return Err(Failure::Load(LoadError::Cancelled));
        }
        ready = Some((
            payload.map_err(|e| Failure::Load(LoadError::Protocol(e)))?,
            transfer,
        ));
    }
    request.id = next_id();
    let (id, n) = (request.id, request.jobs.len());
    let (message, transfer) = prepare(imported, &request, ready).map_err(Failure::Load)?;
    let mut settle: Option<js_sys::Function> = None;
    let promise = Promise::new(&mut |resolve, _| settle = Some(resolve));
    let holder: Rc<RefCell<Option<Result<Answers, Failure>>>> = Rc::new(RefCell::new(None));
    let finish: Finish = {
        let holder = holder.clone();
        Box::new(move |o| {
            *holder.borrow_mut() = Some(o);
            if let Some(f) = settle {
                let _ = f.call0(&JsValue::NULL);
            }
        })
    };
    REQUESTS.with(|r| {
        r.borrow_mut().push(Request {
            id,
            channel,
            jobs: n,
            answers: Vec::new(),
            finish: Some(finish),
        })
    });
    send(id, message, transfer);
    let _ = JsFuture::from(promise).await;
    let outcome = holder.borrow_mut().take();
    outcome.unwrap_or(Err(Failure::Load(LoadError::Cancelled)))
}

/// Starts the engine if none runs, without a profile: called once the page has been quiet for 2 s after a load, so the first
/// view asked for does not wait for a worker to start (its wasm instantiated; the module is compiled once, by
/// `www/boot.js`). What an idle engine costs in memory: docs/BENCHMARKS.md. Nothing is said if it fails: the
/// next view's request says why.
pub fn warm() {
    if !page_is_engine() {
        let _ = ensure_engine();
    }
}

/// `{ request, payload? }`: the request, and beside it the profile when the engine does not hold it yet (a
/// copy: the page keeps its own), with the buffers to transfer.
/// `ready`: the profile's payload made beforehand ([`payload::payload_in_steps`](super::payload::payload_in_steps)),
/// with its buffers to transfer; made here when the engine needs the profile and it is `None`.
fn request_message(
    imported: Option<&Imported>,
    request: &Build,
    ready: Option<(js_sys::Object, Array)>,
) -> Result<(JsValue, Array), LoadError> {
    let (ready, transfer) = match ready {
        Some((payload, transfer)) => (Some(payload), transfer),
        None => (None, Array::new()),
    };
    // 64-bit numbers as BigInts: a view's label range can reach `i64::MIN`, which no JS number holds (the
    // engine's `from_value` takes either).
    let ser = serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);
    let head = serde::Serialize::serialize(&ToWorker::Build(request.clone()), &ser)
        .map_err(|e| LoadError::Engine(format!("the request could not be encoded: {e}")))?;
    let message = js_sys::Object::new();
    let _ = Reflect::set(&message, &"request".into(), &head);
    if let (Some(_), Some(payload)) = (imported, &ready) {
        let _ = Reflect::set(&message, &"payload".into(), payload);
    } else if let Some(imported) = imported {
        let mut copy = Imported {
            profile: imported.profile.clone(),
            gzip: imported.gzip,
            bytes: imported.bytes,
        };
        let payload = super::payload::profile_payload(&mut copy, &transfer).map_err(LoadError::Protocol)?;
        drop(copy);
        let _ = Reflect::set(&message, &"payload".into(), &payload);
    }
    crate::seams::make_unsendable(&message);
    Ok((message.into(), transfer))
}

fn on_message(serial: u32, data: JsValue) {
    let payload = Reflect::get(&data, &"payload".into()).unwrap_or(JsValue::UNDEFINED);
    if !payload.is_undefined() {
        let _ = Reflect::delete_property(data.unchecked_ref::<js_sys::Object>(), &"payload".into());
    }
    let msg: FromWorker = match FromWorker::decode(&data) {
        Ok(m) => m,
        Err(e) => {
            return lost(
                serial,
                format!("it answered what the page does not understand: {e}"),
            )
        }
    };
    match msg {
        FromWorker::Ready => {
            let queued = ENGINE.with(|e| {
                let mut e = e.borrow_mut();
                let engine = e.as_mut().filter(|x| x.serial == serial)?;
                engine.ready = true;
                Some(std::mem::take(&mut engine.queued))
            });
            for (id, message, transfer) in queued.unwrap_or_default() {
                send(id, message, transfer);
            }
        }
        FromWorker::Built { id, error, .. } => {
            let all = REQUESTS.with(|r| {
                let mut r = r.borrow_mut();
                let q = r.iter_mut().find(|q| q.id == id)?;
                q.answers.push((error, payload));
                (q.answers.len() == q.jobs).then(|| std::mem::take(&mut q.answers))
            });
            if let Some(all) = all {
                end(id, Ok(all));
            }
        }
        FromWorker::Failed { id, error } if error == super::protocol::NOT_HELD => {
            ENGINE.with(|e| {
                if let Some(x) = e.borrow_mut().as_mut() {
                    x.holds = Slots::default();
                }
            });
            end(id, Err(Failure::NotHeld))
        }
        FromWorker::Failed { id, error } => end(id, Err(Failure::Load(LoadError::Import(error)))),
        FromWorker::Progress(_)
        | FromWorker::Done { .. }
        | FromWorker::Part
        | FromWorker::Slicing { .. }
        | FromWorker::Compiling
        | FromWorker::PageModule
        | FromWorker::Module => {}
    }
}

/// A function table from its postcard chunks (`jobs::table_payload`), one chunk per task.
async fn table(payload: &JsValue) -> Result<Table, String> {
    let bad = |e: postcard::Error| format!("could not decode the function table from the worker: {e}");
    let chunks = Reflect::get(payload, &"table".into())
        .ok()
        .and_then(|t| t.dyn_into::<Array>().ok())
        .unwrap_or_default();
    let head = chunks.get(0);
    if head.is_undefined() {
        return Err("the worker sent no function table".to_string());
    }
    let (w, n): (u64, u64) = postcard::from_bytes(&Uint8Array::new(&head).to_vec()).map_err(bad)?;
    // Every chunk but the last holds `TABLE_CHUNK` rows: the rows are given their room once. Grown as they came,
    // a million rows were copied again at each doubling (72 ms of a task on the page, most of it `realloc`).
    let mut rows =
        Vec::with_capacity((chunks.length() as usize).saturating_sub(1) * super::views::TABLE_CHUNK);
    // Each chunk is copied into wasm memory in the task that decodes it, not all of them at once first.
    for c in chunks.iter().skip(1) {
        yield_now().await;
        rows.extend(postcard::from_bytes::<Vec<FunctionRow>>(&Uint8Array::new(&c).to_vec()).map_err(bad)?);
    }
    Ok((rows, w, n))
}

/// A stack chart from its columns (`jobs::serve`), one typed array copied per task; `Ok(None)` without
/// timestamps.
async fn chart(payload: &JsValue, frames: usize) -> Result<Option<scorch_core::view::StackChart>, String> {
    let get = |k: &str| {
        Reflect::get(payload, &k.into())
            .ok()
            .and_then(|a| a.dyn_into::<Array>().ok())
    };
    let (Some(u32s), Some(u64s)) = (get("chart_u32"), get("chart_u64")) else {
        return Ok(None);
    };
    let mut cols = scorch_core::TreeColumns::default();
    for a in u32s.iter() {
        yield_now().await;
        cols.u32s.push(a.unchecked_into::<js_sys::Uint32Array>().to_vec());
    }
    for a in u64s.iter() {
        yield_now().await;
        cols.u64s
            .push(a.unchecked_into::<js_sys::BigUint64Array>().to_vec());
    }
    scorch_core::view::StackChart::from_columns(cols, frames)
        .map(Some)
        .ok_or_else(|| "the stack chart built in the worker did not fit together".to_string())
}

/// A graph from its columns (`graph::put`), taken in short tasks (the names decoded in one, the columns copied by
/// `copier`); an error when they do not fit together.
async fn take_graph(payload: &JsValue, copier: &mut Copier) -> Result<super::graph::GraphView, String> {
    let now = super::now;
    let t0 = now();
    let get = |k: &str| Reflect::get(payload, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let bytes = Uint8Array::new(&get("graph")).to_vec();
    let graph: scorch_core::analysis::callgraph::CallGraph = postcard::from_bytes(&bytes)
        .map_err(|e| format!("could not decode the call graph from the worker: {e}"))?;
    drop(bytes);
    // Test builds: what decoding the worker's answer cost the page (`scorch-phase`, as `state::timed` logs).
    #[cfg(feature = "testing")]
    if now() - t0 >= 10.0 {
        web_sys::console::log_1(&format!("scorch-phase graph take {:.1} at {t0:.0}", now() - t0).into());
    }
    let _ = t0;
    yield_now().await;
    let f = copier.columns::<js_sys::Float64Array>(&get("graph_f64")).await;
    let u = copier.columns::<js_sys::Uint32Array>(&get("graph_u32")).await;
    super::graph::fit(graph, f, u)
}
