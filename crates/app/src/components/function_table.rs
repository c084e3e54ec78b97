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
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Rows put on the page at a time (see `shown` in [`FunctionTable`]): 25 rows fill the sandwich's table; 50 were
/// most of the first task once its table came, and of the frame after it (folded 100 MB).
const CHUNK: usize = 25;

/// The rows shown at most (the heaviest first, or the first in the order asked for).
const LIMIT: usize = 500;

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
    // chunk; one more is added whenever the browser, having laid them out, says the rows on the page end within a
    // screenful below the view (`near_end`): after each chunk, and as a scroll comes near their end.
    //
    // A new set of rows is made a task after what it is made of changed (the engine's table, the search, the
    // sort, the notes), not in the task that changed it: the sandwich's first task once its table came made the
    // 500 rows' texts and put the first chunk on the page (73 ms, 12 of them formatting the numbers, folded 100
    // MB, profiled). The set shown stays until then; a table already there when the table comes on the page is
    // made at once.
    let rows = RwSignal::new((0u32, untrack(rows_now)));
    // What the rows are made of, read so that the effect below follows it.
    let made_of = move || {
        (
            view.fn_table.get(),
            search.pattern.get(),
            sort.get(),
            view.notes.get(),
        )
    };
    // The effect runs again only when one of them changed; its first run, when they changed since the rows above
    // were made (the table compared as the same one, not by its address: a new one may come where an old one was).
    let mut first = Some(untrack(made_of));
    Effect::new(move |_| {
        let now = made_of();
        let changed = first.take().is_none_or(|f| {
            !(f.0.as_ref().map(Arc::as_ptr) == now.0.as_ref().map(Arc::as_ptr)
                && f.1 == now.1
                && f.2 == now.2
                && f.3 == now.3)
        });
        if changed {
            leptos::task::spawn_local(async move {
                crate::worker::yield_now().await;
                // The table may have left the page meanwhile (its values are then disposed).
                if sort.try_get_untracked().is_none() {
                    return;
                }
                let made = crate::state::timed("fn rows", || untrack(rows_now));
                // Put on the page in a task of its own.
                crate::worker::yield_now().await;
                rows.try_update(|(g, r)| {
                    *g = g.wrapping_add(1);
                    *r = made;
                });
            });
        }
    });
    let shown = RwSignal::new((0u32, 1usize));
    let area = NodeRef::<leptos::html::Div>::new();
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
    // Whether the rows on the page end within a screenful below the view is the browser's to say, once it has
    // laid them out: an element after the rows (`end`) watched within the table's view and a screenful below
    // it. Read from the table's scroll position in a task of its own, it made the browser lay the new rows out in
    // that task (the sandwich's table, folded 100 MB: a task of 64 ms, nearly all of it `scrollTop`).
    let end = NodeRef::<leptos::html::Div>::new();
    let watch = send_wrapper::SendWrapper::new(std::rc::Rc::new(std::cell::OnceCell::new()));
    let watched = watch.clone();
    Effect::new(move |_| {
        // Watched again after each chunk and each new set: the browser then says where the end is now.
        shown.track();
        rows.track();
        let (Some(view_el), Some(end_el)) = (area.get(), end.get()) else {
            return;
        };
        if let Some((observer, _)) = watch.get_or_init(|| near_end(&view_el, more)) {
            observer.unobserve(&end_el);
            observer.observe(&end_el);
        }
    });
    on_cleanup(move || {
        if let Some(Some((observer, _))) = watched.get() {
            observer.disconnect();
        }
    });
    view! {
        <div class="fn-table" class:compact=compact data-testid="function-table" node_ref=area>
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
                Some(set) => table_view(set, generation, shown, sort, search, actions),
            }}}
            <div class="fn-table-end" node_ref=end></div>
        </div>
    }
}

/// An observer and the closure it calls (kept while it may call it).
type Watch = (web_sys::IntersectionObserver, Closure<dyn Fn(js_sys::Array)>);

