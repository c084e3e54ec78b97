//! What a payload carries and the scrub choices, before anything leaves: the core's report (`export::report`)
//! of the view and of what would go, and the rules of `export::scrub` as checkboxes and a redact field. Copy
//! link and the Export menu show the same (`CopyLink`, `ExportMenu`); each makes its payload with the rules.

use crate::url::UrlState;
use leptos::prelude::*;
use scorch_core::export::report::{report, Carries, Report};
use scorch_core::export::scrub::{LabelRule, Rules};
use scorch_core::model::units::group_thousands;
use scorch_core::{Profile, ViewOptions};

/// The scrub choices, as checkboxes: (rule name, label).
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

/// The preview's first line: what was found that a rule could hide.
pub fn summary_line(rep: &Report) -> String {
    let none_or = |v: Vec<&str>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    format!(
        "Found: {} file path{}; user names: {}; header: {}",
        group_thousands(rep.paths.len() as u64),
        if rep.paths.len() == 1 { "" } else { "s" },
        none_or(rep.users.iter().map(String::as_str).collect()),
        none_or(rep.header.iter().map(|(k, _)| k.as_str()).collect()),
    )
}

/// The rules with the redact field's expression (blank: none).
pub fn with_redact(mut r: Rules, redact: &str) -> Rules {
    r.redact = (!redact.trim().is_empty()).then(|| redact.trim().to_string());
    r
}

/// Leaves out of a link's view state the names that could hold what the rules scrub (zoom path, selection,
/// search, graph focus, transforms, notes on frames): when one holds a path, user name or hostname the view's
/// report found, or matches the redact expression.
pub fn drop_leaks(f: &mut UrlState, p: &Profile, v: &ViewOptions, r: &Rules, carries: &Carries) {
    if r.is_empty() {
        return;
    }
    drop_leaks_of(f, &report(p, v, carries), r);
}

/// [`drop_leaks`] with the view's report made already.
pub fn drop_leaks_of(f: &mut UrlState, rep: &Report, r: &Rules) {
    if r.is_empty() {
        return;
    }
    let mut hidden: Vec<String> = rep.paths.clone();
    hidden.extend(rep.users.iter().cloned());
    hidden.extend(rep.hosts.iter().cloned());
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
    f.notes
        .retain(|n| !matches!(&n.target, scorch_core::view::notes::NoteTarget::Frame(x) if leaks(x)));
}

/// The preview: a disclosure whose summary is [`summary_line`], with the choices, the redact field and the two
/// reports. `prefix` keeps ids and test ids apart when Copy link's and the Export menu's are both in the page
/// (`""`: `scrub-paths`, `share-found`…; `"export-"`: `export-scrub-paths`…). `changed` runs after a choice.
#[component]
pub fn SharePreview(
    prefix: &'static str,
    rules: RwSignal<Rules>,
    redact: RwSignal<String>,
    #[prop(into)] found: Signal<Option<String>>,
    #[prop(into)] summary: Signal<Option<String>>,
    #[prop(into)] carried: Signal<Option<String>>,
    /// The heading of what goes (`What the link carries`).
    carried_title: &'static str,
    changed: Callback<()>,
) -> impl IntoView {
    let id = move |x: &str| format!("{prefix}{x}");
    // The expression is applied when the field is left or Enter is pressed (a value set by a script fires no
    // `change`, so leaving the field counts too), once per new value.
    let made_with = StoredValue::new(String::new());
    let remake_redact = move || {
        let now = redact.get_untracked();
        if made_with.get_value() != now {
            made_with.set_value(now);
            changed.run(());
        }
    };
    let choices = CHOICES
        .iter()
        .map(|&(name, label)| {
            let cid = id(&format!("scrub-{name}"));
            let (for_id, test_id) = (cid.clone(), cid.clone());
            view! {
                <label class="scrub-choice" for=for_id>
                    <input type="checkbox" id=cid data-testid=test_id
                        prop:checked=move || rules.with(|r| rule_on(r, name))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            rules.update(|r| set_rule(r, name, on));
                            changed.run(());
                        }/>
                    {label}
                </label>
            }
        })
        .collect_view();
    let rid = id("scrub-redact");
    let (rid_for, rid_test) = (rid.clone(), rid.clone());
    view! {
        <details class="share-preview" data-testid=id("share-preview")
            style:display=move || if found.get().is_some() { "" } else { "none" }>
            <summary data-testid=id("share-summary")>{move || summary.get()}" — scrub choices and details"</summary>
            <fieldset class="scrub-choices" data-testid=id("scrub-choices")>
                <legend>"Scrub before it leaves"</legend>
                {choices}
                <label class="scrub-choice" for=rid_for>"Rename frames matching "
                    <input id=rid data-testid=rid_test type="text"
                        placeholder="regular expression" prop:value=move || redact.get()
                        on:input=move |ev| redact.set(event_target_value(&ev))
                        on:change=move |_| remake_redact()
                        on:blur=move |_| remake_redact()/>
                </label>
                <button data-testid=id("scrub-apply") title="Apply this expression"
                    on:click=move |_| remake_redact()>"Apply"</button>
            </fieldset>
            <strong>"What the view holds"</strong>
            <pre data-testid=id("share-found")>{move || found.get()}</pre>
            <strong>{carried_title}</strong>
            <pre data-testid=id("share-carried")>{move || carried.get()}</pre>
        </details>
    }
}
