//! The call-tree table (view 5): the flame graph's call tree (same transforms, range, threads; or the inverted
//! tree) as an expandable tree grid, children heaviest first. Virtualised: a spacer gives the scroll height and
//! only the rows in view are in the DOM, cut from a flat list of the shown nodes ([`flat::Flat`]) that expanding
//! and collapsing change in place. Selecting a row selects its function (as a click on a frame does); a function
//! selected elsewhere is revealed and scrolled to.

mod flat;

use crate::render::FlameData;
use crate::state::pane::Panes;
use crate::state::search::SearchState;
use crate::state::view::ViewState;
use crate::state::Actions;
use flat::Flat;
use leptos::html::Div;
use leptos::prelude::*;
use leptos::tachys::html::attribute::custom::custom_attribute;
use scorch_core::analysis::stats::NodeCounts;
use scorch_core::model::units::{format_percent, format_value, group_thousands};
use scorch_core::view::calltree::NodeId;
use std::sync::Arc;

/// Row height in CSS px (the stylesheet's `.ct-row` height).
const ROW_H: f64 = 22.0;
/// Rows drawn above and below the visible ones.
const OVERSCAN: usize = 6;

/// The table of one view: its data, shown rows and sample counts.
struct Grid {
    data: Arc<FlameData>,
    flat: Flat,
    counts: Option<Arc<NodeCounts>>,
}

impl Grid {
    fn new(data: Arc<FlameData>) -> Grid {
        let flat = crate::state::timed("call tree rows", || Flat::new(&data.tree, data.profile()));
        // The tooltip's, computed once per graph for both.
        let counts = crate::state::timed("call tree counts", || super::tooltip::counts_of(&data));
        Grid { data, flat, counts }
    }
}

/// What the handlers share (all `Copy`).
#[derive(Clone, Copy)]
struct Ctl {
    grid: StoredValue<Option<Grid>>,
    /// Bumped when the rows change.
    version: RwSignal<u64>,
    focus: RwSignal<usize>,
    scroll: RwSignal<f64>,
    height: RwSignal<f64>,
    body: NodeRef<Div>,
    spacer: NodeRef<Div>,
    actions: Actions,
}

impl Ctl {
    fn len(&self) -> usize {
        self.grid.with_value(|g| g.as_ref().map_or(0, |g| g.flat.len()))
    }

    /// Changes the rows with `f(flat, tree, profile, focused row)`, which returns the row to focus.
    fn change(&self, f: impl FnOnce(&mut Flat, &FlameData, usize) -> Option<usize>) {
        let at = self.focus.get_untracked();
        let r = self.grid.try_update_value(|g| {
            let g = g.as_mut()?;
            let data = g.data.clone();
            f(&mut g.flat, &data, at)
        });
        if let Some(i) = r.flatten() {
            self.version.update(|v| *v += 1);
            self.move_to(i);
        }
    }

    fn move_to(&self, i: usize) {
        let i = i.min(self.len().saturating_sub(1));
        self.focus.set(i);
        self.ensure_visible(i);
    }

    fn move_by(&self, d: i64) {
        let i = (self.focus.get_untracked() as i64 + d).max(0) as usize;
        self.move_to(i);
    }

    fn page(&self) -> i64 {
        ((self.height.get_untracked() / ROW_H).floor() as i64 - 1).max(1)
    }

    fn ensure_visible(&self, i: usize) {
        let (top, h) = (self.scroll.get_untracked(), self.height.get_untracked());
        let y = i as f64 * ROW_H;
        let want = if y < top {
            y
        } else if y + ROW_H > top + h {
            y + ROW_H - h
        } else {
            return;
        };
        // The spacer's height now (the render that sets it comes later), so the new scroll offset is not clamped
        // to the old list's.
        if let Some(sp) = self.spacer.get_untracked() {
            let _ = web_sys::HtmlElement::style(&sp)
                .set_property("height", &format!("{}px", self.len() as f64 * ROW_H));
        }
        if let Some(el) = self.body.get_untracked() {
            el.set_scroll_top(want as i32);
            self.scroll.set(f64::from(el.scroll_top()));
        } else {
            self.scroll.set(want);
        }
    }

