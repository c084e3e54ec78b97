//! The Export menu (toolbar button, `e`): the main pane's view as a file to download. SVG and pprof come from
//! the core's writers (`scorch_core::export::svg`, `export::pprof`), folded text is what `scorch fold` prints, and
//! the PNG is the SVG rasterised at 2× (a data: URL `Image` drawn on an offscreen canvas). The SVG has the app's colours,
//! search highlighting and orientation at the pane's width; it is the whole view (the zoom is not applied), so
//! `scorch export --to svg --width W FILE` writes the same bytes for a view without colour, search or diff
//! choices (docs/SHARING.md). While the call graph is shown, SVG and PNG are of the drawn graph instead
//! (`render::graph_svg`: the whole graph as drawn, its colours, boxes, edges and labels).

use super::share_preview::{drop_leaks, summary_line, with_redact, SharePreview};
use crate::render::{ColorScheme, FlameData, Orientation};
use crate::state::load::LoadState;
use crate::state::pane::Panes;
use crate::state::search::SearchState;
use crate::state::view::ViewState;
use leptos::prelude::*;
use scorch_core::export::report::{report, Carries};
use scorch_core::export::scrub::{scrub, Rules};
use scorch_core::export::svg::{self, SvgOptions};
use scorch_core::view::calltree::NodeId;
use std::sync::Arc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The largest canvas side browsers draw (Chromium, Firefox), in device pixels.
const MAX_SIDE: f64 = 32_767.0;
/// The largest canvas area Chromium draws, in device pixels.
const MAX_AREA: f64 = 268_435_456.0;

/// What an export writes: the file's name, its media type and its bytes.
struct File {
    name: String,
    mime: &'static str,
    bytes: Vec<u8>,
}

/// The name of the exported file: the profile's name without its extensions, and the new one.
fn file_name(profile: &str, ext: &str) -> String {
    let stem = profile
        .split('.')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or("profile");
    let safe: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.{ext}")
}

/// The SVG of a view as the pane shows it (its colours, search matches and orientation) at `width` px.
fn svg_of(
    d: &FlameData,
    scheme: ColorScheme,
    search: Option<&[bool]>,
    orientation: Orientation,
    width: u32,
) -> String {
    let fills: Vec<_> = (0..d.tree.len())
        .map(|n| d.color_of(NodeId(n as u32), scheme))
        .collect();
    let legend = if d.diff.is_some() {
        Some("colour: red grew, blue shrank (differential)".to_string())
    } else if scheme != ColorScheme::Name {
        Some(format!("colour: by {}", scheme.label()))
    } else {
        None
    };
    let total = d.tree.total.first().copied().unwrap_or(0);
    let sub = svg::subtitle(d.name(), d.loaded.imported.gzip, d.profile(), &d.view, total);
    let o = SvgOptions {
        width,
        orientation: match orientation {
            Orientation::Flame => svg::Orientation::Flame,
            Orientation::Icicle => svg::Orientation::Icicle,
        },
        title: "Flame Graph",
        subtitle: &sub,
        fills: Some(&fills),
        legend: legend.as_deref(),
        search,
    };
    // The whole layout for this export only (the page keeps none: it places each paint's window).
    let layout = scorch_core::FlameLayout::new(&d.tree);
    svg::flame_svg(d.profile(), &d.tree, &layout, &d.unit, &o)
}

/// Offers `file` as a download (a Blob and a click on an `<a download>`).
fn download(file: &File) {
    crate::seams::record_export(&file.name, &file.bytes);
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(&file.bytes[..]));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(file.mime);
    let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts) else {
        return;
    };
    save_blob(&doc, &blob, &file.name);
}

fn save_blob(doc: &web_sys::Document, blob: &web_sys::Blob, name: &str) {
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else {
        return;
    };
    if let Some(a) = doc
        .create_element("a")
        .ok()
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    // Revoked after the click has been handled.
    let revoke = Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 1000);
    }
}

