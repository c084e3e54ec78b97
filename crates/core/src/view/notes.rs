//! Notes that travel with a view: a short text on a frame (function), on a time range (and band), or on the
//! whole view, carried by links as `note=` parameters (one per note) and shown by the receiver as plain text.
//!
//! A `note=` value is `KIND.TARGET.TEXT`, URL-safe as it is (every byte but `A-Z a-z 0-9 - _ ~` percent-encoded
//! in TARGET and TEXT, so a `.` inside them is `%2E`): `v..Slow%20since%20v2` (the view), `f.main.Look%20here`
//! (the frame named `main`), `r.1000000-2000000.GC%20pause` (a range `START-END` in nanoseconds after the
//! heatmap's origin, as `range=`), `r.1000000-2000000~0-500000.…` (with a band `FROM-TO` within each second, as
//! `off=`). Read the value before any percent-decoding of the fragment.
//!
//! Links are untrusted: at most [`MAX_NOTES`] notes are read and each text is cut to [`MAX_NOTE_CHARS`]
//! characters (control characters become spaces); what was left out or cut is said in the messages, and no
//! more than the cap is ever decoded, however long the link.

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// The most notes a view holds (a link with more keeps the first ones and says so).
pub const MAX_NOTES: usize = 100;
/// The longest note text, in characters (a longer one is cut and the receiver is told).
pub const MAX_NOTE_CHARS: usize = 1000;
/// The longest frame name a note can point at, in characters.
const MAX_TARGET_CHARS: usize = 4096;

/// What a note is attached to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoteTarget {
    /// The whole view.
    View,
    /// A function, by its frame name.
    Frame(String),
    /// A time range `[start, end)` in nanoseconds after the heatmap's origin, with an optional band `[from,
    /// to)` within each second.
    Range {
        start: u64,
        end: u64,
        band: Option<(u64, u64)>,
    },
}

/// A note: plain text (never markup) on a target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub target: NoteTarget,
    pub text: String,
}

/// Everything but the unreserved characters.
const SAFE: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'~');

/// The first `max` characters of `s` with control characters as spaces, and whether it was longer.
fn clean_text(s: &str, max: usize) -> (String, bool) {
    let mut out = String::new();
    for (n, c) in s.chars().enumerate() {
        if n == max {
            return (out, true);
        }
        out.push(if c.is_control() && c != '\n' { ' ' } else { c });
    }
    (out, false)
}

/// Percent-decodes at most enough of `raw` for `max` characters (a character is at most 4 bytes, each at
/// most 3 encoded characters), then cuts to `max` characters.
fn decode_capped(raw: &str, max: usize) -> (String, bool) {
    let limit = max.saturating_mul(12);
    let (head, cut) = match raw.char_indices().nth(limit) {
        Some((i, _)) => (&raw[..i], true),
        None => (raw, false),
    };
    // A cut in the middle of `%XX` or of a character's bytes decodes as U+FFFD at the end, then is cut away
    // with the rest when the text is longer than `max`.
    let text = percent_decode_str(head).decode_utf8_lossy();
    let (out, longer) = clean_text(&text, max);
    (out, longer || cut)
}

fn nanos_pair(s: &str, sep: char) -> Option<(u64, u64)> {
    let (a, b) = s.split_once(sep)?;
    let (a, b) = (a.parse().ok()?, b.parse().ok()?);
    (a < b).then_some((a, b))
}

impl Note {
    /// The `note=` value (URL-safe as it is; see the module's doc).
    pub fn to_param(&self) -> String {
        let (kind, target) = match &self.target {
            NoteTarget::View => ("v", String::new()),
            NoteTarget::Frame(f) => ("f", utf8_percent_encode(f, SAFE).to_string()),
            NoteTarget::Range { start, end, band } => (
                "r",
                match band {
                    Some((from, to)) => format!("{start}-{end}~{from}-{to}"),
                    None => format!("{start}-{end}"),
                },
            ),
        };
        format!("{kind}.{target}.{}", utf8_percent_encode(&self.text, SAFE))
    }

    /// Reads a `note=` value: the note (its text cut to [`MAX_NOTE_CHARS`], and whether it was cut), or why it
    /// is not one.
    pub fn from_param(value: &str) -> Result<(Note, bool), String> {
        let mut parts = value.splitn(3, '.');
        let (kind, target, text) = match (parts.next(), parts.next(), parts.next()) {
            (Some(k), Some(t), Some(x)) => (k, t, x),
            _ => return Err("a note is KIND.TARGET.TEXT".into()),
        };
        let target = match kind {
            "v" => NoteTarget::View,
            "f" => {
                let (name, cut) = decode_capped(target, MAX_TARGET_CHARS);
                if cut {
                    return Err(format!(
                        "a note's frame name is longer than {MAX_TARGET_CHARS} characters"
                    ));
                }
                NoteTarget::Frame(name)
            }
            "r" => {
                let (range, band) = match target.split_once('~') {
                    Some((r, b)) => (r, Some(b)),
                    None => (target, None),
                };
                let (start, end) = nanos_pair(range, '-').ok_or("a note's range is START-END nanoseconds")?;
                let band = match band {
                    Some(b) => Some(
                        nanos_pair(b, '-')
                            .filter(|&(_, to)| to <= 1_000_000_000)
                            .ok_or("a note's band is FROM-TO nanoseconds within a second")?,
                    ),
                    None => None,
                };
                NoteTarget::Range { start, end, band }
            }
            _ => {
                return Err(format!(
                    "a note is on the view (v), a frame (f) or a range (r), not {kind:?}"
                ))
            }
        };
        let (text, cut) = decode_capped(text, MAX_NOTE_CHARS);
        Ok((Note { target, text }, cut))
    }
}

