//! The transport codec: what travels between workers (and threads) as bytes. One envelope ([`seal`],
//! [`open`]: postcard — lengths and varints, no field names — then a version byte) carries both a parsed
//! profile from the import worker to the page ([`encode`], [`decode`]) and a parsed slice from a parse worker
//! to the one that merges (`import::split::SlicePart::encode_result`).
//!
//! The columns go as they are, so the buffer is about the size of the profile's distinct content, not of the
//! input. Both ends are the same build of scorch; the version byte guards against a stale cached worker.
//! Decoding never panics: a bad buffer is an error.

use super::{FrameId, FrameKind, Imported, StackId, StrId};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Why an envelope could not be made or opened.
#[derive(Debug)]
pub enum EnvelopeError {
    Encode(postcard::Error),
    Decode(postcard::Error),
    Version { got: u8, expected: u8 },
    Empty,
}

/// `value` as postcard bytes followed by `version`.
pub fn seal<T: Serialize + ?Sized>(value: &T, version: u8) -> Result<Vec<u8>, EnvelopeError> {
    let mut out = postcard::to_allocvec(value).map_err(EnvelopeError::Encode)?;
    out.push(version);
    Ok(out)
}

/// What [`seal`] made with the same `version`.
pub fn open<T: DeserializeOwned>(bytes: &[u8], version: u8) -> Result<T, EnvelopeError> {
    match bytes.split_last() {
        Some((&v, body)) if v == version => postcard::from_bytes(body).map_err(EnvelopeError::Decode),
        Some((&got, _)) => Err(EnvelopeError::Version {
            got,
            expected: version,
        }),
        None => Err(EnvelopeError::Empty),
    }
}

/// A [`crate::view::CallTree`], [`crate::view::FlameLayout`], stack chart or a profile's largest columns as plain
/// columns of numbers (they travel as typed arrays).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TreeColumns {
    pub u32s: Vec<Vec<u32>>,
    pub u64s: Vec<Vec<u64>>,
}

/// Bumped whenever the model's shape changes.
const VERSION: u8 = 7;

/// Why a buffer could not be made or read.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    #[error("could not encode the profile: {0}")]
    Encode(#[source] postcard::Error),
    #[error("could not decode the profile from the worker: {0}")]
    Decode(#[source] postcard::Error),
    #[error("the import worker is another version of scorch (wire version {got}, expected {expected}); reload the page")]
    Version { got: u8, expected: u8 },
    #[error("the import worker sent nothing")]
    Empty,
    #[error("the import worker sent columns that do not fit the profile")]
    Columns,
}

impl From<EnvelopeError> for WireError {
    fn from(e: EnvelopeError) -> WireError {
        match e {
            EnvelopeError::Encode(e) => WireError::Encode(e),
            EnvelopeError::Decode(e) => WireError::Decode(e),
            EnvelopeError::Version { got, expected } => WireError::Version { got, expected },
            EnvelopeError::Empty => WireError::Empty,
        }
    }
}

/// Encodes an import for the page.
pub fn encode(imported: &Imported) -> Result<Vec<u8>, WireError> {
    Ok(seal(imported, VERSION)?)
}

/// Decodes what [`encode`] made.
pub fn decode(bytes: &[u8]) -> Result<Imported, WireError> {
    Ok(open(bytes, VERSION)?)
}

/// Takes the profile's largest columns out of `imported`, so they can travel as typed arrays and the encoded
/// rest stays small and quick to make and decode: `[stack parent, stack frame, sample stack, frame name, frame
/// kind, string ends]` and `[sample weight]`. The frames and strings are columns too: a million distinct frames
/// encoded one varint at a time were 60–70 ms of one task on the page (issue 39, the hostile `deep-distinct`).
pub fn take_columns(imported: &mut Imported) -> TreeColumns {
    take_profile_columns(&mut imported.profile)
}

/// [`take_columns`] of a profile.
pub fn take_profile_columns(p: &mut super::Profile) -> TreeColumns {
    let frames = std::mem::take(&mut p.stacks.frame);
    let stacks = std::mem::take(&mut p.samples.stack);
    let names = std::mem::take(&mut p.frames.name);
    let kinds = std::mem::take(&mut p.frames.kind);
    TreeColumns {
        u32s: vec![
            std::mem::take(&mut p.stacks.parent),
            frames.into_iter().map(|f| f.0).collect(),
            stacks.into_iter().map(|s| s.0).collect(),
            names.into_iter().map(|s| s.0).collect(),
            kinds.into_iter().map(|k| k as u32).collect(),
            std::mem::take(&mut p.strings.ends),
        ],
        u64s: vec![std::mem::take(&mut p.samples.weight)],
    }
}

/// How many `u32` columns [`take_columns`] takes.
pub const U32_COLUMNS: usize = 6;

/// The `i`th `u32` column of [`take_columns`] in a profile that keeps it: borrowed where it is stored as `u32`s,
/// else copied (empty past the last).
pub fn u32_column(imported: &Imported, i: usize) -> std::borrow::Cow<'_, [u32]> {
    use std::borrow::Cow;
    let p = &imported.profile;
    match i {
        0 => Cow::Borrowed(&p.stacks.parent),
        1 => p.stacks.frame.iter().map(|f| f.0).collect(),
        2 => p.samples.stack.iter().map(|s| s.0).collect(),
        3 => p.frames.name.iter().map(|s| s.0).collect(),
        4 => p.frames.kind.iter().map(|&k| k as u32).collect(),
        5 => Cow::Borrowed(&p.strings.ends),
        _ => Cow::Borrowed(&[]),
    }
}

