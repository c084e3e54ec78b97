//! One JSON value of a Gecko table, typed only as far as the importer reads it: a number, null, a row (an
//! array of cells: the raw format's table rows), or an object of which only its `type` is kept (a marker's
//! payload); strings, booleans and anything deeper are skipped without being built.

use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Cell {
    Null,
    Num(f64),
    Row(Vec<Cell>),
    /// An object, with its `type` when that is a string.
    Obj(Option<String>),
    Other,
}

impl Cell {
    /// An object's `type`.
    pub(super) fn kind(&self) -> Option<&str> {
        match self {
            Cell::Obj(t) => t.as_deref(),
            _ => None,
        }
    }
}

struct CellVisitor;

impl<'de> Visitor<'de> for CellVisitor {
    type Value = Cell;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Cell, E> {
        Ok(Cell::Null)
    }
    fn visit_none<E>(self) -> Result<Cell, E> {
        Ok(Cell::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Cell, D::Error> {
        d.deserialize_any(CellVisitor)
    }
    fn visit_f64<E>(self, v: f64) -> Result<Cell, E> {
        Ok(Cell::Num(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Cell, E> {
        Ok(Cell::Num(v as f64))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Cell, E> {
        Ok(Cell::Num(v as f64))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Cell, E> {
        Ok(Cell::Other)
    }
    fn visit_str<E>(self, _: &str) -> Result<Cell, E> {
        Ok(Cell::Other)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Cell, A::Error> {
        let mut row = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(16));
        while let Some(c) = seq.next_element::<Cell>()? {
            row.push(c);
        }
        Ok(Cell::Row(row))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Cell, A::Error> {
        let mut kind = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "type" {
                kind = map.next_value::<TypeName>()?.0;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Cell::Obj(kind))
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        d.deserialize_any(CellVisitor)
    }
}

/// A payload's `type`: a string, or nothing.
struct TypeName(Option<String>);

impl<'de> Deserialize<'de> for TypeName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TypeName, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TypeName;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_str<E>(self, v: &str) -> Result<TypeName, E> {
                Ok(TypeName(Some(v.to_string())))
            }
            fn visit_unit<E>(self) -> Result<TypeName, E> {
                Ok(TypeName(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<TypeName, E> {
                Ok(TypeName(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<TypeName, E> {
                Ok(TypeName(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<TypeName, E> {
                Ok(TypeName(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<TypeName, E> {
                Ok(TypeName(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TypeName, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(TypeName(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TypeName, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(TypeName(None))
            }
        }
        d.deserialize_any(V)
    }
}