    /// Right arrow: expand, or go to the first child.
    fn right(&self) {
        self.change(|flat, d, at| {
            let node = flat.rows.get(at)?.node;
            if flat.is_expanded(node) {
                Some(at + 1)
            } else {
                flat.expand(&d.tree, d.profile(), at);
                Some(at)
            }
        })
    }

    /// Left arrow: collapse, or go to the parent.
    fn left(&self) {
        self.change(|flat, d, at| {
            if flat.collapse(&d.tree, at) {
                Some(at)
            } else {
                flat.parent_row(&d.tree, at).or(Some(at))
            }
        })
    }

    fn toggle(&self, i: usize) {
        self.focus.set(i);
        self.change(|flat, d, at| {
            if !flat.collapse(&d.tree, at) {
                flat.expand(&d.tree, d.profile(), at);
            }
            Some(at)
        });
    }

    fn heaviest(&self) {
        self.change(|flat, d, at| Some(flat.expand_heaviest(&d.tree, d.profile(), at)))
    }

    /// Selects the function of row `i` (as a click on its frame does).
    fn select(&self, i: usize) {
        let name = self.grid.with_value(|g| {
            let g = g.as_ref()?;
            let r = g.flat.rows.get(i)?;
            (r.node != NodeId::ROOT).then(|| g.data.name_of(r.node).to_string())
        });
        if let Some(name) = name {
            self.actions.select(Some(name));
        }
    }

    /// Shows the heaviest node of function `name` (expanding its ancestors), focused and in view.
    fn reveal(&self, name: &str) {
        self.change(|flat, d, at| {
            if flat.rows.get(at).is_some_and(|r| d.name_of(r.node) == name) {
                return None;
            }
            let node = flat::heaviest_named(&d.tree, d.profile(), name)?;
            flat.reveal(&d.tree, d.profile(), node)
        });
    }

    fn measure(&self) {
        if let Some(el) = self.body.get_untracked() {
            // Only what changed: the browser's own scroll event after a programmatic scroll repeats the offset.
            let (h, top) = (
                f64::from(el.client_height()).max(ROW_H),
                f64::from(el.scroll_top()),
            );
            if self.height.get_untracked() != h {
                self.height.set(h);
            }
            if self.scroll.get_untracked() != top {
                self.scroll.set(top);
            }
        }
    }
}

/// One row's cells, formatted.
struct RowText {
    node: NodeId,
    level: u32,
    pos: u32,
    size: u32,
    expanded: Option<bool>,
    name: String,
    raw: (u64, u64),
    total: (String, String),
    self_: (String, String),
    samples: Option<String>,
}

fn row_text(g: &Grid, r: flat::Row) -> RowText {
    let d = &g.data;
    let t = &d.tree;
    let n = r.node.idx();
    let (total, self_w) = (
        t.total.get(n).copied().unwrap_or(0),
        t.self_w.get(n).copied().unwrap_or(0),
    );
    let all = t.total.first().copied().unwrap_or(0) as f64;
    let fmt = |raw: u64| format_value(d.value(raw), &d.unit);
    RowText {
        node: r.node,
        level: t.depth.get(n).copied().unwrap_or(0) + 1,
        pos: r.pos,
        size: r.size,
        expanded: (!t.children(r.node).is_empty()).then(|| g.flat.is_expanded(r.node)),
        name: super::shown_name(d.name_of(r.node)),
        raw: (total, self_w),
        total: (fmt(total), format_percent(total as f64, all)),
        self_: (fmt(self_w), format_percent(self_w as f64, all)),
        samples: g
            .counts
            .as_ref()
            .map(|c| group_thousands(c.total.get(n).copied().unwrap_or(0))),
    }
}