/// Fetches one of the viewer's own files (relative to the page): its text, or its bytes.
async fn own_file(url: &str) -> Result<Vec<u8>, String> {
    use wasm_bindgen_futures::JsFuture;
    let w = web_sys::window().ok_or("no window")?;
    let resp: web_sys::Response = JsFuture::from(w.fetch_with_str(url))
        .await
        .map_err(|_| format!("could not read the viewer's {url}"))?
        .dyn_into()
        .map_err(|_| "not a response".to_string())?;
    if !resp.ok() {
        return Err(format!(
            "could not read the viewer's {url} (HTTP {})",
            resp.status()
        ));
    }
    let buf = JsFuture::from(resp.array_buffer().map_err(|_| "no body".to_string())?)
        .await
        .map_err(|_| format!("could not read the viewer's {url}"))?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// The one-file HTML export: the viewer's own files and the view's stacks (with timestamps where they are,
/// as a link carries them, without its size cap) in one page that opens from disk; the view's link state in its
/// fragment. `scorch_core::export::html` writes the file.
async fn download_html(
    actions: crate::state::Actions,
    loaded: Arc<crate::render::Loaded>,
    rules: Rules,
) -> Result<usize, String> {
    use scorch_core::export::{html, links};
    let p0 = &loaded.imported.profile;
    let v0 = actions.view.options.get_untracked();
    // Scrubbed by the core's `export::scrub` when asked, as `scorch export --to html --scrub`.
    let scrubbed = (!rules.is_empty()).then(|| scrub(p0, &v0, &rules)).transpose()?;
    let (p, v) = match &scrubbed {
        Some((p, v)) => (p, v.clone()),
        None => (p0, v0.clone()),
    };
    let shared = links::encode_timed(p, &v, usize::MAX).unwrap_or_else(|| links::encode(p, &v, usize::MAX));
    let stacks = links::decode(&shared.payload).map_err(|e| e.to_string())?;
    let mut state = actions.link_state();
    drop_leaks(&mut state, p0, &v0, &rules, &Carries::link(shared.times));
    let mut state = state.for_embedded(String::new(), None, shared.times);
    state.source = crate::url::Source::None;
    let fragment = state.render().unwrap_or_default();
    let css_href = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("link[rel=stylesheet]").ok().flatten())
        .and_then(|l| l.get_attribute("href"))
        .unwrap_or_else(|| "style.css".to_string());
    let glue = own_file("scorch-app.js").await?;
    let wasm = own_file("scorch-app_bg.wasm").await?;
    let css = own_file(&css_href).await?;
    let text = html::one_file(&html::HtmlParts {
        glue_js: &String::from_utf8_lossy(&glue),
        wasm: &wasm,
        css: &String::from_utf8_lossy(&css),
        profile: &stacks,
        name: &loaded.name,
        fragment: &fragment,
    })
    .map_err(|e| e.to_string())?;
    let n = text.len();
    download(&File {
        name: file_name(&loaded.name, "html"),
        // Not text/html: Firefox would show the page instead of saving it.
        mime: "application/octet-stream",
        bytes: text.into_bytes(),
    });
    Ok(n)
}

/// Rasterises an SVG at 2× its size and downloads it as PNG.
fn download_png(svg_text: String, name: String) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let num = |attr: &str| -> f64 {
        let key = format!(" {attr}=\"");
        svg_text
            .find(&key)
            .and_then(|i| {
                let rest = svg_text.get(i + key.len()..)?;
                rest.get(..rest.find('"')?)?.parse().ok()
            })
            .unwrap_or(0.0)
    };
    let (w, h) = (num("width"), num("height"));
    // Browsers refuse canvases past 32,767 px a side (and about 268 million pixels): a deep graph is SVG only.
    if w * 2.0 > MAX_SIDE || h * 2.0 > MAX_SIDE || w * h * 4.0 > MAX_AREA {
        if let Some(win) = web_sys::window() {
            let _ = win.alert_with_message(&format!(
                "This graph is {w:.0} × {h:.0} px: at 2× it is past what a browser canvas can hold. Export it as SVG."
            ));
        }
        return;
    }
    // A data: URL: the page's CSP allows images from 'self' and data:, not blob:.
    let url = format!(
        "data:image/svg+xml;charset=utf-8,{}",
        js_sys::encode_uri_component(&svg_text)
    );
    let Ok(img) = web_sys::HtmlImageElement::new() else {
        return;
    };
    let img2 = img.clone();
    let onload = Closure::once_into_js(move || {
        let Some(canvas) = doc
            .create_element("canvas")
            .ok()
            .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        canvas.set_width((w * 2.0) as u32);
        canvas.set_height((h * 2.0) as u32);
        let Some(ctx) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let _ = ctx.draw_image_with_html_image_element_and_dw_and_dh(&img2, 0.0, 0.0, w * 2.0, h * 2.0);
        let done = Closure::once_into_js(move |blob: Option<web_sys::Blob>| {
            let Some(blob) = blob else { return };
            crate::seams::record_export_blob(&name, &blob);
            if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
                save_blob(&doc, &blob, &name);
            }
        });
        let _ = canvas.to_blob_with_type(done.unchecked_ref(), "image/png");
    });
    img.set_onload(Some(onload.unchecked_ref()));
    img.set_src(&url);
}

