//! Looking up byte strings by content, fast in wasm: the string interner's index ([`StrIndex`]) and a map
//! keyed by byte strings ([`BytesMap`]), both comparing keys with [`bytes_eq`].
//!
//! Why not a `HashMap<Box<str>, _>`: `==` on slices calls `memcmp`, which in wasm32 is compiler-builtins'
//! byte-at-a-time loop. Comparing cache keys that way was the largest single cost of parsing perf script in
//! wasm (60 of ~330 ms on a 100 MB file, `node --cpu-prof` of the WASI build; docs/BENCHMARKS.md). And the
//! interner kept every string twice — once in [`Strings`], once as the map's boxed key — where the index
//! below holds only ids and finds the text in [`Strings`].

use super::{StrId, Strings};
use hashbrown::hash_table::Entry;
use hashbrown::HashTable;
use std::hash::BuildHasher;

/// Whether two byte strings are equal, compared eight bytes at a time (see the module doc).
#[inline]
pub fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (a8, a_rest) = a.as_chunks::<8>();
    let (b8, b_rest) = b.as_chunks::<8>();
    a8.iter()
        .zip(b8)
        .all(|(x, y)| u64::from_ne_bytes(*x) == u64::from_ne_bytes(*y))
        && a_rest.iter().zip(b_rest).all(|(x, y)| x == y)
}

/// The hash every index here uses for a byte string.
#[inline]
pub fn hash_bytes(b: &[u8]) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(b)
}

/// Which [`StrId`] holds a string, for interning: only ids are stored; the text is read from the
/// [`Strings`] the ids point into, which every call passes (always the same table).
#[derive(Debug, Default, Clone)]
pub struct StrIndex {
    table: HashTable<StrId>,
}

impl StrIndex {
    /// Indexes every string of `strings`; of repeated strings, the first id wins.
    pub fn of(strings: &Strings) -> Self {
        let mut index = StrIndex::default();
        let rehash = |&id: &StrId| hash_bytes(strings.get(id).as_bytes());
        index.table.reserve(strings.len(), rehash);
        for i in 0..strings.len() {
            let id = StrId(i as u32);
            let s = strings.get(id).as_bytes();
            if let Entry::Vacant(v) = index.table.entry(
                hash_bytes(s),
                |&other| bytes_eq(strings.get(other).as_bytes(), s),
                rehash,
            ) {
                v.insert(id);
            }
        }
        index
    }

    /// The id of `s` in `strings`, if indexed.
    pub fn find(&self, strings: &Strings, s: &str) -> Option<StrId> {
        let s = s.as_bytes();
        self.table
            .find(hash_bytes(s), |&id| bytes_eq(strings.get(id).as_bytes(), s))
            .copied()
    }

    /// The id of `s` in `strings`: the one indexed, or a new one (`s` appended to `strings` and indexed). One
    /// hash either way.
    #[inline]
    pub fn intern(&mut self, strings: &mut Strings, s: &str) -> StrId {
        let bytes = s.as_bytes();
        let entry = self.table.entry(
            hash_bytes(bytes),
            |&id| bytes_eq(strings.get(id).as_bytes(), bytes),
            |&id| hash_bytes(strings.get(id).as_bytes()),
        );
        match entry {
            Entry::Occupied(o) => *o.get(),
            Entry::Vacant(v) => {
                let id = strings.push(s);
                v.insert(id);
                id
            }
        }
    }
}

/// A map from byte strings to values, for an importer's caches of line text.
#[derive(Debug)]
pub struct BytesMap<V> {
    table: HashTable<(u64, Box<[u8]>, V)>,
}

impl<V> Default for BytesMap<V> {
    fn default() -> Self {
        BytesMap {
            table: HashTable::new(),
        }
    }
}

impl<V> BytesMap<V> {
    #[inline]
    pub fn get(&self, key: &[u8]) -> Option<&V> {
        let hash = hash_bytes(key);
        self.table
            .find(hash, |(h, k, _)| *h == hash && bytes_eq(k, key))
            .map(|(_, _, v)| v)
    }

    /// Sets the value of `key`.
    pub fn insert(&mut self, key: &[u8], value: V) {
        let hash = hash_bytes(key);
        match self
            .table
            .entry(hash, |(h, k, _)| *h == hash && bytes_eq(k, key), |(h, _, _)| *h)
        {
            Entry::Occupied(mut o) => o.get_mut().2 = value,
            Entry::Vacant(v) => {
                v.insert((hash, key.into(), value));
            }
        }
    }

    pub fn len(&self) -> usize {
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_eq_agrees_with_slice_equality() {
        let texts: [&[u8]; 9] = [
            b"",
            b"a",
            b"abcdefg",
            b"abcdefgh",
            b"abcdefgh1",
            b"abcdefgh2",
            b"abcdefgi1",
            b"0123456789abcdef0123456789abcdeX",
            b"0123456789abcdef0123456789abcdeY",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(bytes_eq(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn str_index_finds_first_of_repeats() {
        let mut strings = Strings::default();
        let a = strings.push("alpha");
        let b = strings.push("beta");
        let _a2 = strings.push("alpha");
        let index = StrIndex::of(&strings);
        assert_eq!(index.find(&strings, "alpha"), Some(a));
        assert_eq!(index.find(&strings, "beta"), Some(b));
        assert_eq!(index.find(&strings, "gamma"), None);
        assert_eq!(index.find(&strings, ""), None);
    }

    #[test]
    fn bytes_map_sets_and_overwrites() {
        let mut m = BytesMap::default();
        m.insert(b"x y z", 1);
        m.insert(b"x y", 2);
        m.insert(b"x y z", 3);
        assert_eq!(m.get(b"x y z"), Some(&3));
        assert_eq!(m.get(b"x y"), Some(&2));
        assert_eq!(m.get(b"x"), None);
        assert_eq!(m.len(), 2);
    }
}
