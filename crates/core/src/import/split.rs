//! The parallel parse's core (the threads are the caller's: core stays thread- and I/O-free): cut an input at
//! record boundaries into slices, parse each slice on its own ([`SliceParser`], fed in chunks of any size like
//! the [`Loader`](super::Loader)), then [`merge_slices`] the parts in input order, which runs the formats'
//! whole-input step once over the merged part: parse slices → merge → finish.
//!
//! Record boundaries: folded, after any newline (a line is a record); perf script, after a blank line (a line
//! of nothing but whitespace: where the reader is between samples, holding no sample state). What a reader
//! carries across records is merged instead of handed on: interned tables (remapped by
//! [`Merger`](crate::model::Merger), keeping first-appearance orders), counts and warnings (added, positions
//! shifted by the lines and bytes before the slice), perf's event units, lost-event records (both kinds kept
//! apart until the whole input says which counts) and timestamp-less samples, folded's decimals (rescaled)
//! and declared unit (the last declaration wins). Folded inputs whose lines depend on earlier lines (two-count
//! lines, scorch's link directives) are not merged: [`merge_slices`] answers `None`, parse them whole.
//! pprof, V8 and gzip/UTF-16 inputs are not split.

use super::folded::{no_records, FoldedOptions, FoldedParser, FoldedPart};
use super::lines::{trim_ascii, LinePos};
use super::perf::{complete, PerfOptions, PerfParser, PerfPart};
use super::ImportOptions;
use crate::model::merge::{collapse_by_stack, merge_lost};
use crate::model::wire::{
    columns_from, columns_into, open, put_profile_columns, seal, take_profile_columns, EnvelopeError,
    TreeColumns,
};
use crate::model::{Format, ImportError, Indexed, Lost, Merger, Profile, Unit, Warnings};

/// Whether inputs of this format can be split into slices.
pub fn splittable(format: Format) -> bool {
    matches!(format, Format::Folded | Format::PerfScript)
}

/// The format of an input whose first bytes are `head` (up to [`SNIFF_WINDOW`](super::SNIFF_WINDOW); more is
/// ignored), if it can be parsed in slices: plain (not gzip'd, not UTF-16), folded or perf script.
pub fn splittable_input(head: &[u8]) -> Option<Format> {
    if head.starts_with(&[0x1f, 0x8b]) || head.starts_with(b"\xFF\xFE") || head.starts_with(b"\xFE\xFF") {
        return None;
    }
    let window = head.get(..super::SNIFF_WINDOW).unwrap_or(head);
    match super::sniff::sniff(window, true) {
        super::sniff::Sniff::Yes(f) if splittable(f) => Some(f),
        _ => None,
    }
}

/// The end of the first record boundary in `bytes`: the index just past it, so that a slice may start there.
/// `bytes` may start anywhere (inside a line): a boundary is only found after a newline in `bytes`. `None`
/// when `bytes` holds none (look further, or do not cut).
pub fn next_boundary(format: Format, bytes: &[u8]) -> Option<usize> {
    let first = memchr::memchr(b'\n', bytes)? + 1;
    match format {
        Format::PerfScript => {
            // The line starting at `at` is whole; a blank one is a boundary.
            let mut at = first;
            loop {
                let rest = bytes.get(at..)?;
                let nl = memchr::memchr(b'\n', rest)?;
                if trim_ascii(rest.get(..nl)?).is_empty() {
                    return Some(at + nl + 1);
                }
                at += nl + 1;
            }
        }
        Format::Folded => Some(first),
        _ => None,
    }
}

/// Cuts `input` into at most `n` consecutive slices of about equal size at record boundaries (fewer when
/// boundaries are missing). The ranges cover `input` exactly. O(n × the distance to the next boundary).
pub fn split(format: Format, input: &[u8], n: usize) -> Vec<std::ops::Range<usize>> {
    let n = n.max(1);
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    for k in 1..n {
        let target = (input.len() / n).saturating_mul(k).max(start);
        let cut = input
            .get(target..)
            .and_then(|rest| next_boundary(format, rest))
            .map(|i| target + i);
        if let Some(cut) = cut.filter(|&c| c < input.len()) {
            out.push(start..cut);
            start = cut;
        }
    }
    out.push(start..input.len());
    out
}

