//! The import worker's protocol: every message between the page and `www/worker.js`, as plain types.
//!
//! The page starts one worker per load (`page.rs`); one that answered keeps the profile it read (under
//! [`Open::key`]) and becomes the engine (`build.rs`, `jobs.rs`), which builds every further view of it and is
//! terminated when the profile is closed, so its wasm memory (which cannot shrink) is given back; a load
//! cancelled or failed ends its worker at once. An import worker may start parse workers of its own for a large input ([`SliceRequest`],
//! `slices.rs`); they end with it. A request is `{ request, file?, payload? }`: `request` a [`ToWorker`] made by
//! serde-wasm-bindgen, and beside it what cannot be plain data: the `File` to read (`file`, structured-cloned: a
//! handle, not the bytes), or the profile to build views of (`payload`). Answers are [`FromWorker`] with their
//! columns under `payload`: the parsed profile (`buffer`, an `ArrayBuffer` from
//! [`scorch_core::model::wire::encode`], and its big columns and the first flame graph's as typed arrays), a
//! view's tree and layout, a function table — all transferred, not copied.

use serde::{Deserialize, Serialize};

/// Page → worker: an import worker's one request, an engine's many ([`Build`]), a parse worker's slice.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum ToWorker {
    Open(Open),
    Build(Build),
    Slice(SliceRequest),
}

/// Import worker → parse worker (`slices.rs`): parse one slice of a large input. Its bytes are the `Blob` that
/// rides as `file`, or come in `{ chunk }` messages (a `Uint8Array`, transferred) ended by `{ end: true }`.
/// Answered by [`FromWorker::Part`] (or `Failed`), after `Progress` reports with id 0.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SliceRequest {
    pub format: scorch_core::Format,
}

/// Page → worker: import one profile.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Open {
    /// Echoed in every answer; the page ignores answers for another id.
    pub id: u32,
    /// Fetch this URL (streamed). When `None`, read the `File` that rides as `file`, or decode `link`.
    pub url: Option<String>,
    /// The profile a link carries (its `p=` value: deflate + base64url), decoded and imported here.
    #[serde(default)]
    pub link: Option<String>,
    /// Bytes per slice when reading a file.
    pub slice_bytes: u32,
    /// Read the input here, whole, without parse workers: the retry of a load whose worker stopped answering
    /// while it started them ([`FromWorker::Slicing`]).
    #[serde(default)]
    pub whole: bool,
    /// Build the default view's call tree and flame layout too, siblings in this order (`alpha` or `heavy`),
    /// so the page does not spend long tasks on them.
    pub order: String,
    /// The page's key for the profile (`worker::next_profile_key`): the worker keeps the profile under it once
    /// it has answered, and the page keeps the worker as its view engine ([`Build`]s name the key), so the
    /// profile is never sent back to a worker. 0: not kept (the early read of a link's profile).
    #[serde(default)]
    pub key: u32,
    /// Test builds only (the `testing` feature): slow the worker down, or make it die.
    #[cfg(feature = "testing")]
    #[serde(default)]
    pub throttle: Throttle,
}

/// Test hook (`testing` feature): set from `window.__scorchLoadThrottle` (`crate::testing`, through
/// `crate::seams::throttle_load`).
#[cfg(feature = "testing")]
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct Throttle {
    /// Wait this long after every slice or chunk, so tests can watch progress.
    pub ms: u32,
    /// After this many slices, trap as an allocation failure does, so tests can check what the page says when
    /// the worker dies.
    pub trap_after: u32,
    /// Nonzero: the parse workers of this load never say they are ready, and are given up on after this many
    /// ms (`window.__scorchSilentWorkers`).
    #[serde(default)]
    pub silent_ms: u32,
    /// The import worker blocks for good where it would start its parse workers, as Firefox's worker
    /// constructor once in about thirty file loads did (`window.__scorchStuckWorker`).
    #[serde(default)]
    pub stuck: bool,
    /// Nonzero: cut the input as on a machine of this many cores (`window.__scorchCores`): the tests of the
    /// parse workers run on two cores, where the product starts none.
    #[serde(default)]
    pub cores: u32,
}