/// The call tree as an expandable, virtualised tree grid.
#[component]
pub fn CallTreeTable() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let view = expect_context::<ViewState>();
    let search = expect_context::<SearchState>();
    let main = expect_context::<Panes>().main;
    let ctl = Ctl {
        grid: StoredValue::new(None),
        version: RwSignal::new(0),
        focus: RwSignal::new(0),
        scroll: RwSignal::new(0.0),
        height: RwSignal::new(600.0),
        body: NodeRef::new(),
        spacer: NodeRef::new(),
        actions,
    };
    let grid_ref = NodeRef::<Div>::new();
    // A new view: new rows, the top in view; then the selected function, if any, revealed.
    Effect::new(move |_| {
        let data = main.data.get();
        let fresh = ctl.grid.with_value(|g| match (g, &data) {
            (Some(g), Some(d)) => !Arc::ptr_eq(&g.data, d),
            (None, None) => false,
            _ => true,
        });
        if fresh {
            ctl.grid.set_value(data.map(Grid::new));
            ctl.focus.set(0);
            if let Some(el) = ctl.body.get_untracked() {
                el.set_scroll_top(0);
            }
            ctl.measure();
            ctl.version.update(|v| *v += 1);
        }
        if let Some(f) = search.selected.get() {
            ctl.reveal(&f);
        }
    });
    // Focus the grid when it appears (the `5` key, the view button), so the arrows work at once.
    Effect::new(move |_| {
        if let Some(el) = grid_ref.get() {
            let _ = el.focus();
            ctl.measure();
        }
    });
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let handled = match ev.key().as_str() {
            "ArrowDown" => {
                ctl.move_by(1);
                true
            }
            "ArrowUp" => {
                ctl.move_by(-1);
                true
            }
            "PageDown" => {
                ctl.move_by(ctl.page());
                true
            }
            "PageUp" => {
                ctl.move_by(-ctl.page());
                true
            }
            "Home" => {
                ctl.move_to(0);
                true
            }
            "End" => {
                ctl.move_to(usize::MAX);
                true
            }
            "ArrowRight" => {
                ctl.right();
                true
            }
            "ArrowLeft" => {
                ctl.left();
                true
            }
            "*" => {
                ctl.heaviest();
                true
            }
            "Enter" | " " => {
                ctl.select(ctl.focus.get_untracked());
                true
            }
            _ => false,
        };
        if handled {
            ev.prevent_default();
            ev.stop_propagation();
        }
    };
    let has_counts = move || {
        ctl.version.track();
        ctl.grid
            .with_value(|g| g.as_ref().is_some_and(|g| g.counts.is_some()))
    };
    // The rows drawn: those in view and a few either side; scrolling within a row draws nothing anew.
    let window = Memo::new(move |_| {
        let (top, h) = (ctl.scroll.get(), ctl.height.get());
        let first = ((top / ROW_H).floor() as usize).saturating_sub(OVERSCAN);
        (first, ((top + h) / ROW_H).ceil() as usize + OVERSCAN)
    });
    let rows = move || {
        ctl.version.track();
        let ((first, last), focus) = (window.get(), ctl.focus.get());
        let selected = search.selected.get();
        let texts: Vec<(usize, RowText)> = ctl.grid.with_value(|g| {
            g.as_ref().map_or_else(Vec::new, |g| {
                let end = last.min(g.flat.len());
                (first.min(end)..end)
                    .filter_map(|i| g.flat.rows.get(i).map(|&r| (i, row_text(g, r))))
                    .collect()
            })
        });
        texts
            .into_iter()
            .map(|(i, r)| {
                let is_sel = selected.as_deref() == Some(r.name.as_str()) && r.node != NodeId::ROOT;
                let disclosure = match r.expanded {
                    Some(true) => "▾",
                    Some(false) => "▸",
                    None => "",
                };
                let name = r.name.clone();
                let level = custom_attribute("aria-level", r.level.to_string());
                view! {
                    <div role="row" class="ct-row" class:focused=i == focus class:selected=is_sel
                        id=format!("ct-row-{}", r.node.0) data-testid="ct-row" data-index=i.to_string()
                        data-name=name data-total=r.raw.0.to_string() data-self=r.raw.1.to_string()
                        aria-setsize=r.size.to_string()
                        aria-posinset=r.pos.to_string() aria-expanded=r.expanded.map(|e| e.to_string())
                        aria-selected=is_sel.to_string()
                        style:top=format!("{}px", i as f64 * ROW_H)
                        on:click=move |_| { ctl.move_to(i); ctl.select(i); }>
                        <span role="gridcell" class="num">{r.total.0}</span>
                        <span role="gridcell" class="num">{r.total.1}</span>
                        <span role="gridcell" class="num">{r.self_.0}</span>
                        <span role="gridcell" class="num">{r.self_.1}</span>
                        {r.samples.map(|s| view! { <span role="gridcell" class="num">{s}</span> })}
                        <span role="gridcell" class="ct-name"
                            style:padding-left=format!("{}px", r.level.saturating_sub(1).min(200) * 14)>
                            <span class="ct-toggle" aria-hidden="true" data-testid="ct-toggle"
                                on:click=move |ev| { ev.stop_propagation(); ctl.toggle(i); }>{disclosure}</span>
                            {r.name}
                        </span>
                    </div>
                }
                .add_any_attr(level)
            })
            .collect_view()
    };
    let spacer = move || {
        ctl.version.track();
        format!("{}px", ctl.len() as f64 * ROW_H)
    };
    let active = move || {
        ctl.version.track();
        let f = ctl.focus.get();
        ctl.grid.with_value(|g| {
            g.as_ref()
                .and_then(|g| g.flat.rows.get(f))
                .map(|r| format!("ct-row-{}", r.node.0))
        })
    };
    view! {
        <div class="call-tree" class:with-samples=has_counts>
            <div class="ct-bar">
                <label class="control" title="The inverted (bottom-up) tree: leaf functions at the top level, their callers below">
                    <input type="checkbox" data-testid="ct-inverted" prop:checked=move || view.tree_inverted.get()
                        on:change=move |ev| {
                            view.tree_inverted.set(event_target_checked(&ev));
                            actions.rebuild();
                        }/>
                    "Inverted (bottom-up)"
                </label>
                <span class="hint" data-testid="ct-count">{move || format!("{} rows shown", group_thousands({ ctl.version.track(); ctl.len() as u64 }))}</span>
                <span class="hint">"← → collapse / expand · * heaviest path · ⏎ select"</span>
            </div>
            <div class="ct-grid" role="treegrid" aria-label="call tree" tabindex="0" data-testid="call-tree"
                data-rows=move || { ctl.version.track(); ctl.len().to_string() }
                aria-activedescendant=active node_ref=grid_ref on:keydown=on_key>
                <div role="row" class="ct-head">
                    <span role="columnheader" class="num">"Total"</span>
                    <span role="columnheader" class="num">"Total %"</span>
                    <span role="columnheader" class="num">"Self"</span>
                    <span role="columnheader" class="num">"Self %"</span>
                    {move || has_counts().then(|| view! { <span role="columnheader" class="num">"Samples"</span> })}
                    <span role="columnheader">"Name"</span>
                </div>
                <div class="ct-body" node_ref=ctl.body on:scroll=move |_| ctl.measure()>
                    <div class="ct-spacer" node_ref=ctl.spacer style:height=spacer>{rows}</div>
                </div>
            </div>
            {move || main.data.with(|d| d.is_none()).then(|| view! { <p class="hint" data-testid="ct-building">"Building the call tree…"</p> })}
        </div>
    }
}