/// The longest stretch looked through for a record boundary after a cut's target before that cut is left out
/// (a hostile input without boundaries must not grow the search buffer without bound).
pub const MAX_SEARCH: usize = 64 << 20;

/// The first window [`CutSearch`] reads after a cut's target; it grows fourfold up to [`MAX_SEARCH`].
const FIRST_WINDOW: usize = 1 << 20;

/// [`split`] for an input read by ranges (a file on disk), sans I/O: it says which range to read next
/// ([`CutSearch::want`]), is given those bytes ([`CutSearch::feed`]), and ends with the cuts
/// ([`CutSearch::finish`]): `0 = c0 < c1 < … < ck = len`, slice starts at record boundaries near `len × i / n`.
/// A cut is looked for from its target (or the cut before, if later) up to the next target, in windows of
/// 1 MiB growing fourfold up to [`MAX_SEARCH`]; it is left out when no boundary lies there.
pub struct CutSearch {
    format: Format,
    len: u64,
    n: u64,
    /// The cut being looked for (1..n).
    i: u64,
    window: usize,
    cuts: Vec<u64>,
}

impl CutSearch {
    pub fn new(format: Format, len: u64, n: usize) -> Self {
        CutSearch {
            format,
            len,
            n: (n as u64).max(1),
            i: 1,
            window: FIRST_WINDOW,
            cuts: vec![0],
        }
    }

    /// Where cut `i` is looked for: from `at` up to `limit`.
    fn range(&self) -> (u64, u64) {
        let step = self.len / self.n;
        let last = self.cuts.last().copied().unwrap_or(0);
        let at = step.saturating_mul(self.i).max(last);
        let limit = step.saturating_mul(self.i + 1).min(self.len);
        (at, limit)
    }

    /// The range to read next, `(at, len)`: up to `len` bytes at `at` (fewer where the input ends). `None` when
    /// every cut is decided: call [`CutSearch::finish`].
    pub fn want(&mut self) -> Option<(u64, usize)> {
        while self.i < self.n {
            let (at, limit) = self.range();
            if at < limit {
                return Some((at, self.window));
            }
            self.decide(None);
        }
        None
    }

    /// The bytes read at the range [`CutSearch::want`] gave.
    pub fn feed(&mut self, bytes: &[u8]) {
        let (at, limit) = self.range();
        if let Some(b) = next_boundary(self.format, bytes) {
            return self.decide(Some(at + b as u64));
        }
        if at + bytes.len() as u64 >= limit || bytes.len() < self.window || self.window >= MAX_SEARCH {
            return self.decide(None);
        }
        self.window = self.window.saturating_mul(4);
    }

    fn decide(&mut self, cut: Option<u64>) {
        let last = self.cuts.last().copied().unwrap_or(0);
        if let Some(c) = cut.filter(|&c| c > last && c < self.len) {
            self.cuts.push(c);
        }
        self.i += 1;
        self.window = FIRST_WINDOW;
    }

    /// The cuts, the input's length last.
    pub fn finish(mut self) -> Vec<u64> {
        self.cuts.push(self.len);
        self.cuts
    }
}

