//! Views of a large profile built off the page's main thread: the inverted tree, the sandwich's two sides, the
//! function table, a plain tree under another view. Each can take seconds on millions of stacks, in one call
//! that cannot be cut into tasks; here a worker running the same wasm builds them.
//!
//! One worker per request, per [`Channel`]: a newer request on a channel terminates the worker of the older one
//! (its future ends with [`LoadError::Cancelled`]), and a worker is terminated once it has answered, so its wasm
//! memory is given back. The page sends a copy of the profile (its big columns as typed arrays, like the import
//! worker's answer) and takes each answer in short tasks ([`Copier`]). When no worker can start, [`compute`] runs
//! here instead, as it did before.

use super::page::{fits_in_memory, start_worker, yield_now, Copier};
use super::protocol::{Build, FromWorker, Job, ToWorker};
use super::LoadError;
use crate::url::UrlKey;
use js_sys::{Array, Promise, Reflect, Uint8Array};
use scorch_core::analysis::functions::FunctionRow;
use scorch_core::analysis::sandwich;
use scorch_core::view::calltree::Order;
use scorch_core::{CallTree, FlameLayout, Imported, Profile, ViewOptions};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A function table: rows, the view's total weight and sample count.
pub type Table = (Vec<FunctionRow>, u64, u64);

/// Rows per postcard chunk of a function table (one chunk decoded per task on the page).
pub(super) const TABLE_CHUNK: usize = 100_000;

/// What a job builds.
pub enum Built {
    Flame(CallTree, FlameLayout),
    Table(Table),
    /// `None`: the profile has no timestamps.
    Chart(Option<scorch_core::view::StackChart>),
}

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
}

/// Builds one job of `p` under `view`, here. The worker runs the same.
pub fn compute(p: &Profile, view: &ViewOptions, order: Order, job: &Job) -> Result<Built, String> {
    let flame = |p: &Profile| {
        let tree = CallTree::build(p, view, order);
        let layout = FlameLayout::new(&tree);
        Built::Flame(tree, layout)
    };
    Ok(match job {
        Job::Plain => flame(p),
        Job::Inverted => flame(&sandwich::invert(p)?),
        Job::Callers(f) => flame(&sandwich::callers(p, f)?),
        Job::Callees(f) => flame(&sandwich::callees(p, f)?),
        Job::Functions => Built::Table(scorch_core::analysis::functions::functions(p, view)),
        Job::Chart => Built::Chart(scorch_core::view::StackChart::build(p, view)),
    })
}

/// Each job's error, or the payload its answer carried.
type Answers = Vec<(Option<String>, JsValue)>;
/// Settles a request's future.
type Finish = Box<dyn FnOnce(Result<Answers, Failure>)>;

/// Why a request ended without answers.
enum Failure {
    Load(LoadError),
    /// The worker never said it was ready (its script did not load): the page builds the views itself.
    NoWorker(String),
}

