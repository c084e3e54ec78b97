//! "Copy link": the view as a link, with a note on what it carries; a profile carried in the link is shown
//! first as the core's report of what it holds, with the scrub choices (the core's `export::scrub`, as
//! `scorch link --scrub`).

use crate::state::diff::DiffState;
use crate::state::heatmap::HeatState;
use crate::state::load::LoadState;
use crate::state::rebuild::matching_view;
use crate::state::view::ViewState;
use crate::state::Actions;
use crate::url::Source;
use leptos::prelude::*;
use scorch_core::export::report::{report, Carries};
use scorch_core::export::scrub::{scrub, LabelRule, Rules};
use scorch_core::model::units::group_thousands;
use scorch_core::ViewOptions;
use std::sync::Arc;

/// The scrub choices of the panel, as checkboxes: (rule name, label).
const CHOICES: [(&str, &str); 6] = [
    ("paths", "File paths → base names"),
    ("users", "User names in home folders → <user>"),
    ("header", "Header (host, command line, …) and the hostname"),
    ("labels", "Labels"),
    ("threads", "Threads and processes not shown"),
    ("timestamps", "Timestamps (no heatmap for the receiver)"),
];

fn rule_on(r: &Rules, name: &str) -> bool {
    match name {
        "paths" => r.paths,
        "users" => r.users,
        "header" => r.header,
        "labels" => r.labels != LabelRule::Keep,
        "threads" => r.threads,
        "timestamps" => r.timestamps,
        _ => false,
    }
}

fn set_rule(r: &mut Rules, name: &str, on: bool) {
    match name {
        "paths" => r.paths = on,
        "users" => r.users = on,
        "header" => r.header = on,
        "labels" => r.labels = if on { LabelRule::All } else { LabelRule::Keep },
        "threads" => r.threads = on,
        "timestamps" => r.timestamps = on,
        _ => {}
    }
}

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
                let mut r = rules.get_untracked();
                let rx = redact.get_untracked();
                r.redact = (!rx.trim().is_empty()).then(|| rx.trim().to_string());
                // The profile travels as folded stacks of the current view: event, weight, root, labels and
                // time range are baked into it, so they leave the fragment.
                let v0 = view.options.get_untracked();
                let p0 = &loaded.imported.profile;
                let max = scorch_core::export::links::DEFAULT_MAX;
                let times0 = p0.samples.time_ns.is_some();
                let rep = report(p0, &v0, &Carries::link(times0));
                found = Some(rep.text());
                summary = Some(format!(
                    "Found: {} file path{}; user names: {}; header: {}",
                    group_thousands(rep.paths.len() as u64),
                    if rep.paths.len() == 1 { "" } else { "s" },
                    if rep.users.is_empty() {
                        "none".to_string()
                    } else {
                        rep.users.join(", ")
                    },
                    if rep.header.is_empty() {
                        "none".to_string()
                    } else {
                        rep.header
                            .iter()
                            .map(|(k, _)| k.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                ));
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
                if !r.is_empty() {
                    let rep0 = report(p0, &v0, &Carries::link(times0));
                    let mut hidden: Vec<String> = rep0.paths.clone();
                    hidden.extend(rep0.users.iter().cloned());
                    hidden.extend(rep0.hosts.iter().cloned());
                    // (the browser's expression, to check names only: the core's compiled it for the scrub)
                    let re = r.redact.as_deref().map(|x| js_sys::RegExp::new(x, "u"));
                    let leaks = |t: &str| {
                        hidden.iter().any(|h| !h.is_empty() && t.contains(h.as_str()))
                            || re.as_ref().is_some_and(|re| re.test(t))
                    };
                    if f.zoom.iter().any(|z| leaks(z)) {
                        f.zoom.clear();
                    }
                    if f.selected.as_deref().is_some_and(leaks) {
                        f.selected = None;
                    }
                    if f.graph_focus.as_deref().is_some_and(leaks) {
                        f.graph_focus = None;
                    }
                    if leaks(&f.search.text) {
                        f.search = Default::default();
                    }
                    if f.transforms.iter().any(|t| leaks(&format!("{t:?}"))) {
                        f.transforms.clear();
                    }
                }
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
    // The expression is applied when the field is left or Enter is pressed (a value set by a script fires no
    // `change`, so leaving the field counts too), once per new value.
    let made_with = StoredValue::new(String::new());
    let remake_redact = move || {
        let now = redact.get_untracked();
        if made_with.get_value() != now {
            made_with.set_value(now);
            remake();
        }
    };
    let choices = move || {
        CHOICES
            .iter()
            .map(|&(name, label)| {
                let (id, for_id) = (format!("scrub-{name}"), format!("scrub-{name}"));
                view! {
                    <label class="scrub-choice" for=for_id>
                        <input type="checkbox" id=id data-testid=format!("scrub-{name}")
                            prop:checked=move || rules.with(|r| rule_on(r, name))
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                rules.update(|r| set_rule(r, name, on));
                                remake();
                            }/>
                        {label}
                    </label>
                }
            })
            .collect_view()
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
                {move || error().map(|e| view! { <span class="error" role="alert" data-testid="scrub-error">{e}</span> })}
                <details class="share-preview" data-testid="share-preview"
                    style:display=move || if found().is_some() { "" } else { "none" }>
                    <summary data-testid="share-summary">{summary}" — scrub choices and details"</summary>
                    <fieldset class="scrub-choices" data-testid="scrub-choices">
                        <legend>"Scrub before it leaves"</legend>
                        {choices()}
                        <label class="scrub-choice" for="scrub-redact">"Rename frames matching "
                            <input id="scrub-redact" data-testid="scrub-redact" type="text"
                                placeholder="regular expression" prop:value=move || redact.get()
                                on:input=move |ev| redact.set(event_target_value(&ev))
                                on:change=move |_| remake_redact()
                                on:blur=move |_| remake_redact()/>
                        </label>
                        <button data-testid="scrub-apply" title="Make the link with this expression"
                            on:click=move |_| remake_redact()>"Apply"</button>
                    </fieldset>
                    <strong>"What the view holds"</strong>
                    <pre data-testid="share-found">{found}</pre>
                    <strong>"What the link carries"</strong>
                    <pre data-testid="share-carried">{carried}</pre>
                </details>
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