/// [`split`] for an input that arrives in chunks (a download): cuts it, as the bytes pass, into `n` slices at
/// the record boundaries [`split`] would choose for an input of `total` bytes, and hands each piece to the
/// slice it belongs to, in order. A slice is complete once a later slice received bytes (or after
/// [`StreamCutter::finish`]). A cut with no boundary within [`MAX_SEARCH`] bytes of its target is left out;
/// slices past the last cut then receive nothing. Memory: the bytes since a target until its boundary.
pub struct StreamCutter {
    format: Format,
    /// The cuts' targets, ascending; `next` is the one being approached.
    targets: Vec<u64>,
    next: usize,
    /// The slice receiving bytes now.
    slice: usize,
    /// Bytes pushed so far.
    pos: u64,
    /// Bytes from the target on, while its boundary is not found; `scan` is where to look again.
    search: Vec<u8>,
    scan: usize,
    searching: bool,
}

impl StreamCutter {
    pub fn new(format: Format, total: u64, n: usize) -> Self {
        let n = n.max(1) as u64;
        StreamCutter {
            format,
            targets: (1..n).map(|k| (total / n).saturating_mul(k)).collect(),
            next: 0,
            slice: 0,
            pos: 0,
            search: Vec::new(),
            scan: 0,
            searching: false,
        }
    }

    /// The slice receiving bytes now (those before it are complete).
    pub fn slice(&self) -> usize {
        self.slice
    }

