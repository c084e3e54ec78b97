//! The memory mappings of each process (`PERF_RECORD_MMAP`/`MMAP2`), as perf keeps them: a new mapping
//! replaces whatever it overlaps (the overlapped mappings keep their parts outside it), a new process starts
//! with its parent's mappings, and an address is looked up in an ordered map.

use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// One mapping: `[start, end)` of the address space shows the file `module` from file offset `pgoff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Map {
    pub start: u64,
    pub end: u64,
    pub pgoff: u64,
    /// Index into the parser's module table.
    pub module: u32,
}

/// Mappings per pid, each keyed by its start and disjoint.
#[derive(Debug, Default)]
pub(super) struct Maps {
    by_pid: FxHashMap<u32, BTreeMap<u64, Map>>,
    /// How many more mappings forks may copy: perf copies a parent's mappings into each new process, which a
    /// hostile input of many mappings and many forks would make quadratic; past this budget (set from the
    /// input's size: one mapping per 16 bytes, so the copies cost a few times the input) a new process starts
    /// with none.
    pub copy_budget: usize,
}

impl Maps {
    /// Adds a mapping to `pid`: what it overlaps is cut away (O(log mappings + mappings overlapped)).
    pub fn insert(&mut self, pid: u32, m: Map) {
        if m.end <= m.start {
            return;
        }
        let list = self.by_pid.entry(pid).or_default();
        let mut hit: Vec<Map> = Vec::new();
        if let Some((_, &before)) = list.range(..m.start).next_back() {
            if before.end > m.start {
                hit.push(before);
            }
        }
        hit.extend(list.range(m.start..m.end).map(|(_, &x)| x));
        for old in hit {
            list.remove(&old.start);
            if old.start < m.start {
                list.insert(old.start, Map { end: m.start, ..old });
            }
            if old.end > m.end {
                let right = Map {
                    start: m.end,
                    pgoff: old.pgoff.wrapping_add(m.end - old.start),
                    ..old
                };
                list.insert(m.end, right);
            }
        }
        list.insert(m.start, m);
    }

    /// A new process `child` forked from `parent` starts with its mappings (when it has none of its own and
    /// the copy budget allows); `false` when the budget did not.
    pub fn fork(&mut self, parent: u32, child: u32) -> bool {
        if parent == child || self.by_pid.contains_key(&child) {
            return true;
        }
        let Some(list) = self.by_pid.get(&parent) else {
            return true;
        };
        if list.len() > self.copy_budget {
            return false;
        }
        self.copy_budget -= list.len();
        let list = list.clone();
        self.by_pid.insert(child, list);
        true
    }

    /// The mapping of `pid` that holds `addr`.
    pub fn find(&self, pid: u32, addr: u64) -> Option<Map> {
        let (_, &m) = self.by_pid.get(&pid)?.range(..=addr).next_back()?;
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
        let mut m = Maps {
            copy_budget: 10,
            ..Maps::default()
        };
        m.insert(1, map(0x1000, 0x5000, 0, 0));
        m.insert(1, map(0x2000, 0x3000, 0x10, 1));
        assert_eq!(m.find(1, 0x1fff), Some(map(0x1000, 0x2000, 0, 0)));
        assert_eq!(m.find(1, 0x2000).map(|x| x.module), Some(1));
        assert_eq!(m.find(1, 0x3000), Some(map(0x3000, 0x5000, 0x2000, 0)));
        assert_eq!(m.find(1, 0x5000), None);
        assert_eq!(m.find(1, 0xfff), None);
        assert_eq!(m.find(2, 0x1000), None);
        assert!(m.fork(1, 2));
        assert_eq!(m.find(2, 0x2000).map(|x| x.module), Some(1));
        m.copy_budget = 2;
        assert!(!m.fork(1, 3));
        assert_eq!(m.find(3, 0x2000), None);
    }
}
