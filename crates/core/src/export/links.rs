//! Profiles carried in a link: the canonical folded text of a view (distinct stacks, weights summed, a
//! `# scorch-unit:` header), raw-deflated and base64url-encoded, for the `p=` parameter of the URL fragment.
//! When the link would be too long, stacks below a share of the total are dropped until it fits, and the result
//! says what was dropped. A scrubbed profile (`export::scrub`) says so in a `# scorch-scrubbed: RULES` line.

use super::folded::{folded_entries, stack_text};
use crate::model::{ImportError, ImportErrorKind, Profile, StackId, Weight, EMPTY_STACK, SCRUBBED_INFO};
use crate::view::{ViewOptions, NO_ROOT};
use base64::Engine as _;
use std::io::{Read, Write};

/// The longest link payload scorch produces by default (characters of `p=`). Most chat tools and browsers
/// carry far longer links; past this the viewer offers the hosted-URL way or a reduced profile.
pub const DEFAULT_MAX: usize = 256 * 1024;

/// Ends a payload's header: every line after it is a stack, even one that starts with `#` (a frame can).
const DATA: &str = "# scorch-data";

/// The `# scorch-scrubbed: RULES` line of a scrubbed profile's payload (empty for any other profile): links,
/// the HTML file and folded exports start with it (the folded reader takes it back).
pub fn scrub_line(p: &Profile) -> String {
    match p.meta.info.iter().find(|(k, _)| k == SCRUBBED_INFO) {
        Some((_, rules)) => format!("# scorch-scrubbed: {rules}\n"),
        None => String::new(),
    }
}

/// Largest inflated payload accepted from a link (a link cannot be a zip bomb).
const MAX_INFLATED: u64 = 256 << 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    /// base64url, no padding.
    pub payload: String,
    /// Distinct stacks carried, and dropped (when reduced).
    pub stacks: usize,
    pub dropped_stacks: usize,
    /// Share of the total weight dropped, in parts per million.
    pub dropped_ppm: u64,
    /// Whether every sample's timestamp travels too (the receiver gets the heatmap; see [`encode_timed`]).
    pub times: bool,
}

