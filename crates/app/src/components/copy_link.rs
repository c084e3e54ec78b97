//! "Copy link": the view as a link, with a note on what it carries; a profile carried in the link is shown
//! first as the core's report of what it holds, with the scrub choices (the core's `export::scrub`, as
//! `scorch link --scrub`). Notes are added here too (`notes_panel::NoteAdd`): they go into the link.

use super::share_preview::{drop_leaks_of, summary_line, with_redact, SharePreview};
use crate::state::diff::DiffState;
use crate::state::heatmap::HeatState;
use crate::state::load::LoadState;
use crate::state::rebuild::matching_view;
use crate::state::view::ViewState;
use crate::state::Actions;
use crate::url::Source;
use crate::worker::build::{build as build_view, Built, Channel};
use crate::worker::protocol::{Job, ShareJob};
use crate::worker::LoadError;
use leptos::prelude::*;
use scorch_core::export::scrub::{scrub, Rules};
use scorch_core::model::units::group_thousands;
use scorch_core::ViewOptions;
use std::sync::Arc;

/// What the panel shows: the link, what it holds, and (for a profile carried in the link) the report of what
/// the view holds before scrubbing and what the link carries after.
#[derive(Clone, PartialEq)]
struct Made {
    link: String,
    size: String,
    found: Option<String>,
    /// One line: what was found that a rule could hide.
    summary: Option<String>,
    carried: Option<String>,
    error: Option<String>,
}

