//! `scorch link`: a link that carries the profile itself (compressed) to a scorch viewer, scrubbed of file
//! paths and the recording's facts unless told otherwise (`--scrub`).

use crate::error::Result;
use crate::io::{load_warn, write_out};
use crate::scrub::{show, ScrubArgs};
use crate::view::{view, EventArgs, RootArgs, TagFilterArgs, ViewSpec};
use clap::Args;
use scorch_core::export::links::{encode, encode_timed, DEFAULT_MAX};
use scorch_core::export::report::Carries;
use scorch_core::export::scrub::Rules;
use scorch_core::model::units::group_thousands;
use scorch_core::model::SCRUBBED_INFO;
use scorch_core::view::notes::{notes_fragment, Note, NoteTarget, MAX_NOTES, MAX_NOTE_CHARS};
use scorch_core::ImportOptions;

#[derive(Args, Debug)]
pub struct LinkArgs {
    #[command(flatten)]
    pub event: EventArgs,
    #[command(flatten)]
    pub root: RootArgs,
    #[command(flatten)]
    pub filter: TagFilterArgs,
    /// The viewer's address (anything after `#` is dropped)
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080/")]
    pub base_url: String,
    /// The longest link to write, in characters (smaller stacks are dropped to fit)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX)]
    pub max: usize,
    /// Leave out the timestamps (and so the receiver's heatmap)
    #[arg(long)]
    pub no_times: bool,
    #[command(flatten)]
    pub scrub: ScrubArgs,
    /// A note on the whole view, shown by the receiver as text (repeatable; at most 100, each cut to 1,000
    /// characters)
    #[arg(long, value_name = "TEXT")]
    pub note: Vec<String>,
    /// The profile (`-`: standard input)
    #[arg(value_name = "FILE")]
    pub file: String,
}

pub fn run(a: &LinkArgs) -> Result<()> {
    let imp = load_warn(&a.file, ImportOptions::default())?;
    let spec = ViewSpec {
        root: Some(&a.root),
        ..ViewSpec::new(&a.event).tagfilter(&a.filter)
    };
    let v = view(&imp.profile, &spec)?;
    let scrubbed = a.scrub.apply(&imp.profile, &v, Rules::link_default())?;
    let (p, v) = match &scrubbed {
        Some((p, v)) => (p, v),
        None => (&imp.profile, &v),
    };
    let max = a.max;
    // As the app: with every timestamp when the profile has them and they fit (the receiver gets the heatmap).
    let timed = if a.no_times { None } else { encode_timed(p, v, max) };
    if a.scrub.show {
        return show(p, v, &Carries::link(timed.is_some()));
    }
    let s = timed.unwrap_or_else(|| encode(p, v, max));
    let base = a.base_url.split('#').next().unwrap_or(&a.base_url);
    let notes: Vec<Note> = a
        .note
        .iter()
        .map(|text| Note {
            target: NoteTarget::View,
            text: text.clone(),
        })
        .collect();
    if notes.len() > MAX_NOTES || a.note.iter().any(|t| t.chars().count() > MAX_NOTE_CHARS) {
        eprintln!("scorch: warning: a link carries at most {MAX_NOTES} notes of {MAX_NOTE_CHARS} characters each: the rest is cut");
    }
    let notes = if notes.is_empty() {
        String::new()
    } else {
        format!("&{}", notes_fragment(&notes))
    };
    let url = format!("{base}#p={}{notes}", s.payload);
    let rules = p.meta.info.iter().find(|(k, _)| k == SCRUBBED_INFO);
    eprintln!(
        "link: {} characters, {} distinct stacks{}{}{}",
        group_thousands(url.len() as u64),
        group_thousands(s.stacks as u64),
        if s.times { ", with timestamps" } else { "" },
        if s.dropped_stacks > 0 {
            format!(
                "; {} smaller stacks ({:.2} % of the total) dropped to stay under {max} characters",
                group_thousands(s.dropped_stacks as u64),
                s.dropped_ppm as f64 / 1e4
            )
        } else {
            String::new()
        },
        match rules {
            Some((_, r)) => format!("; scrubbed: {r}"),
            None => "; not scrubbed".to_string(),
        }
    );
    write_out(format!("{url}\n").as_bytes())
}
