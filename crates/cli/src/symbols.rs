//! Symbolizing a perf.data recording on the machine that made it, as `perf script` does: the ELF symbol
//! table (`.symtab`, else `.dynsym`) of each binary, found by build id (`~/.debug/.build-id/`,
//! `/usr/lib/debug/.build-id/`), by the directories of `SCORCH_SYMBOL_PATH` (a binary of the same name), then
//! by the path it was mapped from — a file whose build id differs from the recorded one is not used —, and the
//! kernel from `/proc/kallsyms`. The core names frames `MODULE+0xOFFSET` and renames them through this
//! [`Symbolizer`]; the I/O is here. Function symbols only: no DWARF (no inlined frames), no demangling, no
//! PLT entries.

use object::{Object, ObjectSegment, ObjectSymbol, SymbolKind};
use scorch_core::import::perfdata::{Binary, Symbolizer};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One binary's function symbols, sorted by start, each `[start, end)`, and its loadable segments.
#[derive(Debug, Default)]
struct Table {
    /// `(file offset, size, virtual address)` of each loadable segment.
    segments: Vec<(u64, u64, u64)>,
    syms: Vec<(u64, u64, String)>,
}

impl Table {
    fn find(&self, vaddr: u64) -> Option<&str> {
        let i = self.syms.partition_point(|s| s.0 <= vaddr);
        let (_, end, name) = self.syms.get(i.checked_sub(1)?)?;
        (vaddr < *end).then_some(name.as_str())
    }

    /// A file offset's virtual address, through the segment that holds it.
    fn vaddr(&self, offset: u64) -> Option<u64> {
        self.segments
            .iter()
            .find(|&&(off, size, _)| offset >= off && offset - off < size.max(1))
            .map(|&(off, _, va)| offset - off + va)
    }
}

/// perf's choice between two function symbols at one address (`choose_best_symbol`): one with a size, then
/// not weak, then global, then fewer leading underscores, then the longer name. `true`: `a` wins.
fn better(a: &Sym, b: &Sym) -> bool {
    if (a.size > 0) != (b.size > 0) {
        return a.size > 0;
    }
    if a.weak != b.weak {
        return !a.weak;
    }
    if a.global != b.global {
        return a.global;
    }
    let under = |s: &str| s.bytes().take_while(|&c| c == b'_').count();
    if under(&a.name) != under(&b.name) {
        return under(&a.name) < under(&b.name);
    }
    a.name.len() >= b.name.len()
}

struct Sym {
    addr: u64,
    size: u64,
    weak: bool,
    global: bool,
    name: String,
}

/// The function symbols of an ELF file: `.symtab` when it has one, else `.dynsym`.
fn load_elf(data: &[u8]) -> Option<Loaded> {
    let file = object::File::parse(data).ok()?;
    fn take(raw: &mut Vec<Sym>, it: &mut dyn Iterator<Item = object::Symbol<'_, '_>>) {
        for s in it {
            if s.kind() != SymbolKind::Text || s.is_undefined() || s.address() == 0 {
                continue;
            }
            let Ok(name) = s.name() else { continue };
            raw.push(Sym {
                addr: s.address(),
                size: s.size(),
                weak: s.is_weak(),
                global: s.is_global(),
                name: name.to_string(),
            });
        }
    }
    let mut raw: Vec<Sym> = Vec::new();
    take(&mut raw, &mut file.symbols());
    let symtab = !raw.is_empty();
    if raw.is_empty() {
        take(&mut raw, &mut file.dynamic_symbols());
    }
    raw.sort_by_key(|s| s.addr);
    let mut best: Vec<Sym> = Vec::with_capacity(raw.len());
    for s in raw {
        match best.last_mut() {
            Some(last) if last.addr == s.addr => {
                if !better(last, &s) {
                    *last = s;
                }
            }
            _ => best.push(s),
        }
    }
    let mut syms = Vec::with_capacity(best.len());
    for i in 0..best.len() {
        let Some(s) = best.get(i) else { break };
        let next = best.get(i + 1).map_or(u64::MAX, |n| n.addr);
        let end = if s.size > 0 {
            s.addr.saturating_add(s.size)
        } else {
            next
        };
        syms.push((s.addr, end, s.name.clone()));
    }
    let segments = file
        .segments()
        .map(|seg| {
            let (off, size) = seg.file_range();
            (off, size, seg.address())
        })
        .collect();
    let build_id = file.build_id().ok().flatten().map(hex);
    Some(Loaded {
        table: Table { segments, syms },
        build_id,
        symtab,
    })
}

