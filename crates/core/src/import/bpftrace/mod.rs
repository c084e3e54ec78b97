//! bpftrace's printed maps of stacks (`@[kstack, ustack, comm] = count()` and friends, printed at exit): blocks
//! that open with `@NAME[`, hold one frame per line (leaf first) for each stack key and the other keys between
//! commas, and close with `]: COUNT`. Streamed line by line: memory follows the distinct stacks.
//!
//! - A block is one stack with weight COUNT (a sample count for `count()`); its root is its scalar keys
//!   (`comm`, `pid`, … in key order, process frames), then its stack keys from the last to the first, each
//!   from its outermost frame to its leaf: `@[kstack, ustack, comm]` reads `comm;user…;kernel…`, as
//!   FlameGraph's `stackcollapse-bpftrace.pl` orders a whole block.
//! - A frame's `+OFFSET` (`+123`, `+0x7b`) is dropped; unresolved addresses (`0x7f…`) stay as they are. When
//!   a block has two stack keys, the first one's frames are kernel frames (`kstack` comes first in bpftrace's
//!   idiom); otherwise kinds are not guessed.
//! - Each map is an event (`@` or `@name`), so two maps in one output are never added together.
//! - Other output (`Attaching N probes...`, scalar maps, histograms, `printf` lines) is skipped; a block cut
//!   off by the end of the input or by another block, or with a count that is not an integer, is skipped with a
//!   counted warning.

mod sniff;

pub use sniff::BpftraceFormat;

use crate::import::lines::{trim_ascii, LinePos, LineSplitter};
use crate::model::{
    Format, FrameKind, FullSample, ImportError, ImportErrorKind, Profile, ProfileBuilder, StackId, Unit,
    Warnings, EMPTY_STACK,
};
use rustc_hash::FxHashMap;

/// Options for the bpftrace importer.
#[derive(Debug, Clone)]
pub struct BpftraceOptions {
    /// Longest accepted line. Default is 64 MiB.
    pub max_line: usize,
    /// How many warnings are kept with their text (all are counted). Default is `None`:
    /// [`crate::model::Warnings::KEEP`].
    pub keep_warnings: Option<usize>,
}

impl Default for BpftraceOptions {
    fn default() -> Self {
        BpftraceOptions {
            max_line: 64 << 20,
            keep_warnings: None,
        }
    }
}

/// One key of a block: a scalar (`comm`, `pid`) or a stack (frames in file order, leaf first).
enum Slot {
    Scalar(String),
    Stack(Vec<String>),
}

/// The block being read.
struct Block {
    event: u16,
    slots: Vec<Slot>,
    /// The stack key being filled, if any.
    cur: Option<Vec<String>>,
    at: LinePos,
}

/// Streams bpftrace output.
pub struct BpftraceParser {
    lines: LineSplitter,
    b: ProfileBuilder,
    events: FxHashMap<String, u16>,
    block: Option<Block>,
    records: u64,
    warnings: Warnings,
}

/// `@NAME[` at the start of a line: the map's name (`@` for the unnamed map) and the rest of the line.
pub(crate) fn block_start(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let rest = line.strip_prefix(b"@")?;
    let n = rest
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_')
        .count();
    let after = rest.get(n..)?.strip_prefix(b"[")?;
    Some((line.get(..=n)?, after))
}

/// `TEXT]: COUNT` at the end of a line: TEXT and COUNT (still text).
fn block_end(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let i = memchr::memmem::rfind(line, b"]: ")?;
    let count = trim_ascii(line.get(i + 3..)?);
    let ok = !count.is_empty()
        && count
            .iter()
            .enumerate()
            .all(|(k, &c)| c.is_ascii_digit() || (k == 0 && c == b'-'));
    ok.then(|| (line.get(..i).unwrap_or_default(), count))
}

/// A frame without its `+OFFSET`.
fn frame_name(line: &[u8]) -> String {
    let t = String::from_utf8_lossy(trim_ascii(line));
    let t = t.trim();
    let name = match t.rfind('+') {
        Some(i) if i > 0 => {
            let off = t.get(i + 1..).unwrap_or_default();
            let hex = off
                .strip_prefix("0x")
                .is_some_and(|h| !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()));
            let dec = !off.is_empty() && off.bytes().all(|c| c.is_ascii_digit());
            if hex || dec {
                t.get(..i).unwrap_or(t)
            } else {
                t
            }
        }
        _ => t,
    };
    name.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

impl Block {
    /// Key text: the rest of the `@[` line or a line that starts with `,`: pieces between commas are scalar
    /// keys, or the boundaries of stack keys when empty.
    fn keys(&mut self, text: &[u8]) {
        let text = String::from_utf8_lossy(text);
        let pieces: Vec<&str> = text.split(',').collect();
        let n = pieces.len();
        for (i, p) in pieces.into_iter().enumerate() {
            let p = p.trim();
            if !p.is_empty() {
                if let Some(cur) = self.cur.take().filter(|c| !c.is_empty()) {
                    self.slots.push(Slot::Stack(cur));
                }
                self.slots.push(Slot::Scalar(frame_name(p.as_bytes())));
            } else if i + 1 == n {
                self.cur.get_or_insert_with(Vec::new);
            } else {
                self.slots.push(Slot::Stack(self.cur.take().unwrap_or_default()));
            }
        }
    }
}