/// Calls `more` whenever an element it watches comes within `view` or a screenful below it (`None`: the
/// browser has no `IntersectionObserver`; the table then shows its first chunk only).
fn near_end(view: &web_sys::HtmlDivElement, more: impl Fn() + 'static) -> Option<Watch> {
    let seen = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
        if entries.iter().any(|e| {
            e.unchecked_into::<web_sys::IntersectionObserverEntry>()
                .is_intersecting()
        }) {
            more();
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root(Some(view));
    options.set_root_margin("0px 0px 100% 0px");
    let observer =
        web_sys::IntersectionObserver::new_with_options(seen.as_ref().unchecked_ref(), &options).ok()?;
    Some((observer, seen))
}

/// A set of rows (the rows, how many match, how many functions, whether narrowed) as the table: the count, the
/// heading and the rows' chunks, each put on the page once `shown` passes it for this set (`generation`). One
/// function for the table and its warm-up ([`warm_up`]), so the warm-up runs the very code the table does.
#[inline(never)]
fn table_view(
    (rows, matching, all, narrowed): (Vec<Row>, usize, usize, bool),
    generation: u32,
    shown: RwSignal<(u32, usize)>,
    sort: RwSignal<(&'static str, bool)>,
    search: SearchState,
    actions: Actions,
) -> AnyView {
    let header = move |key: &'static str, label: &'static str| {
        view! {
            <th><button class="th" data-testid=format!("sort-{key}") on:click=move |_| sort.update(|s| {
                *s = if s.0 == key { (key, !s.1) } else { (key, key == "name") };
            })>{label}{move || { let (c, asc) = sort.get(); (c == key).then_some(if asc { " ▲" } else { " ▼" }) }}</button></th>
        }
    };
    let cols = widths(&rows, narrowed);
    view! {
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
                move || visible.get().then(|| chunk.borrow_mut().take()).flatten().map(|chunk| rows_view(chunk, search, actions))
            }).collect_view()}
        </table>
    }
    .into_any()
}

/// A chunk of the table's rows, as a `<tbody>`: a click on a row selects its function.
#[inline(never)]
fn rows_view(chunk: Vec<Row>, search: SearchState, actions: Actions) -> impl IntoView {
    view! {
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
    }
}

/// Puts a table of one made-up row (with every optional cell) in an element that is never shown, and takes it off
/// a task later, so that V8 has compiled the table's code before the first real table: wasm is compiled function
/// by function on its first call, and that compiling was the heaviest part of the first table's task (the
/// sandwich on folded 100 MB, its first task once the engine's table came: 22 ms compiling in a task of 47 ms of
/// CPU, traced). The app calls it once, when the page is quiet after its first profile.
pub async fn warm_up(search: SearchState, actions: Actions) {
    let Some(host) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("div").ok())
    else {
        return;
    };
    // The numbers' texts as the rows have them (`rows_now`), in each of their forms: made for their code alone
    // (one of them fills the made-up row).
    use scorch_core::model::units::{format_percent, format_value, Unit};
    let mut texts = Vec::new();
    for unit in [Unit::Samples, Unit::Nanoseconds, Unit::Bytes] {
        for v in [1.0, 2.5, 1234.0, 2.5e9] {
            texts.push(format_value(v, &unit));
        }
    }
    for p in [0.0, 0.0004, 0.05, 0.5] {
        texts.push(format_percent(p, 1.0));
    }
    texts.push(group_thousands(1234567));
    let s = || texts.first().cloned().unwrap_or_default();
    let row: Row = (
        (Arc::from("warm"), Some(String::from("note"))),
        s(),
        s(),
        s(),
        s(),
        Some((s(), s())),
        Some(s()),
        s(),
        s(),
    );
    let set = (vec![row], 2, 2, true);
    let (shown, sort) = (RwSignal::new((0, 1)), RwSignal::new(("self", false)));
    let on_page = leptos::mount::mount_to(host.unchecked_into(), move || {
        table_view(set, 0, shown, sort, search, actions)
    });
    crate::worker::yield_now().await;
    drop(on_page);
    shown.dispose();
    sort.dispose();
}