struct Running {
    worker: web_sys::Worker,
    id: u32,
    jobs: usize,
    /// The request and its transfer list, held until the worker says it is ready.
    request: Option<(JsValue, Array)>,
    answers: Answers,
    finish: Option<Finish>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

thread_local! {
    static RUNNING: RefCell<[Option<Running>; 4]> = const { RefCell::new([None, None, None, None]) };
    static NEXT_ID: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

/// How many requests are under way (a test hook reads it).
pub fn running() -> usize {
    RUNNING.with(|r| r.borrow().iter().filter(|x| x.is_some()).count())
}

/// Stops the request under way on `channel`, if any.
pub fn cancel(channel: Channel) {
    end(channel, None, Err(Failure::Load(LoadError::Cancelled)));
}

/// Ends the request on `channel` (if `id` matches, or any when `None`): terminates its worker, settles its future.
fn end(channel: Channel, id: Option<u32>, outcome: Result<Answers, Failure>) {
    let running = RUNNING.with(|r| {
        let mut r = r.borrow_mut();
        let slot = r.get_mut(channel as usize)?;
        if id.is_some_and(|id| slot.as_ref().is_some_and(|run| run.id != id)) {
            return None;
        }
        slot.take()
    });
    if let Some(mut run) = running {
        super::retire(&run.worker, run.request.is_none());
        if let Some(finish) = run.finish.take() {
            finish(outcome);
        }
    }
}

/// Builds `jobs` of `imported` under `view` in a worker; one result per job, in order. `Err` when the request
/// was cancelled by a newer one on its channel, or the worker died or answered nonsense.
pub async fn build(
    channel: Channel,
    imported: &Imported,
    view: ViewOptions,
    order: Order,
    jobs: Vec<Job>,
) -> Result<Vec<Result<Built, String>>, LoadError> {
    cancel(channel);
    let id = NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    });
    let n = jobs.len();
    let request = Build {
        id,
        view: view.clone(),
        order: order.key().to_string(),
        jobs: jobs.clone(),
    };
    let worker = match start_worker() {
        Ok(w) => w,
        Err(why) => {
            web_sys::console::warn_1(
                &format!("scorch: no worker for the view ({why}); building it on the page").into(),
            );
            return Ok(jobs
                .iter()
                .map(|j| compute(&imported.profile, &view, order, j))
                .collect());
        }
    };
    let (message, transfer) = request_message(imported, &request)?;
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
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        on_message(channel, id, e.data())
    });
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
        let message = super::error_message(&e);
        let message = if message.is_empty() {
            "the worker script failed to load".to_string()
        } else {
            message
        };
        // Before it was ready (the request not sent yet) the worker never started.
        let started = with_run(channel, id, |run| Some(run.request.is_none())) == Some(true);
        let failure = if started {
            Failure::Load(LoadError::WorkerDied { message, last: None })
        } else {
            Failure::NoWorker(message)
        };
        end(channel, Some(id), Err(failure));
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    RUNNING.with(|r| {
        if let Some(slot) = r.borrow_mut().get_mut(channel as usize) {
            *slot = Some(Running {
                worker,
                id,
                jobs: n,
                request: Some((message, transfer)),
                answers: Vec::new(),
                finish: Some(finish),
                _on_message: on_message,
                _on_error: on_error,
            });
        }
    });
    let limit = super::start_limit();
    super::after(limit, move || {
        // Still holding its request: the worker never said it was ready.
        if with_run(channel, id, |run| Some(run.request.is_some())) == Some(true) {
            let why = format!("it did not start within {} s", limit / 1000.0);
            end(channel, Some(id), Err(Failure::NoWorker(why)));
        }
    });
    let _ = JsFuture::from(promise).await;
    let outcome = holder.borrow_mut().take();
    let answers = match outcome {
        Some(Ok(a)) => a,
        Some(Err(Failure::Load(e))) => return Err(e),
        None => return Err(LoadError::Cancelled),
        Some(Err(Failure::NoWorker(why))) => return Ok(here(why, imported, view, order, &jobs)),
    };
    // Each answer taken in short tasks.
    let mut copier = Copier::default();
    let mut out = Vec::with_capacity(n);
    for (job, (error, payload)) in jobs.iter().zip(answers) {
        if let Some(e) = error {
            out.push(Err(e));
            continue;
        }
        fits_in_memory(&payload)?;
        yield_now().await;
        out.push(match job {
            Job::Functions => table(&payload).await.map(Built::Table),
            Job::Chart => chart(&payload, imported.profile.frames.len())
                .await
                .map(Built::Chart),
            _ => copier
                .flame(&payload)
                .await
                .map(|(t, l)| Built::Flame(t, l))
                .ok_or_else(|| "the view built in the worker did not fit together".to_string()),
        });
    }
    Ok(out)
}

/// The fallback without a worker: the jobs built here, as before.
fn here(
    why: String,
    imported: &Imported,
    view: ViewOptions,
    order: Order,
    jobs: &[Job],
) -> Vec<Result<Built, String>> {
    web_sys::console::warn_1(
        &format!("scorch: no worker for the view ({why}); building it on the page").into(),
    );
    jobs.iter()
        .map(|j| compute(&imported.profile, &view, order, j))
        .collect()
}

