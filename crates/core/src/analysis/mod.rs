//! The analysis layer: what experts read off a profile. Depends on `crate::view` and `crate::model` only.
//!
//! - `functions.rs`: the one per-function aggregation (self and total per function name), used by `top.rs`
//!   (`scorch top`), the function table, and the movers of `diff.rs`;
//! - `callgraph/`: the call graph (pprof's `-dot`: nodes, edges, pruning) and its layered layout;
//! - `search.rs`: search patterns and the matched share;
//! - `transforms.rs`: focus, merge, hide, ignore, collapse recursion, show-from;
//! - `sandwich.rs`: the inverted tree and the callers/callees of one function;
//! - `diff.rs`: a base and a target (or several runs of each) merged into one tree, frames matched by name;
//! - `compare.rs`: the facts that make two sides comparable (sample type, unit, period, duration, …);
//! - `gate.rs` and `welch.rs`: the noise-aware regression gate (Welch's t-test on per-run shares);
//! - `heatmap.rs`: the subsecond-offset heatmap;
//! - `lost.rs`: lost events (perf `PERF_RECORD_LOST`) per heatmap column;
//! - `markers.rs`: the marker list (per thread: name, start, duration);
//! - `stats.rs`: sampling error (Wilson intervals of shares) and sampling rates;
//! - `health.rs`: stack health (truncated and unsymbolized shares, depth) with advice;
//! - `duration.rs`: how much of the recording's time the samples account for (the "missing time");
//! - `series.rs`: several profiles in a row: each function's self and total share per profile, their trends;
//! - `threads.rs`: the thread list (per thread: samples, total, an activity strip over time).

pub mod callgraph;
pub mod compare;
pub mod diff;
pub mod duration;
pub mod functions;
pub mod gate;
pub mod health;
pub mod heatmap;
pub mod lost;
pub mod markers;
pub mod sandwich;
pub mod search;
pub mod series;
pub mod source;
pub mod stats;
pub mod summary;
pub mod threads;
pub mod top;
pub mod transforms;
pub mod welch;