    /// Cuts `bytes`, the next of the input, handing each piece to `out(slice, piece)`.
    pub fn push<E>(
        &mut self,
        mut bytes: &[u8],
        out: &mut impl FnMut(usize, &[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        while !bytes.is_empty() {
            if self.searching {
                let from = self.scan;
                let old = self.search.len();
                // A boundary ends with a line end: new bytes without one cannot complete it (and nothing is
                // scanned again, so a stretch without line ends costs its length once, not once per chunk).
                let line_end = memchr::memchr(b'\n', bytes).is_some();
                self.search.extend_from_slice(bytes);
                self.pos += bytes.len() as u64;
                bytes = &[];
                let found = self
                    .search
                    .get(from..)
                    .filter(|_| line_end)
                    .and_then(|s| next_boundary(self.format, s));
                match found {
                    Some(b) => {
                        let search = std::mem::take(&mut self.search);
                        let (head, rest) = search.split_at((from + b).min(search.len()));
                        out(self.slice, head)?;
                        self.slice += 1;
                        self.next += 1;
                        self.searching = false;
                        self.pos -= rest.len() as u64;
                        self.push(rest, out)?;
                    }
                    None if self.search.len() > MAX_SEARCH => {
                        // No boundary near this target: no cut here; the slice goes on to the next target.
                        let search = std::mem::take(&mut self.search);
                        self.searching = false;
                        self.next += 1;
                        self.pos -= search.len() as u64;
                        self.push(&search, out)?;
                    }
                    None => {
                        // Look again from the last line end (perf script's boundary is a blank line after one).
                        if let Some(i) = self.search.get(old..).and_then(|t| memchr::memrchr(b'\n', t)) {
                            self.scan = old + i;
                        }
                    }
                }
            } else {
                match self.targets.get(self.next) {
                    Some(&t) if self.pos + bytes.len() as u64 > t => {
                        let k = usize::try_from(t.saturating_sub(self.pos))
                            .unwrap_or(usize::MAX)
                            .min(bytes.len());
                        let (head, rest) = bytes.split_at(k);
                        if !head.is_empty() {
                            out(self.slice, head)?;
                        }
                        self.pos += k as u64;
                        bytes = rest;
                        self.searching = true;
                        self.scan = 0;
                    }
                    _ => {
                        out(self.slice, bytes)?;
                        self.pos += bytes.len() as u64;
                        bytes = &[];
                    }
                }
            }
        }
        Ok(())
    }

    /// When the next `len` bytes all go to one slice — no cut's target among them, no boundary being looked
    /// for — counts them as handed on and says which slice they are for, so the caller can pass them on without
    /// [`StreamCutter::push`] seeing them (without copying them); `None`: push them.
    pub fn take_whole(&mut self, len: usize) -> Option<usize> {
        if self.searching {
            return None;
        }
        let end = self.pos.checked_add(len as u64)?;
        match self.targets.get(self.next) {
            Some(&t) if end > t => None,
            _ => {
                self.pos = end;
                Some(self.slice)
            }
        }
    }

    /// The input ended: what waited for a boundary goes to the slice receiving bytes.
    pub fn finish<E>(&mut self, out: &mut impl FnMut(usize, &[u8]) -> Result<(), E>) -> Result<(), E> {
        self.searching = false;
        let search = std::mem::take(&mut self.search);
        if search.is_empty() {
            Ok(())
        } else {
            out(self.slice, &search)
        }
    }
}

enum Inner {
    Folded(Box<FoldedParser>),
    Perf(Box<PerfParser>),
}

/// Parses one slice; feed it the slice's bytes in chunks of any size, then [`SliceParser::finish`].
pub struct SliceParser {
    inner: Inner,
}

/// A parsed slice, for [`merge_slices`]. It can travel to the thread or worker that merges as bytes
/// ([`SlicePart::encode_result`], [`SlicePart::decode_result`]).
pub struct SlicePart {
    inner: PartInner,
}

enum PartInner {
    Folded(Option<FoldedPart>),
    Perf(PerfPart),
    /// A part that came as bytes: without its builder's maps (the merge indexes it if it comes first).
    Decoded(WirePart),
}

/// A part as it travels: its profile and what the merge needs besides (see [`FoldedPart`], [`PerfPart`]);
/// `end` is `(line, offset)`.
#[derive(serde::Serialize, serde::Deserialize)]
enum WirePart {
    /// `None`: the slice cannot be merged (parse the input whole).
    Folded(Option<(Profile, bool, (u64, u64))>),
    Perf {
        profile: Profile,
        lost: Lost,
        lost_samples: Lost,
        untimed: u64,
        end: (u64, u64),
    },
}

/// Why a part could not travel as bytes.
#[derive(Debug, thiserror::Error)]
pub enum PartError {
    #[error("could not encode a parsed slice: {0}")]
    Encode(#[source] postcard::Error),
    #[error("could not decode a parsed slice from a parse worker: {0}")]
    Decode(#[source] postcard::Error),
    #[error("a parse worker is another version of scorch (part version {got}, expected {expected}); reload the page")]
    Version { got: u8, expected: u8 },
    #[error("a parse worker sent nothing")]
    Empty,
    #[error("a parse worker sent columns that do not fit its slice")]
    Columns,
}

impl From<EnvelopeError> for PartError {
    fn from(e: EnvelopeError) -> PartError {
        match e {
            EnvelopeError::Encode(e) => PartError::Encode(e),
            EnvelopeError::Decode(e) => PartError::Decode(e),
            EnvelopeError::Version { got, expected } => PartError::Version { got, expected },
            EnvelopeError::Empty => PartError::Empty,
        }
    }
}

/// Bumped whenever [`WirePart`] or the model changes shape (both ends are one build; this guards a stale
/// cached worker).
const PART_VERSION: u8 = 3;

impl SlicePart {
    /// A slice's result as bytes, for [`SlicePart::decode_result`] on the worker that merges: the profile's
    /// largest columns as plain numbers ([`columns_into`]), then the rest (postcard, [`seal`]). The builder's
    /// maps are dropped: a decoded part is indexed again only if it is merged first. An error travels positioned
    /// within its slice, as [`SliceParser::finish`] gave it; [`merge_slices`] positions it.
    ///
    /// All in postcard, each value of the columns a varint, the parse worker's encoding and the merging
    /// worker's decoding were 50–70 ms of a folded 400 MB file's critical path (Chromium profile).
    pub fn encode_result(result: Result<SlicePart, ImportError>) -> Result<Vec<u8>, PartError> {
        let pos = |p: LinePos| (p.line, p.offset);
        let mut wire = result.map(|part| match part.inner {
            PartInner::Folded(part) => {
                WirePart::Folded(part.map(|f| (f.profile.profile, f.unit_declared, pos(f.end))))
            }
            PartInner::Perf(p) => WirePart::Perf {
                profile: p.profile.profile,
                lost: p.lost,
                lost_samples: p.lost_samples,
                untimed: p.untimed,
                end: pos(p.end),
            },
            PartInner::Decoded(w) => w,
        });
        let columns = match &mut wire {
            Ok(w) => w.profile_mut().map(take_profile_columns),
            Err(_) => None,
        };
        let mut out = Vec::new();
        columns_into(&columns.unwrap_or_default(), &mut out);
        out.extend_from_slice(&seal(&wire, PART_VERSION)?);
        Ok(out)
    }

    /// What [`SlicePart::encode_result`] made; a bad buffer is an error, never a panic.
    pub fn decode_result(bytes: &[u8]) -> Result<Result<SlicePart, ImportError>, PartError> {
        // The version first (the last byte): another build's buffer is said to be one, whatever its shape.
        match bytes.last() {
            None => return Err(PartError::Empty),
            Some(&got) if got != PART_VERSION => {
                return Err(PartError::Version {
                    got,
                    expected: PART_VERSION,
                })
            }
            Some(_) => {}
        }
        let (columns, rest) = columns_from(bytes).ok_or(PartError::Columns)?;
        let mut wire: Result<WirePart, ImportError> = open(rest, PART_VERSION)?;
        if let Ok(w) = &mut wire {
            match w.profile_mut() {
                Some(p) => put_profile_columns(p, columns).map_err(|_| PartError::Columns)?,
                None if columns == TreeColumns::default() => {}
                None => return Err(PartError::Columns),
            }
        }
        Ok(wire.map(|w| SlicePart {
            inner: PartInner::Decoded(w),
        }))
    }
}

impl WirePart {
    /// The part's profile, if it has one.
    fn profile_mut(&mut self) -> Option<&mut Profile> {
        match self {
            WirePart::Folded(Some((p, _, _))) | WirePart::Perf { profile: p, .. } => Some(p),
            WirePart::Folded(None) => None,
        }
    }
}

/// A part's profile, with or without its builder's maps.
enum Body {
    Indexed(Indexed),
    Plain(Profile),
}

impl Body {
    fn profile_mut(&mut self) -> &mut Profile {
        match self {
            Body::Indexed(i) => &mut i.profile,
            Body::Plain(p) => p,
        }
    }
    fn into_profile(self) -> Profile {
        match self {
            Body::Indexed(i) => i.profile,
            Body::Plain(p) => p,
        }
    }
    fn into_merger(self) -> Merger {
        match self {
            Body::Indexed(i) => Merger::from_indexed(i),
            Body::Plain(p) => Merger::new(p),
        }
    }
}

/// A part as [`merge_slices`] reads it, local or decoded.
enum Norm {
    FoldedNone,
    Folded {
        body: Body,
        unit_declared: bool,
        end: LinePos,
    },
    Perf {
        body: Body,
        lost: Lost,
        lost_samples: Lost,
        untimed: u64,
        end: LinePos,
    },
}

impl PartInner {
    fn norm(self) -> Norm {
        let pos = |(line, offset): (u64, u64)| LinePos { line, offset };
        match self {
            PartInner::Folded(None) | PartInner::Decoded(WirePart::Folded(None)) => Norm::FoldedNone,
            PartInner::Folded(Some(f)) => Norm::Folded {
                body: Body::Indexed(f.profile),
                unit_declared: f.unit_declared,
                end: f.end,
            },
            PartInner::Decoded(WirePart::Folded(Some((profile, unit_declared, end)))) => Norm::Folded {
                body: Body::Plain(profile),
                unit_declared,
                end: pos(end),
            },
            PartInner::Perf(p) => Norm::Perf {
                body: Body::Indexed(p.profile),
                lost: p.lost,
                lost_samples: p.lost_samples,
                untimed: p.untimed,
                end: p.end,
            },
            PartInner::Decoded(WirePart::Perf {
                profile,
                lost,
                lost_samples,
                untimed,
                end,
            }) => Norm::Perf {
                body: Body::Plain(profile),
                lost,
                lost_samples,
                untimed,
                end: pos(end),
            },
        }
    }
}

impl SliceParser {
    /// A parser for a slice of an input in `format`; `None` for formats that are not split.
    pub fn new(format: Format, opts: &ImportOptions) -> Option<Self> {
        let inner = match format {
            Format::Folded => Inner::Folded(Box::new(FoldedParser::new(&FoldedOptions {
                max_line: opts.max_line,
                keep_warnings: Some(opts.keep_warnings),
            }))),
            Format::PerfScript => Inner::Perf(Box::new(PerfParser::new(&PerfOptions {
                max_line: opts.max_line,
                naming: opts.perf_naming.clone(),
                keep_warnings: Some(opts.keep_warnings),
            }))),
            _ => return None,
        };
        Some(SliceParser { inner })
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        match &mut self.inner {
            Inner::Folded(p) => p.feed(chunk),
            Inner::Perf(p) => p.feed(chunk),
        }
    }

    /// Samples read so far (for progress).
    pub fn samples(&self) -> usize {
        match &self.inner {
            Inner::Folded(p) => p.samples(),
            Inner::Perf(p) => p.samples(),
        }
    }

    /// The slice's part. Errors are positioned within the slice; [`merge_slices`] positions them in the input.
    pub fn finish(self) -> Result<SlicePart, ImportError> {
        let inner = match self.inner {
            Inner::Folded(p) => PartInner::Folded(p.finish_part()?),
            Inner::Perf(p) => PartInner::Perf(p.finish_part()?),
        };
        Ok(SlicePart { inner })
    }
}

/// Where one slice starts in the input: lines before it and bytes before it.
#[derive(Clone, Copy)]
struct Base {
    lines: u64,
    bytes: u64,
}

impl Base {
    fn shift_error(self, mut e: ImportError) -> ImportError {
        e.offset += self.bytes;
        e.line = e.line.map(|l| l + self.lines);
        e
    }
    fn shift_warnings(self, w: &mut Warnings) {
        for x in w.first.iter_mut().chain(w.kinds.iter_mut().map(|k| &mut k.first)) {
            x.line += self.lines;
            x.offset += self.bytes;
        }
    }
    fn shift_end(self, end: LinePos) -> LinePos {
        LinePos {
            line: end.line + self.lines,
            offset: end.offset + self.bytes,
        }
    }
    fn after(self, end: LinePos) -> Base {
        Base {
            lines: self.lines + end.line.saturating_sub(1),
            bytes: self.bytes + end.offset,
        }
    }
}

/// Merges the results of consecutive slices, in input order, into the profile a single parse of the whole
/// input gives (or its first error, positioned in the input). `Ok(None)`: the input cannot be merged from
/// slices (see the module's notes); parse it whole. Each slice's result must come from a [`SliceParser`] fed
/// exactly that slice (cut by [`split`] or [`next_boundary`]).
pub fn merge_slices(results: Vec<Result<SlicePart, ImportError>>) -> Result<Option<Profile>, ImportError> {
    let mut base = Base { lines: 0, bytes: 0 };
    let mut folded: Option<(Merger, Unit)> = None;
    let mut perf: Option<(Merger, PerfTail)> = None;
    for r in results {
        match r.map_err(|e| base.shift_error(e))?.inner.norm() {
            Norm::FoldedNone => return Ok(None),
            Norm::Folded {
                mut body,
                unit_declared,
                end,
            } => {
                let p = body.profile_mut();
                base.shift_warnings(&mut p.meta.warnings);
                let declared = unit_declared.then(|| p.meta.unit.clone());
                match &mut folded {
                    None => {
                        let unit = declared.unwrap_or(Unit::Samples);
                        folded = Some((body.into_merger(), unit));
                    }
                    Some((m, unit)) => {
                        m.append(body.into_profile())?;
                        if let Some(d) = declared {
                            *unit = d;
                        }
                    }
                }
                base = base.after(end);
            }
            Norm::Perf {
                mut body,
                lost,
                lost_samples,
                untimed,
                end: part_end,
            } => {
                base.shift_warnings(&mut body.profile_mut().meta.warnings);
                let end = base.shift_end(part_end);
                let next = base.after(part_end);
                match &mut perf {
                    None => {
                        let tail = PerfTail {
                            lost,
                            lost_samples,
                            untimed,
                            end,
                        };
                        perf = Some((body.into_merger(), tail));
                    }
                    Some((m, tail)) => {
                        m.append(body.into_profile())?;
                        tail.lost = merge_lost(std::mem::take(&mut tail.lost), lost);
                        tail.lost_samples = merge_lost(std::mem::take(&mut tail.lost_samples), lost_samples);
                        tail.untimed += untimed;
                        tail.end = end;
                    }
                }
                base = next;
            }
        }
    }
    if let Some((m, unit)) = folded {
        let mut p = m.finish();
        if p.meta.records == 0 {
            return Err(no_records(&p.meta.warnings));
        }
        p.meta.unit = unit;
        collapse_by_stack(&mut p);
        return Ok(Some(p));
    }
    match perf {
        Some((m, tail)) => complete(PerfPart {
            profile: m.finish_indexed(),
            lost: tail.lost,
            lost_samples: tail.lost_samples,
            untimed: tail.untimed,
            end: tail.end,
        })
        .map(Some),
        None => Ok(None),
    }
}

/// What perf's whole-input step needs besides the merged profile.
struct PerfTail {
    lost: Lost,
    lost_samples: Lost,
    untimed: u64,
    end: LinePos,
}

/// Parses `input` (decompressed, in `format`) as `n` slices one after the other and merges them: what a
/// parallel caller does, without threads (for tests and single-core callers). `Ok(None)` as [`merge_slices`].
pub fn parse_sliced(
    format: Format,
    input: &[u8],
    n: usize,
    opts: &ImportOptions,
) -> Result<Option<Profile>, ImportError> {
    let mut results = Vec::new();
    for r in split(format, input, n) {
        let Some(mut p) = SliceParser::new(format, opts) else {
            return Ok(None);
        };
        let bytes = input.get(r).unwrap_or_default();
        results.push(p.feed(bytes).and_then(|()| p.finish()));
    }
    merge_slices(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`CutSearch`] driven over an input in memory.
    fn cuts(format: Format, input: &[u8], n: usize) -> Vec<u64> {
        let mut search = CutSearch::new(format, input.len() as u64, n);
        while let Some((at, len)) = search.want() {
            let at = at as usize;
            search.feed(input.get(at..(at + len).min(input.len())).unwrap_or_default());
        }
        search.finish()
    }

    #[test]
    fn a_search_by_ranges_cuts_where_split_cuts() {
        let input: Vec<u8> = (0..200_000)
            .flat_map(|i| format!("main;f{} {}\n", i % 17, i % 5 + 1).into_bytes())
            .collect();
        for n in [1, 2, 3, 8] {
            let want: Vec<u64> = split(Format::Folded, &input, n)
                .iter()
                .map(|r| r.start as u64)
                .chain([input.len() as u64])
                .collect();
            assert_eq!(cuts(Format::Folded, &input, n), want, "{n} slices");
        }
        // No boundary at all: one slice.
        assert_eq!(cuts(Format::Folded, &[b'a'; 5000], 4), vec![0, 5000]);
        // One boundary, past the next target but in the first window read: one cut there.
        let mut one = vec![b'a'; 4000];
        one.push(b'\n');
        one.extend_from_slice(&[b'b'; 10]);
        assert_eq!(cuts(Format::Folded, &one, 4), vec![0, 4001, one.len() as u64]);
    }
}