/// "Copy link": the view as a link. A profile opened by URL is named by it; a local file or pasted text travels
/// in the link itself (compressed: the stacks of the current view, so what the receiver sees is what you see),
/// scrubbed by the chosen rules (by default, as `scorch link`: paths and header).
#[component]
pub fn CopyLink() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let heat = expect_context::<HeatState>();
    let diff = expect_context::<DiffState>();
    let main = expect_context::<crate::state::pane::Panes>().main;
    let shown = RwSignal::new(None::<Made>);
    let rules = RwSignal::new(Rules::link_default());
    let redact = RwSignal::new(String::new());
    // The view as a link. A profile that travels in it is encoded by the view engine, which holds it
    // (`worker::share`): on a 5,000,000-frame stack its report, scrub and encoding were a 230-330 ms task here.
    let build = move || async move {
        let mut f = actions.link_state();
        let mut about = String::from("the link names the hosted profile");
        let mut found = None;
        let mut summary = None;
        let mut carried = None;
        let mut error = None;
        if f.source == Source::None {
            if let Some(loaded) = load.loaded.get_untracked() {
                let r = with_redact(rules.get_untracked(), &redact.get_untracked());
                // The profile travels as folded stacks of the current view: event, weight, root, labels and
                // time range are baked into it, so they leave the fragment.
                let v0 = view.options.get_untracked();
                let max = scorch_core::export::links::DEFAULT_MAX;
                // A diff of two local profiles carries the base too (not a range comparison: one profile).
                let base = diff.base.get_untracked().filter(|b| !Arc::ptr_eq(b, &loaded));
                let job = Job::Share(ShareJob {
                    rules: r.clone(),
                    max,
                    merge: base.is_none().then_some(crate::url::MAX_SERIES),
                });
                let s = match build_view(
                    Channel::Share,
                    loaded.key,
                    &loaded.imported,
                    v0.clone(),
                    Default::default(),
                    vec![job],
                )
                .await
                {
                    Ok(mut built) => match built.pop() {
                        Some(Ok(Built::Share(s))) => *s,
                        Some(Err(e)) => return Err(e),
                        _ => return Err("the view engine sent no link".to_string()),
                    },
                    Err(LoadError::Cancelled) => return Err(String::new()),
                    Err(e) => return Err(e.to_string()),
                };
                found = Some(s.found.text());
                summary = Some(summary_line(&s.found));
                carried = Some(s.carried.text());
                error = s.error.clone();
                // Names the view state spells (zoom path, selection, search, …) could hold what was scrubbed:
                // left out when they do.
                let mut r = r;
                if error.is_some() {
                    r.redact = None;
                }
                drop_leaks_of(&mut f, &s.found, &r);
                let timed = s.timed;
                if !s.profiles.is_empty() {
                    about = format!(
                        "the {} profiles are in the link, each under its name ({} stacks{}{})",
                        s.profiles.len(),
                        group_thousands(s.stacks as u64),
                        if s.dropped > 0 {
                            format!(
                                "; {} smaller stacks left out to keep it under {} KB",
                                group_thousands(s.dropped as u64),
                                max / 1024
                            )
                        } else {
                            String::new()
                        },
                        if timed { "; with timestamps" } else { "" }
                    );
                    f = f.for_carried(s.profiles, timed);
                } else {
                    let payload = s.payload.unwrap_or_default();
                    about = if let (Some(b), None) = (base, heat.range_a.get_untracked()) {
                        let bv = ViewOptions {
                            time_range: None,
                            ..matching_view(&b.imported.profile, &loaded.imported.profile, v0.clone())
                        };
                        let bp = &b.imported.profile;
                        let bs = match scrub(bp, &bv, &r) {
                            Ok((sp, sv)) => scorch_core::export::links::encode(&sp, &sv, max),
                            Err(_) => scorch_core::export::links::encode(bp, &bv, max),
                        };
                        f = f.for_embedded(payload, Some(bs.payload), timed);
                        String::from("both profiles are in the link (")
                    } else {
                        f = f.for_embedded(payload, None, timed);
                        String::from("the profile is in the link (")
                    };
                    about.push_str(&format!("{} stacks", group_thousands(s.stacks as u64)));
                    if s.dropped > 0 {
                        about.push_str(&format!(
                            "; {} smaller stacks, {:.2} % of the total, left out to keep it under {} KB",
                            group_thousands(s.dropped as u64),
                            s.dropped_ppm as f64 / 1e4,
                            max / 1024
                        ));
                    }
                    if timed {
                        about.push_str("; with timestamps, so the heatmap and the time range come along");
                    } else if s.ranged {
                        about.push_str("; only the selected time range, without timestamps");
                    }
                    about.push(')');
                }
                about.push_str(&if r.is_empty() {
                    "; not scrubbed".to_string()
                } else {
                    format!("; scrubbed: {}", r.names().replace(',', ", "))
                });
            }
        }
        let zoom_depth = main.data.with_untracked(|d| {
            d.as_ref()
                .and_then(|d| d.tree.depth.get(main.current_zoom().idx()).copied())
                .unwrap_or(0)
        });
        if zoom_depth as usize > crate::state::link::MAX_ZOOM_DEPTH {
            about.push_str(&format!(
                "; the zoom is left out: it is {} frames deep, more than a link carries ({})",
                group_thousands(u64::from(zoom_depth)),
                group_thousands(crate::state::link::MAX_ZOOM_DEPTH as u64)
            ));
        }
        let loc = web_sys::window().map(|w| w.location());
        let link = format!(
            "{}{}{}",
            loc.as_ref().and_then(|l| l.origin().ok()).unwrap_or_default(),
            loc.as_ref().and_then(|l| l.pathname().ok()).unwrap_or_default(),
            f.render().unwrap_or_else(|| "#".to_string())
        );
        Ok(Made {
            size: format!("{} characters: {about}", group_thousands(link.len() as u64)),
            link,
            found,
            summary,
            carried,
            error,
        })
    };
    let copy = move |link: &str| {
        if let Some(w) = web_sys::window() {
            copy_to_clipboard(&w, link);
        }
    };
    // A failed build (the engine could not be reached) is shown as a failed load is; a cancelled one (a newer
    // Copy link) is not.
    let made = move |m: Result<Made, String>| match m {
        Ok(m) => Some(m),
        Err(e) => {
            if !e.is_empty() {
                load.error.set(Some(format!("Could not make the link: {e}")));
            }
            None
        }
    };
    let make = move |_| {
        leptos::task::spawn_local(async move {
            if let Some(m) = made(build().await) {
                copy(&m.link);
                shown.set(Some(m));
            }
        })
    };
    let remake = move || {
        if shown.get_untracked().is_some() {
            leptos::task::spawn_local(async move {
                if let Some(m) = made(build().await) {
                    if shown.get_untracked().is_some() {
                        shown.set(Some(m));
                    }
                }
            })
        }
    };
    let field = move |get: fn(&Made) -> Option<String>| move || shown.with(|m| m.as_ref().and_then(get));
    let link = field(|m| Some(m.link.clone()));
    let size = field(|m| Some(m.size.clone()));
    let error = field(|m| m.error.clone());
    let found = field(|m| m.found.clone());
    let summary = field(|m| m.summary.clone());
    let carried = field(|m| m.carried.clone());
    // One panel kept in the page while open (its parts follow the choices), so a choice made from the keyboard
    // keeps its focus.
    view! {
        <button data-testid="copy-link" title="Copy a link to exactly this view" on:click=make>"Copy link"</button>
        <Show when=move || shown.with(Option::is_some)>
            <div class="link-panel" role="group" aria-label="Copy link">
                <div class="link-row">
                    <input data-testid="copy-link-text" aria-label="The link" readonly
                        prop:value=move || link().unwrap_or_default()/>
                    <span data-testid="copy-link-size">{size}</span>
                    <button data-testid="copy-link-again" title="Copy this link"
                        on:click=move |_| copy(&link().unwrap_or_default())>"Copy"</button>
                    <button on:click=move |_| shown.set(None)>"Close"</button>
                </div>
                <super::notes_panel::NoteAdd added=Callback::new(move |_| remake())/>
                {move || error().map(|e| view! { <span class="error" role="alert" data-testid="scrub-error">{e}</span> })}
                <SharePreview prefix="" rules=rules redact=redact found=Signal::derive(found)
                    summary=Signal::derive(summary) carried=Signal::derive(carried)
                    carried_title="What the link carries" changed=Callback::new(move |_| remake())/>
            </div>
        </Show>
    }
}

/// Writes `text` to the clipboard where the browser offers one. `navigator.clipboard` exists only in a secure
/// context (https or localhost): on an intranet host served over plain http it is undefined in Chromium and
/// Firefox alike, and calling it threw before the link panel opened. Feature-detected, so the link is always shown
/// (to select and copy by hand); a write the browser refuses (a permission) is not an error of the page.
fn copy_to_clipboard(w: &web_sys::Window, text: &str) {
    let nav = w.navigator();
    let has = js_sys::Reflect::get(&nav, &"clipboard".into()).is_ok_and(|c| c.is_object());
    if has {
        let written = wasm_bindgen_futures::JsFuture::from(nav.clipboard().write_text(text));
        leptos::task::spawn_local(async move {
            let _ = written.await;
        });
    }
}
