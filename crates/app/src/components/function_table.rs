//! The function table: every function with self and total, sortable, filtered by the search.

use crate::state::load::LoadState;
use crate::state::pane::Panes;
use crate::state::search::SearchState;
use crate::state::view::FnTable;
use crate::state::view::ViewState;
use crate::state::Actions;
use leptos::prelude::*;
use scorch_core::analysis::functions::FunctionRow;
use scorch_core::model::units::group_thousands;
use scorch_core::model::Strings;
use std::sync::Arc;

/// Rows put on the page at a time (see `shown` in [`FunctionTable`]).
const CHUNK: usize = 50;

/// `rows` cut in chunks of [`CHUNK`].
fn chunks<T>(rows: Vec<T>) -> Vec<Vec<T>> {
    let mut out = Vec::new();
    let mut it = rows.into_iter().peekable();
    while it.peek().is_some() {
        out.push(it.by_ref().take(CHUNK).collect());
    }
    out
}

/// A row of the table as shown: (name — shared by the row's handlers, not copied for each: a name may be megabytes
/// long —, its notes), self, self %, total, total %, the interval's half width and
/// its words, the share of the whole (when narrowed), self samples, total samples.
type Row = (
    (Arc<str>, Option<String>),
    String,
    String,
    String,
    String,
    Option<(String, String)>,
    Option<String>,
    String,
    String,
);

/// The widths, in characters, of the number columns (all but the function's), from the widest of the rows shown
/// and the column's heading (a sort arrow beside it). The table's layout is fixed to them: laid out
/// automatically, every chunk of rows that arrived made the browser measure every cell again (three tasks of
/// 50–57 ms after the first chunk, folded 100 MB).
fn widths(rows: &[Row], narrowed: bool) -> Vec<usize> {
    let len = |s: &str| s.chars().count();
    let mut w = vec![
        len("Self") + 2,
        len("Self %"),
        len("Total") + 2,
        len("Total %"),
        len("± pp"),
    ];
    if narrowed {
        w.push(len("of whole"));
    }
    w.extend([len("Self samples") + 2, len("Total samples") + 2]);
    for (_, s, sp, t, tp, ci, tw, sn, tn) in rows {
        let mut cells = vec![
            len(s),
            len(sp),
            len(t),
            len(tp),
            ci.as_ref().map_or(1, |(pm, _)| len(pm)),
        ];
        if narrowed {
            cells.push(tw.as_deref().map_or(0, len));
        }
        cells.extend([len(sn), len(tn)]);
        for (w, c) in w.iter_mut().zip(cells) {
            *w = (*w).max(c);
        }
    }
    w
}

/// The names of `table`'s rows back to back, for the search's one pass over them
/// (`scorch_core::analysis::search::Matcher::string_mask`): made at the first search of a table, kept while it is
/// the table shown.
fn names_of(table: &Arc<FnTable>) -> Arc<Strings> {
    thread_local! {
        static NAMES: std::cell::RefCell<Option<(std::sync::Weak<FnTable>, Arc<Strings>)>> =
            const { std::cell::RefCell::new(None) };
    }
    NAMES.with_borrow_mut(|kept| {
        if let Some((t, names)) = kept.as_ref() {
            if std::ptr::eq(t.as_ptr(), Arc::as_ptr(table)) && t.strong_count() > 0 {
                return names.clone();
            }
        }
        let mut names = Strings::default();
        for r in &table.0 {
            names.push(&r.name);
        }
        let names = Arc::new(names);
        *kept = Some((Arc::downgrade(table), names.clone()));
        names
    })
}

