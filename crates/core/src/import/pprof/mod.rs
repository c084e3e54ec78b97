//! pprof (`profile.proto`, raw or gzip'd; gzip is handled by the loader).
//!
//! Every sample type is kept, each as one "event" of the model, with its unit; the default is
//! `default_sample_type` when set, else the last type (as `go tool pprof` does). Each `Line` of a `Location` is a
//! frame, innermost on the leaf side, all but the outermost marked inline. Locations without lines are named
//! `0xADDRESS (mapping basename)`. Labels are kept per sample (for filters and grouping). `drop_frames` /
//! `keep_frames` are applied as pprof's `Prune` does, and the import says what they did.
//!
//! The whole message must be in memory to decode (protobuf is not line-oriented); the loader caps its size.
//!
//! Files: `proto.rs` (the message types), `build.rs` (message to profile), `sniff.rs` (whether an input is
//! pprof).

mod build;
pub mod proto;
mod sniff;

pub use sniff::PprofFormat;

use crate::model::{Format, ImportError, ImportErrorKind, Profile};
use build::Builder;

/// Options for the pprof importer.
#[derive(Debug, Clone)]
pub struct PprofOptions {
    /// Largest accepted (decompressed) protobuf in bytes; it is held whole to decode. Default is 1 GiB.
    pub max_bytes: usize,
}

impl Default for PprofOptions {
    fn default() -> Self {
        PprofOptions { max_bytes: 1 << 30 }
    }
}

/// Collects the message, then decodes it at [`PprofParser::finish`].
pub struct PprofParser {
    buf: Vec<u8>,
    max: usize,
}

pub(super) fn err(kind: ImportErrorKind, offset: u64, msg: impl Into<String>) -> ImportError {
    ImportError::new(Some(Format::Pprof), kind, offset, None, msg)
}

impl PprofParser {
    pub fn new(opts: &PprofOptions) -> Self {
        PprofParser {
            buf: Vec::new(),
            max: opts.max_bytes,
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        if self.buf.len().saturating_add(chunk.len()) > self.max {
            return Err(err(
                ImportErrorKind::LimitExceeded,
                self.max as u64,
                format!("the profile is larger than the limit of {} bytes", self.max),
            ));
        }
        self.buf.extend_from_slice(chunk);
        Ok(())
    }

    pub fn finish(self) -> Result<Profile, ImportError> {
        use prost::Message;
        let msg = proto::Profile::decode(self.buf.as_slice()).map_err(|e| {
            err(
                ImportErrorKind::Malformed,
                0,
                format!("not a valid profile.proto message: {e}"),
            )
        })?;
        drop(self.buf);
        Builder::new(&msg)?.build(&msg)
    }
}
