//! Reading one JFR chunk's fields, never past its end: big-endian numbers, the compressed integers (LEB128,
//! 7 bits a byte for eight bytes, all 8 bits of a ninth) that chunks with the `compressed ints` feature use for
//! every short, int, long and char, and JFR's strings. Every read is checked and gives a typed error with the
//! byte offset in the whole input.

use crate::model::{Format, ImportError, ImportErrorKind};
use std::rc::Rc;

/// A JFR error at `offset` (in the whole input).
pub(super) fn err(kind: ImportErrorKind, offset: usize, msg: impl Into<String>) -> ImportError {
    ImportError::new(Some(Format::Jfr), kind, offset as u64, None, msg)
}

/// A string as JFR writes it: absent, inline, or an index into the chunk's `java.lang.String` pool.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum JStr {
    Null,
    Text(Rc<str>),
    Pool(i64),
}

/// A position in one chunk (`data`, which starts at `base` in the input).
#[derive(Debug, Clone)]
pub(super) struct Cur<'a> {
    pub data: &'a [u8],
    pub pos: usize,
    pub base: usize,
    pub compressed: bool,
}

impl<'a> Cur<'a> {
    /// Where the cursor is, in the whole input.
    pub fn at(&self) -> usize {
        self.base.saturating_add(self.pos)
    }

