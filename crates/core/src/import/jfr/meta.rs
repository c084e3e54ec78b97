//! A chunk's metadata event (the types: each class with its id, name and fields) and the values those types
//! describe, decoded generically: primitives, strings, nested objects, arrays, and references into the
//! constant pools. Every decode costs from a budget proportional to the input (a class of no fields takes no
//! bytes, so the bytes left alone do not bound a count of them) and nests at most [`MAX_DEPTH`] deep.

use super::bytes::{err, Cur, JStr};
use crate::model::{ImportError, ImportErrorKind};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// How deep objects and the metadata's elements nest, at most.
pub(super) const MAX_DEPTH: usize = 32;

/// A decoded value.
#[derive(Debug, Clone)]
pub(super) enum Val {
    Int(i64),
    /// A float or double (read past; scorch uses none).
    Float,
    Str(JStr),
    /// An index into the pool of the class (`class`, a type id).
    Ref(i64, i64),
    Obj(Box<[Val]>),
    Arr(Box<[Val]>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Prim {
    Bool,
    Byte,
    Short,
    Int,
    Long,
    Float,
    Double,
    Str,
}

#[derive(Debug, Clone)]
pub(super) struct Field {
    pub name: Rc<str>,
    pub class: i64,
    pub pooled: bool,
    pub array: bool,
}

#[derive(Debug, Clone)]
pub(super) struct Class {
    pub name: Rc<str>,
    pub fields: Vec<Field>,
    pub prim: Option<Prim>,
}

impl Class {
    pub fn field(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| &*f.name == name)
    }
}

/// The types of one chunk.
#[derive(Debug, Default)]
pub(super) struct Meta {
    pub classes: FxHashMap<i64, Class>,
}

/// One element of the metadata tree: its name, attributes and children.
struct Element {
    name: Rc<str>,
    attrs: Vec<(Rc<str>, Rc<str>)>,
    children: Vec<Element>,
}

impl Element {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| &**k == key).map(|(_, v)| &**v)
    }
}

fn read_element(c: &mut Cur, strings: &[Rc<str>], depth: usize) -> Result<Element, ImportError> {
    let at = c.at();
    if depth > MAX_DEPTH {
        return Err(err(
            ImportErrorKind::LimitExceeded,
            at,
            format!("the metadata nests deeper than {MAX_DEPTH}"),
        ));
    }
    let s = |c: &mut Cur| -> Result<Rc<str>, ImportError> {
        let at = c.at();
        let i = c.int()?;
        usize::try_from(i)
            .ok()
            .and_then(|i| strings.get(i))
            .cloned()
            .ok_or_else(|| {
                err(
                    ImportErrorKind::Malformed,
                    at,
                    format!("metadata string {i} is not in its table of {}", strings.len()),
                )
            })
    };
    let name = s(c)?;
    let n = c.count(2, "metadata attributes")?;
    let mut attrs = Vec::with_capacity(n);
    for _ in 0..n {
        attrs.push((s(c)?, s(c)?));
    }
    let n = c.count(3, "metadata elements")?;
    let mut children = Vec::with_capacity(n);
    for _ in 0..n {
        children.push(read_element(c, strings, depth + 1)?);
    }
    Ok(Element {
        name,
        attrs,
        children,
    })
}

fn prim(name: &str) -> Option<Prim> {
    Some(match name {
        "boolean" => Prim::Bool,
        "byte" => Prim::Byte,
        "char" | "short" => Prim::Short,
        "int" => Prim::Int,
        "long" => Prim::Long,
        "float" => Prim::Float,
        "double" => Prim::Double,
        "java.lang.String" => Prim::Str,
        _ => return None,
    })
}

