//! One chunk of a recording: its header, a scan of its events (each starts with its size and type id), the
//! metadata event (type 0) and the constant pool events (type 1), read before any other event since the
//! events refer to pools written after them.

use super::bytes::{err, Cur};
use super::meta::{Meta, Val};
use crate::model::{ImportError, ImportErrorKind};
use rustc_hash::FxHashMap;

/// The chunk header's size: magic, version, then eight longs and an int.
pub(super) const HEADER: usize = 68;

/// The chunk header's fields scorch uses.
#[derive(Debug, Clone, Copy)]
pub(super) struct Header {
    pub size: usize,
    pub start_nanos: i64,
    pub duration_nanos: i64,
    pub start_ticks: i64,
    pub ticks_per_second: i64,
    pub compressed: bool,
}

impl Header {
    /// The header of the chunk at `base` in `input`.
    pub fn read(input: &[u8], base: usize) -> Result<Header, ImportError> {
        let mut c = Cur {
            data: input.get(base..).unwrap_or(&[]),
            pos: 0,
            base,
            compressed: false,
        };
        if c.bytes(4, "the chunk's magic")? != b"FLR\0" {
            return Err(err(
                ImportErrorKind::Malformed,
                base,
                "a chunk does not start with FLR\\0",
            ));
        }
        let major = c.be_i16()?;
        let minor = c.be_i16()?;
        if !(1..=2).contains(&major) {
            return Err(err(
                ImportErrorKind::Malformed,
                base + 4,
                format!("JFR version {major}.{minor}; scorch reads 1.x and 2.x"),
            ));
        }
        let at = c.at();
        let size = c.be_i64()?;
        let size = usize::try_from(size)
            .ok()
            .filter(|&s| s >= HEADER && s <= c.data.len())
            .ok_or_else(|| {
                err(
                    ImportErrorKind::Malformed,
                    at,
                    format!(
                        "the chunk's size is {size} bytes but {} are left (a recording still being written, or cut)",
                        c.data.len()
                    ),
                )
            })?;
        let _cp = c.be_i64()?;
        let _meta = c.be_i64()?;
        let start_nanos = c.be_i64()?;
        let duration_nanos = c.be_i64()?;
        let start_ticks = c.be_i64()?;
        let at = c.at();
        let ticks_per_second = c.be_i64()?;
        if ticks_per_second <= 0 {
            return Err(err(
                ImportErrorKind::Malformed,
                at,
                format!("{ticks_per_second} ticks per second"),
            ));
        }
        let features = c.be_i32()?;
        Ok(Header {
            size,
            start_nanos,
            duration_nanos,
            start_ticks,
            ticks_per_second,
            compressed: major >= 2 && features & 1 != 0,
        })
    }

    /// Ticks as nanoseconds since the epoch (saturating at 0 and 2^64).
    pub fn nanos(&self, ticks: i64) -> u64 {
        let d = (i128::from(ticks) - i128::from(self.start_ticks)) * 1_000_000_000
            / i128::from(self.ticks_per_second);
        (i128::from(self.start_nanos) + d).clamp(0, i128::from(u64::MAX)) as u64
    }

    /// A duration in ticks as nanoseconds (negative as 0).
    pub fn span(&self, ticks: i64) -> u64 {
        (i128::from(ticks) * 1_000_000_000 / i128::from(self.ticks_per_second)).clamp(0, i128::from(u64::MAX))
            as u64
    }
}

/// One event's place: its type id and where its fields start and it ends (chunk-relative).
#[derive(Debug, Clone, Copy)]
pub(super) struct Event {
    pub type_id: i64,
    pub body: usize,
    pub end: usize,
}

/// A chunk read: its header, types, pools and the places of its other events.
pub(super) struct Chunk<'a> {
    pub header: Header,
    pub meta: Meta,
    pub pools: FxHashMap<(i64, i64), Val>,
    pub events: Vec<Event>,
    pub data: &'a [u8],
    pub base: usize,
}

