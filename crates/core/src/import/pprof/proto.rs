//! The `profile.proto` messages, shared with the pprof export: they live in `crate::model::pprof_proto`.

pub use crate::model::pprof_proto::*;
