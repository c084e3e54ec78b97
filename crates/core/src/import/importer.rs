//! What every format importer answers for itself, below all formats: the loader's dispatcher
//! ([`super::sniff()`]) asks each importer in turn and knows nothing of any format's syntax, and no format
//! knows of another or of the dispatcher.

use crate::model::{Format, ImportError, Profile};

/// How many bytes sniffing looks at, at most, before deciding.
pub const SNIFF_WINDOW: usize = 64 * 1024;

/// One importer's answer to "is this input mine?" (inferno's `Collapse::is_applicable`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applicable {
    Yes,
    /// Not enough input yet to decide; ask again with more (or with `at_end = true`).
    NeedMore,
    No,
}

impl From<Option<bool>> for Applicable {
    /// `Some(true)` is yes, `Some(false)` no, `None` "need more".
    fn from(v: Option<bool>) -> Self {
        match v {
            Some(true) => Applicable::Yes,
            Some(false) => Applicable::No,
            None => Applicable::NeedMore,
        }
    }
}

/// One input format, as the dispatcher sees it.
pub trait Importer: Sync {
    /// The format this importer reads.
    fn format(&self) -> Format;

    /// Whether `prefix` starts with this format's own signature, which settles the question before any
    /// importer is asked in turn (scorch's link payloads name themselves). Default: no signature.
    fn is_signed(&self, _prefix: &[u8]) -> bool {
        false
    }

    /// Is this input mine? `prefix` holds the first decompressed bytes (at most [`SNIFF_WINDOW`]); `at_end` says
    /// that no more will come (the input ended or the window is full).
    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable;
}

/// A format's parser as the loader drives it: the decompressed input in chunks of any size, then the profile.
pub trait Parse {
    fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError>;
    fn finish(self: Box<Self>) -> Result<Profile, ImportError>;
    /// Samples read so far (for progress; 0 for the formats that decode the whole input at the end).
    fn samples(&self) -> usize {
        0
    }
}