/// Page → engine: build views of the open profile, whatever its size, off the page's main thread (the inverted
/// tree, the sandwich's two sides, the function table, the stack chart, the call graph: each can take seconds on
/// millions of stacks). The profile rides beside the first request for it as `payload` (`buffer`,
/// `profile_u32`, `profile_u64`, as in [`FromWorker::Done`]); the engine (`jobs.rs`) holds it for the next
/// requests.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Build {
    pub id: u32,
    /// The page's [`Channel`](super::build::Channel): the engine skips a request that a newer one of its channel
    /// replaced before it began.
    pub channel: u8,
    /// The profile's key (the page's, the same for as long as it is open). The profile rides beside the first
    /// request that names it as `payload`; the engine keeps it for the requests after.
    pub profile: u32,
    pub view: scorch_core::ViewOptions,
    /// Sibling order of the trees (`alpha` or `heavy`).
    pub order: String,
    pub jobs: Vec<Job>,
    /// Set: the profile `profile` is not sent, it is made by the engine from one it holds ([`Derive`]) and then
    /// held like one sent. A profile the engine does not hold rides as `payload` under `Derive::from`.
    #[serde(default)]
    pub derive: Option<Derive>,
}

impl Build {
    /// The key of the profile that rides with this request as `payload` when the engine does not hold it: the
    /// request's own, or the one its profile is made from ([`Build::derive`]).
    pub fn sent_key(&self) -> u32 {
        self.derive.as_ref().map_or(self.profile, |d| d.from)
    }
}

/// How the engine makes a request's profile from one it holds: the profile `from` at a granularity, then after
/// transforms (`scorch_core::analysis::transforms::derive`, as the page would, and the CLI does). Made where the
/// profile is, a transform is no task on the page (a merge on folded 100 MB was one of 53–66 ms there), and
/// the result is not sent back to the engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Derive {
    pub from: u32,
    pub granularity: scorch_core::view::granularity::Granularity,
    /// Each transform as its text (`Transform::to_text`, the links' form), in order.
    pub transforms: Vec<String>,
}

/// The profiles an engine holds, by key, in two slots: the first profile it was given (the one the page opened:
/// read by this worker, or the first sent to it), kept while it lives, and the last other one sent (at a
/// granularity, after transforms): turning a transform off again, or a view of the profile as opened (its source
/// lines), needs nothing sent. The page and the engine place a profile sent by the same rule ([`Slots::put`]),
/// so the page knows what the engine holds; on [`NOT_HELD`] both forget all.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Slots {
    pub first: Option<u32>,
    pub other: Option<u32>,
}

impl Slots {
    pub fn holds(&self, key: u32) -> bool {
        self.first == Some(key) || self.other == Some(key)
    }

    /// Places a profile sent under `key`: the first slot while it is empty (or holds `key`), else the other.
    /// Returns the slot (0 or 1).
    pub fn put(&mut self, key: u32) -> usize {
        if self.first.is_none() || self.first == Some(key) {
            self.first = Some(key);
            0
        } else {
            self.other = Some(key);
            1
        }
    }
}

/// The engine's answer to a request for a profile it does not hold (the message that carried it could not be
/// posted, or could not be taken): the page asks once more with the profile, then reports the error.
pub const NOT_HELD: &str = "the view engine does not hold this profile";

/// One view to build; each answers with its own [`FromWorker::Built`], in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// The call tree and layout of the profile as it is.
    Plain,
    /// Of the inverted profile.
    Inverted,
    /// Of the sandwich's callers side of this function.
    Callers(String),
    /// Of its callees side.
    Callees(String),
    /// The function table (`functions`), as postcard chunks.
    Functions,
    /// The stack chart (`scorch_core::view::StackChart`), as columns (`chart_u32`, `chart_u64`).
    Chart,
    /// The call graph, pruned and laid out (`graph.rs`): the layout as columns (`graph_f64`, `graph_u32`), the
    /// graph as a postcard buffer (`graph`).
    Graph(GraphJob),
    /// The per-line self and total of the function of this name (`scorch_core::analysis::source::list`, as
    /// `scorch list` prints them) in the profile as loaded, as one postcard buffer (`source`, [`SourceLines`]).
    Source(String),
    /// The status line's figures of the view ([`ViewFigures`]), as a JS value (`figures`).
    Figures,
    /// What "Copy link" carries of the view ([`Share`], `share.rs`), as a JS value (`share`).
    Share(ShareJob),
    /// The tree of a flame graph job (plain, inverted, callers, callees) whole, never cut (the call-tree table
    /// lists every node).
    Whole(Box<Job>),
    /// The subtree of node `node` (its id in the whole tree) of the cut tree job `of` built, cut again keeping the
    /// nodes of at least `min` (`scorch_core::view::cut`): what a zoom into a cut graph asks for.
    Refine { of: Box<Job>, node: u32, min: u64 },
    /// The profile itself, as the import worker answers it (`buffer`, `profile_u32`, `profile_u64`): the one the
    /// engine made ([`Build::derive`]), for the page's own copy.
    Profile,
}

