//! The source view: the selected function's source lines with self and total per line, as `scorch list` (and
//! `go tool pprof -list`) has them — computed by the view engine ([`Job::Source`]), never here — lines coloured
//! by cost, the hottest scrolled into view, `j` / `k` to the next / previous line with samples. The text comes
//! from files or a folder picked or dropped here, or the deployment's URL template (`state::source`); without
//! it, the per-line table alone and how to give the text. Opened with `s` or the function table's *Source*
//! button; it follows the selected function (the function table's, the flame graph's).

use super::announcer::Announcer;
use crate::state::load::LoadState;
use crate::state::search::SearchState;
use crate::state::source::{self, Text};
use crate::state::ui::UiState;
use crate::state::view::ViewState;
use crate::worker::build::{self as worker_build, Built, Channel};
use crate::worker::protocol::{Job, SourceLines, SourceRoutine};
use leptos::prelude::*;
use scorch_core::model::units::format_value;
use std::cell::Cell;
use wasm_bindgen::JsCast;

thread_local! {
    /// Counts requests, so an answer for an older selection is dropped.
    static GEN: Cell<u32> = const { Cell::new(0) };
}

/// What one routine shows: its lines and, once read, its text.
#[derive(Clone, PartialEq)]
struct Shown {
    routine: SourceRoutine,
    text: Option<Text>,
}

/// Lines with samples of a routine, and the hottest (most self, then most total) among them.
fn hottest(r: &SourceRoutine) -> Option<u32> {
    r.lines
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(a.2.cmp(&b.2)).then(b.0.cmp(&a.0)))
        .map(|l| l.0)
}

/// A span of at most this many lines is shown whole; a longer one, [`MARGIN`](scorch_core::analysis::source::MARGIN)
/// lines around each line with samples (a function whose samples are at lines 1 and 150,000 must not put
/// 150,000 rows into the page).
const WHOLE_SPAN: u32 = 2_000;
/// The most rows one routine shows.
const MAX_ROWS: usize = 5_000;

/// The line numbers a routine shows with text, in order: its span when it is short, else the lines around each
/// line with samples; at most [`MAX_ROWS`].
fn shown_lines(r: &SourceRoutine) -> Vec<u32> {
    let (lo, hi) = span(r);
    let mut out: Vec<u32> = Vec::new();
    if hi - lo < WHOLE_SPAN {
        out.extend(lo..=hi);
    } else {
        let m = scorch_core::analysis::source::MARGIN;
        for l in &r.lines {
            let a = l.0.saturating_sub(m).max(1).max(out.last().map_or(0, |x| x + 1));
            out.extend(a..=l.0.saturating_add(m));
            if out.len() >= MAX_ROWS {
                break;
            }
        }
    }
    out.truncate(MAX_ROWS);
    out
}

/// The lines a routine shows with text: [`SourceRoutine`]'s span as `scorch list` prints it.
fn span(r: &SourceRoutine) -> (u32, u32) {
    let lo = r.lines.first().map_or(1, |l| l.0);
    let hi = r.lines.last().map_or(1, |l| l.0);
    let m = scorch_core::analysis::source::MARGIN;
    (lo.saturating_sub(m).max(1), hi.saturating_add(m))
}

