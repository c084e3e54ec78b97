//! Page-wide input: drop a file anywhere, paste folded stacks outside a text field, keyboard shortcuts.

use crate::state::view::Mode;
use crate::state::Actions;
use leptos::prelude::*;
use scorch_core::view::calltree::Order;
use wasm_bindgen::JsCast;

fn in_text_field(target: Option<web_sys::EventTarget>) -> bool {
    target
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA"))
}

fn focus_testid(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(&format!("[data-testid=\"{id}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

fn click_testid(id: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(&format!("[data-testid=\"{id}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        el.click();
    }
}

/// Whole-page drag and drop, and paste anywhere outside a text field.
pub fn listen_drop_and_paste(a: Actions) {
    let _ = window_event_listener(leptos::ev::dragover, |e| e.prevent_default());
    let _ = window_event_listener(leptos::ev::drop, move |e| {
        e.prevent_default();
        if let Some(files) = e.data_transfer().and_then(|dt| dt.files()) {
            // Several files open merged (`Actions::open_files`).
            a.open_files((0..files.length()).filter_map(|i| files.get(i)).collect());
        }
    });
    let _ = window_event_listener(leptos::ev::paste, move |e| {
        if in_text_field(e.target()) {
            return;
        }
        if let Some(text) = e.clipboard_data().and_then(|d| d.get_data("text").ok()) {
            if !text.trim().is_empty() {
                e.prevent_default();
                a.open_text("pasted text", &text);
            }
        }
    });
}

/// The keyboard shortcuts (the list the `?` panel shows: `components::shortcuts`).
pub fn listen_keys(a: Actions) {
    let main = a.panes.main;
    let _ = window_event_listener(leptos::ev::keydown, move |e| {
        if in_text_field(e.target()) {
            return;
        }
        if e.ctrl_key() || e.meta_key() || e.alt_key() {
            if (e.ctrl_key() || e.meta_key()) && e.key() == "z" && a.search.transforms.with(|t| !t.is_empty())
            {
                e.prevent_default();
                let last = a.search.transforms.with(|t| t.len() - 1);
                a.remove_transform(last);
            }
            return;
        }
        match e.key().as_str() {
            "Escape" if a.load.busy.with(|b| b.is_some()) => a.cancel_load(),
            "Escape" if a.ui.help.get_untracked() => a.ui.help.set(false),
            "Escape" if main.zoom.with(|z| !z.is_empty()) => main.zoom.update(|z| {
                z.pop();
            }),
            "Escape" if a.heat.sel.with(|s| s.is_some()) || a.heat.pending.with(|s| s.is_some()) => {
                a.clear_range()
            }
            "[" => a.step_range(-1),
            "]" => a.step_range(1),
            "/" => {
                e.prevent_default();
                focus_testid("search");
            }
            "n" => a.search.step_match(main, 1),
            "N" => a.search.step_match(main, -1),
            "r" => main.zoom.set(Vec::new()),
            "1" => a.set_mode(Mode::Flame),
            "2" => a.set_mode(Mode::Inverted),
            "3" => a.set_mode(Mode::Sandwich),
            "4" => a.set_mode(Mode::Functions),
            "5" => a.set_mode(Mode::CallTree),
            "6" => a.set_mode(Mode::Chart),
            "7" => a.set_mode(Mode::Graph),
            "i" => a.view.toggle_orientation(),
            "h" => a.set_order(match a.view.order.get_untracked() {
                Order::Alphabetical => Order::Weight,
                Order::Weight => Order::Alphabetical,
            }),
            "t" => a.ui.cycle_theme(),
            "e" => click_testid("export-toggle"),
            "s" => a.ui.source.update(|s| *s = !*s),
            "j" if a.ui.source.get_untracked() => a.ui.source_step.update(|s| *s = (s.0.wrapping_add(1), 1)),
            "k" if a.ui.source.get_untracked() => a.ui.source_step.update(|s| *s = (s.0.wrapping_add(1), -1)),
            "?" => a.ui.help.update(|h| *h = !*h),
            _ => {}
        }
    });
}
