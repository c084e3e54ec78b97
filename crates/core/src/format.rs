//! Input formats and sniffing from content (never from the file name).

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Format {
    /// `frame;frame;frame COUNT` lines (Brendan Gregg's collapsed stacks).
    Folded,
    /// `perf script` text.
    PerfScript,
    /// pprof `profile.proto` (raw; gzip is undone by the loader).
    Pprof,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Folded => "folded",
            Format::PerfScript => "perf-script",
            Format::Pprof => "pprof",
        }
    }
}

impl Format {
    /// What one input record is called: folded files hold stack lines, profilers write samples.
    pub fn record_noun(self) -> &'static str {
        match self {
            Format::Folded => "stack lines",
            Format::PerfScript => "samples",
            Format::Pprof => "samples",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The three answers of a sniffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniff {
    Yes(Format),
    /// Not enough input yet to decide; feed more (or call with `at_end = true`).
    NeedMore,
    No,
}

/// How many bytes sniffing looks at, at most, before deciding.
pub const SNIFF_WINDOW: usize = 64 * 1024;

/// Decides the format of decompressed input from its first bytes.
///
/// Looks at the first lines that are not blank or `#` comments. `at_end` says that `prefix` is the whole input.
pub fn sniff(prefix: &[u8], at_end: bool) -> Sniff {
    let window_full = prefix.len() >= SNIFF_WINDOW;
    // Binary first: text never starts with a valid run of profile.proto fields.
    // scorch's own link payloads say what they are on their first line: folded, whatever the stacks look like
    // (a frame can read like a perf header; timed lines end in ` @…`, not in a count).
    if prefix.starts_with(b"# scorch-unit:") {
        return Sniff::Yes(Format::Folded);
    }
    match crate::pprof::looks_like_pprof(prefix, at_end || window_full) {
        Some(true) => return Sniff::Yes(Format::Pprof),
        None => return Sniff::NeedMore,
        Some(false) => {}
    }
    match crate::perf::looks_like_perf(prefix, at_end || window_full) {
        Some(true) => return Sniff::Yes(Format::PerfScript),
        None => return Sniff::NeedMore,
        Some(false) => {}
    }
    let mut rest = prefix;
    // Skip a UTF-8 byte order mark.
    if let Some(r) = rest.strip_prefix(b"\xEF\xBB\xBF") {
        rest = r;
    }
    let mut judged = 0;
    while !rest.is_empty() {
        let (line, next, complete) = match memchr::memchr(b'\n', rest) {
            Some(i) => {
                let (line, next) = crate::lines::split_around(rest, i);
                (line, next, true)
            }
            None => (rest, &[][..], at_end),
        };
        if !complete && prefix.len() < SNIFF_WINDOW {
            return Sniff::NeedMore;
        }
        // A line longer than the whole window (a very deep stack, a huge name): its count is out of sight.
        // Stack separators say folded; the parser then checks the rest.
        if memchr::memchr(b'\n', rest).is_none() && prefix.len() >= SNIFF_WINDOW && judged == 0 {
            return if memchr::memchr(b';', rest).is_some() && !rest.contains(&0) {
                Sniff::Yes(Format::Folded)
            } else {
                Sniff::No
            };
        }
        rest = next;
        let line = trim_ascii(line);
        if line.is_empty() || line.starts_with(b"#") {
            continue;
        }
        judged += 1;
        if crate::folded::looks_like_folded_line(line) {
            return Sniff::Yes(Format::Folded);
        }
        // A first real line that is not folded decides against folded only after a few lines:
        // austin and other writers put a few odd lines first.
        if judged >= 3 {
            return Sniff::No;
        }
    }
    if at_end || prefix.len() >= SNIFF_WINDOW {
        Sniff::No
    } else {
        Sniff::NeedMore
    }
}

pub(crate) fn trim_ascii(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if first.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = s {
        if last.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    s
}
