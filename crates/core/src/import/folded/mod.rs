//! Folded stacks (`frame;frame;frame COUNT`), as written by stackcollapse-*.pl, inferno, async-profiler, austin, …
//!
//! Rules (see docs/SEMANTICS.md in this repo's docs for the reasoning):
//! - the count is the token after the last space; the stack is everything before it, split on `;`. Only that
//!   one separator is taken: `a;b  7` (two spaces) is the frame `b ` with its trailing space, as flamegraph.pl reads
//!   it, so that any name round-trips. Leading whitespace of a line is not part of the first frame;
//! - a line with no stack, only whitespace and a count (` 7`, which py-spy writes for a sample it could not
//!   unwind), is a sample with no frames: its weight counts in the total, on the root (flamegraph.pl, inferno and
//!   speedscope read it so);
//! - integer counts are exact u64; fractional counts (`31.23`) are kept exactly by scaling every weight by
//!   `10^decimals` (at most 9 decimals; more are cut, with a warning);
//! - a line whose last two tokens are both numbers (`stack 12 40`, difffolded output) is a differential line:
//!   the second (target) count is used and the import says so in one warning;
//! - inferno's kind annotations `_[k]`, `_[j]`, `_[i]` become the frame kind and leave the name;
//! - blank lines and `#` comment lines are skipped silently; any other line that cannot be read is skipped
//!   with a counted warning that names its line;
//! - the same stack on several lines is one sample row with the weights summed.

mod sniff;

pub use sniff::FoldedFormat;

use crate::import::lines::{trim_ascii, LinePos, LineSplitter};
use crate::model::intern::common_prefix_len;
use crate::model::{
    DeclaredUnit, Format, FrameKind, FullSample, ImportError, ImportErrorKind, Indexed, Profile,
    ProfileBuilder, StackId, Unit, Warnings, EMPTY_STACK,
};

/// Most decimals kept from a fractional count.
const MAX_DECIMALS: u32 = 9;

/// Options for the folded importer.
#[derive(Debug, Clone)]
pub struct FoldedOptions {
    /// Longest accepted line in bytes. Default is 64 MiB.
    pub max_line: usize,
    /// How many warnings are kept with their text (all are counted). Default is `None`:
    /// [`crate::model::Warnings::KEEP`].
    pub keep_warnings: Option<usize>,
}

impl Default for FoldedOptions {
    fn default() -> Self {
        FoldedOptions {
            max_line: 64 << 20,
            keep_warnings: None,
        }
    }
}

/// Does this (trimmed, non-comment) line look like `stack COUNT`?
pub(crate) fn looks_like_folded_line(line: &[u8]) -> bool {
    match split_count(line) {
        Some((stack, _)) => !trim_ascii(stack).is_empty(),
        None => false,
    }
}

/// Reads `T0,D1,D2…` (or `T:W` pairs) into samples of `stack`: times are the running sum of the gaps; without
/// weights every sample weighs `total / n`, which must be exact. False (nothing added) when anything is off.
fn push_times(
    out: &mut Vec<(StackId, u64, u64)>,
    stack: StackId,
    text: &[u8],
    total: u64,
    decimals: u32,
) -> bool {
    if decimals != 0 {
        return false;
    }
    let Ok(text) = std::str::from_utf8(text) else {
        return false;
    };
    let mut parsed: Vec<(u64, Option<u64>)> = Vec::new();
    let mut t = 0u64;
    for item in text.split(',') {
        let (d, w) = match item.split_once(':') {
            Some((d, w)) => (d, Some(w)),
            None => (item, None),
        };
        let Some(next) = d.parse::<u64>().ok().and_then(|d| t.checked_add(d)) else {
            return false;
        };
        t = next;
        let w = match w.map(str::parse::<u64>) {
            Some(Ok(w)) => Some(w),
            Some(Err(_)) => return false,
            None => None,
        };
        parsed.push((t, w));
    }
    let n = parsed.len() as u64;
    let each = if parsed.iter().all(|(_, w)| w.is_none()) {
        if n == 0 || !total.is_multiple_of(n) {
            return false;
        }
        Some(total / n)
    } else {
        let sum = parsed
            .iter()
            .try_fold(0u64, |a, (_, w)| w.and_then(|w| a.checked_add(w)));
        if sum != Some(total) {
            return false;
        }
        None
    };
    out.extend(
        parsed
            .into_iter()
            .map(|(t, w)| (stack, t, w.or(each).unwrap_or(0))),
    );
    true
}

