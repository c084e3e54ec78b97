//! `scorch export --to svg|pprof|folded FILE -o OUT`: the view as a file, the same bytes the app's Export menu
//! writes for the same view. PNG and HTML need a browser's canvas and the viewer itself: the app writes them.

use crate::cmd::fold::folded_text;
use crate::error::{CliError, Result};
use crate::io::{load, warn, write_out};
use crate::scrub::{show, ScrubArgs};
use crate::view::WholeViewArgs;
use clap::{Args, ValueEnum};
use scorch_core::export::report::Carries;
use scorch_core::export::scrub::Rules;
use scorch_core::export::svg::{self, Orientation, SvgOptions};
use scorch_core::view::calltree::{CallTree, Order};
use scorch_core::{export, FlameLayout, ImportOptions};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum To {
    /// An SVG flame graph (the app's picture, with a title per frame, a heading and a legend)
    Svg,
    /// gzip'd profile.proto, for `go tool pprof` and other pprof readers
    Pprof,
    /// Folded stacks, as `scorch fold` prints them
    Folded,
    /// Needs a browser: use the app's Export menu
    Png,
    /// One HTML file holding the viewer (from `--viewer DIST`) and the view's stacks: opens from disk
    Html,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// What to write
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub to: To,
    /// Where to write it (default, or `-`: standard output)
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<String>,
    /// svg: the picture's width in px (200 to 20000)
    #[arg(long, default_value_t = 1200, value_parser = clap::value_parser!(u32).range(200..=20_000))]
    pub width: u32,
    /// svg: the heading (default: "Flame Graph")
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// svg: the root at the top (icicle) instead of the bottom
    #[arg(long)]
    pub icicle: bool,
    /// html: the built viewer folder (`trunk build --release` writes `dist/`) whose files the page inlines
    #[arg(long, value_name = "DIST", default_value = "dist")]
    pub viewer: String,
    /// svg: the name the heading gives the file (default: the file's name without its folders, as the app
    /// shows it)
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    #[command(flatten)]
    pub view: WholeViewArgs,
    #[command(flatten)]
    pub scrub: ScrubArgs,
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

pub fn run(a: &ExportArgs) -> Result<()> {
    if a.to == To::Png {
        return Err(CliError::Usage(
            "PNG export needs a browser: open the profile in the scorch app and use its Export menu (`e`)"
                .into(),
        ));
    }
    let imp = load(&a.file, ImportOptions::default())?;
    warn(&imp);
    let (explored, v) = a.view.apply(&imp.profile)?;
    let p = explored.as_ref().unwrap_or(&imp.profile);
    // Scrubbed only when asked (`--scrub`, `--redact`): an export is the view's own bytes by default.
    let scrubbed = a.scrub.apply(p, &v, Rules::default())?;
    let (p, v) = match scrubbed {
        Some((p, v)) => (std::borrow::Cow::Owned(p), v),
        None => (std::borrow::Cow::Borrowed(p), v),
    };
    let p: &scorch_core::Profile = &p;
    if a.scrub.show {
        let carries = match a.to {
            To::Pprof => Carries::pprof(),
            // The HTML file's link has no cap: every time goes along where the profile has them (`encode_timed`).
            To::Html => Carries::link(p.samples.time_ns.is_some() && p.meta.decimals == 0),
            To::Svg | To::Png | To::Folded => Carries::default(),
        };
        return show(p, &v, &carries);
    }
    let bytes = match a.to {
        To::Folded => {
            let text = folded_text(p, &v, explored.is_some());
            // The folded reader takes the note back (so a profile scrubbed once says so wherever it goes).
            format!("{}{text}", export::links::scrub_line(p)).into_bytes()
        }
        To::Pprof => export::pprof::to_pprof(p, &v)?,
        To::Html => one_html(a, p, &v)?,
        To::Svg | To::Png => {
            let t = CallTree::build(p, &v, Order::Alphabetical);
            let l = FlameLayout::new(&t);
            let name = a.name.clone().unwrap_or_else(|| file_name(&a.file));
            let total = t.total.first().copied().unwrap_or(0);
            let sub = svg::subtitle(&name, imp.gzip, p, &v, total);
            let o = SvgOptions {
                width: a.width,
                orientation: if a.icicle {
                    Orientation::Icicle
                } else {
                    Orientation::Flame
                },
                title: a.title.as_deref().unwrap_or("Flame Graph"),
                subtitle: &sub,
                ..SvgOptions::default()
            };
            svg::flame_svg(p, &t, &l, &v.unit(p), &o).into_bytes()
        }
    };
    match a.output.as_deref() {
        None | Some("-") => write_out(&bytes),
        Some(path) => std::fs::write(path, &bytes).map_err(|e| CliError::Input(format!("{path}: {e}"))),
    }
}

/// The name of a file without its folders (`-`: `stdin`).
fn file_name(path: &str) -> String {
    if path == "-" {
        return "stdin".to_string();
    }
    std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// `--to html`: the viewer's built files from `--viewer` and the view's stacks (with every sample's time where
/// the profile has them, as the app's link carries them) in one page (`scorch_core::export::html`).
fn one_html(a: &ExportArgs, p: &scorch_core::Profile, v: &scorch_core::ViewOptions) -> Result<Vec<u8>> {
    use scorch_core::export::{html, links};
    let dir = std::path::Path::new(&a.viewer);
    let read = |name: &str| {
        std::fs::read(dir.join(name)).map_err(|e| {
            CliError::Input(format!(
                "{}: {e} (--viewer names the built viewer folder: `trunk build --release` writes dist/)",
                dir.join(name).display()
            ))
        })
    };
    let (glue, wasm, css) = (
        read("scorch-app.js")?,
        read("scorch-app_bg.wasm")?,
        read("style.css")?,
    );
    let shared = links::encode_timed(p, v, usize::MAX).unwrap_or_else(|| links::encode(p, v, usize::MAX));
    let stacks = links::decode(&shared.payload).map_err(|e| CliError::Input(e.to_string()))?;
    let name = a.name.clone().unwrap_or_else(|| file_name(&a.file));
    let text = html::one_file(&html::HtmlParts {
        glue_js: &String::from_utf8_lossy(&glue),
        wasm: &wasm,
        css: &String::from_utf8_lossy(&css),
        profile: &stacks,
        name: &name,
        fragment: "",
    })
    .map_err(|e| CliError::Input(e.to_string()))?;
    Ok(text.into_bytes())
}
