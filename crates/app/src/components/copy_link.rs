//! "Copy link": the view as a link, with a note on what it carries; a profile carried in the link is shown
//! first as the core's report of what it holds, with the scrub choices (the core's `export::scrub`, as
//! `scorch link --scrub`). Notes are added here too (`notes_panel::NoteAdd`): they go into the link.

use super::share_preview::{drop_leaks, summary_line, with_redact, SharePreview};
use crate::state::diff::DiffState;
use crate::state::heatmap::HeatState;
use crate::state::load::LoadState;
use crate::state::rebuild::matching_view;
use crate::state::view::ViewState;
use crate::state::Actions;
use crate::url::Source;
use leptos::prelude::*;
use scorch_core::export::report::{report, Carries};
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
    let shown = RwSignal::new(None::<Made>);
    let rules = RwSignal::new(Rules::link_default());
    let redact = RwSignal::new(String::new());
    let build = move || -> Made {
        let mut f = actions.link_state();
        let mut about = String::from("the link names the hosted profile");
        let mut found = None;
        let mut summary = None;
        let mut carried = None;
        let mut error = None;
        if f.source == Source::None {
            if let Some(loaded) = load.loaded.get_untracked() {
                let mut r = with_redact(rules.get_untracked(), &redact.get_untracked());
                // The profile travels as folded stacks of the current view: event, weight, root, labels and
                // time range are baked into it, so they leave the fragment.
                let v0 = view.options.get_untracked();
                let p0 = &loaded.imported.profile;
                let max = scorch_core::export::links::DEFAULT_MAX;
                let times0 = p0.samples.time_ns.is_some();
                let rep = report(p0, &v0, &Carries::link(times0));
                found = Some(rep.text());
                summary = Some(summary_line(&rep));
                let scrubbed = match scrub(p0, &v0, &r) {
                    Ok(s) => Some(s),
                    Err(e) => {
                        error = Some(e);
                        r.redact = None;
                        scrub(p0, &v0, &r).ok()
                    }
                };
                let (p, v) = match &scrubbed {
                    Some((p, v)) => (p, v.clone()),
                    None => (p0, v0.clone()),
                };
                // Names the view state spells (zoom path, selection, search, …) could hold what was scrubbed:
                // left out when they do.
                drop_leaks(&mut f, p0, &v0, &r, &Carries::link(times0));
                // A diff of two local profiles carries the base too (not a range comparison: one profile).
                let base = diff.base.get_untracked().filter(|b| !Arc::ptr_eq(b, &loaded));
                // A merge of several files carries each under its name, so the receiver has them apart.
                if let Some(c) = base.is_none().then(|| carry_profiles(p, &v, max)).flatten() {
                    about = format!(
                        "the {} profiles are in the link, each under its name ({} stacks{}{})",
                        c.profiles.len(),
                        group_thousands(c.stacks as u64),
                        if c.dropped > 0 {
                            format!(
                                "; {} smaller stacks left out to keep it under {} KB",
                                group_thousands(c.dropped as u64),
                                max / 1024
                            )
                        } else {
                            String::new()
                        },
                        if c.timed { "; with timestamps" } else { "" }
                    );
                    carried = Some(report(p, &v, &Carries::link(c.timed)).text());
                    f = f.for_carried(c.profiles, c.timed);
                } else {
                    let s = scorch_core::export::links::encode_timed(p, &v, max)
                        .unwrap_or_else(|| scorch_core::export::links::encode(p, &v, max));
                    let timed = s.times;
                    carried = Some(report(p, &v, &Carries::link(timed)).text());
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
                        f = f.for_embedded(s.payload, Some(bs.payload), timed);
                        String::from("both profiles are in the link (")
                    } else {
                        f = f.for_embedded(s.payload, None, timed);
                        String::from("the profile is in the link (")
                    };
                    about.push_str(&format!("{} stacks", group_thousands(s.stacks as u64)));
                    if s.dropped_stacks > 0 {
                        about.push_str(&format!(
                            "; {} smaller stacks, {:.2} % of the total, left out to keep it under {} KB",
                            group_thousands(s.dropped_stacks as u64),
                            s.dropped_ppm as f64 / 1e4,
                            max / 1024
                        ));
                    }
                    if timed {
                        about.push_str("; with timestamps, so the heatmap and the time range come along");
                    } else if v.time_range.is_some() {
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
        let main = expect_context::<crate::state::pane::Panes>().main;
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
        Made {
            size: format!("{} characters: {about}", group_thousands(link.len() as u64)),
            link,
            found,
            summary,
            carried,
            error,
        }
    };
    let copy = move |link: &str| {
        if let Some(w) = web_sys::window() {
            copy_to_clipboard(&w, link);
        }
    };
    let make = move |_| {
        let m = build();
        copy(&m.link);
        shown.set(Some(m));
    };
    let remake = move || {
        if shown.get_untracked().is_some() {
            shown.set(Some(build()));
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

/// The profiles of a merge, each as a link payload under its name.
struct Carried {
    profiles: Vec<(String, String)>,
    stacks: usize,
    dropped: usize,
    timed: bool,
}

/// Each profile of a merged view (`profile=` labels: several files opened at once) as its own payload, the
/// link's cap shared equally: all with timestamps if all fit so, else all without. `None` when the profile is
/// not a merge, or the view filters by another label (which the carried stacks could not keep apart).
fn carry_profiles(p: &scorch_core::Profile, v: &ViewOptions, max: usize) -> Option<Carried> {
    use super::profile_list::{only, profile_names};
    use scorch_core::export::links;
    use scorch_core::import::many::PROFILE_LABEL;
    let (names, _) = profile_names(p);
    if names.len() < 2 || names.len() > crate::url::MAX_SERIES {
        return None;
    }
    if let Some(l) = &v.label {
        if p.strings.get(l.key) != PROFILE_LABEL {
            return None;
        }
    }
    // Grouping by profile stays view state (the receiver merges under the same names).
    let v = ViewOptions {
        root: match v.root {
            scorch_core::RootMode::Label(k) if p.strings.get(k) == PROFILE_LABEL => {
                scorch_core::RootMode::None
            }
            r => r,
        },
        ..v.clone()
    };
    let per = max / names.len();
    let views: Vec<(String, ViewOptions)> = names
        .into_iter()
        .filter_map(|n| Some((only(p, &v, &n)?, n)))
        .map(|(w, n)| (n, w))
        .collect();
    let timed: Option<Vec<links::Shared>> = views
        .iter()
        .map(|(_, w)| links::encode_timed(p, w, per))
        .collect();
    let shared = match timed {
        Some(s) => s,
        None => views.iter().map(|(_, w)| links::encode(p, w, per)).collect(),
    };
    Some(Carried {
        stacks: shared.iter().map(|s| s.stacks).sum(),
        dropped: shared.iter().map(|s| s.dropped_stacks).sum(),
        timed: shared.iter().all(|s| s.times),
        profiles: views
            .into_iter()
            .map(|(n, _)| n)
            .zip(shared.into_iter().map(|s| s.payload))
            .collect(),
    })
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
