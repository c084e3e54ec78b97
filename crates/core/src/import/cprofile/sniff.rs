//! Whether an input is a pstats file: the cProfile importer's own answer, from the first bytes, never the file
//! name.

use crate::import::importer::{Applicable, Importer};
use crate::model::Format;

/// The cProfile importer's answer: a marshalled dict (`{`, with or without `FLAG_REF`) whose first key is a
/// 3-tuple (`)` with length 3, or `(` with a 32-bit length 3) that starts with a string (any of marshal's str
/// types) — the `(file, line, name)` key every pstats entry has. A JSON object never continues `{(` or `{)`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CprofileFormat;

impl Importer for CprofileFormat {
    fn format(&self) -> Format {
        Format::Cprofile
    }

    fn is_applicable(&self, prefix: &[u8], at_end: bool) -> Applicable {
        let need = |n: usize| prefix.len() < n;
        let more = if at_end {
            Applicable::No
        } else {
            Applicable::NeedMore
        };
        let Some(&d) = prefix.first() else { return more };
        if d & 0x7f != b'{' {
            return Applicable::No;
        }
        let Some(&t) = prefix.get(1) else { return more };
        let at = match t & 0x7f {
            b')' => match prefix.get(2) {
                Some(3) => 3,
                Some(_) => return Applicable::No,
                None => return more,
            },
            b'(' => {
                if need(6) {
                    return more;
                }
                if prefix.get(2..6) != Some(&[3, 0, 0, 0][..]) {
                    return Applicable::No;
                }
                6
            }
            _ => return Applicable::No,
        };
        match prefix.get(at).map(|c| c & 0x7f) {
            Some(b'u' | b't' | b'a' | b'A' | b'z' | b'Z' | b'r') => Applicable::Yes,
            Some(_) => Applicable::No,
            None => more,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff() {
        let real = b"\xfb)\x03\xfa\x07prog.py\xe9$\x00\x00\x00";
        assert_eq!(CprofileFormat.is_applicable(real, false), Applicable::Yes);
        assert_eq!(
            CprofileFormat.is_applicable(&real[..2], false),
            Applicable::NeedMore
        );
        assert_eq!(CprofileFormat.is_applicable(&real[..2], true), Applicable::No);
        assert_eq!(
            CprofileFormat.is_applicable(b"{(\x03\x00\x00\x00u", true),
            Applicable::Yes
        );
        for no in [&b"{\"a\": 1}"[..], b"{)\x02z", b"main;a 1\n", b"\xfb)\x03i", b""] {
            assert_eq!(CprofileFormat.is_applicable(no, true), Applicable::No, "{no:?}");
        }
    }
}
