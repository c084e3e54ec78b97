//! A reader of Python's `marshal` format for the object types `pstats` files hold: dicts, tuples (and lists),
//! ints (32-bit and long), floats (binary and text), strings (every str type), `None`/`True`/`False`, and back
//! references (`FLAG_REF` on an object, `r` to refer to it). Bounded: nesting at most [`MAX_DEPTH`] levels
//! (pstats needs 4), no allocation sized by a count the input has not yet backed with bytes, and references
//! are shared (`Rc`), never copied, so a reference costs O(1) however large its object.
//!
//! The format as CPython writes it (`Python/marshal.c`, version 4): one type byte (bit 0x80 = `FLAG_REF`: the
//! object gets the next reference index — a container when it is begun, anything else when it is read), then
//! the type's payload, integers little-endian.

use std::rc::Rc;

/// Deepest nesting accepted (CPython's own limit is 2000; pstats files nest 4 deep).
pub(super) const MAX_DEPTH: u32 = 64;

/// A marshalled value.
#[derive(Debug, Clone)]
pub(super) enum Val {
    None,
    /// `True` or `False` (pstats has none; read so that nothing valid is refused).
    Bool,
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    Tuple(Rc<[Val]>),
    Dict(Rc<[(Val, Val)]>),
    /// A reference to an object that was not complete yet when referred to (a container inside itself).
    Pending,
}

/// What went wrong, at which byte.
#[derive(Debug)]
pub(super) struct Error {
    pub offset: u64,
    pub message: String,
}

pub(super) struct Reader<'a> {
    b: &'a [u8],
    i: usize,
    refs: Vec<Val>,
    /// Where each entry of the outermost dict starts (for errors found after reading).
    pub entry_offsets: Vec<usize>,
}

impl<'a> Reader<'a> {
    pub(super) fn new(b: &'a [u8]) -> Self {
        Reader {
            b,
            i: 0,
            refs: Vec::new(),
            entry_offsets: Vec::new(),
        }
    }

    pub(super) fn position(&self) -> usize {
        self.i
    }

    fn fail<T>(&self, at: usize, message: impl Into<String>) -> Result<T, Error> {
        Err(Error {
            offset: at as u64,
            message: message.into(),
        })
    }

    fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8], Error> {
        match self.b.get(self.i..self.i.saturating_add(n)) {
            Some(s) if self.i.checked_add(n).is_some() => {
                self.i += n;
                Ok(s)
            }
            _ => self.fail(self.i, format!("{what}: the input ends early")),
        }
    }

    fn u8(&mut self, what: &str) -> Result<u8, Error> {
        Ok(self.bytes(1, what)?.first().copied().unwrap_or(0))
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], Error> {
        let at = self.i;
        match <[u8; N]>::try_from(self.bytes(N, what)?) {
            Ok(a) => Ok(a),
            Err(_) => self.fail(at, format!("{what}: the input ends early")),
        }
    }

    fn i32(&mut self, what: &str) -> Result<i32, Error> {
        Ok(i32::from_le_bytes(self.array(what)?))
    }

    /// A count, checked against the bytes left (each element takes at least `min` bytes).
    fn count(&mut self, n: i64, min: usize, what: &str) -> Result<usize, Error> {
        let at = self.i;
        let left = self.b.len().saturating_sub(self.i) / min.max(1);
        match usize::try_from(n) {
            Ok(n) if n <= left => Ok(n),
            Ok(n) => self.fail(at, format!("{what}: {n} elements, but only {left} can follow")),
            Err(_) => self.fail(at, format!("{what}: a negative size ({n})")),
        }
    }

    /// One object.
    pub(super) fn read(&mut self, depth: u32) -> Result<Val, Error> {
        let at = self.i;
        if depth > MAX_DEPTH {
            return self.fail(at, format!("objects nested more than {MAX_DEPTH} deep"));
        }
        let code = self.u8("an object")?;
        let flag = code & 0x80 != 0;
        let t = code & 0x7f;
        // Containers take their reference index before their contents.
        let slot = if flag && matches!(t, b'(' | b')' | b'[' | b'{') {
            self.refs.push(Val::Pending);
            Some(self.refs.len() - 1)
        } else {
            None
        };
        let v = match t {
            b'N' => Val::None,
            b'T' | b'F' => Val::Bool,
            b'i' => Val::Int(i64::from(self.i32("an int")?)),
            b'l' => self.long()?,
            b'g' => Val::Float(f64::from_le_bytes(self.array("a float")?)),
            b'f' => {
                let n = usize::from(self.u8("a float")?);
                let s = self.bytes(n, "a float")?;
                match std::str::from_utf8(s).ok().and_then(|s| s.parse::<f64>().ok()) {
                    Some(x) => Val::Float(x),
                    None => return self.fail(at, "a float written as text that is not a number"),
                }
            }
            b'u' | b't' | b'a' | b'A' => {
                let n = i64::from(self.i32("a string")?);
                let n = self.count(n, 1, "a string")?;
                self.string(n, t, at)?
            }
            b'z' | b'Z' => {
                let n = usize::from(self.u8("a string")?);
                self.string(n, t, at)?
            }
            b'(' | b'[' | b')' => {
                let n = if t == b')' {
                    i64::from(self.u8("a tuple")?)
                } else {
                    i64::from(self.i32("a tuple")?)
                };
                let n = self.count(n, 1, "a tuple")?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.read(depth + 1)?);
                }
                Val::Tuple(items.into())
            }
            b'{' => {
                let mut items = Vec::new();
                loop {
                    if self.b.get(self.i) == Some(&b'0') {
                        self.i += 1;
                        break;
                    }
                    if depth == 0 {
                        self.entry_offsets.push(self.i);
                    }
                    let k = self.read(depth + 1)?;
                    let v = self.read(depth + 1)?;
                    items.push((k, v));
                }
                Val::Dict(items.into())
            }
            b'r' => {
                let n = self.i32("a reference")?;
                match usize::try_from(n).ok().and_then(|n| self.refs.get(n)) {
                    Some(v) => v.clone(),
                    None => {
                        return self.fail(
                            at,
                            format!("a reference to object {n}, of {} so far", self.refs.len()),
                        )
                    }
                }
            }
            b'0' => return self.fail(at, "a dict's end outside a dict"),
            _ => {
                return self.fail(
                    at,
                    format!(
                        "type {:?} (byte 0x{code:02x}) is not one pstats files hold",
                        t as char
                    ),
                )
            }
        };
        match slot {
            Some(s) => {
                if let Some(x) = self.refs.get_mut(s) {
                    *x = v.clone();
                }
            }
            None if flag && t != b'r' => self.refs.push(v.clone()),
            None => {}
        }
        Ok(v)
    }

    fn string(&mut self, n: usize, t: u8, at: usize) -> Result<Val, Error> {
        let s = self.bytes(n, "a string")?;
        match std::str::from_utf8(s) {
            Ok(s) if !matches!(t, b'a' | b'A' | b'z' | b'Z') || s.is_ascii() => Ok(Val::Str(s.into())),
            _ => self.fail(at, "a string that is not valid UTF-8 (or ASCII for its type)"),
        }
    }

    /// A long: a signed count of 15-bit digits, least significant first. Only values that fit in i64.
    fn long(&mut self) -> Result<Val, Error> {
        let at = self.i - 1;
        let n = i64::from(self.i32("a long")?);
        let digits = self.count(n.abs(), 2, "a long")?;
        let mut v: i128 = 0;
        for k in 0..digits {
            let d = i128::from(u16::from_le_bytes(self.array("a long")?));
            if d >= 1 << 15 {
                return self.fail(at, "a long with a digit of more than 15 bits");
            }
            if k >= 5 {
                if d != 0 {
                    return self.fail(at, "an integer too large for 64 bits");
                }
                continue;
            }
            v |= d << (15 * k);
        }
        let v = if n < 0 { -v } else { v };
        match i64::try_from(v) {
            Ok(v) => Ok(Val::Int(v)),
            Err(_) => self.fail(at, "an integer too large for 64 bits"),
        }
    }
}