    pub fn left(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    fn cut(&self, what: &str) -> ImportError {
        err(
            ImportErrorKind::Malformed,
            self.at(),
            format!("the chunk ends inside {what}"),
        )
    }

    pub fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8], ImportError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        let Some(b) = end.and_then(|e| self.data.get(self.pos..e)) else {
            return Err(self.cut(what));
        };
        self.pos += n;
        Ok(b)
    }

    pub fn u8(&mut self) -> Result<u8, ImportError> {
        Ok(self.bytes(1, "a byte")?.first().copied().unwrap_or(0))
    }

    fn fixed<const N: usize>(&mut self, what: &str) -> Result<[u8; N], ImportError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.bytes(N, what)?);
        Ok(out)
    }

    pub fn be_i16(&mut self) -> Result<i16, ImportError> {
        Ok(i16::from_be_bytes(self.fixed("a short")?))
    }

    pub fn be_i32(&mut self) -> Result<i32, ImportError> {
        Ok(i32::from_be_bytes(self.fixed("an int")?))
    }

    pub fn be_i64(&mut self) -> Result<i64, ImportError> {
        Ok(i64::from_be_bytes(self.fixed("a long")?))
    }

    pub fn f32(&mut self) -> Result<f32, ImportError> {
        Ok(f32::from_be_bytes(self.fixed("a float")?))
    }

    pub fn f64(&mut self) -> Result<f64, ImportError> {
        Ok(f64::from_be_bytes(self.fixed("a double")?))
    }

    /// A compressed integer: 7 bits a byte, low first, the high bit saying more follow; a ninth byte gives
    /// its 8 bits whole.
    fn var(&mut self) -> Result<i64, ImportError> {
        let mut v: u64 = 0;
        for i in 0..8 {
            let b = self.u8().map_err(|_| self.cut("a compressed integer"))?;
            v |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v as i64);
            }
        }
        let b = self.u8().map_err(|_| self.cut("a compressed integer"))?;
        Ok((v | (u64::from(b) << 56)) as i64)
    }

    /// A long: compressed, or 8 bytes.
    pub fn long(&mut self) -> Result<i64, ImportError> {
        if self.compressed {
            self.var()
        } else {
            self.be_i64()
        }
    }

    /// An int: compressed (the long's low 32 bits), or 4 bytes.
    pub fn int(&mut self) -> Result<i32, ImportError> {
        if self.compressed {
            Ok(self.var()? as i32)
        } else {
            self.be_i32()
        }
    }

    /// A short: compressed, or 2 bytes.
    pub fn short(&mut self) -> Result<i16, ImportError> {
        if self.compressed {
            Ok(self.var()? as i16)
        } else {
            self.be_i16()
        }
    }

    /// A count that must be at least 0 and, as each item takes at least `min` bytes, fit in what is left.
    pub fn count(&mut self, min: usize, what: &str) -> Result<usize, ImportError> {
        let at = self.at();
        let n = self.int()?;
        let ok = usize::try_from(n)
            .ok()
            .filter(|&n| n.saturating_mul(min.max(1)) <= self.left());
        ok.ok_or_else(|| {
            err(
                ImportErrorKind::Malformed,
                at,
                format!("{what}: a count of {n}, more than the chunk holds"),
            )
        })
    }

    /// A string: encoding 0 null, 1 empty, 2 an index into the string pool, 3 UTF-8, 4 chars, 5 Latin-1.
    pub fn string(&mut self) -> Result<JStr, ImportError> {
        let at = self.at();
        match self.u8()? {
            0 => Ok(JStr::Null),
            1 => Ok(JStr::Text(Rc::from(""))),
            2 => Ok(JStr::Pool(self.long()?)),
            3 => {
                let n = self.count(1, "a UTF-8 string")?;
                let b = self.bytes(n, "a UTF-8 string")?;
                Ok(JStr::Text(Rc::from(String::from_utf8_lossy(b).as_ref())))
            }
            4 => {
                let n = self.count(1, "a char array string")?;
                let mut units = Vec::with_capacity(n);
                for _ in 0..n {
                    units.push(self.short()? as u16);
                }
                Ok(JStr::Text(Rc::from(String::from_utf16_lossy(&units).as_str())))
            }
            5 => {
                let n = self.count(1, "a Latin-1 string")?;
                let b = self.bytes(n, "a Latin-1 string")?;
                Ok(JStr::Text(Rc::from(
                    b.iter().map(|&c| char::from(c)).collect::<String>().as_str(),
                )))
            }
            e => Err(err(
                ImportErrorKind::Malformed,
                at,
                format!("a string of unknown encoding {e}"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cur(data: &[u8], compressed: bool) -> Cur<'_> {
        Cur {
            data,
            pos: 0,
            base: 100,
            compressed,
        }
    }

    #[test]
    fn compressed_integers() {
        assert_eq!(cur(&[0x05], true).long().unwrap(), 5);
        assert_eq!(cur(&[0x85, 0xb0, 0x03], true).long().unwrap(), 55301);
        let nine = [0xff; 9];
        assert_eq!(cur(&nine, true).long().unwrap(), -1);
        assert_eq!(cur(&[0xff, 0xff, 0xff, 0xff, 0x0f], true).int().unwrap(), -1);
        let e = cur(&[0x80, 0x80], true).long().unwrap_err();
        assert_eq!(e.offset, 102);
        assert_eq!(cur(&[0, 0, 1, 0], false).int().unwrap(), 256);
    }

    #[test]
    fn strings() {
        assert_eq!(cur(&[0], true).string().unwrap(), JStr::Null);
        assert_eq!(cur(&[2, 7], true).string().unwrap(), JStr::Pool(7));
        assert_eq!(
            cur(&[3, 2, b'h', b'i'], true).string().unwrap(),
            JStr::Text("hi".into())
        );
        assert_eq!(
            cur(&[4, 1, 0xe9, 0x01], true).string().unwrap(),
            JStr::Text("é".into())
        );
        assert_eq!(cur(&[5, 1, 0xe9], true).string().unwrap(), JStr::Text("é".into()));
        // A length past the end, a negative length, an unknown encoding: typed errors.
        assert!(cur(&[3, 9, b'h'], true).string().is_err());
        assert!(cur(&[3, 0xff, 0xff, 0xff, 0xff, 0x0f], true).string().is_err());
        assert_eq!(cur(&[9], true).string().unwrap_err().offset, 100);
    }
}