impl Meta {
    /// Reads the metadata event's body, after its size and type id: start, duration, metadata id, the string
    /// table, then the element tree (`root` → `metadata` → `class` → `field`).
    pub fn read(c: &mut Cur) -> Result<Meta, ImportError> {
        c.long()?;
        c.long()?;
        c.long()?;
        let n = c.count(1, "metadata strings")?;
        let mut strings = Vec::with_capacity(n);
        for _ in 0..n {
            let at = c.at();
            strings.push(match c.string()? {
                JStr::Text(t) => t,
                JStr::Null => Rc::from(""),
                JStr::Pool(_) => {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        at,
                        "a metadata string refers to a pool",
                    ))
                }
            });
        }
        let root = read_element(c, &strings, 0)?;
        let mut meta = Meta::default();
        let classes = root
            .children
            .iter()
            .filter(|e| &*e.name == "metadata")
            .flat_map(|m| m.children.iter())
            .filter(|e| &*e.name == "class");
        for e in classes {
            let Some(id) = e.attr("id").and_then(|v| v.parse::<i64>().ok()) else {
                continue;
            };
            let name: Rc<str> = Rc::from(e.attr("name").unwrap_or(""));
            let fields = e
                .children
                .iter()
                .filter(|f| &*f.name == "field")
                .filter_map(|f| {
                    Some(Field {
                        name: Rc::from(f.attr("name")?),
                        class: f.attr("class")?.parse().ok()?,
                        pooled: f.attr("constantPool") == Some("true"),
                        array: f.attr("dimension").is_some_and(|d| d != "0"),
                    })
                })
                .collect();
            let prim = prim(&name);
            meta.classes.insert(id, Class { name, fields, prim });
        }
        Ok(meta)
    }

    /// The id of the class with this name.
    pub fn id_of(&self, name: &str) -> Option<i64> {
        self.classes
            .iter()
            .find(|(_, c)| &*c.name == name)
            .map(|(&id, _)| id)
    }

    /// Reads one value of class `id`. `budget` is what decoding may still cost (one per value).
    pub fn value(&self, c: &mut Cur, id: i64, depth: usize, budget: &mut u64) -> Result<Val, ImportError> {
        let at = c.at();
        *budget = budget.checked_sub(1).ok_or_else(|| {
            err(
                ImportErrorKind::LimitExceeded,
                at,
                "the values add up to more than the input allows",
            )
        })?;
        if depth > MAX_DEPTH {
            return Err(err(
                ImportErrorKind::LimitExceeded,
                at,
                format!("values nest deeper than {MAX_DEPTH}"),
            ));
        }
        let Some(class) = self.classes.get(&id) else {
            return Err(err(
                ImportErrorKind::Malformed,
                at,
                format!("a value of type {id}, which the metadata does not describe"),
            ));
        };
        if let Some(p) = class.prim {
            return Ok(match p {
                Prim::Bool | Prim::Byte => Val::Int(i64::from(c.u8()? as i8)),
                Prim::Short => Val::Int(i64::from(c.short()?)),
                Prim::Int => Val::Int(i64::from(c.int()?)),
                Prim::Long => Val::Int(c.long()?),
                Prim::Float => {
                    c.f32()?;
                    Val::Float
                }
                Prim::Double => {
                    c.f64()?;
                    Val::Float
                }
                Prim::Str => Val::Str(c.string()?),
            });
        }
        let mut out = Vec::with_capacity(class.fields.len());
        for f in &class.fields {
            out.push(self.field(c, f, depth + 1, budget)?);
        }
        Ok(Val::Obj(out.into_boxed_slice()))
    }

    fn field(&self, c: &mut Cur, f: &Field, depth: usize, budget: &mut u64) -> Result<Val, ImportError> {
        let one = |c: &mut Cur, budget: &mut u64| -> Result<Val, ImportError> {
            if f.pooled {
                Ok(Val::Ref(f.class, c.long()?))
            } else {
                self.value(c, f.class, depth, budget)
            }
        };
        if !f.array {
            return one(c, budget);
        }
        // An element may take no bytes (a class of no fields): the count is bounded by the budget too.
        let n = c.count(0, "an array")?;
        if n as u64 > *budget {
            return Err(err(
                ImportErrorKind::LimitExceeded,
                c.at(),
                "an array longer than the input allows",
            ));
        }
        let mut out = Vec::with_capacity(n.min(c.left()));
        for _ in 0..n {
            out.push(one(c, budget)?);
        }
        Ok(Val::Arr(out.into_boxed_slice()))
    }
}
