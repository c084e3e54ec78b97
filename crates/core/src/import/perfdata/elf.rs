//! The function symbols of an ELF binary, from its bytes (the core does no I/O: the CLI reads the files it finds,
//! the browser the ones dropped with a recording), as `perf script` chooses them: `.symtab` when there is one, else
//! `.dynsym`; at one address the best of several symbols ([`better`]); a symbol without a size ends where the next
//! begins. A recording's user-space address is a file offset, turned into the binary's virtual address through
//! the loadable segment that holds it. [`Binaries`] names a recording's frames from such files, matched by build
//! id (else by file name).

use super::symbols::{Binary, Symbolizer};
use object::{Object, ObjectSegment, ObjectSymbol, SymbolKind};

/// One binary's function symbols, sorted by start, each `[start, end)`, and its loadable segments.
#[derive(Debug, Default, Clone)]
pub struct SymbolTable {
    /// `(file offset, size, virtual address)` of each loadable segment.
    pub segments: Vec<(u64, u64, u64)>,
    pub syms: Vec<(u64, u64, String)>,
}

impl SymbolTable {
    /// The function whose `[start, end)` holds `vaddr`.
    pub fn find(&self, vaddr: u64) -> Option<&str> {
        let i = self.syms.partition_point(|s| s.0 <= vaddr);
        let (_, end, name) = self.syms.get(i.checked_sub(1)?)?;
        (vaddr < *end).then_some(name.as_str())
    }

    /// A file offset's virtual address, through the segment that holds it.
    pub fn vaddr(&self, offset: u64) -> Option<u64> {
        self.segments
            .iter()
            .find(|&&(off, size, _)| offset >= off && offset - off < size.max(1))
            .map(|&(off, _, va)| (offset - off).wrapping_add(va))
    }
}

/// An ELF file's symbols, its build id (hex), and whether they came from `.symtab` (else `.dynsym`).
#[derive(Debug, Clone)]
pub struct ElfSymbols {
    pub table: SymbolTable,
    pub build_id: Option<String>,
    pub symtab: bool,
}

struct Sym {
    addr: u64,
    size: u64,
    weak: bool,
    global: bool,
    name: String,
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

/// Lower-case hex of bytes (a build id).
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Is this the start of an ELF file?
pub fn is_elf(head: &[u8]) -> bool {
    head.starts_with(b"\x7fELF")
}

/// The function symbols of an ELF file (`None`: not an ELF file, or one `object` cannot read).
pub fn read_elf<'data, R: object::ReadRef<'data>>(data: R) -> Option<ElfSymbols> {
    let file = object::File::parse(data).ok()?;
    fn take<'data, 'file, R: object::ReadRef<'data>>(
        raw: &mut Vec<Sym>,
        it: &mut dyn Iterator<Item = object::Symbol<'data, 'file, R>>,
    ) {
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
    Some(ElfSymbols {
        table: SymbolTable { segments, syms },
        build_id,
        symtab,
    })
}

/// Binaries given with a recording (dropped beside it in the browser), each by its file name: a recording's
/// binary is named from the file with its build id, else (when the recording or the file has none) from the
/// file of its name; a file whose build id differs from the recorded one is never used (another build: its
/// symbols would lie). Binaries without such a file keep their `MODULE+0xOFFSET` frames ([`Symbolizer::knows`]).
#[derive(Debug, Default)]
pub struct Binaries {
    files: Vec<(String, ElfSymbols)>,
}

impl Binaries {
    /// Adds a file (`name`: its file name); `false` when it is no ELF file `object` can read.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> bool {
        match read_elf(bytes) {
            Some(e) => {
                self.files.push((name.to_string(), e));
                true
            }
            None => false,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    fn file_for(&self, b: &Binary) -> Option<&ElfSymbols> {
        if b.is_kernel() {
            return None;
        }
        let base = b.path.rsplit('/').next().unwrap_or(&b.path);
        let by_id = b
            .build_id
            .as_ref()
            .and_then(|id| self.files.iter().find(|(_, e)| e.build_id.as_ref() == Some(id)));
        by_id
            .or_else(|| {
                self.files.iter().find(|(name, e)| {
                    name == base && (b.build_id.is_none() || e.build_id.is_none() || e.build_id == b.build_id)
                })
            })
            .map(|(_, e)| e)
    }

    /// The recording's binaries that a given file names.
    pub fn matched(&self, bins: &[Binary]) -> Vec<String> {
        bins.iter()
            .filter(|b| self.file_for(b).is_some())
            .map(|b| b.name.clone())
            .collect()
    }
}

impl Symbolizer for Binaries {
    fn symbolize(&mut self, binary: &Binary, address: u64) -> Option<String> {
        let t = &self.file_for(binary)?.table;
        t.find(t.vaddr(address)?).map(str::to_string)
    }

    fn knows(&mut self, binary: &Binary) -> bool {
        self.file_for(binary).is_some()
    }
}