/// The SVG of a scrubbed view: the core's picture of it (`scorch export --to svg` with the rules: the app's
/// colours and search marks were of the names before the scrub), at the pane's width and orientation.
fn scrubbed_svg(
    scrubbed: &Option<(scorch_core::Profile, scorch_core::ViewOptions)>,
    d: &FlameData,
    width: f64,
) -> Option<String> {
    use scorch_core::view::calltree::{CallTree, Order};
    let (p, v) = scrubbed.as_ref()?;
    let t = CallTree::build(p, v, Order::Alphabetical);
    let l = scorch_core::FlameLayout::new(&t);
    let total = t.total.first().copied().unwrap_or(0);
    let sub = svg::subtitle(d.name(), d.loaded.imported.gzip, p, v, total);
    let o = SvgOptions {
        width: width.round().max(200.0) as u32,
        title: "Flame Graph",
        subtitle: &sub,
        ..SvgOptions::default()
    };
    Some(svg::flame_svg(p, &t, &l, &v.unit(p), &o))
}

/// The toolbar's Export button and its menu.
#[component]
pub fn ExportMenu() -> impl IntoView {
    let load = expect_context::<LoadState>();
    let view = expect_context::<ViewState>();
    let search = expect_context::<SearchState>();
    let main = expect_context::<Panes>().main;
    let open = RwSignal::new(false);
    let svg_now = move || -> Option<String> {
        // While the call graph is shown, the drawn graph (`render::graph_svg`).
        if view.mode.get_untracked() == crate::state::view::Mode::Graph {
            let shown = load.shown.get_untracked()?;
            let g = super::call_graph::drawn().filter(|g| Arc::ptr_eq(&g.loaded, &shown))?;
            return Some(crate::render::graph_svg::graph_svg(
                &g,
                view.scheme.get_untracked(),
                &format!("Call graph · {}", shown.name),
            ));
        }
        let d = main.data.get_untracked()?;
        let width = main.width.get_untracked().round().max(200.0) as u32;
        let mask = search.mask(&d);
        Some(svg_of(
            &d,
            view.scheme.get_untracked(),
            mask.as_deref().map(|v| v.as_slice()),
            main.orientation(view.orientation.get_untracked()),
            width,
        ))
    };
    let actions = expect_context::<crate::state::Actions>();
    let note = RwSignal::new(None::<String>);
    // The scrub choices: nothing by default, as `scorch export`.
    let rules = RwSignal::new(Rules::default());
    let redact = RwSignal::new(String::new());
    // What the view holds, its summary, and what an export carries after the rules (or why they failed).
    let preview = RwSignal::new(None::<(String, String, String)>);
    let make_preview = move || {
        let Some(d) = main.data.get_untracked() else {
            preview.set(None);
            return;
        };
        let rep = report(d.profile(), &d.view, &Carries::pprof());
        let r = with_redact(rules.get_untracked(), &redact.get_untracked());
        let carried = match scrub(d.profile(), &d.view, &r) {
            Ok((p, v)) => report(&p, &v, &Carries::pprof()).text(),
            Err(e) => format!("not scrubbed: {e}"),
        };
        preview.set(Some((rep.text(), summary_line(&rep), carried)));
    };
    Effect::new(move |_| {
        if open.get() {
            make_preview();
        }
    });
    let export = move |kind: &'static str| {
        open.set(false);
        let Some(d0) = main.data.get_untracked() else {
            return;
        };
        let name = d0.name().to_string();
        let graph = view.mode.get_untracked() == crate::state::view::Mode::Graph;
        let r = with_redact(rules.get_untracked(), &redact.get_untracked());
        // The view scrubbed by the core's `export::scrub` (as `scorch export --scrub`), when asked.
        let scrubbed = match (!r.is_empty())
            .then(|| scrub(d0.profile(), &d0.view, &r))
            .transpose()
        {
            Ok(s) => s,
            Err(e) => {
                note.set(Some(format!("Not exported: {e}")));
                return;
            }
        };
        if scrubbed.is_some() && graph && matches!(kind, "svg" | "png") {
            note.set(Some(
                "The call graph's picture is not scrubbed: leave the call graph to export a scrubbed flame graph.".into(),
            ));
            return;
        }
        let (sp, sv) = match &scrubbed {
            Some((p, v)) => (p, v),
            None => (d0.profile(), &d0.view),
        };
        let d = &d0;
        match kind {
            "html" => {
                let Some(loaded) = load.loaded.get_untracked() else {
                    return;
                };
                if d.diff.is_some() {
                    note.set(Some(
                        "One HTML file holds one profile: leave the diff first.".into(),
                    ));
                    return;
                }
                note.set(Some("Writing the HTML file…".into()));
                leptos::task::spawn_local(async move {
                    note.set(Some(match download_html(actions, loaded, r).await {
                        Ok(n) => format!(
                            "HTML file written: {:.1} MB (opens from disk, no server needed)",
                            n as f64 / 1e6
                        ),
                        Err(e) => format!("HTML export: {e}"),
                    }));
                });
            }
            "svg" => {
                let ext = if graph { "graph.svg" } else { "svg" };
                if let Some(text) = scrubbed_svg(&scrubbed, d, main.width.get_untracked()).or_else(svg_now) {
                    download(&File {
                        name: file_name(&name, ext),
                        mime: "image/svg+xml",
                        bytes: text.into_bytes(),
                    });
                }
            }
            "png" => {
                let ext = if graph { "graph.png" } else { "png" };
                if let Some(text) = scrubbed_svg(&scrubbed, d, main.width.get_untracked()).or_else(svg_now) {
                    download_png(text, file_name(&name, ext));
                }
            }
            "folded" => {
                let explored = load
                    .loaded
                    .with_untracked(|l| l.as_ref().is_none_or(|l| !Arc::ptr_eq(l, &d.loaded)));
                // As `scorch export --to folded`: a scrubbed profile says so in its first line.
                let text = format!(
                    "{}{}",
                    scorch_core::export::links::scrub_line(sp),
                    scorch_core::export::fold_view(sp, sv, explored)
                );
                download(&File {
                    name: file_name(&name, "folded"),
                    mime: "text/plain",
                    bytes: text.into_bytes(),
                });
            }
            _ => match scorch_core::export::pprof::to_pprof(sp, sv) {
                Ok(bytes) => download(&File {
                    name: file_name(&name, "pb.gz"),
                    mime: "application/octet-stream",
                    bytes,
                }),
                Err(e) => {
                    if let Some(w) = web_sys::window() {
                        let _ = w.alert_with_message(&format!("pprof export: {e}"));
                    }
                }
            },
        }
    };
    let has = move || main.data.with(|d| d.is_some());
    // Escape or a click outside closes the menu.
    let _ = window_event_listener(leptos::ev::keydown, move |e| {
        if e.key() == "Escape" && open.get_untracked() {
            open.set(false);
        }
    });
    let _ = window_event_listener(leptos::ev::click, move |e| {
        let inside = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest(".export-wrap").ok().flatten())
            .is_some();
        if !inside && open.get_untracked() {
            open.set(false);
        }
    });
    view! {
        <span class="export-wrap">
            <button data-testid="export-toggle" title="Export this view (e)" prop:disabled=move || !has()
                on:click=move |_| open.update(|o| *o = !*o)>"Export"</button>
            {move || open.get().then(|| view! {
                <div class="export-panel">
                <div class="export-menu" data-testid="export-menu" role="menu">
                    <button data-testid="export-svg" role="menuitem" on:click=move |_| export("svg")>"SVG (vector)"</button>
                    <button data-testid="export-png" role="menuitem" on:click=move |_| export("png")>"PNG (2×)"</button>
                    <button data-testid="export-folded" role="menuitem" on:click=move |_| export("folded")>"Folded stacks"</button>
                    <button data-testid="export-pprof" role="menuitem" on:click=move |_| export("pprof")>"pprof (.pb.gz)"</button>
                    <button data-testid="export-html" role="menuitem" title="The viewer and this view's profile in one file that opens from disk (at most 64 MiB of stacks)"
                        on:click=move |_| export("html")>"One HTML file"</button>
                </div>
                <div class="export-preview" role="group" aria-label="What an export carries">
                    <SharePreview prefix="export-" rules=rules redact=redact
                        found=Signal::derive(move || preview.with(|p| p.as_ref().map(|p| p.0.clone())))
                        summary=Signal::derive(move || preview.with(|p| p.as_ref().map(|p| p.1.clone())))
                        carried=Signal::derive(move || preview.with(|p| p.as_ref().map(|p| p.2.clone())))
                        carried_title="What an export carries (pprof: all of it; folded, SVG, HTML: the stacks)"
                        changed=Callback::new(move |_| make_preview())/>
                </div>
                </div>
            })}
            {move || note.get().map(|n| view! {
                <span class="export-note" data-testid="export-note" role="status">{n}
                    <button aria-label="dismiss" on:click=move |_| note.set(None)>"×"</button></span>
            })}
        </span>
    }
}