/// [`encode`] of `imported` without what [`take_columns`] takes, made without copying those columns: what travels
/// beside them ([`u32_column`], and the sample weights).
pub fn encode_rest(imported: &Imported) -> Result<Vec<u8>, WireError> {
    let p = &imported.profile;
    let s = &p.samples;
    let rest = Imported {
        profile: super::Profile {
            strings: super::Strings {
                buf: p.strings.buf.clone(),
                ends: Vec::new(),
            },
            frames: Default::default(),
            stacks: Default::default(),
            samples: super::SampleTable {
                stack: Vec::new(),
                weight: Vec::new(),
                time_ns: s.time_ns.clone(),
                thread: s.thread.clone(),
                event: s.event.clone(),
                cpu: s.cpu.clone(),
                labels: s.labels.clone(),
            },
            threads: p.threads.clone(),
            events: p.events.clone(),
            label_sets: p.label_sets.clone(),
            meta: p.meta.clone(),
            sites: p.sites.clone(),
            total: p.total,
        },
        gzip: imported.gzip,
        bytes: imported.bytes,
    };
    encode(&rest)
}

/// Puts back what [`take_columns`] took; an error when the columns do not fit the rest of the profile (or each
/// other: as many frame kinds as names, each a kind).
pub fn put_columns(imported: &mut Imported, c: TreeColumns) -> Result<(), WireError> {
    put_profile_columns(&mut imported.profile, c)
}

/// [`put_columns`] into a profile.
pub fn put_profile_columns(p: &mut super::Profile, c: TreeColumns) -> Result<(), WireError> {
    let [parent, frame, stack, names, kinds, ends]: [Vec<u32>; 6] =
        c.u32s.try_into().map_err(|_| WireError::Columns)?;
    let [weight]: [Vec<u64>; 1] = c.u64s.try_into().map_err(|_| WireError::Columns)?;
    let n = stack.len();
    let s = &p.samples;
    let other = [
        s.time_ns.as_ref().map(Vec::len),
        s.thread.as_ref().map(Vec::len),
        s.event.as_ref().map(Vec::len),
        s.cpu.as_ref().map(Vec::len),
        s.labels.as_ref().map(Vec::len),
    ];
    if parent.len() != frame.len()
        || weight.len() != n
        || names.len() != kinds.len()
        || other.iter().flatten().any(|&l| l != n)
    {
        return Err(WireError::Columns);
    }
    let kinds = kinds
        .into_iter()
        .map(|k| match k {
            0 => Ok(FrameKind::User),
            1 => Ok(FrameKind::Kernel),
            2 => Ok(FrameKind::Jit),
            3 => Ok(FrameKind::Inline),
            4 => Ok(FrameKind::Process),
            _ => Err(WireError::Columns),
        })
        .collect::<Result<Vec<_>, _>>()?;
    p.stacks.parent = parent;
    p.stacks.frame = frame.into_iter().map(FrameId).collect();
    p.samples.stack = stack.into_iter().map(StackId).collect();
    p.samples.weight = weight;
    p.frames.name = names.into_iter().map(StrId).collect();
    p.frames.kind = kinds;
    p.strings.ends = ends;
    Ok(())
}

/// `c` appended to `out` as plain little-endian numbers: the count of `u32` columns, then each as its length
/// (`u64`) and values, then the same for the `u64` columns. Read back by [`columns_from`]. A column of a
/// million values is a copy, not a million varints to write and read one at a time.
pub fn columns_into(c: &TreeColumns, out: &mut Vec<u8>) {
    let values: usize = c.u32s.iter().map(|v| 8 + v.len() * 4).sum::<usize>()
        + c.u64s.iter().map(|v| 8 + v.len() * 8).sum::<usize>();
    out.reserve(8 + values);
    out.extend_from_slice(&(c.u32s.len() as u32).to_le_bytes());
    for col in &c.u32s {
        out.extend_from_slice(&(col.len() as u64).to_le_bytes());
        for v in col {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out.extend_from_slice(&(c.u64s.len() as u32).to_le_bytes());
    for col in &c.u64s {
        out.extend_from_slice(&(col.len() as u64).to_le_bytes());
        for v in col {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

/// The columns [`columns_into`] wrote at the start of `bytes`, and what follows them; `None` when `bytes` does
/// not hold them whole.
pub fn columns_from(bytes: &[u8]) -> Option<(TreeColumns, &[u8])> {
    fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = b.split_at_checked(n)?;
        *b = rest;
        Some(head)
    }
    fn count(b: &mut &[u8]) -> Option<usize> {
        let n = u32::from_le_bytes(take(b, 4)?.try_into().ok()?) as usize;
        // Each column has at least its length: a bad count fails here, before anything is allocated.
        (n <= b.len() / 8).then_some(n)
    }
    /// The next column of `W`-byte values.
    fn column<'a, const W: usize>(b: &mut &'a [u8]) -> Option<&'a [u8]> {
        let n = usize::try_from(u64::from_le_bytes(take(b, 8)?.try_into().ok()?)).ok()?;
        take(b, n.checked_mul(W)?)
    }
    let mut b = bytes;
    let mut u32s = Vec::new();
    for _ in 0..count(&mut b)? {
        let raw = column::<4>(&mut b)?;
        u32s.push(
            raw.chunks_exact(4)
                .map(|x| <[u8; 4]>::try_from(x).map_or(0, u32::from_le_bytes))
                .collect(),
        );
    }
    let mut u64s = Vec::new();
    for _ in 0..count(&mut b)? {
        let raw = column::<8>(&mut b)?;
        u64s.push(
            raw.chunks_exact(8)
                .map(|x| <[u8; 8]>::try_from(x).map_or(0, u64::from_le_bytes))
                .collect(),
        );
    }
    Some((TreeColumns { u32s, u64s }, b))
}