impl Job {
    /// The job's kind, in words (`plain`, `inverted`, `callers`, `callees`, `functions`, `chart`, `graph`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Job::Plain => "plain",
            Job::Inverted => "inverted",
            Job::Callers(_) => "callers",
            Job::Callees(_) => "callees",
            Job::Functions => "functions",
            Job::Chart => "chart",
            Job::Graph(_) => "graph",
            Job::Source(_) => "source",
            Job::Figures => "figures",
            Job::Share(_) => "share",
            Job::Whole(_) => "whole",
            Job::Refine { .. } => "refine",
            Job::Profile => "profile",
        }
    }
}

/// What call graph to build: pprof's pruning (`scorch_core::analysis::callgraph::GraphOptions`) and focus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphJob {
    pub node_fraction: f64,
    pub edge_fraction: f64,
    /// 0 keeps every node.
    pub node_count: u32,
    /// Only the samples whose path has a function matching this regular expression.
    pub focus: Option<String>,
}

impl Default for GraphJob {
    /// pprof's defaults for `-dot` (`GraphOptions::default`), no focus.
    fn default() -> Self {
        let o = scorch_core::analysis::callgraph::GraphOptions::default();
        GraphJob {
            node_fraction: o.node_fraction,
            edge_fraction: o.edge_fraction,
            node_count: o.node_count as u32,
            focus: None,
        }
    }
}

impl FromWorker {
    /// A worker's message, its `payload` (when it has one) set aside by the caller: the one place answers are
    /// decoded. [`FromWorker::Module`]'s and [`FromWorker::PageModule`]'s `module` is never read (the same
    /// message goes to boot.js's listener).
    pub fn decode(data: &wasm_bindgen::JsValue) -> Result<FromWorker, String> {
        let kind = js_sys::Reflect::get(data, &"type".into())
            .ok()
            .and_then(|t| t.as_string());
        match kind.as_deref() {
            Some("Module") => return Ok(FromWorker::Module),
            Some("PageModule") => return Ok(FromWorker::PageModule),
            _ => {}
        }
        serde_wasm_bindgen::from_value(data.clone()).map_err(|e| e.to_string())
    }
}

/// Worker → page.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum FromWorker {
    /// The worker's wasm is running. Requests sent before it are kept (`www/worker.js`) and taken then; a
    /// worker that fails before it is ready means the page reads the profile itself (folded stacks only).
    Ready,
    /// `boot.js`'s first worker is compiling the two wasm binaries (`www/worker.js`): boot.js's alone, but a
    /// load may hear it. Nothing to do.
    Compiling,
    /// That worker's compiled page module, under `module` beside the type (not decoded here: it is not plain
    /// data), for boot.js. Nothing to do.
    PageModule,
    /// That worker's compiled engine module, likewise, kept by boot.js for the workers the page starts later.
    Module,
    /// Sent after every slice (at most every 4 MiB or so).
    Progress(Progress),
    /// The import worker is about to start its parse workers (`started: false`), or has (`true`). Firefox's
    /// worker constructor, called in a worker, blocked that worker's thread for good in about one file load in
    /// thirty here (tests/e2e/parallel.test.mjs): a worker silent for [`SLICING_LIMIT_MS`] after `false` is
    /// ended, and the input read again without parse workers ([`Open::whole`]).
    Slicing { id: u32, started: bool },
    /// The profile was parsed and built. Beside it rides `payload`: the encoded profile as `buffer`, and the
    /// default view's call tree and layout as arrays of typed arrays (`CallTree::into_columns`,
    /// `FlameLayout::into_columns`): `tree_u32`, `tree_u64` (BigUint64Array), `layout_f64`, `layout_u32` — all
    /// transferred.
    Done {
        id: u32,
        /// Milliseconds the worker spent from the request to the encoded profile.
        ms: f64,
        /// The bytes came from the response boot.js started for the link (`www/worker.js`), not a new fetch.
        prefetched: bool,
        /// Slices the input was parsed in (1: read whole by this worker): one per worker for a file, one per
        /// block of a download (`slices.rs`).
        #[serde(default)]
        slices: u32,
        /// The page's spare parse worker (`helpers.rs`) was one of the parse workers.
        #[serde(default)]
        spare: bool,
    },
    /// Job `index` of a [`Build`] is done. Beside it rides `payload`: a tree's columns as in `Done`, or for the
    /// function table `table`, an array of postcard buffers (the totals, then the rows in chunks). `error`: the
    /// job failed (the inverted tree's cap) and nothing rides.
    Built {
        id: u32,
        index: u32,
        error: Option<String>,
    },
    /// A parse worker's slice result: beside it rides `buffer`, `SlicePart::encode_result`'s bytes.
    Part,
    /// The import failed; the message says the format, byte offset and line.
    Failed { id: u32, error: String },
}

