//! Whether an input is a pprof message: the pprof importer's own answer to the loader.

use crate::import::importer::{Applicable, Importer, SNIFF_WINDOW};
use crate::model::Format;

/// The pprof importer's answer to "is this input mine?".
#[derive(Debug, Clone, Copy, Default)]
pub struct PprofFormat;

impl Importer for PprofFormat {
    fn format(&self) -> Format {
        Format::Pprof
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        Applicable::from(looks_like_pprof(prefix, at_end || prefix.len() >= SNIFF_WINDOW))
    }
}

/// Is this the start of a profile.proto message? Reads a few top-level fields and checks their numbers and
/// wire types against the schema. `None` means "need more bytes".
fn looks_like_pprof(prefix: &[u8], at_end: bool) -> Option<bool> {
    // Text is never a profile: protobuf keys and lengths put control bytes in the first few bytes.
    let head = prefix.get(..64).unwrap_or(prefix);
    if (head.len() >= 8 || at_end)
        && !head.is_empty()
        && head
            .iter()
            .all(|&b| b == b'\n' || b == b'\r' || b == b'\t' || (0x20..0x7f).contains(&b))
    {
        return Some(false);
    }
    let mut i = 0usize;
    let mut fields = 0;
    let varint = |i: &mut usize| -> Option<Option<u64>> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let Some(&byte) = prefix.get(*i) else {
                return Some(None);
            };
            *i += 1;
            v |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(Some(v));
            }
        }
        None // over-long varint: not protobuf
    };
    while fields < 4 {
        if i >= prefix.len() {
            return if at_end { Some(fields > 0) } else { None };
        }
        let key = match varint(&mut i) {
            None => return Some(false),
            Some(None) => return if at_end { Some(false) } else { None },
            Some(Some(k)) => k,
        };
        let (field, wire) = (key >> 3, key & 7);
        let expected_len = matches!(field, 1..=6 | 11 | 13 | 16);
        let expected_varint = matches!(field, 7..=10 | 12..=15);
        match wire {
            2 if expected_len => {
                let len = match varint(&mut i) {
                    None => return Some(false),
                    Some(None) => return if at_end { Some(false) } else { None },
                    Some(Some(l)) => l,
                };
                i = i.saturating_add(usize::try_from(len).unwrap_or(usize::MAX));
                if i > prefix.len() {
                    // Runs past what we have: more input to come, or (after a complete field) a truncated
                    // profile, which the decoder then reports as such. Absurd lengths are not protobuf.
                    if at_end {
                        return Some(fields > 0 && len < (1 << 32));
                    }
                    return if fields > 0 || len < (1 << 32) {
                        None
                    } else {
                        Some(false)
                    };
                }
            }
            0 if expected_varint => match varint(&mut i) {
                None => return Some(false),
                Some(None) => return if at_end { Some(false) } else { None },
                Some(Some(_)) => {}
            },
            _ => return Some(false),
        }
        fields += 1;
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff() {
        assert_eq!(looks_like_pprof(b"java 1234 cycles:\n", true), Some(false));
        assert_eq!(looks_like_pprof(b"a;b 1\n", true), Some(false));
        assert_eq!(
            looks_like_pprof(b"\x0a\x04\x08\x01\x10\x02\x12\x00", true),
            Some(true)
        );
        assert_eq!(looks_like_pprof(b"\x0a", false), None);
    }
}