fn deflate(text: &str) -> String {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = e.write_all(text.as_bytes());
    let bytes = e.finish().unwrap_or_default();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Encodes the samples a view selects. `max` caps the payload's length: smaller stacks are dropped to fit.
pub fn encode(p: &Profile, v: &ViewOptions, max: usize) -> Shared {
    let unit = v.unit(p);
    let mut entries = folded_entries(p, v);
    entries.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let total: u128 = entries.iter().map(|e| u128::from(e.1)).sum();
    let scrubbed = scrub_line(p);
    let text_of = |keep: usize| {
        let mut lines: Vec<String> = entries
            .iter()
            .take(keep)
            .map(|(s, w)| {
                format!(
                    "{s} {}",
                    Weight {
                        raw: *w,
                        decimals: p.meta.decimals
                    }
                )
            })
            .collect();
        lines.sort_unstable();
        let dropped = entries.len() - keep;
        let note = if dropped > 0 {
            let gone: u128 = entries.iter().skip(keep).map(|e| u128::from(e.1)).sum();
            let ppm = (gone * 1_000_000).checked_div(total).unwrap_or(0);
            format!("# scorch-dropped: {dropped} {ppm}\n")
        } else {
            String::new()
        };
        format!(
            "# scorch-unit: {}\n{scrubbed}{note}{DATA}\n{}\n",
            unit.name(),
            lines.join("\n")
        )
    };
    // Keep the heaviest stacks: all of them if they fit, else as many as fit (binary search on the count).
    let mut keep = entries.len();
    let mut payload = deflate(&text_of(keep));
    if payload.len() > max {
        let (mut lo, mut hi) = (0usize, entries.len());
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if deflate(&text_of(mid)).len() <= max {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        keep = lo;
        payload = deflate(&text_of(keep));
    }
    let dropped: u128 = entries.iter().skip(keep).map(|e| u128::from(e.1)).sum();
    Shared {
        payload,
        stacks: keep,
        dropped_stacks: entries.len() - keep,
        dropped_ppm: (dropped * 1_000_000).checked_div(total).map_or(0, |x| x as u64),
        times: false,
    }
}

/// Like [`encode`], but every sample keeps its timestamp, so the receiver gets the heatmap and the time range
/// travels as view state instead of being baked in: `v`'s time range and band are ignored. Each line is
/// `STACK TOTAL @T0,D1,D2…` (the first time in nanoseconds, then the gaps to the next, sorted), with
/// `T:W` pairs when the samples of a stack weigh differently. `None` when the profile has no timestamps, has
/// fractional weights, or the link would be longer than `max` (then [`encode`] is the way).
pub fn encode_timed(p: &Profile, v: &ViewOptions, max: usize) -> Option<Shared> {
    let times = p.samples.time_ns.as_ref()?;
    if p.meta.decimals != 0 {
        return None;
    }
    let v = ViewOptions {
        time_range: None,
        offsets: None,
        ..v.clone()
    };
    let mut by_key: rustc_hash::FxHashMap<(u32, StackId), Vec<(u64, u64)>> = Default::default();
    for (i, &t) in times.iter().enumerate() {
        let Some(w) = v.weigh(p, i) else { continue };
        let root = v.root_of(p, i).map_or(NO_ROOT, |f| f.0);
        let s = p.samples.stack.get(i).copied().unwrap_or(EMPTY_STACK);
        by_key.entry((root, s)).or_default().push((t, w));
    }
    let mut lines: Vec<String> = Vec::with_capacity(by_key.len());
    for ((root, stack), mut samples) in by_key {
        let text = stack_text(p, root, stack);
        samples.sort_unstable();
        let total = samples.iter().fold(0u64, |a, &(_, w)| a.saturating_add(w));
        let same = samples.windows(2).all(|x| matches!(x, [a, b] if a.1 == b.1));
        let mut line = format!("{text} {total} @");
        let mut prev = 0u64;
        for (k, &(t, w)) in samples.iter().enumerate() {
            if k > 0 {
                line.push(',');
            }
            line.push_str(&(t - prev).to_string());
            if !same {
                line.push(':');
                line.push_str(&w.to_string());
            }
            prev = t;
        }
        lines.push(line);
    }
    let stacks = lines.len();
    lines.sort_unstable();
    let text = format!(
        "# scorch-unit: {}\n{}# scorch-times\n{DATA}\n{}\n",
        v.unit(p).name(),
        scrub_line(p),
        lines.join("\n")
    );
    let payload = deflate(&text);
    (payload.len() <= max).then_some(Shared {
        payload,
        stacks,
        dropped_stacks: 0,
        dropped_ppm: 0,
        times: true,
    })
}

fn unbase64(payload: &str) -> Result<Vec<u8>, base64::DecodeError> {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload.trim().trim_end_matches('='))
}

/// Whether a `p=` payload inflates to more than `limit` bytes, found by inflating no further than that and
/// keeping nothing (the page asks, to leave a large profile to its worker). A damaged payload counts the bytes
/// it gives before the damage; [`decode`] tells what is wrong with it.
pub fn inflates_past(payload: &str, limit: u64) -> bool {
    let Ok(bytes) = unbase64(payload) else {
        return false;
    };
    let mut inflate = flate2::read::DeflateDecoder::new(&bytes[..]).take(limit.saturating_add(1));
    let mut buf = [0u8; 64 * 1024];
    let mut n = 0u64;
    while let Ok(k) = inflate.read(&mut buf) {
        if k == 0 {
            break;
        }
        n += k as u64;
    }
    n > limit
}

/// Decodes a `p=` payload back to folded text (then imported like any file).
pub fn decode(payload: &str) -> Result<Vec<u8>, ImportError> {
    let bad = |msg: String| ImportError::new(None, ImportErrorKind::Malformed, 0, None, msg);
    let bytes = unbase64(payload).map_err(|e| {
        bad(format!(
            "the profile in the link is damaged (base64: {e}); was the link cut short?"
        ))
    })?;
    let mut out = Vec::new();
    flate2::read::DeflateDecoder::new(&bytes[..])
        .take(MAX_INFLATED + 1)
        .read_to_end(&mut out)
        .map_err(|e| {
            bad(format!(
                "the profile in the link is damaged ({e}); was the link cut short?"
            ))
        })?;
    if out.len() as u64 > MAX_INFLATED {
        return Err(ImportError::new(
            None,
            ImportErrorKind::LimitExceeded,
            MAX_INFLATED,
            None,
            format!("the profile in the link inflates past {MAX_INFLATED} bytes"),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::to_folded_view;
    use crate::import::{import_bytes, ImportOptions};
    use crate::model::Unit;

    #[test]
    fn round_trip_and_reduction() {
        let text = b"# scorch-unit: nanoseconds\nmain;a 500\nmain;b 300\nmain;c 150\nmain;d 50\n";
        let p = import_bytes(text, ImportOptions::default()).unwrap().profile;
        assert_eq!(p.meta.unit, Unit::Nanoseconds);
        let v = ViewOptions::default_for(&p);
        let s = encode(&p, &v, DEFAULT_MAX);
        assert_eq!((s.stacks, s.dropped_stacks, s.dropped_ppm), (4, 0, 0));
        let back = import_bytes(&decode(&s.payload).unwrap(), ImportOptions::default())
            .unwrap()
            .profile;
        assert_eq!(
            to_folded_view(&back, &ViewOptions::default_for(&back)),
            to_folded_view(&p, &v)
        );
        assert_eq!(back.meta.unit, Unit::Nanoseconds);
        // A tiny budget keeps the heaviest stacks and says what it dropped.
        let full = s.payload.len();
        let r = encode(&p, &v, full - 4);
        assert!(r.stacks < 4 && r.payload.len() <= full - 4);
        assert!(r.dropped_ppm > 0);
        assert!(decode("not*base64").is_err());
        assert!(decode("AAAA").is_err());
    }

    #[test]
    fn inflates_past_stops_at_the_limit() {
        // 3 MiB of folded text, deflated: past 1 MiB and 3 MiB - 1, not past 3 MiB.
        let text = "main;work 12345\n".repeat(3 << 20 >> 4);
        assert_eq!(text.len(), 3 << 20);
        let payload = deflate(&text);
        assert!(inflates_past(&payload, 1 << 20));
        assert!(inflates_past(&payload, (3 << 20) - 1));
        assert!(!inflates_past(&payload, 3 << 20));
        assert_eq!(decode(&payload).unwrap().len(), 3 << 20);
        // Damaged: a cut payload counts what it inflated before the cut; not base64 at all is not past anything.
        let cut = &payload[..payload.len() / 8 * 4];
        assert!(inflates_past(cut, 1 << 10));
        assert!(decode(cut).is_err());
        assert!(!inflates_past("not*base64", 0));
    }

    #[test]
    fn a_declared_unit_travels() {
        let p = import_bytes(b"main;a 1500\nmain;b 500\n", ImportOptions::default())
            .unwrap()
            .profile;
        let v = ViewOptions {
            declared: Some(crate::model::DeclaredUnit::Microseconds),
            ..ViewOptions::default_for(&p)
        };
        let s = encode(&p, &v, DEFAULT_MAX);
        let back = import_bytes(&decode(&s.payload).unwrap(), ImportOptions::default())
            .unwrap()
            .profile;
        assert_eq!(back.meta.unit, Unit::Microseconds);
        // The link's profile states its unit: a declaration no longer applies to it.
        assert!(!crate::view::takes_declared_unit(&back));
        assert!(crate::view::takes_declared_unit(&p));
    }
}