/// Splits `stack COUNT` at the last space or tab. The count must be a non-negative decimal number.
fn split_count(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let i = memchr::memrchr2(b' ', b'\t', line)?;
    let (stack, rest) = line.split_at_checked(i)?;
    let count = rest.get(1..)?;
    if count.is_empty() || !count.iter().all(|&b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    if count.iter().filter(|&&b| b == b'.').count() > 1 || count == b"." {
        return None;
    }
    Some((stack, count))
}

/// A parsed count: `mantissa / 10^decimals`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Count {
    mantissa: u64,
    decimals: u32,
    truncated: bool,
}

fn parse_count(s: &[u8]) -> Option<Count> {
    let mut mantissa: u64 = 0;
    let mut decimals = 0u32;
    let mut seen_dot = false;
    let mut truncated = false;
    for &b in s {
        if b == b'.' {
            seen_dot = true;
            continue;
        }
        let d = u64::from(b.wrapping_sub(b'0'));
        if d > 9 {
            return None;
        }
        if seen_dot {
            if decimals == MAX_DECIMALS {
                truncated |= d != 0;
                continue;
            }
            decimals += 1;
        }
        mantissa = mantissa.checked_mul(10)?.checked_add(d)?;
    }
    // Drop trailing zero decimals so `12.0` is the integer 12.
    while decimals > 0 && mantissa.is_multiple_of(10) {
        mantissa /= 10;
        decimals -= 1;
    }
    Some(Count {
        mantissa,
        decimals,
        truncated,
    })
}

/// The error for an input without a single `stack COUNT` line.
pub(crate) fn no_records(warnings: &Warnings) -> ImportError {
    let (kind, msg) = if warnings.is_empty() {
        (
            ImportErrorKind::Empty,
            "no stacks: the input is empty or holds only comments".to_string(),
        )
    } else {
        (
            ImportErrorKind::NoValidRecords,
            format!(
                "none of the lines is `stack COUNT` ({} lines skipped)",
                warnings.count
            ),
        )
    };
    let line = warnings.first.first().map(|w| w.line);
    let offset = warnings.first.first().map_or(0, |w| w.offset);
    ImportError::new(Some(Format::Folded), kind, offset, line, msg)
}

/// A parse of one slice of a folded input (see [`FoldedParser::finish_part`]).
#[derive(Debug)]
pub(crate) struct FoldedPart {
    /// With the builder's maps, for merging.
    pub profile: Indexed,
    /// Whether the slice declared its unit (`# unit:`): the last declaration wins, as in a single parse.
    pub unit_declared: bool,
    /// Where the part's input ended (1-based line after its last, bytes read).
    pub end: LinePos,
}

/// Chunk-driven folded importer.
#[derive(Debug)]
pub struct FoldedParser {
    lines: LineSplitter,
    b: ProfileBuilder,
    warnings: Warnings,
    decimals: u32,
    /// Weight per stack id (raw, scaled by `decimals`), and whether a line named that stack.
    weight: Vec<u64>,
    named: Vec<bool>,
    total: u64,
    records: u64,
    two_count_lines: u64,
    /// First counts of `stack BASE TARGET` lines, per stack (raw, scaled like `weight`).
    base_weight: Vec<u64>,
    /// Lines with no frames (` 7`): their weight, base weight, and whether there was one.
    empty: Option<(u64, u64)>,
    /// Set by a `# scorch-unit: NAME` comment (scorch's own links carry one); samples otherwise.
    unit: Unit,
    /// Whether a `# unit:` line set [`FoldedParser::unit`] (a slice's unit then overrides earlier slices').
    unit_declared: bool,
    /// `# scorch-times` (scorch's links with timestamps): lines end in ` @T0,D1,…`; the samples with their times,
    /// and how many lines had none (then the times are dropped: a profile has them for all samples or none).
    timed: Option<Vec<(StackId, u64, u64)>>,
    untimed_lines: u64,
    /// Past a link's `# scorch-data` line: every line is a stack, even one that starts with `#`.
    data: bool,
    /// Set by the same comment: scorch's own output has one count per line, so a name ending in a number (a
    /// process `dd 29776 666709.78206`) stays a name instead of reading as a two-count line.
    one_count: bool,
    // The previous line's frames, to reuse stack ids for a shared prefix (sorted input shares a lot).
    prev: Vec<u8>,
    prev_ends: Vec<usize>,
    prev_stacks: Vec<StackId>,
}