/// The notes of a link's `note=` values (raw, in order), capped, and what the receiver should be told: notes
/// left out past [`MAX_NOTES`], texts cut, values that are no note. O(cap) work however many values.
pub fn read_notes<'a>(values: impl IntoIterator<Item = &'a str>) -> (Vec<Note>, Vec<String>) {
    let mut notes = Vec::new();
    let (mut extra, mut cut, mut bad) = (0usize, 0usize, Vec::new());
    for v in values {
        if notes.len() == MAX_NOTES {
            extra += 1;
            continue;
        }
        match Note::from_param(v) {
            Ok((n, was_cut)) => {
                cut += usize::from(was_cut);
                notes.push(n);
            }
            Err(e) if bad.len() < 3 => bad.push(e),
            Err(_) => {}
        }
    }
    let mut messages = bad;
    if extra > 0 {
        messages.push(format!(
            "{extra} notes left out: a link carries at most {MAX_NOTES}"
        ));
    }
    if cut > 0 {
        messages.push(format!(
            "{cut} note{} cut to {MAX_NOTE_CHARS} characters",
            if cut == 1 { "" } else { "s" }
        ));
    }
    (notes, messages)
}

/// The `note=…` parameters of notes (at most [`MAX_NOTES`], texts cut to [`MAX_NOTE_CHARS`]), `&`-joined.
pub fn notes_fragment(notes: &[Note]) -> String {
    notes
        .iter()
        .take(MAX_NOTES)
        .map(|n| {
            let text = clean_text(&n.text, MAX_NOTE_CHARS).0;
            format!(
                "note={}",
                Note {
                    target: n.target.clone(),
                    text
                }
                .to_param()
            )
        })
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let notes = vec![
            Note {
                target: NoteTarget::View,
                text: "Slow since v2.3 — see <b>ticket</b> & \"quotes\"".into(),
            },
            Note {
                target: NoteTarget::Frame("ns::vec<T>::push_back.cold".into()),
                text: "look here\nsecond line".into(),
            },
            Note {
                target: NoteTarget::Range {
                    start: 1_000_000,
                    end: 2_500_000_000,
                    band: Some((0, 500_000_000)),
                },
                text: "GC pause".into(),
            },
        ];
        let frag = notes_fragment(&notes);
        assert!(
            frag.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_~.%=&".contains(&b)),
            "{frag}"
        );
        let values: Vec<&str> = frag
            .split('&')
            .map(|p| p.strip_prefix("note=").unwrap())
            .collect();
        let (back, messages) = read_notes(values);
        assert_eq!(back, notes);
        assert!(messages.is_empty(), "{messages:?}");
        assert_eq!(
            notes[0].to_param(),
            "v..Slow%20since%20v2%2E3%20%E2%80%94%20see%20%3Cb%3Eticket%3C%2Fb%3E%20%26%20%22quotes%22"
        );
    }

    #[test]
    fn hostile_links_are_capped() {
        // 10,000 notes: the first MAX_NOTES, and a message.
        let many: Vec<String> = (0..10_000).map(|i| format!("v..note{i}")).collect();
        let (notes, messages) = read_notes(many.iter().map(String::as_str));
        assert_eq!(notes.len(), MAX_NOTES);
        assert_eq!(notes[99].text, "note99");
        assert_eq!(
            messages,
            vec![format!(
                "{} notes left out: a link carries at most 100",
                10_000 - MAX_NOTES
            )]
        );
        // A 1 MB note: cut, and said.
        let big = format!("f.main.{}", "%41".repeat(1 << 20));
        let (notes, messages) = read_notes([big.as_str()]);
        assert_eq!(notes[0].text, "A".repeat(MAX_NOTE_CHARS));
        assert_eq!(
            messages,
            vec![format!("1 note cut to {MAX_NOTE_CHARS} characters")]
        );
        // Not notes; control characters; a cut inside a multi-byte character.
        let (notes, messages) = read_notes(["x..y", "r.5-3.z", "v", "v..a%00b%1B", "r.1-2~0-2000000000.x"]);
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].text, "a b ");
        assert_eq!(messages.len(), 3, "{messages:?}");
        let long = format!("v..{}", "%E2%80%94".repeat(MAX_NOTE_CHARS + 1));
        let (notes, _) = read_notes([long.as_str()]);
        assert_eq!(notes[0].text, "—".repeat(MAX_NOTE_CHARS));
    }
}