/// `{ request, payload }`: the request, and beside it the profile (a copy: the page keeps its own), with the
/// buffers to transfer.
fn request_message(imported: &Imported, request: &Build) -> Result<(JsValue, Array), LoadError> {
    let mut copy = Imported {
        profile: imported.profile.clone(),
        gzip: imported.gzip,
        bytes: imported.bytes,
    };
    let transfer = Array::new();
    let payload = super::payload::profile_payload(&mut copy, &transfer).map_err(LoadError::Protocol)?;
    drop(copy);
    let head = serde_wasm_bindgen::to_value(&ToWorker::Build(request.clone()))
        .map_err(|e| LoadError::Protocol(e.to_string()))?;
    let message = js_sys::Object::new();
    let _ = Reflect::set(&message, &"request".into(), &head);
    let _ = Reflect::set(&message, &"payload".into(), &payload);
    crate::seams::make_unsendable(&message);
    Ok((message.into(), transfer))
}

/// `f` of the request under way on `channel`, if it is request `id` (`f` must not end it).
fn with_run<R>(channel: Channel, id: u32, f: impl FnOnce(&mut Running) -> Option<R>) -> Option<R> {
    RUNNING.with(|r| {
        let mut r = r.borrow_mut();
        let run = r
            .get_mut(channel as usize)
            .and_then(Option::as_mut)
            .filter(|run| run.id == id)?;
        f(run)
    })
}

fn on_message(channel: Channel, id: u32, data: JsValue) {
    let payload = Reflect::get(&data, &"payload".into()).unwrap_or(JsValue::UNDEFINED);
    if !payload.is_undefined() {
        let _ = Reflect::delete_property(data.unchecked_ref::<js_sys::Object>(), &"payload".into());
    }
    let msg: FromWorker = match serde_wasm_bindgen::from_value(data) {
        Ok(m) => m,
        Err(e) => {
            return end(
                channel,
                Some(id),
                Err(Failure::Load(LoadError::Protocol(e.to_string()))),
            )
        }
    };
    match msg {
        FromWorker::Ready => {
            let sent = with_run(channel, id, |run| {
                let (request, transfer) = run.request.take()?;
                Some(run.worker.post_message_with_transfer(&request, &transfer))
            });
            // The request cannot reach the worker (a structured clone can fail): the page builds the views.
            if let Some(Err(e)) = sent {
                let why = format!("the request could not be sent: {}", super::js_err(e));
                end(channel, Some(id), Err(Failure::NoWorker(why)));
            }
        }
        FromWorker::Built { id: got, error, .. } if got == id => {
            let all = with_run(channel, id, |run| {
                run.answers.push((error, payload));
                (run.answers.len() == run.jobs).then(|| std::mem::take(&mut run.answers))
            });
            if let Some(all) = all {
                end(channel, Some(id), Ok(all));
            }
        }
        FromWorker::Failed { error, .. } => {
            end(channel, Some(id), Err(Failure::Load(LoadError::Import(error))))
        }
        FromWorker::Built { .. } | FromWorker::Progress(_) | FromWorker::Done { .. } | FromWorker::Part => {}
    }
}

/// A function table from its postcard chunks (`jobs::table_payload`), one chunk per task.
async fn table(payload: &JsValue) -> Result<Table, String> {
    let bad = |e: postcard::Error| format!("could not decode the function table from the worker: {e}");
    let chunks: Vec<Vec<u8>> = Reflect::get(payload, &"table".into())
        .ok()
        .and_then(|t| t.dyn_into::<Array>().ok())
        .map(|a| a.iter().map(|c| Uint8Array::new(&c).to_vec()).collect())
        .unwrap_or_default();
    let mut it = chunks.into_iter();
    let head = it.next().ok_or("the worker sent no function table")?;
    let (w, n): (u64, u64) = postcard::from_bytes(&head).map_err(bad)?;
    let mut rows = Vec::new();
    for c in it {
        yield_now().await;
        rows.extend(postcard::from_bytes::<Vec<FunctionRow>>(&c).map_err(bad)?);
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
        cols.u32s.push(js_sys::Uint32Array::new(&a).to_vec());
    }
    for a in u64s.iter() {
        yield_now().await;
        cols.u64s.push(js_sys::BigUint64Array::new(&a).to_vec());
    }
    scorch_core::view::StackChart::from_columns(cols, frames)
        .map(Some)
        .ok_or_else(|| "the stack chart built in the worker did not fit together".to_string())
}