#[component]
pub fn SourceView() -> impl IntoView {
    let ui = expect_context::<UiState>();
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let search = expect_context::<SearchState>();
    let shown = RwSignal::new(Vec::<Shown>::new());
    let message = RwSignal::new(None::<String>);
    let building = RwSignal::new(false);
    // The line the keys step from (routine index, line).
    let current = RwSignal::new(None::<(usize, u32)>);

    // Ask the engine for the selected function's lines whenever it, the profile or the view changes; then read
    // each routine's text.
    Effect::new(move |_| {
        let (Some(f), Some(loaded)) = (search.selected.get(), load.loaded.get()) else {
            shown.set(Vec::new());
            message.set(Some(
                "Select a function (in the function table, or click a frame in the flame graph) to see its source lines."
                    .to_string(),
            ));
            return;
        };
        let options = view.options.get();
        ui.source_files.track();
        let gen = GEN.with(|g| {
            g.set(g.get().wrapping_add(1));
            g.get()
        });
        building.set(true);
        message.set(None);
        let wanted = crate::state::rebuild::Wanted::asked();
        leptos::task::spawn_local(async move {
            let _wanted = wanted;
            crate::worker::yield_now().await;
            if GEN.with(Cell::get) != gen {
                return;
            }
            let r = worker_build::build(
                Channel::Source,
                loaded.key,
                &loaded.imported,
                options,
                scorch_core::view::calltree::Order::default(),
                vec![Job::Source(f.clone())],
            )
            .await;
            if GEN.with(Cell::get) != gen {
                return;
            }
            building.set(false);
            let lines: SourceLines = match r.map(|mut v| v.pop()) {
                Ok(Some(Ok(Built::Source(s)))) => s,
                Err(crate::worker::LoadError::Cancelled) => return,
                Ok(Some(Err(e))) => return message.set(Some(format!("Could not list the lines: {e}"))),
                Err(e) => return message.set(Some(format!("Could not list the lines: {e}"))),
                Ok(_) => return message.set(Some("The view engine answered nothing.".to_string())),
            };
            if lines.no_source {
                shown.set(Vec::new());
                message.set(Some(format!(
                    "The profile says where no line of {} is (it has no file and line for it).",
                    super::shown_name(&f)
                )));
                return;
            }
            let mut all: Vec<Shown> = lines
                .routines
                .into_iter()
                .map(|routine| Shown { routine, text: None })
                .collect();
            current.set(all.first().and_then(|s| hottest(&s.routine)).map(|l| (0, l)));
            shown.set(all.clone());
            for i in 0..all.len() {
                let (lo, hi) = span(&all[i].routine);
                let t = source::text(&all[i].routine.file, lo, hi).await;
                if GEN.with(Cell::get) != gen {
                    return;
                }
                all[i].text = Some(t);
                shown.set(all.clone());
            }
            // Once the rows are in the page.
            request_animation_frame(scroll_to_current);
        });
    });
    on_cleanup(|| {
        GEN.with(|g| g.set(g.get().wrapping_add(1)));
        worker_build::cancel(Channel::Source);
    });

    let fmt = move |raw: i128| -> String {
        let Some(l) = load.loaded.get_untracked() else {
            return raw.to_string();
        };
        let p = &l.imported.profile;
        let unit = view.options.with_untracked(|v| v.unit(p));
        format_value(raw as f64 / 10f64.powi(p.meta.decimals as i32), &unit)
    };

    // `j` / `k`: the next / previous line with samples, across the routines in order.
    Effect::new(move |prev: Option<(u32, i8)>| {
        let step = ui.source_step.get();
        if prev.is_some_and(|p| p != step) && step.1 != 0 {
            let hot: Vec<(usize, u32)> = shown.with_untracked(|s| {
                s.iter()
                    .enumerate()
                    .flat_map(|(i, r)| r.routine.lines.iter().map(move |l| (i, l.0)))
                    .collect()
            });
            if !hot.is_empty() {
                let at = current
                    .get_untracked()
                    .and_then(|c| hot.iter().position(|h| *h == c));
                let n = hot.len() as i64;
                let next = match at {
                    Some(i) => (i as i64 + step.1 as i64).rem_euclid(n),
                    None => 0,
                } as usize;
                current.set(hot.get(next).copied());
                // Said for screen readers: the line and its numbers.
                if let Some((i, line)) = hot.get(next).copied() {
                    let cost = shown.with_untracked(|s| {
                        s.get(i)
                            .and_then(|r| r.routine.lines.iter().find(|l| l.0 == line).copied())
                    });
                    if let (Some((_, flat, cum)), Some(a)) = (cost, use_context::<Announcer>()) {
                        a.say(format!("line {line}: self {}, total {}", fmt(flat), fmt(cum)));
                    }
                }
                request_animation_frame(scroll_to_current);
            }
        }
        step
    });

    let pick = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(files) = input.files() {
            let files: Vec<(String, web_sys::File)> = (0..files.length())
                .filter_map(|i| files.get(i))
                .map(|f| (source::path_of(&f), f))
                .collect();
            if !files.is_empty() {
                source::add_files(files);
                ui.source_files.update(|n| *n += 1);
            }
        }
        input.set_value("");
    };
    let drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        let Some(dt) = ev.data_transfer() else { return };
        let entries = source::drop_entries(&dt);
        leptos::task::spawn_local(async move {
            let files = source::entry_files(entries).await;
            if !files.is_empty() {
                source::add_files(files);
                ui.source_files.update(|n| *n += 1);
            }
        });
    };

    view! {
        <section class="source-view" data-testid="source-view" aria-label="source lines"
            on:dragover=|ev: leptos::ev::DragEvent| { ev.prevent_default(); ev.stop_propagation(); }
            on:drop=drop>
            <div class="source-bar">
                <b>"Source"</b>
                <label class="button" title="Pick the folder that holds the profile's source files (matched by path suffix)">
                    "Source folder…"
                    <input type="file" data-testid="source-folder" class="hidden-input" prop:webkitdirectory=true multiple=true on:change=pick/>
                </label>
                <label class="button" title="Pick source files (matched by path suffix)">
                    "Source files…"
                    <input type="file" data-testid="source-files" class="hidden-input" multiple=true on:change=pick/>
                </label>
                <span class="hint" data-testid="source-count">{move || {
                    ui.source_files.track();
                    match source::file_count() {
                        0 => "or drop them here".to_string(),
                        n => format!("{n} source file{} picked", if n == 1 { "" } else { "s" }),
                    }
                }}</span>
                <span class="hint">"j / k: next / previous line with samples"</span>
                <button data-testid="source-close" title="Close the source view (s)" on:click=move |_| ui.source.set(false)>"Close"</button>
            </div>
            {move || building.get().then(|| view! { <p class="hint" data-testid="source-building">"Listing the lines…"</p> })}
            {move || message.get().map(|m| view! { <p class="hint" data-testid="source-message">{m}</p> })}
            {move || shown.get().into_iter().enumerate().map(|(i, s)| routine_view(i, s, current, fmt)).collect_view()}
        </section>
    }
}