/// How long an import worker may stay silent after saying it starts its parse workers. Starting them takes a
/// few ms (two workers' constructors, a message each); a worker whose thread is blocked never answers again.
pub const SLICING_LIMIT_MS: f64 = 5_000.0;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub id: u32,
    /// Bytes read from the file or the network (compressed, when the file is gzip'd).
    pub read: f64,
    /// The file's size, or the response's Content-Length; `None` when unknown.
    pub total: Option<f64>,
    /// Samples (perf) or sample lines (folded) parsed so far; 0 for pprof, which is decoded at the end.
    pub samples: f64,
}

/// A [`Job::Share`]: the scrub rules (the redact expression among them), the link's cap in bytes, and the most
/// profiles a merge may carry apart (the link's `MAX_SERIES`; `None` in a diff, whose base goes along).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShareJob {
    pub rules: scorch_core::export::scrub::Rules,
    pub max: usize,
    pub merge: Option<usize>,
}

/// A [`Job::Share`]'s answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Share {
    /// What the view holds before the scrub.
    pub found: scorch_core::export::report::Report,
    /// What the link carries.
    pub carried: scorch_core::export::report::Report,
    /// Whether the view the link carries keeps a time range (then without timestamps, only that range travels).
    pub ranged: bool,
    /// The redact expression's error (the scrub then ran without it).
    pub error: Option<String>,
    /// A merge's profiles, each `(name, payload)`; empty otherwise.
    pub profiles: Vec<(String, String)>,
    /// The folded stacks' payload of any other profile.
    pub payload: Option<String>,
    pub stacks: usize,
    pub dropped: usize,
    /// Share of the total weight dropped, in parts per million.
    pub dropped_ppm: u64,
    pub timed: bool,
}

/// A [`Job::Source`]'s answer: the function's lines in each file they are in (`Routine`s of
/// `scorch_core::analysis::source`), and the view's total.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceLines {
    pub total: i128,
    pub routines: Vec<SourceRoutine>,
    /// The profile says where no line of this function is (no locations, or none for it).
    pub no_source: bool,
}

/// One function's lines in one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceRoutine {
    pub function: String,
    pub file: String,
    pub flat: i128,
    pub cum: i128,
    /// `(line, self, total)`, lines with samples in increasing order.
    pub lines: Vec<(u32, i128, i128)>,
}

impl SourceLines {
    /// The bytes that travel (postcard).
    pub fn encode(&self) -> Result<Vec<u8>, String> {
        postcard::to_allocvec(self).map_err(|e| format!("could not encode the source lines: {e}"))
    }

    /// From [`SourceLines::encode`]'s bytes; an error, never a panic, for bytes that are not.
    pub fn decode(bytes: &[u8]) -> Result<SourceLines, String> {
        postcard::from_bytes(bytes)
            .map_err(|e| format!("could not decode the source lines from the worker: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::Slots;

    #[test]
    fn the_first_profile_stays_and_the_last_other_replaces_the_one_before() {
        let mut s = Slots::default();
        assert_eq!(s.put(7), 0);
        assert_eq!(s.put(7), 0, "the same key again: the same slot");
        assert_eq!(s.put(8), 1);
        assert_eq!(s.put(9), 1);
        assert!(s.holds(7) && s.holds(9) && !s.holds(8));
        assert_eq!(s.put(7), 0, "the first profile, sent again, goes where it was");
        assert_eq!(
            s,
            Slots {
                first: Some(7),
                other: Some(9)
            }
        );
    }
}

/// The status line's figures of one view of a profile, each a pass over its samples or its stack table: computed
/// where the profile is (the import worker for the first view, the view engine with the main graph of another),
/// and kept by the page per profile and view (`Loaded::figures`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ViewFigures {
    /// The stack health (the badge).
    pub health: scorch_core::analysis::health::StackHealth,
    /// How much of the recording's duration the samples account for.
    pub coverage: Option<scorch_core::analysis::duration::Coverage>,
    /// How many samples the shares rest on (the few-samples badge).
    pub samples: Option<u64>,
}

impl ViewFigures {
    /// The figures of `p` under `view`.
    pub fn of(p: &scorch_core::Profile, view: &scorch_core::ViewOptions) -> ViewFigures {
        ViewFigures {
            health: scorch_core::analysis::health::stack_health(p, view),
            coverage: scorch_core::analysis::duration::coverage(p, view),
            samples: scorch_core::analysis::stats::sample_count(p, view),
        }
    }
}
