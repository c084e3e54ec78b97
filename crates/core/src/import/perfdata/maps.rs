//! The memory mappings of each process (`PERF_RECORD_MMAP`/`MMAP2`), as perf keeps them: a new mapping
//! replaces whatever it overlaps (the overlapped mappings keep their parts outside it), a new process starts
//! with its parent's mappings, and an address is looked up by binary search.

use rustc_hash::FxHashMap;

/// One mapping: `[start, end)` of the address space shows the file `module` from file offset `pgoff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Map {
    pub start: u64,
    pub end: u64,
    pub pgoff: u64,
    /// Index into the parser's module table.
    pub module: u32,
}

/// Mappings per pid, each list sorted by start and disjoint.
#[derive(Debug, Default)]
pub(super) struct Maps {
    by_pid: FxHashMap<u32, Vec<Map>>,
}

impl Maps {
    /// Adds a mapping to `pid`: what it overlaps is cut away (O(mappings of the pid)).
    pub fn insert(&mut self, pid: u32, m: Map) {
        if m.end <= m.start {
            return;
        }
        let list = self.by_pid.entry(pid).or_default();
        let mut out = Vec::with_capacity(list.len() + 2);
        for &old in list.iter() {
            if old.end <= m.start || old.start >= m.end {
                out.push(old);
                continue;
            }
            if old.start < m.start {
                out.push(Map { end: m.start, ..old });
            }
            if old.end > m.end {
                out.push(Map {
                    start: m.end,
                    pgoff: old.pgoff.wrapping_add(m.end - old.start),
                    ..old
                });
            }
        }
        let at = out.partition_point(|x| x.start < m.start);
        out.insert(at, m);
        *list = out;
    }

    /// A new process `child` forked from `parent` starts with its mappings (when it has none of its own).
    pub fn fork(&mut self, parent: u32, child: u32) {
        if parent == child || self.by_pid.contains_key(&child) {
            return;
        }
        if let Some(list) = self.by_pid.get(&parent).cloned() {
            self.by_pid.insert(child, list);
        }
    }

    /// The mapping of `pid` that holds `addr`.
    pub fn find(&self, pid: u32, addr: u64) -> Option<Map> {
        let list = self.by_pid.get(&pid)?;
        let i = list.partition_point(|m| m.start <= addr);
        let m = *list.get(i.checked_sub(1)?)?;
        (addr < m.end).then_some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(start: u64, end: u64, pgoff: u64, module: u32) -> Map {
        Map {
            start,
            end,
            pgoff,
            module,
        }
    }

    #[test]
    fn a_new_mapping_cuts_what_it_overlaps() {
        let mut m = Maps::default();
        m.insert(1, map(0x1000, 0x5000, 0, 0));
        m.insert(1, map(0x2000, 0x3000, 0x10, 1));
        assert_eq!(m.find(1, 0x1fff), Some(map(0x1000, 0x2000, 0, 0)));
        assert_eq!(m.find(1, 0x2000).map(|x| x.module), Some(1));
        assert_eq!(m.find(1, 0x3000), Some(map(0x3000, 0x5000, 0x2000, 0)));
        assert_eq!(m.find(1, 0x5000), None);
        assert_eq!(m.find(1, 0xfff), None);
        assert_eq!(m.find(2, 0x1000), None);
        m.fork(1, 2);
        assert_eq!(m.find(2, 0x2000).map(|x| x.module), Some(1));
    }
}