/// A row of the lines table: the line number and its text, if read.
type Row = (u32, Option<String>);

/// One function's lines in one file.
fn routine_view(
    i: usize,
    s: Shown,
    current: RwSignal<Option<(usize, u32)>>,
    fmt: impl Fn(i128) -> String + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let r = s.routine;
    let max = r.lines.iter().map(|l| l.1.max(l.2)).max().unwrap_or(0).max(1);
    let cost = |c: i128| (c.max(0) as f64 / max as f64).clamp(0.0, 1.0);
    // Rows: with text, the lines `shown_lines` picks that the file has (and those with samples); without, the
    // lines with samples.
    let bare = || -> Vec<Row> { r.lines.iter().take(MAX_ROWS).map(|l| (l.0, None)).collect() };
    let (mut note, rows): (Option<(String, bool)>, Vec<Row>) = match s.text {
        None => (Some(("Reading the source…".to_string(), false)), bare()),
        Some(Text::Lines {
            first,
            lines,
            from,
            cut,
        }) => {
            let mut note = format!("from {from}");
            if let Some(c) = cut {
                note = format!("{note}. {c}");
            }
            if span(&r).1 > source::MAX_LINES {
                note = format!(
                    "{note}. Lines after {} are not read.",
                    scorch_core::model::units::group_thousands(source::MAX_LINES as u64)
                );
            }
            let has = |n: u32| r.lines.binary_search_by_key(&n, |l| l.0).is_ok();
            let rows = shown_lines(&r)
                .into_iter()
                .map(|n| {
                    let text = n.checked_sub(first).and_then(|k| lines.get(k as usize)).cloned();
                    (n, text)
                })
                .filter(|(n, t)| t.is_some() || has(*n))
                .collect();
            (Some((note, false)), rows)
        }
        Some(Text::Refused(m)) | Some(Text::Missing(m)) => (Some((m, true)), bare()),
    };
    if r.lines.len() > MAX_ROWS || rows.len() >= MAX_ROWS {
        let more = format!(
            "Only the first {} rows are shown.",
            scorch_core::model::units::group_thousands(MAX_ROWS as u64)
        );
        note = Some(match note {
            Some((n, w)) => (format!("{n}. {more}"), w),
            None => (more, false),
        });
    }
    let mut prev: Option<u32> = None;
    let rows: Vec<(Row, bool)> = rows
        .into_iter()
        .map(|row| {
            let gap = prev.is_some_and(|p| row.0 > p + 1);
            prev = Some(row.0);
            (row, gap)
        })
        .collect();
    let at = |n: u32| {
        r.lines
            .binary_search_by_key(&n, |l| l.0)
            .ok()
            .and_then(|k| r.lines.get(k))
            .map_or((0, 0), |l| (l.1, l.2))
    };
    view! {
        <div class="source-routine" data-testid="source-routine" data-file=super::shown_name(&r.file)>
            <div class="source-title">
                <b>{super::shown_name(&r.function)}</b>" in "<span class="source-file" data-testid="source-file">{super::shown_name(&r.file)}</span>
                <span class="hint">{format!(" · self {} · total {}", fmt(r.flat), fmt(r.cum))}</span>
            </div>
            {note.map(|(n, warn)| view! { <p class="hint" class:source-warn=warn data-testid="source-note">{n}</p> })}
            <div class="source-lines">
                <table>
                    <thead><tr><th>"Line"</th><th>"Self"</th><th>"Total"</th><th class="source-text-h">"Source"</th></tr></thead>
                    <tbody>
                        {rows.into_iter().map(|((n, text), gap)| {
                            let (flat, cum) = at(n);
                            // Through the CSSOM (`style.setProperty`): the CSP forbids style attributes.
                            let c = format!("{:.3}", cost(flat.max(cum)));
                            let gap = gap.then(|| view! { <tr class="source-gap" data-testid="source-gap"><td colspan="4">"⋯"</td></tr> });
                            view! {
                                {gap}
                                <tr data-testid="source-line" data-line=n.to_string() data-self=flat.to_string() data-total=cum.to_string()
                                    class:hot=flat != 0 || cum != 0
                                    class:current=move || current.get() == Some((i, n))
                                    style:--cost=c>
                                    <td class="num">{n}</td>
                                    <td class="num">{(flat != 0).then(|| fmt(flat))}</td>
                                    <td class="num">{(cum != 0).then(|| fmt(cum))}</td>
                                    <td class="source-text">{text}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </div>
    }
}

/// Scrolls the current line (the hottest at first) into the middle of its list.
fn scroll_to_current() {
    let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        d.query_selector("[data-testid=source-line].current")
            .ok()
            .flatten()
    }) else {
        return;
    };
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"block".into(), &"center".into());
    if let Ok(f) = js_sys::Reflect::get(&el, &"scrollIntoView".into()) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call1(&el, &opts);
        }
    }
}