/// Every function with self and total, sortable, filtered by the search; a click selects the function.
#[component]
pub fn FunctionTable(compact: bool) -> impl IntoView {
    let actions = expect_context::<Actions>();
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let search = expect_context::<SearchState>();
    let main = expect_context::<Panes>().main;
    // Column to sort by and whether ascending.
    let sort = RwSignal::new(("self", false));
    const LIMIT: usize = 500;
    let rows_now = move || {
        let table = view.fn_table.get()?;
        let q = search.pattern.get();
        let m = (!q.text.is_empty()).then(|| q.compile().ok()).flatten();
        // Per row: does its name match? In one pass over the names (matched one by one, a million names were
        // 60 ms of a task at each keystroke).
        let mask = m.as_ref().map(|m| m.string_mask(&names_of(&table)));
        let keep = |(i, _): &(usize, &FunctionRow)| mask.as_ref().is_none_or(|k| k.get(*i) == Some(&true));
        let (col, asc) = sort.get();
        // Heaviest self first (ties: heaviest total, then by name) is the order the engine sends the rows in
        // (`analysis::functions::functions`): the first LIMIT that match are taken as they come. Sorted here,
        // a million functions took 37–82 ms of one task at each switch to the table or the sandwich.
        let presorted = col == "self" && !asc;
        let order = |a: &&FunctionRow, b: &&FunctionRow| {
            let o = match col {
                "name" => a.name.cmp(&b.name),
                "total" => a.total_w.cmp(&b.total_w),
                "self_n" => a.self_samples.cmp(&b.self_samples),
                "total_n" => a.total_samples.cmp(&b.total_samples),
                _ => a.self_w.cmp(&b.self_w).then(a.total_w.cmp(&b.total_w)),
            };
            let o = if asc { o } else { o.reverse() };
            o.then(a.name.cmp(&b.name))
        };
        let (rows, matching) = if presorted && m.is_none() {
            // Nothing to match: the first rows, and all of them match.
            (table.0.iter().take(LIMIT).collect(), table.0.len())
        } else if presorted {
            let mut rows: Vec<&FunctionRow> = Vec::with_capacity(LIMIT);
            let mut matching = 0;
            for (_, r) in table.0.iter().enumerate().filter(keep) {
                if rows.len() < LIMIT {
                    rows.push(r);
                }
                matching += 1;
            }
            (rows, matching)
        } else {
            let mut rows: Vec<&FunctionRow> =
                table.0.iter().enumerate().filter(keep).map(|(_, r)| r).collect();
            let matching = rows.len();
            // Only the first LIMIT are shown: those are picked (linear) and only they sorted. A sort of every
            // row was 39 ms of one task (folded 100 MB: tens of thousands of functions, most tied on a weight
            // of 0, so compared by name).
            if rows.len() > LIMIT {
                rows.select_nth_unstable_by(LIMIT - 1, order);
                rows.truncate(LIMIT);
            }
            rows.sort_unstable_by(order);
            (rows, matching)
        };
        let pins = view.notes.with(|n| super::notes_panel::frame_notes(n));
        let data = main.data.get_untracked()?;
        let whole = load.whole_total(view.options.get_untracked()).unwrap_or(table.1);
        let fmt = |raw: u64| scorch_core::model::units::format_value(data.value(raw), &data.unit);
        let pct = |raw: u64, of: u64| scorch_core::model::units::format_percent(raw as f64, of as f64);
        let out: Vec<_> = rows
            .into_iter()
            .take(LIMIT)
            .map(|r| {
                let pin: Vec<String> = pins
                    .iter()
                    .filter(|(f, _)| *f == r.name)
                    .map(|(_, t)| t.clone())
                    .collect();
                (
                    (
                        Arc::<str>::from(r.name.as_str()),
                        (!pin.is_empty()).then(|| pin.join("\n")),
                    ),
                    fmt(r.self_w),
                    pct(r.self_w, table.1),
                    fmt(r.total_w),
                    pct(r.total_w, table.1),
                    // Half the 95 % interval of the total share, and the interval itself on hover.
                    r.total_interval
                        .map(|i| (format!("±{:.1}", i.half_pp()), i.describe())),
                    (whole != table.1).then(|| pct(r.total_w, whole)),
                    group_thousands(r.self_samples),
                    group_thousands(r.total_samples),
                )
            })
            .collect();
        Some((out, matching, table.0.len(), whole != table.1))
    };
    // The rows go on the page a chunk at a time ([`CHUNK`]), as far as the table is scrolled and a screenful
    // beyond, not all of them: 500 rows of nine cells built and laid out at once were one task of 100–240 ms
    // (folded 100 MB, a switch to the table), and put on the page a chunk per task, each chunk's frame laid out
    // and painted the whole table again (24–58 ms a frame, the sandwich's table, folded 100 MB). Each set of rows
    // has its generation; `shown` is (a generation, the chunks of it on the page): a new set shows its first
    // chunk; the effect below adds one more, a task later (once it is laid out), while the rows on the page end
    // within a screenful below the view, and so does a scroll that comes near their end.
    let rows = Memo::new(move |prev: Option<&(u32, _)>| {
        let generation = prev.map_or(0, |(g, _)| g.wrapping_add(1));
        (generation, crate::state::timed("fn rows", rows_now))
    });
    let shown = RwSignal::new((0u32, 1usize));
    let area = NodeRef::<leptos::html::Div>::new();
    // Whether the rows on the page end within a screenful below the view (none is seen of a table not laid out).
    // The table may have left the page: its values are then disposed, and reading them would panic.
    let near_end = move || {
        area.try_get_untracked().flatten().is_some_and(|d| {
            let (top, seen, all) = (d.scroll_top(), d.client_height(), d.scroll_height());
            seen > 0 && all - (top + seen) < seen.max(200)
        })
    };
    // One more chunk of the rows shown, if they have more.
    let more = move || {
        let Some((generation, chunks)) = rows
            .try_with_untracked(|(g, r)| r.as_ref().map(|(rows, ..)| (*g, rows.len().div_ceil(CHUNK))))
            .flatten()
        else {
            return;
        };
        let n = match shown.try_get_untracked() {
            Some((g, n)) if g == generation => n,
            Some(_) => 1,
            None => return,
        };
        if n < chunks {
            shown.set((generation, n + 1));
        }
    };
    Effect::new(move |_| {
        shown.track();
        rows.track();
        leptos::task::spawn_local(async move {
            crate::worker::yield_now().await;
            if near_end() {
                more();
            }
        });
    });
    let header = move |key: &'static str, label: &'static str| {
        view! {
            <th><button class="th" data-testid=format!("sort-{key}") on:click=move |_| sort.update(|s| {
                *s = if s.0 == key { (key, !s.1) } else { (key, key == "name") };
            })>{label}{move || { let (c, asc) = sort.get(); (c == key).then_some(if asc { " ▲" } else { " ▼" }) }}</button></th>
        }
    };
    view! {
        <div class="fn-table" class:compact=compact data-testid="function-table" node_ref=area
            on:scroll=move |_| if near_end() { more() }>
            {move || { let (generation, rows) = rows.get(); match rows {
                None if load.has_profile() && view.fn_table_failed.get() => view! {
                    <p class="hint" data-testid="function-failed">"The function table could not be built (the error says why). "
                        <button data-testid="function-retry" on:click=move |_| actions.rebuild()>"Try again"</button>
                    </p>
                }.into_any(),
                None if load.has_profile() => view! {
                    <p class="hint" data-testid="function-building">"Building the function table…"</p>
                }.into_any(),
                None => view! { <p class="hint">"No profile open."</p> }.into_any(),
                Some((rows, matching, all, narrowed)) => { let cols = widths(&rows, narrowed); view! {
                    <p class="hint" data-testid="function-count" data-matching=matching.to_string()>
                        <button data-testid="open-source" title="The selected function's source lines with self and total (s)"
                            on:click=move |_| actions.ui.source.set(true)>"Source"</button>" "
                        {format!("{} of {} functions{}{}", group_thousands(matching as u64), group_thousands(all as u64),
                            if matching > LIMIT { format!(", the first {LIMIT} shown") } else { String::new() },
                            if narrowed { "; “of whole” is the share before transforms, ranges and filters" } else { "" })}
                    </p>
                    <table>
                        <colgroup>
                            {cols.into_iter().map(|w| view! { <col style:width=format!("calc({w}ch + 14px)")/> }).collect_view()}
                            <col/>
                        </colgroup>
                        <thead><tr>
                            {header("self", "Self")}<th>"Self %"</th>
                            {header("total", "Total")}<th>"Total %"</th>
                            <th title="Half the width of the total share's 95 % interval (Wilson, from the samples behind it), in percentage points">"± pp"</th>
                            {narrowed.then(|| view! { <th>"of whole"</th> })}
                            {header("self_n", "Self samples")}{header("total_n", "Total samples")}
                            {header("name", "Function")}
                        </tr></thead>
                        {chunks(rows).into_iter().enumerate().map(|(i, chunk)| {
                            // Chunk i is built once `shown` passes it for these rows (see `shown` above).
                            let visible = Memo::new(move |_| {
                                i == 0 || shown.with(|&(g, n)| g == generation && n > i)
                            });
                            let chunk = std::cell::RefCell::new(Some(chunk));
                            move || visible.get().then(|| chunk.borrow_mut().take()).flatten().map(|chunk| view! {
                            <tbody>
                            {chunk.into_iter().map(|((name, pin), s, sp, t, tp, ci, tw, sn, tn)| {
                                let n2 = name.clone();
                                let n3 = name.clone();
                                let n4 = super::shown_name(&name);
                                view! {
                                    <tr data-testid="fn-row" data-name=n4
                                        class:selected=move || search.selected.with(|x| x.as_deref() == Some(&*n3))
                                        on:click=move |_| actions.select(Some(n2.to_string()))>
                                        <td class="num">{s}</td><td class="num">{sp}</td>
                                        <td class="num">{t}</td><td class="num">{tp}</td>
                                        {match ci {
                                            Some((pm, full)) => view! { <td class="num ci" title=full>{pm}</td> }.into_any(),
                                            None => view! { <td class="num ci">"–"</td> }.into_any(),
                                        }}
                                        {tw.map(|w| view! { <td class="num">{w}</td> })}
                                        <td class="num">{sn}</td><td class="num">{tn}</td>
                                        <td class="fn-name">{pin.map(|t| view! {
                                            <span class="note-pin" data-testid="note-pin" role="img" aria-label=format!("note: {t}") title=t>"✎ "</span>
                                        })}{super::shown_name(&name)}</td>
                                    </tr>
                                }
                            }).collect_view()}
                            </tbody>
                            })
                        }).collect_view()}
                    </table>
                }.into_any() }
            }}}
        </div>
    }
}