impl FoldedParser {
    /// Sample lines read so far.
    pub fn samples(&self) -> usize {
        self.records as usize
    }

    pub fn new(opts: &FoldedOptions) -> Self {
        FoldedParser {
            lines: LineSplitter::new(Format::Folded, opts.max_line),
            b: ProfileBuilder::new(Format::Folded),
            warnings: Warnings::keeping(opts.keep_warnings.unwrap_or(Warnings::KEEP)),
            decimals: 0,
            weight: Vec::new(),
            named: Vec::new(),
            total: 0,
            records: 0,
            two_count_lines: 0,
            base_weight: Vec::new(),
            empty: None,
            unit: Unit::Samples,
            unit_declared: false,
            one_count: false,
            timed: None,
            untimed_lines: 0,
            data: false,
            prev: Vec::new(),
            prev_ends: Vec::new(),
            prev_stacks: Vec::new(),
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        let mut lines = std::mem::replace(&mut self.lines, LineSplitter::new(Format::Folded, 0));
        let r = lines.feed(chunk, |line, pos| self.line(line, pos));
        self.lines = lines;
        r
    }

    pub fn finish(mut self) -> Result<Profile, ImportError> {
        let mut lines = std::mem::replace(&mut self.lines, LineSplitter::new(Format::Folded, 0));
        lines.finish(|line, pos| self.line(line, pos))?;
        let end = lines.position();
        if self.records == 0 {
            return Err(no_records(&self.warnings));
        }
        if self.two_count_lines > 0 {
            // A differential file (difffolded.pl, inferno-diff-folded): two events, base and target.
            let (base, target) = (
                self.b.event("base", self.unit.clone()),
                self.b.event("target", self.unit.clone()),
            );
            self.b.set_default_event(target);
            self.b.add_info(
                "differential folded file",
                format!(
                    "{} lines with two counts: base (first, before) and target (second, after)",
                    self.two_count_lines
                ),
            );
            self.base_weight.resize(self.weight.len(), 0);
            let named = self.named.iter().enumerate().filter(|(_, &n)| n).map(|(i, _)| {
                let bw = self.base_weight.get(i).copied().unwrap_or(0);
                let tw = self.weight.get(i).copied().unwrap_or(0);
                (StackId(i as u32), bw, tw)
            });
            let empty = self.empty.map(|(tw, bw)| (EMPTY_STACK, bw, tw));
            let rows: Vec<_> = named.chain(empty).collect();
            for (stack, bw, tw) in rows {
                for (event, w) in [(base, bw), (target, tw)] {
                    let s = FullSample {
                        stack,
                        weight: w,
                        time_ns: None,
                        thread: None,
                        event: Some(event),
                        cpu: None,
                        labels: None,
                    };
                    self.b.push_full_sample(s, end.offset)?;
                }
            }
        } else if let Some(timed) = self
            .timed
            .take()
            .filter(|t| !t.is_empty() && self.untimed_lines == 0)
        {
            // A link with timestamps: one sample per timestamp, so the heatmap comes back; its records are those
            // samples, as many as the linked profile's (not its stack lines).
            self.records = timed.len() as u64;
            for (stack, time, weight) in timed {
                let s = FullSample {
                    stack,
                    weight,
                    time_ns: Some(time),
                    thread: None,
                    event: None,
                    cpu: None,
                    labels: None,
                };
                self.b.push_full_sample(s, end.offset)?;
            }
        } else {
            for (i, (&w, &named)) in self.weight.iter().zip(&self.named).enumerate() {
                if named {
                    self.b.push_sample(StackId(i as u32), w, end.offset)?;
                }
            }
            if let Some((w, _)) = self.empty {
                self.b.push_sample(EMPTY_STACK, w, end.offset)?;
            }
        }
        Ok(self
            .b
            .build(self.unit.clone(), self.decimals, self.records, self.warnings))
    }

    /// Reads the rest and returns a slice's parse before the whole-input step (see `crate::import::split`):
    /// one sample per stack in stack order, then the frameless lines' weight. `None` for inputs whose lines
    /// depend on state a slice cannot know (two-count lines, scorch's link directives): parse those whole.
    pub(crate) fn finish_part(mut self) -> Result<Option<FoldedPart>, ImportError> {
        let mut lines = std::mem::replace(&mut self.lines, LineSplitter::new(Format::Folded, 0));
        lines.finish(|line, pos| self.line(line, pos))?;
        let end = lines.position();
        if self.two_count_lines > 0 || self.one_count || self.timed.is_some() || self.data {
            return Ok(None);
        }
        for (i, (&w, &named)) in self.weight.iter().zip(&self.named).enumerate() {
            if named {
                self.b.push_sample(StackId(i as u32), w, end.offset)?;
            }
        }
        if let Some((w, _)) = self.empty {
            self.b.push_sample(EMPTY_STACK, w, end.offset)?;
        }
        Ok(Some(FoldedPart {
            profile: self
                .b
                .build_indexed(self.unit.clone(), self.decimals, self.records, self.warnings),
            unit_declared: self.unit_declared,
            end,
        }))
    }

    // Real lines this reads:
    //   java;start_thread;JavaMain;Interpreter_[j];SharedRuntime::foo_[k] 12
    //   main;compute 31.23
    //   P1234;T5678;<module> (/usr/lib/python3.11/runpy.py);main (app.py:10) 4512
    //   a;b;c 12 40            (difffolded: base 12, target 40)
    fn line(&mut self, raw: &[u8], pos: LinePos) -> Result<(), ImportError> {
        if self.data {
            // A link's stacks are exact: no trimming, so a name may start or end with whitespace (perf's
            // fallback names can), which plain folded text could not carry at a line's ends.
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            return self.stack_line(raw, pos);
        }
        // Leading whitespace is kept for `stack_line`: in ` 7` it is the separator before the count.
        let untrimmed = raw.trim_ascii_end();
        let line = untrimmed.trim_ascii_start();
        if self.one_count && line == b"# scorch-data" {
            self.data = true;
            return Ok(());
        }
        if let Some(unit) = line.strip_prefix(b"# scorch-unit:") {
            self.unit = Unit::from_name(&String::from_utf8_lossy(trim_ascii(unit)));
            self.one_count = true;
            return Ok(());
        }
        // `# unit: us`: a producer (or a person) saying what the counts are.
        if let Some(unit) = line.strip_prefix(b"# unit:") {
            if let Some(d) = std::str::from_utf8(unit).ok().and_then(DeclaredUnit::parse) {
                self.unit = d.unit();
                self.unit_declared = true;
            } else {
                self.warnings.push(
                    crate::model::WarningKind::UnknownUnit,
                    pos.line,
                    pos.offset,
                    "unknown `# unit:` (samples, ns, us, ms, s, bytes or count): counts are samples",
                );
            }
            return Ok(());
        }
        if self.one_count && line == b"# scorch-times" {
            self.timed = Some(Vec::new());
            return Ok(());
        }
        if let (true, Some(rest)) = (self.one_count, line.strip_prefix(b"# scorch-dropped:")) {
            let mut it = std::str::from_utf8(rest).unwrap_or("").split_whitespace();
            if let (Some(n), Some(ppm)) = (it.next(), it.next().and_then(|x| x.parse::<f64>().ok())) {
                self.b.add_info(
                    "left out of the link",
                    format!(
                        "{n} smallest stacks, {:.2} % of the total, to keep the link short",
                        ppm / 1e4
                    ),
                );
            }
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix(b"# scorch-scrubbed:") {
            // A scrubbed link or folded export (`export::scrub`): the receiver shows that it is not the original.
            let rules = String::from_utf8_lossy(trim_ascii(rest));
            self.b
                .add_info(crate::model::SCRUBBED_INFO, rules.chars().take(200).collect());
            return Ok(());
        }
        if line.starts_with(b"#") {
            return Ok(());
        }
        self.stack_line(untrimmed, pos)
    }

    //   a;b  7                 (the frame `b ` keeps its trailing space)
    //    7                     (no frames: py-spy's unwinding failures; the weight is on the root)
    fn stack_line(&mut self, line: &[u8], pos: LinePos) -> Result<(), ImportError> {
        if line.is_empty() {
            return Ok(());
        }
        // `STACK TOTAL @T0,D1,…` in a link with timestamps.
        let mut times: Option<&[u8]> = None;
        let mut line = line;
        if self.timed.is_some() {
            match memchr::memmem::rfind(line, b" @") {
                Some(i) => {
                    let (head, tail) = line.split_at(i);
                    line = head;
                    times = tail.get(2..);
                }
                None => self.untimed_lines += 1,
            }
        }
        let Some((mut stack, count)) = split_count(line) else {
            self.warnings.push(
                crate::model::WarningKind::UnreadableLine,
                pos.line,
                pos.offset,
                "no count at the end of the line; skipped",
            );
            return Ok(());
        };
        let Some(mut c) = parse_count(count) else {
            self.warnings.push(
                crate::model::WarningKind::BadCount,
                pos.line,
                pos.offset,
                "count does not fit in 64 bits; skipped",
            );
            return Ok(());
        };
        // `stack BASE TARGET`: the first count is the base, the second the target.
        // The stack is trimmed first, so `n 1\t\t0` reads as two counts, just as its export `n 1 0` does.
        let mut base_count = None;
        if let Some((s2, base)) = split_count(trim_ascii(stack)).filter(|_| !self.one_count) {
            if !trim_ascii(s2).is_empty() {
                stack = s2;
                self.two_count_lines += 1;
                base_count = parse_count(base);
            }
        }
        let stack = if self.data {
            stack
        } else {
            stack.trim_ascii_start()
        };
        if c.truncated {
            self.warnings.push(
                crate::model::WarningKind::DecimalsCut,
                pos.line,
                pos.offset,
                "count has more than 9 decimals; the rest was cut",
            );
        }
        let wanted = c.decimals.max(base_count.map_or(0, |b| b.decimals));
        if wanted > self.decimals {
            self.rescale(wanted, pos)?;
        }
        c.mantissa = scale(c.mantissa, self.decimals - c.decimals).ok_or_else(|| overflow(pos))?;
        let base_raw = match base_count {
            Some(b) => scale(b.mantissa, self.decimals - b.decimals).ok_or_else(|| overflow(pos))?,
            None => 0,
        };
        let text = std::str::from_utf8(stack).ok();
        if text.is_none() {
            self.warnings.push(
                crate::model::WarningKind::InvalidUtf8,
                pos.line,
                pos.offset,
                "invalid UTF-8 in frame names, shown as \u{FFFD}",
            );
        }
        if stack.is_empty() {
            return self.empty_line(c.mantissa, base_raw, times, pos);
        }
        let leaf = self.intern_stack(stack, text);
        if let (Some(list), Some(times)) = (self.timed.as_mut(), times) {
            if !push_times(list, leaf, times, c.mantissa, self.decimals) {
                self.untimed_lines += 1;
                self.warnings.push(
                    crate::model::WarningKind::Timestamps,
                    pos.line,
                    pos.offset,
                    "timestamps do not add up to the count; ignored",
                );
            }
        }
        let i = leaf.idx();
        if self.weight.len() <= i {
            self.weight.resize(i + 1, 0);
            self.named.resize(i + 1, false);
        }
        if let (Some(w), Some(named)) = (self.weight.get_mut(i), self.named.get_mut(i)) {
            *w = w.checked_add(c.mantissa).ok_or_else(|| overflow(pos))?;
            *named = true;
        }
        if base_raw > 0 {
            if self.base_weight.len() <= i {
                self.base_weight.resize(i + 1, 0);
            }
            if let Some(w) = self.base_weight.get_mut(i) {
                *w = w.checked_add(base_raw).ok_or_else(|| overflow(pos))?;
            }
        }
        self.total = self.total.checked_add(c.mantissa).ok_or_else(|| overflow(pos))?;
        self.records += 1;
        Ok(())
    }

    /// A line with a count and no frames: one sample on the root.
    fn empty_line(
        &mut self,
        w: u64,
        base: u64,
        times: Option<&[u8]>,
        pos: LinePos,
    ) -> Result<(), ImportError> {
        if let (Some(list), Some(times)) = (self.timed.as_mut(), times) {
            if !push_times(list, EMPTY_STACK, times, w, self.decimals) {
                self.untimed_lines += 1;
                self.warnings.push(
                    crate::model::WarningKind::Timestamps,
                    pos.line,
                    pos.offset,
                    "timestamps do not add up to the count; ignored",
                );
            }
        }
        let (tw, bw) = self.empty.unwrap_or((0, 0));
        let tw = tw.checked_add(w).ok_or_else(|| overflow(pos))?;
        let bw = bw.checked_add(base).ok_or_else(|| overflow(pos))?;
        self.empty = Some((tw, bw));
        self.total = self.total.checked_add(w).ok_or_else(|| overflow(pos))?;
        self.records += 1;
        Ok(())
    }

    fn rescale(&mut self, decimals: u32, pos: LinePos) -> Result<(), ImportError> {
        let k = decimals - self.decimals;
        if let Some((tw, bw)) = self.empty {
            self.empty = Some((
                scale(tw, k).ok_or_else(|| overflow(pos))?,
                scale(bw, k).ok_or_else(|| overflow(pos))?,
            ));
        }
        for w in &mut self.base_weight {
            *w = scale(*w, k).ok_or_else(|| overflow(pos))?;
        }
        for w in &mut self.weight {
            *w = scale(*w, k).ok_or_else(|| overflow(pos))?;
        }
        self.total = scale(self.total, k).ok_or_else(|| overflow(pos))?;
        self.decimals = decimals;
        Ok(())
    }

    /// `text` is `stack` as text when it is valid UTF-8 (checked once per line, not again per frame).
    fn intern_stack(&mut self, stack: &[u8], text: Option<&str>) -> StackId {
        // The frames this line shares with the previous one, byte for byte and with the same boundaries, keep
        // the previous line's stack ids: with sorted input (as collapse tools write it) most frames of every
        // line. Found from the two lines' common prefix in one pass, not frame by frame; the shared frames are
        // neither searched for `;` again nor copied.
        let common = common_prefix_len(&self.prev, stack);
        let mut shared = self.prev_ends.partition_point(|&e| e < common);
        // A frame ending exactly where the lines part is shared if it ends this line too (it ended the
        // previous one: its end is in `prev_ends`).
        if self.prev_ends.get(shared) == Some(&common)
            && (common == stack.len() || stack.get(common) == Some(&b';'))
        {
            shared += 1;
        }
        self.prev_ends.truncate(shared);
        self.prev_stacks.truncate(shared);
        let mut parent = self.prev_stacks.last().copied();
        let last_end = self.prev_ends.last().copied();
        if last_end != Some(stack.len()) {
            let first = last_end.map_or(0, |e| e + 1);
            let mut start = first;
            let rest = stack.get(first..).unwrap_or_default();
            let ends = memchr::memchr_iter(b';', rest).map(|i| first + i);
            for end in ends.chain(std::iter::once(stack.len())) {
                let frame = stack.get(start..end).unwrap_or_default();
                let (name, kind) = split_kind(frame);
                let f = match text.and_then(|t| t.get(start..start + name.len())) {
                    Some(name) => self.b.frame(name, kind),
                    None => self.b.frame(&String::from_utf8_lossy(name), kind),
                };
                let id = self.b.stack(parent, f);
                self.prev_ends.push(end);
                self.prev_stacks.push(id);
                parent = Some(id);
                start = end + 1;
            }
        }
        self.prev.truncate(common);
        self.prev
            .extend_from_slice(stack.get(common..).unwrap_or_default());
        parent.unwrap_or(StackId(0))
    }
}

/// inferno/stackcollapse annotate kernel, JIT and inline frames with `_[k]`, `_[j]`, `_[i]`.
pub(crate) fn split_kind(frame: &[u8]) -> (&[u8], FrameKind) {
    match frame {
        [name @ .., b'_', b'[', b'k', b']'] if !name.is_empty() => (name, FrameKind::Kernel),
        [name @ .., b'_', b'[', b'j', b']'] if !name.is_empty() => (name, FrameKind::Jit),
        [name @ .., b'_', b'[', b'i', b']'] if !name.is_empty() => (name, FrameKind::Inline),
        _ => (frame, FrameKind::User),
    }
}

fn scale(v: u64, k: u32) -> Option<u64> {
    10u64.checked_pow(k).and_then(|p| v.checked_mul(p))
}

fn overflow(pos: LinePos) -> ImportError {
    ImportError::new(
        Some(Format::Folded),
        ImportErrorKind::Overflow,
        pos.offset,
        Some(pos.line),
        "the weights add up to more than 2^64-1",
    )
}

/// Parses a whole folded input at once (tests and the CLI use the streaming [`crate::Loader`]).
pub fn parse(input: &[u8]) -> Result<Profile, ImportError> {
    let mut p = FoldedParser::new(&FoldedOptions::default());
    p.feed(input)?;
    p.finish()
}

#[cfg(test)]
mod tests;
