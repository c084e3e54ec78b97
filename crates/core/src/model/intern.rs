//! Looking up byte strings by content, fast in wasm: the string interner's index ([`StrIndex`]) and a map
//! keyed by byte strings ([`BytesMap`]), both comparing keys with [`bytes_eq`]; and the stack table's index
//! ([`StackIndex`]).
//!
//! Why not a `HashMap<Box<str>, _>`: `==` on slices calls `memcmp`, which in wasm32 is compiler-builtins'
//! byte-at-a-time loop. Comparing cache keys that way was the largest single cost of parsing perf script in
//! wasm (60 of ~330 ms on a 100 MB file, `node --cpu-prof` of the WASI build; docs/BENCHMARKS.md). And the
//! interner kept every string twice — once in [`Strings`], once as the map's boxed key — where the index
//! below holds only ids and finds the text in [`Strings`].

use super::{FrameId, StackId, StackTable, StrId, Strings, NO_PARENT};
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

/// How many leading bytes two byte strings share, compared eight bytes at a time (see the module doc).
#[inline]
pub fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    let (a8, _) = a.as_chunks::<8>();
    let (b8, _) = b.as_chunks::<8>();
    let mut n = 0;
    for (x, y) in a8.iter().zip(b8) {
        let d = u64::from_le_bytes(*x) ^ u64::from_le_bytes(*y);
        if d != 0 {
            return n + (d.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + a
        .get(n..)
        .unwrap_or_default()
        .iter()
        .zip(b.get(n..).unwrap_or_default())
        .take_while(|(x, y)| x == y)
        .count()
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

/// Which row of a [`StackTable`] is (parent, frame), for interning stacks. Like [`StrIndex`] it stores row ids
/// only (the table holds the keys), and it leaves out every row whose parent is the row just before it: a chain
/// of new frames, pushed root to leaf when a stack first appears — most rows of a table of deep stacks (9 in 10
/// on the folded benchmark files). Such a row is found by looking at the row after the parent, so a lookup
/// checks that row first, then the hash table. A smaller table, and one hash per new stack instead of one per
/// new row: folded 100 MB parsed in wasm in 245 ms instead of 310, 400 MB in 0.88 s instead of 1.33
/// (docs/BENCHMARKS.md).
#[derive(Debug, Default, Clone)]
pub struct StackIndex {
    table: HashTable<StackId>,
}

#[inline]
fn stack_key_hash(parent: u32, frame: FrameId) -> u64 {
    rustc_hash::FxBuildHasher.hash_one((u64::from(parent) << 32) | u64::from(frame.0))
}

/// The (parent, frame) of row `id` of `t`; rows past the end read as a key no row has.
#[inline]
fn stack_key(t: &StackTable, id: StackId) -> (u32, FrameId) {
    match (t.parent.get(id.idx()), t.frame.get(id.idx())) {
        (Some(&p), Some(&f)) => (p, f),
        _ => (NO_PARENT, FrameId(u32::MAX)),
    }
}

/// Whether row `r` of `t` is one the index leaves out (its parent is the row before it).
#[inline]
fn follows_parent(t: &StackTable, r: usize) -> bool {
    r > 0 && t.parent.get(r).is_some_and(|&p| p as usize == r - 1)
}

impl StackIndex {
    /// Indexes every row of `t`; of repeated rows, the first wins.
    pub fn of(t: &StackTable) -> Self {
        let mut index = StackIndex::default();
        index.extend(t, 0);
        index
    }

    /// Indexes rows `from..` of `t` (rows pushed without [`StackIndex::intern`]); of repeated rows, the first
    /// wins.
    pub fn extend(&mut self, t: &StackTable, from: usize) {
        for r in from..t.len() {
            if follows_parent(t, r) {
                continue;
            }
            let id = StackId(r as u32);
            let (p, f) = stack_key(t, id);
            if let Entry::Vacant(v) = self.table.entry(
                stack_key_hash(p, f),
                |&other| stack_key(t, other) == (p, f),
                |&other| {
                    let (p, f) = stack_key(t, other);
                    stack_key_hash(p, f)
                },
            ) {
                v.insert(id);
            }
        }
    }

    /// The row of (parent, frame) in `t`, if there is one (`parent` is [`NO_PARENT`] for a root frame).
    #[inline]
    pub fn get(&self, t: &StackTable, parent: u32, frame: FrameId) -> Option<StackId> {
        if parent != NO_PARENT {
            let next = StackId(parent.wrapping_add(1));
            if next.idx() >= t.len() {
                // The last row has no children: the table is topological (a parent before its children).
                return None;
            }
            if stack_key(t, next) == (parent, frame) {
                return Some(next);
            }
        }
        self.table
            .find(stack_key_hash(parent, frame), |&id| {
                stack_key(t, id) == (parent, frame)
            })
            .copied()
    }

    /// The row of (parent, frame) in `t`: the one there, or a new one pushed (and indexed unless it follows its
    /// parent).
    #[inline]
    pub fn intern(&mut self, t: &mut StackTable, parent: u32, frame: FrameId) -> StackId {
        if let Some(id) = self.get(t, parent, frame) {
            return id;
        }
        self.push(t, parent, frame)
    }

    /// Pushes (parent, frame) as a new row of `t`, known not to be there, and indexes it unless it follows its
    /// parent.
    #[inline]
    pub fn push(&mut self, t: &mut StackTable, parent: u32, frame: FrameId) -> StackId {
        let r = t.len();
        t.parent.push(parent);
        t.frame.push(frame);
        let id = StackId(r as u32);
        if !follows_parent(t, r) {
            let table: &StackTable = t;
            self.table
                .insert_unique(stack_key_hash(parent, frame), id, |&other| {
                    let (p, f) = stack_key(table, other);
                    stack_key_hash(p, f)
                });
        }
        id
    }
}

/// A map from byte strings to values, for an importer's caches of line text. The keys are kept end to end in one
/// buffer, not one allocation each: a perf script's frame lines of new text (48,863 of 1,070,264 in a 100 MB file)
/// each cost a `malloc`, 15–24 ms of a parse worker's ~300 ms on its half of that file in the browser.
#[derive(Debug)]
pub struct BytesMap<V> {
    /// (hash, the key's start in `keys`, its length, the value).
    table: HashTable<(u64, usize, usize, V)>,
    keys: Vec<u8>,
}

impl<V> Default for BytesMap<V> {
    fn default() -> Self {
        BytesMap {
            table: HashTable::new(),
            keys: Vec::new(),
        }
    }
}

/// The key at `start`, `len` of `keys`.
#[inline]
fn key_at(keys: &[u8], start: usize, len: usize) -> &[u8] {
    keys.get(start..start.saturating_add(len)).unwrap_or_default()
}

impl<V> BytesMap<V> {
    #[inline]
    pub fn get(&self, key: &[u8]) -> Option<&V> {
        let hash = hash_bytes(key);
        let keys = &self.keys;
        self.table
            .find(hash, |&(h, at, len, _)| {
                h == hash && len == key.len() && bytes_eq(key_at(keys, at, len), key)
            })
            .map(|(_, _, _, v)| v)
    }

    /// Sets the value of `key`.
    pub fn insert(&mut self, key: &[u8], value: V) {
        let hash = hash_bytes(key);
        let keys = &self.keys;
        match self.table.entry(
            hash,
            |&(h, at, len, _)| h == hash && len == key.len() && bytes_eq(key_at(keys, at, len), key),
            |&(h, _, _, _)| h,
        ) {
            Entry::Occupied(mut o) => o.get_mut().3 = value,
            Entry::Vacant(v) => {
                let at = self.keys.len();
                v.insert((hash, at, key.len(), value));
                self.keys.extend_from_slice(key);
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
    fn a_bytes_map_finds_each_key_it_was_given_and_no_other() {
        // Keys end to end in one buffer: a key that is a prefix of another, or ends where the next begins, is
        // still its own key.
        let keys: [&[u8]; 7] = [
            b"",
            b"a",
            b"ab",
            b"abc",
            b"bc",
            b"main+0x1 (/bin/app)",
            b"main+0x10 (/bin/app)",
        ];
        let mut m = BytesMap::default();
        for (i, k) in keys.iter().enumerate() {
            m.insert(k, i);
        }
        assert_eq!(m.len(), keys.len());
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(m.get(k), Some(&i), "{k:?}");
        }
        for k in [&b"abcd"[..], b"b", b"c", b"main+0x1", b"A"] {
            assert_eq!(m.get(k), None, "{k:?}");
        }
        // A key given again takes its new value and stays one key.
        m.insert(b"ab", 99);
        assert_eq!(m.get(b"ab"), Some(&99));
        assert_eq!(m.len(), keys.len());
    }

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
    fn common_prefix_len_agrees_with_a_byte_loop() {
        let texts: [&[u8]; 10] = [
            b"",
            b"a",
            b"a;b",
            b"a;bc",
            b"abcdefgh",
            b"abcdefgh;",
            b"abcdefgh;ijklmnop;q",
            b"abcdefgh;ijklmnop;r",
            b"abcdefgh;ijklmnoX;q",
            b"abcdefgX;ijklmnop;q",
        ];
        for a in texts {
            for b in texts {
                let naive = a.iter().zip(b).take_while(|(x, y)| x == y).count();
                assert_eq!(common_prefix_len(a, b), naive, "{a:?} {b:?}");
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

    /// Random stack tables built through the index, against a plain map of every row: the same rows, the
    /// same lookups; and an index built afterwards ([`StackIndex::of`], [`StackIndex::extend`]) agrees.
    #[test]
    fn stack_index_agrees_with_a_map_of_every_row() {
        use std::collections::HashMap;
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for round in 0..50 {
            let mut t = StackTable::default();
            let mut index = StackIndex::default();
            let mut oracle: HashMap<(u32, FrameId), StackId> = HashMap::new();
            let frames = 1 + next(if round % 2 == 0 { 4 } else { 40 });
            for _ in 0..2_000 {
                // Walk down from a root: a chain of new rows, or a path through rows already there.
                let mut parent = NO_PARENT;
                for _ in 0..1 + next(12) {
                    let f = FrameId(next(frames) as u32);
                    let want = oracle.get(&(parent, f)).copied();
                    assert_eq!(index.get(&t, parent, f), want);
                    let got = index.intern(&mut t, parent, f);
                    let id = *oracle.entry((parent, f)).or_insert(got);
                    assert_eq!(got, id);
                    parent = got.0;
                }
            }
            assert_eq!(t.len(), oracle.len());
            let whole = StackIndex::of(&t);
            // In two halves, as the merge extends an index: the first over a table cut at the middle.
            let mid = t.len() / 2;
            let first = StackTable {
                parent: t.parent[..mid].to_vec(),
                frame: t.frame[..mid].to_vec(),
            };
            let mut halves = StackIndex::of(&first);
            halves.extend(&t, mid);
            for (&(p, f), &id) in &oracle {
                assert_eq!(whole.get(&t, p, f), Some(id));
                assert_eq!(halves.get(&t, p, f), Some(id));
            }
            assert_eq!(whole.get(&t, NO_PARENT, FrameId(frames as u32)), None);
            assert_eq!(whole.get(&t, (t.len() - 1) as u32, FrameId(frames as u32)), None);
        }
    }

    /// Rows pushed past the index (as the merge does) are found once [`StackIndex::extend`] takes them; of
    /// repeated rows the first wins.
    #[test]
    fn stack_index_extends_and_keeps_the_first_of_repeats() {
        let mut t = StackTable::default();
        let mut index = StackIndex::default();
        let a = index.intern(&mut t, NO_PARENT, FrameId(1));
        let b = index.intern(&mut t, a.0, FrameId(2));
        // Pushed by hand: a second root, a child of `a` that does not follow it, and a repeat of that child.
        for (p, f) in [(NO_PARENT, FrameId(3)), (a.0, FrameId(4)), (a.0, FrameId(4))] {
            t.parent.push(p);
            t.frame.push(f);
        }
        assert_eq!(index.get(&t, a.0, FrameId(2)), Some(b));
        assert_eq!(index.get(&t, a.0, FrameId(4)), None);
        index.extend(&t, 2);
        assert_eq!(index.get(&t, NO_PARENT, FrameId(3)), Some(StackId(2)));
        assert_eq!(index.get(&t, a.0, FrameId(4)), Some(StackId(3)));
        assert_eq!(StackIndex::of(&t).get(&t, a.0, FrameId(4)), Some(StackId(3)));
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
