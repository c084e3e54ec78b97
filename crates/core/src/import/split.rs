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
use crate::model::{Format, ImportError, Merger, Profile, Unit, Warnings};

/// Whether inputs of this format can be split into slices.
pub fn splittable(format: Format) -> bool {
    matches!(format, Format::Folded | Format::PerfScript)
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

enum Inner {
    Folded(Box<FoldedParser>),
    Perf(Box<PerfParser>),
}

/// Parses one slice; feed it the slice's bytes in chunks of any size, then [`SliceParser::finish`].
pub struct SliceParser {
    inner: Inner,
}

/// A parsed slice, for [`merge_slices`].
pub struct SlicePart {
    inner: PartInner,
}

enum PartInner {
    Folded(Option<FoldedPart>),
    Perf(PerfPart),
}

impl SliceParser {
    /// A parser for a slice of an input in `format`; `None` for formats that are not split.
    pub fn new(format: Format, opts: &ImportOptions) -> Option<Self> {
        let inner = match format {
            Format::Folded => Inner::Folded(Box::new(FoldedParser::new(&FoldedOptions {
                max_line: opts.max_line,
            }))),
            Format::PerfScript => Inner::Perf(Box::new(PerfParser::new(&PerfOptions {
                max_line: opts.max_line,
                naming: opts.perf_naming.clone(),
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
        for x in &mut w.first {
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
        match r.map_err(|e| base.shift_error(e))?.inner {
            PartInner::Folded(None) => return Ok(None),
            PartInner::Folded(Some(mut part)) => {
                base.shift_warnings(&mut part.profile.profile.meta.warnings);
                let declared = part.unit_declared.then(|| part.profile.profile.meta.unit.clone());
                let end = part.end;
                match &mut folded {
                    None => {
                        let unit = declared.unwrap_or(Unit::Samples);
                        folded = Some((Merger::from_indexed(part.profile), unit));
                    }
                    Some((m, unit)) => {
                        m.append(part.profile.profile)?;
                        if let Some(d) = declared {
                            *unit = d;
                        }
                    }
                }
                base = base.after(end);
            }
            PartInner::Perf(mut part) => {
                base.shift_warnings(&mut part.profile.profile.meta.warnings);
                let end = base.shift_end(part.end);
                let next = base.after(part.end);
                match &mut perf {
                    None => {
                        let tail = PerfTail {
                            lost: part.lost,
                            lost_samples: part.lost_samples,
                            untimed: part.untimed,
                            end,
                        };
                        perf = Some((Merger::from_indexed(part.profile), tail));
                    }
                    Some((m, tail)) => {
                        m.append(part.profile.profile)?;
                        tail.lost = merge_lost(std::mem::take(&mut tail.lost), part.lost);
                        tail.lost_samples =
                            merge_lost(std::mem::take(&mut tail.lost_samples), part.lost_samples);
                        tail.untimed += part.untimed;
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
    lost: crate::model::Lost,
    lost_samples: crate::model::Lost,
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