impl<'a> Chunk<'a> {
    pub fn cur(&self, pos: usize, end: usize) -> Cur<'a> {
        Cur {
            data: self.data.get(..end).unwrap_or(&[]),
            pos,
            base: self.base,
            compressed: self.header.compressed,
        }
    }

    /// Reads the chunk at `base` (its header already read); `budget` bounds the values decoded.
    pub fn read(input: &'a [u8], base: usize, header: Header, budget: &mut u64) -> Result<Self, ImportError> {
        let data = input.get(base..base.saturating_add(header.size)).unwrap_or(&[]);
        let mut c = Cur {
            data,
            pos: HEADER,
            base,
            compressed: header.compressed,
        };
        let mut events = Vec::new();
        let mut meta_at = None;
        let mut pools_at = Vec::new();
        while c.left() > 0 {
            let start = c.pos;
            let at = c.at();
            let size = c.int()?;
            let end = usize::try_from(size)
                .ok()
                .and_then(|s| start.checked_add(s))
                .filter(|&e| e > start + 1 && e <= data.len())
                .ok_or_else(|| {
                    err(
                        ImportErrorKind::Malformed,
                        at,
                        format!(
                            "an event of {size} bytes where {} are left in the chunk",
                            data.len() - start
                        ),
                    )
                })?;
            let mut e = c.clone();
            e.data = data.get(..end).unwrap_or(&[]);
            let type_id = e.long()?;
            match type_id {
                0 => meta_at = Some((e.pos, end)),
                1 => pools_at.push((e.pos, end)),
                _ => events.push(Event {
                    type_id,
                    body: e.pos,
                    end,
                }),
            }
            c.pos = end;
        }
        let Some((m, m_end)) = meta_at else {
            return Err(err(
                ImportErrorKind::Malformed,
                base,
                "the chunk has no metadata event",
            ));
        };
        let mut chunk = Chunk {
            header,
            meta: Meta::default(),
            pools: FxHashMap::default(),
            events,
            data,
            base,
        };
        chunk.meta = Meta::read(&mut chunk.cur(m, m_end))?;
        for (p, end) in pools_at {
            chunk.read_pools(p, end, budget)?;
        }
        Ok(chunk)
    }

    /// A constant pool event's body: start, duration, delta to the previous one, flush, then each pool (class
    /// id, count, and that many index–value pairs).
    fn read_pools(&mut self, pos: usize, end: usize, budget: &mut u64) -> Result<(), ImportError> {
        let mut c = self.cur(pos, end);
        c.long()?;
        c.long()?;
        c.long()?;
        c.u8()?;
        let pools = c.count(2, "constant pools")?;
        for _ in 0..pools {
            let class = c.long()?;
            let n = c.count(1, "a constant pool")?;
            for _ in 0..n {
                let index = c.long()?;
                let v = self.meta.value(&mut c, class, 0, budget)?;
                self.pools.insert((class, index), v);
            }
        }
        Ok(())
    }

    /// A value with its references followed (at most a few steps: a pool entry may refer to another).
    pub fn deref<'v>(&'v self, mut v: &'v Val) -> Option<&'v Val> {
        for _ in 0..8 {
            match v {
                Val::Ref(class, index) => v = self.pools.get(&(*class, *index))?,
                _ => return Some(v),
            }
        }
        None
    }

    /// Field `name` of `v`, an object of class `class`: the value and its class.
    pub fn get<'v>(&'v self, v: &'v Val, class: i64, name: &str) -> Option<(&'v Val, i64)> {
        let c = self.meta.classes.get(&class)?;
        let i = c.field(name)?;
        let Val::Obj(fields) = self.deref(v)? else {
            return None;
        };
        Some((fields.get(i)?, c.fields.get(i)?.class))
    }

    /// A string value (inline, or from the string pool).
    pub fn text(&self, v: &Val) -> Option<std::rc::Rc<str>> {
        use super::bytes::JStr;
        match self.deref(v)? {
            Val::Str(JStr::Text(t)) => Some(t.clone()),
            Val::Str(JStr::Pool(i)) => {
                let id = self.meta.id_of("java.lang.String")?;
                match self.pools.get(&(id, *i))? {
                    Val::Str(JStr::Text(t)) => Some(t.clone()),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A number value.
    pub fn int(&self, v: &Val) -> Option<i64> {
        match self.deref(v)? {
            Val::Int(i) => Some(*i),
            _ => None,
        }
    }
}