/// An ELF file's symbols, its build id, and whether they came from `.symtab` (else `.dynsym`).
struct Loaded {
    table: Table,
    build_id: Option<String>,
    symtab: bool,
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `/proc/kallsyms`: the kernel's text symbols, each up to the next (as perf reads them).
fn load_kallsyms() -> Option<Table> {
    let text = std::fs::read_to_string("/proc/kallsyms").ok()?;
    let mut syms: Vec<(u64, u64, String)> = Vec::new();
    for line in text.lines() {
        let mut parts = line.split_ascii_whitespace();
        let (Some(addr), Some(kind), Some(name)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        if !matches!(kind, "t" | "T" | "w" | "W") {
            continue;
        }
        let Ok(addr) = u64::from_str_radix(addr, 16) else {
            continue;
        };
        if addr != 0 {
            syms.push((addr, 0, name.to_string()));
        }
    }
    if syms.is_empty() {
        return None; // kptr_restrict hides the addresses
    }
    syms.sort_by_key(|s| s.0);
    syms.dedup_by_key(|s| s.0);
    for i in 0..syms.len() {
        let next = syms.get(i + 1).map_or(u64::MAX, |n| n.0);
        if let Some(s) = syms.get_mut(i) {
            s.1 = next;
        }
    }
    Some(Table {
        segments: Vec::new(),
        syms,
    })
}

/// Reads binaries once each and answers the core's questions.
#[derive(Default)]
pub struct ElfSymbolizer {
    tables: HashMap<String, Option<Table>>,
    kallsyms: Option<Option<Table>>,
    /// Extra directories to look for binaries in (`SCORCH_SYMBOL_PATH`).
    dirs: Vec<PathBuf>,
}

impl ElfSymbolizer {
    pub fn new() -> Self {
        let dirs = std::env::var_os("SCORCH_SYMBOL_PATH")
            .map(|v| std::env::split_paths(&v).collect())
            .unwrap_or_default();
        ElfSymbolizer {
            dirs,
            ..ElfSymbolizer::default()
        }
    }

    /// The binary itself: in `SCORCH_SYMBOL_PATH` (by name), then at its path; one whose build id differs
    /// from the recorded one is skipped.
    fn binary(&self, b: &Binary) -> Option<Loaded> {
        let base = b.path.rsplit('/').next().unwrap_or(&b.path);
        let paths = self
            .dirs
            .iter()
            .map(|d| d.join(base))
            .chain([PathBuf::from(&b.path)]);
        for path in paths {
            let Ok(data) = std::fs::read(&path) else { continue };
            let Some(l) = load_elf(&data) else { continue };
            if b.build_id.is_some() && l.build_id.is_some() && b.build_id != l.build_id {
                continue; // another build of the binary: its symbols would lie
            }
            return Some(l);
        }
        None
    }

    /// The symbols of a binary as perf finds them: the binary, then by its build id (the recorded one, else
    /// the binary's own) the debug files of `~/.debug/.build-id/` and `/usr/lib/debug/.build-id/`; a
    /// `.symtab` wins over a `.dynsym`, and the binary's segments are kept.
    fn table(&self, b: &Binary) -> Option<Table> {
        let mut best = self.binary(b);
        let id = b
            .build_id
            .clone()
            .or_else(|| best.as_ref().and_then(|l| l.build_id.clone()));
        if best.as_ref().is_some_and(|l| l.symtab) {
            return best.map(|l| l.table);
        }
        if let Some(id) = id.filter(|id| id.len() > 2) {
            let (head, tail) = id.split_at(2);
            let mut debug = Vec::new();
            if let Some(home) = std::env::var_os("HOME") {
                let dir = Path::new(&home).join(".debug/.build-id").join(head).join(tail);
                debug.push(dir.join("debug"));
                debug.push(dir.join("elf"));
            }
            debug.push(
                Path::new("/usr/lib/debug/.build-id")
                    .join(head)
                    .join(format!("{tail}.debug")),
            );
            for path in debug {
                let Ok(data) = std::fs::read(&path) else { continue };
                let Some(l) = load_elf(&data) else { continue };
                if l.build_id.as_deref().is_some_and(|have| have != id) {
                    continue;
                }
                match &mut best {
                    Some(have) if l.symtab => {
                        have.table.syms = l.table.syms;
                        have.symtab = true;
                        break;
                    }
                    Some(_) => {}
                    None => {
                        let symtab = l.symtab;
                        best = Some(l);
                        if symtab {
                            break;
                        }
                    }
                }
            }
        }
        best.map(|l| l.table)
    }
}

impl Symbolizer for ElfSymbolizer {
    fn symbolize(&mut self, binary: &Binary, address: u64) -> Option<String> {
        if binary.is_kernel() {
            let k = self.kallsyms.get_or_insert_with(load_kallsyms).as_ref()?;
            return k.find(address).map(str::to_string);
        }
        if !self.tables.contains_key(&binary.path) {
            let t = self.table(binary);
            self.tables.insert(binary.path.clone(), t);
        }
        let t = self.tables.get(&binary.path)?.as_ref()?;
        t.find(t.vaddr(address)?).map(str::to_string)
    }
}