impl BpftraceParser {
    pub fn new(opts: &BpftraceOptions) -> Self {
        BpftraceParser {
            lines: LineSplitter::new(Format::Bpftrace, opts.max_line),
            b: ProfileBuilder::new(Format::Bpftrace),
            events: FxHashMap::default(),
            block: None,
            records: 0,
            warnings: Warnings::keeping(opts.keep_warnings.unwrap_or(Warnings::KEEP)),
        }
    }

    /// Blocks read so far (for progress).
    pub fn samples(&self) -> usize {
        self.records as usize
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        let mut lines = std::mem::replace(&mut self.lines, LineSplitter::new(Format::Bpftrace, 0));
        let r = lines.feed(chunk, |line, at| self.line(line, at));
        self.lines = lines;
        r
    }

    fn line(&mut self, line: &[u8], at: LinePos) -> Result<(), ImportError> {
        let start = if line.first() == Some(&b'@') {
            block_start(line)
        } else {
            None
        };
        if let Some((name, rest)) = start {
            if let Some(old) = self.block.take() {
                self.warnings.push(
                    crate::model::WarningKind::CutOffBlock,
                    old.at.line,
                    old.at.offset,
                    format!("the block of line {} is cut off by another block", old.at.line),
                );
            }
            let name = String::from_utf8_lossy(name).into_owned();
            let next = self.events.len() as u16;
            let event = *self.events.entry(name.clone()).or_insert(next);
            if event == next {
                self.b.event(&name, Unit::Samples);
            }
            let mut block = Block {
                event,
                slots: Vec::new(),
                cur: None,
                at,
            };
            match block_end(rest) {
                Some((keys, count)) => {
                    block.keys(keys);
                    return self.close(block, count);
                }
                None => block.keys(rest),
            }
            self.block = Some(block);
            return Ok(());
        }
        let Some(mut block) = self.block.take() else {
            // Outside a block: `Attaching N probes...`, scalar maps, histograms, printf output.
            return Ok(());
        };
        let t = trim_ascii(line);
        if let Some((keys, count)) = block_end(t) {
            if !keys.is_empty() {
                if keys.first() == Some(&b',') {
                    block.keys(keys);
                } else {
                    block.cur.get_or_insert_with(Vec::new).push(frame_name(keys));
                }
            }
            return self.close(block, count);
        }
        if t.first() == Some(&b',') {
            block.keys(t);
        } else if !t.is_empty() {
            block.cur.get_or_insert_with(Vec::new).push(frame_name(t));
        }
        self.block = Some(block);
        Ok(())
    }

    fn close(&mut self, mut block: Block, count: &[u8]) -> Result<(), ImportError> {
        let at = block.at;
        let Some(weight) = std::str::from_utf8(count)
            .ok()
            .and_then(|c| c.parse::<u64>().ok())
        else {
            self.warnings.push(
                crate::model::WarningKind::BadCount,
                at.line,
                at.offset,
                format!(
                    "line {}: the count {} is not a whole number from 0 to 2^64-1: block skipped",
                    at.line,
                    String::from_utf8_lossy(count)
                ),
            );
            return Ok(());
        };
        if let Some(cur) = block.cur.take() {
            block.slots.push(Slot::Stack(cur));
        }
        let stacks = block.slots.iter().filter(|s| matches!(s, Slot::Stack(_))).count();
        let mut s: Option<StackId> = None;
        for slot in &block.slots {
            if let Slot::Scalar(k) = slot {
                let f = self.b.frame(k, FrameKind::Process);
                s = Some(self.b.stack(s, f));
            }
        }
        let mut k = stacks;
        for slot in block.slots.iter().rev() {
            if let Slot::Stack(frames) = slot {
                k -= 1;
                let kind = if stacks >= 2 && k == 0 {
                    FrameKind::Kernel
                } else {
                    FrameKind::User
                };
                for name in frames.iter().rev().filter(|n| !n.is_empty()) {
                    let f = self.b.frame(name, kind);
                    s = Some(self.b.stack(s, f));
                }
            }
        }
        self.records += 1;
        self.b.push_full_sample(
            FullSample {
                stack: s.unwrap_or(EMPTY_STACK),
                weight,
                time_ns: None,
                thread: None,
                event: Some(block.event),
                cpu: None,
                labels: None,
            },
            at.offset,
        )
    }

    pub fn finish(mut self) -> Result<Profile, ImportError> {
        let mut lines = std::mem::replace(&mut self.lines, LineSplitter::new(Format::Bpftrace, 0));
        lines.finish(|line, at| self.line(line, at))?;
        if let Some(old) = self.block.take() {
            self.warnings.push(
                crate::model::WarningKind::CutOffBlock,
                old.at.line,
                old.at.offset,
                format!(
                    "the block of line {} is cut off by the end of the input",
                    old.at.line
                ),
            );
        }
        if self.records == 0 {
            return Err(ImportError::new(
                Some(Format::Bpftrace),
                ImportErrorKind::NoValidRecords,
                0,
                None,
                "no complete `@[...]: COUNT` block of stacks",
            ));
        }
        self.b.add_info("maps", self.events.len().to_string());
        Ok(self.b.build(Unit::Samples, 0, self.records, self.warnings))
    }
}

#[cfg(test)]
mod tests;
