//! Symbolizing a perf.data recording on the machine that made it, as `perf script` does: the ELF symbol
//! table (`.symtab`, else `.dynsym`) of each binary, found by build id (`~/.debug/.build-id/`,
//! `/usr/lib/debug/.build-id/`), by the directories of `SCORCH_SYMBOL_PATH` (a binary of the same name), then
//! by the path it was mapped from — a file whose build id differs from the recorded one is not used —, and the
//! kernel from `/proc/kallsyms` (`SCORCH_KALLSYMS`: another file), only when this machine runs the recording's
//! kernel (same build id, `/sys/kernel/notes`, else same release) and shifted by the difference of the
//! `_text` addresses (KASLR); otherwise kernel frames stay `[[kernel.kallsyms]]` with one warning. The core names frames `MODULE+0xOFFSET` and renames them through this
//! [`Symbolizer`] (and demangles the names); the I/O is here. With `--inline`, the functions inlined at an
//! address come from the DWARF of the first of those files that has it (`addr2line`). No PLT entries.

use scorch_core::import::perfdata::elf::{
    hex, read_elf as load_elf, ElfSymbols as Loaded, SymbolTable as Table,
};
use scorch_core::import::perfdata::{Binary, RecordedKernel, Symbolizer};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// DWARF read into owned buffers (sections decompressed), for `addr2line`.
type Reader = gimli::EndianRcSlice<gimli::RunTimeEndian>;

/// The DWARF of an ELF file, `None` when it has none (no `.debug_info`) or cannot be read. The file is read
/// whole: only `--inline` asks for it.
fn load_dwarf(path: &Path) -> Option<addr2line::Context<Reader>> {
    use object::{Object as _, ObjectSection as _};
    let data = std::fs::read(path).ok()?;
    let file = object::File::parse(&*data).ok()?;
    file.section_by_name(".debug_info")?;
    let endian = if file.is_little_endian() {
        gimli::RunTimeEndian::Little
    } else {
        gimli::RunTimeEndian::Big
    };
    let dwarf = gimli::Dwarf::load(|id| -> Result<Reader, gimli::Error> {
        let bytes = file
            .section_by_name(id.name())
            .and_then(|s| s.uncompressed_data().ok())
            .map(|d| d.into_owned())
            .unwrap_or_default();
        Ok(gimli::EndianRcSlice::new(Rc::from(bytes), endian))
    })
    .ok()?;
    addr2line::Context::from_dwarf(dwarf).ok()
}

/// [`load_elf`] of a file, reading only the parts it needs rather than the whole binary (a system-wide
/// recording maps compilers and libraries of hundreds of MB): the file's image is a zeroed buffer (the kernel
/// maps its pages on first touch, so untouched parts cost nothing) into which the ELF header, the program and
/// section header tables and the sections the symbols need (symbol and string tables, notes for the build id)
/// are read. Anything but a little-endian ELF64 file is read whole.
fn load_elf_file(path: &Path) -> Option<Loaded> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path).ok()?;
    let len = usize::try_from(file.metadata().ok()?.len()).ok()?;
    let mut head = [0u8; 64];
    if len < 64 || file.read_exact(&mut head).is_err() || head[..6] != *b"\x7fELF\x02\x01" {
        return load_elf(&*std::fs::read(path).ok()?);
    }
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([head[at], head[at + 1]]));
    let u64_at = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&head[at..at + 8]);
        usize::try_from(u64::from_le_bytes(b)).ok()
    };
    let (phoff, shoff) = (u64_at(0x20)?, u64_at(0x28)?);
    let (phsize, shsize) = (u16_at(0x36) * u16_at(0x38), u16_at(0x3a) * u16_at(0x3c));
    let mut image = vec![0u8; len];
    let fill = |file: &mut std::fs::File, image: &mut [u8], at: usize, n: usize| -> Option<()> {
        let part = image.get_mut(at..at.checked_add(n)?)?;
        file.seek(SeekFrom::Start(at as u64)).ok()?;
        file.read_exact(part).ok()
    };
    image.get_mut(..64)?.copy_from_slice(&head);
    fill(&mut file, &mut image, phoff, phsize)?;
    fill(&mut file, &mut image, shoff, shsize)?;
    // The section names' table (`e_shstrndx`; an `Elf64_Shdr` has `sh_offset` at 0x18, `sh_size` at 0x20),
    // then the sections the symbols and the build id are read from.
    let sh = |image: &[u8], field: usize| -> Option<usize> {
        let at = shoff
            .checked_add(u16_at(0x3e).checked_mul(u16_at(0x3a))?)?
            .checked_add(field)?;
        let mut b = [0u8; 8];
        b.copy_from_slice(image.get(at..at.checked_add(8)?)?);
        usize::try_from(u64::from_le_bytes(b)).ok()
    };
    let names = (sh(&image, 0x18)?, sh(&image, 0x20)?);
    fill(&mut file, &mut image, names.0, names.1)?;
    let mut ranges = Vec::new();
    if let Ok(elf) = object::read::elf::ElfFile64::<object::LittleEndian>::parse(&*image) {
        use object::{Object as _, ObjectSection as _, SectionKind};
        for sec in elf.sections() {
            let wanted = sec.kind() == SectionKind::Note
                || matches!(
                    sec.name(),
                    Ok(".symtab" | ".strtab" | ".symtab_shndx" | ".dynsym" | ".dynstr")
                );
            if let (true, Some((at, n))) = (wanted, sec.file_range()) {
                ranges.push((usize::try_from(at).ok()?, usize::try_from(n).ok()?));
            }
        }
    }
    for (at, n) in ranges {
        fill(&mut file, &mut image, at, n)?;
    }
    load_elf(&*image)
}

/// A kallsyms file: the kernel's text symbols, each up to the next (as perf reads them), and the addresses of
/// `_text` and `_stext` (where the kernel was loaded).
struct Kallsyms {
    table: Table,
    anchors: Vec<(String, u64)>,
}

/// Reads a kallsyms text; `None` when it lists no address (`kptr_restrict` hides them, or it is empty).
fn parse_kallsyms(text: &str) -> Option<Kallsyms> {
    let mut syms: Vec<(u64, u64, String)> = Vec::new();
    let mut anchors = Vec::new();
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
        if addr == 0 {
            continue;
        }
        if matches!(name, "_text" | "_stext") && !anchors.iter().any(|(n, _)| n == name) {
            anchors.push((name.to_string(), addr));
        }
        syms.push((addr, 0, name.to_string()));
    }
    if syms.is_empty() {
        return None;
    }
    // Of several symbols at one address perf keeps the last listed: it sets each symbol's end at the next one's
    // start before choosing (`symbols__fixup_end`, then `choose_best_symbol`), so only the last has a size
    // (`__do_sys_rt_sigreturn`, `__ia32_sys_rt_sigreturn`, `__x64_sys_rt_sigreturn`: the last).
    syms.sort_by_key(|s| s.0);
    syms.reverse();
    syms.dedup_by_key(|s| s.0);
    syms.reverse();
    for i in 0..syms.len() {
        let next = syms.get(i + 1).map_or(u64::MAX, |n| n.0);
        if let Some(s) = syms.get_mut(i) {
            s.1 = next;
        }
    }
    Some(Kallsyms {
        table: Table {
            segments: Vec::new(),
            syms,
        },
        anchors,
    })
}

/// The GNU build id in a sequence of ELF notes (`/sys/kernel/notes`): each `u32 namesz, descsz, type`, the
/// name and the descriptor, each padded to 4 bytes; the one of type 3 (`NT_GNU_BUILD_ID`) named `GNU`.
fn note_build_id(data: &[u8]) -> Option<String> {
    let word = |at: usize| -> Option<usize> {
        let b: [u8; 4] = data.get(at..at.checked_add(4)?)?.try_into().ok()?;
        usize::try_from(u32::from_ne_bytes(b)).ok()
    };
    let pad = |n: usize| n.checked_add(3).map(|n| n & !3);
    let mut at = 0usize;
    while at.checked_add(12)? <= data.len() {
        let (namesz, descsz, kind) = (word(at)?, word(at + 4)?, word(at + 8)?);
        let name_at = at + 12;
        let desc_at = name_at.checked_add(pad(namesz)?)?;
        let end = desc_at.checked_add(pad(descsz)?)?;
        let name = data.get(name_at..name_at.checked_add(namesz)?)?;
        if kind == 3 && name == b"GNU\0" && descsz > 0 {
            return Some(hex(data.get(desc_at..desc_at.checked_add(descsz)?)?));
        }
        at = end;
    }
    None
}

/// The kernel this machine runs: its build id (`SCORCH_KERNEL_NOTES`, else `/sys/kernel/notes`) and release.
struct RunningKernel {
    build_id: Option<String>,
    os_release: Option<String>,
}

impl RunningKernel {
    fn read() -> RunningKernel {
        let notes = std::env::var_os("SCORCH_KERNEL_NOTES")
            .map_or_else(|| PathBuf::from("/sys/kernel/notes"), PathBuf::from);
        RunningKernel {
            build_id: std::fs::read(notes).ok().and_then(|d| note_build_id(&d)),
            os_release: std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .ok()
                .map(|s| s.trim().to_string()),
        }
    }
}

/// Whether this machine's kallsyms names the recording's kernel addresses truly, and if so the shift to add
/// to a recorded address (the kernel loaded elsewhere, as KASLR does each boot: perf shifts the same way).
/// (a) The same kernel: the recorded build id of `[kernel.kallsyms]` equals the running kernel's (the
/// releases are compared when either build id is unknown). (b) Its load address: the recording's kernel
/// MMAP record (`_text` or `_stext` and its address then) against that symbol in the kallsyms. `Err`: why not.
fn kernel_shift(
    rec: &RecordedKernel,
    running: &RunningKernel,
    kallsyms: Option<&Kallsyms>,
    source: &str,
) -> Result<u64, String> {
    match (&rec.build_id, &running.build_id) {
        (Some(r), Some(now)) if r != now => {
            return Err(format!(
                "the recording's kernel (build id {r}) is not the running one (build id {now})"
            ))
        }
        (Some(_), Some(_)) => {}
        _ => match (&rec.os_release, &running.os_release) {
            (Some(r), Some(now)) if r != now => {
                return Err(format!(
                    "the recording's kernel (release {r}) is not the running one (release {now})"
                ))
            }
            (Some(_), Some(_)) => {}
            (None, _) => {
                return Err("the recording names its kernel by neither build id nor release".to_string())
            }
            (Some(r), None) => {
                return Err(format!(
                    "the running kernel's build id and release are unknown (the recording's: release {r})"
                ))
            }
        },
    }
    let Some(k) = kallsyms else {
        return Err(format!(
            "{source} lists no addresses (unreadable, or hidden by kptr_restrict)"
        ));
    };
    let Some((sym, then)) = &rec.text else {
        return Ok(0); // no kernel MMAP record: nothing to compare, used as is
    };
    let now = k
        .anchors
        .iter()
        .find(|(n, _)| n == sym)
        .or_else(|| k.anchors.first())
        .map(|&(_, a)| a);
    match now {
        Some(now) => Ok(now.wrapping_sub(*then)),
        None => Err(format!(
            "{source} has no {sym}, to compare with the recording's kernel load address {then:#x}"
        )),
    }
}

/// The kernel's symbols, shifted to where the recording had them, or why they are not used.
struct KernelSyms {
    table: Table,
    shift: u64,
}

fn load_kernel(rec: &RecordedKernel) -> Result<KernelSyms, String> {
    let path =
        std::env::var_os("SCORCH_KALLSYMS").map_or_else(|| PathBuf::from("/proc/kallsyms"), PathBuf::from);
    let source = path.display().to_string();
    let k = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| parse_kallsyms(&t));
    let shift = kernel_shift(rec, &RunningKernel::read(), k.as_ref(), &source)?;
    let table = k.map(|k| k.table).unwrap_or_default();
    Ok(KernelSyms { table, shift })
}

/// Reads binaries once each and answers the core's questions.
#[derive(Default)]
pub struct ElfSymbolizer {
    tables: HashMap<String, Option<Table>>,
    /// Each binary's DWARF (`--inline`), by its path.
    dwarf: HashMap<String, Option<addr2line::Context<Reader>>>,
    /// The recording's kernel, and (once a kernel frame asks) this machine's kernel symbols for it.
    kernel: RecordedKernel,
    kallsyms: Option<Option<KernelSyms>>,
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

    /// What the recording says of its kernel (build id, release, load address): kallsyms is used for it only
    /// when this machine runs that kernel (`kernel_shift`).
    pub fn with_kernel(mut self, kernel: RecordedKernel) -> Self {
        self.kernel = kernel;
        self
    }

    /// The binary itself: in `SCORCH_SYMBOL_PATH` (by name), then at its path; one whose build id differs
    /// from the recorded one is skipped.
    fn binary(&self, b: &Binary) -> Option<Loaded> {
        for path in self.binary_paths(b) {
            let Some(l) = load_elf_file(&path) else { continue };
            if b.build_id.is_some() && l.build_id.is_some() && b.build_id != l.build_id {
                continue; // another build of the binary: its symbols would lie
            }
            return Some(l);
        }
        None
    }

    /// Where the binary itself may be: in `SCORCH_SYMBOL_PATH` (by name), then at its path.
    fn binary_paths(&self, b: &Binary) -> Vec<PathBuf> {
        let base = b.path.rsplit('/').next().unwrap_or(&b.path);
        self.dirs
            .iter()
            .map(|d| d.join(base))
            .chain([PathBuf::from(&b.path)])
            .collect()
    }

    /// The debug files of a build id: `~/.debug/.build-id/AB/CDEF…/{debug,elf}`, then
    /// `/usr/lib/debug/.build-id/AB/CDEF….debug`.
    fn debug_paths(id: &str) -> Vec<PathBuf> {
        let mut debug = Vec::new();
        if id.len() <= 2 || !id.is_char_boundary(2) {
            return debug;
        }
        let (head, tail) = id.split_at(2);
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
        debug
    }

    /// The DWARF of a binary: of the binary itself (as [`Self::binary`] finds it), else of its debug files by
    /// build id; a file whose build id differs from the recorded one is skipped.
    fn dwarf_of(&self, b: &Binary) -> Option<addr2line::Context<Reader>> {
        let mut paths = self.binary_paths(b);
        let id = b
            .build_id
            .clone()
            .or_else(|| self.binary(b).and_then(|l| l.build_id));
        if let Some(id) = &id {
            paths.extend(Self::debug_paths(id));
        }
        for path in paths {
            let Some(l) = load_elf_file(&path) else { continue };
            if id.is_some() && l.build_id.is_some() && id != l.build_id {
                continue;
            }
            if let Some(ctx) = load_dwarf(&path) {
                return Some(ctx);
            }
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
        if let Some(id) = id {
            for path in Self::debug_paths(&id) {
                let Some(l) = load_elf_file(&path) else { continue };
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
            let rec = &self.kernel;
            let k = self
                .kallsyms
                .get_or_insert_with(|| match load_kernel(rec) {
                    Ok(k) => Some(k),
                    Err(why) => {
                        eprintln!("warning: kernel symbols not used: {why}");
                        None
                    }
                })
                .as_ref()?;
            return k.table.find(address.wrapping_add(k.shift)).map(str::to_string);
        }
        let t = self.loaded(binary)?;
        t.find(t.vaddr(address)?).map(str::to_string)
    }

    /// The functions inlined at the address, from DWARF (`addr2line`'s frames, innermost first, without the
    /// last: the function that holds them); a return address is looked up one byte back, at its call.
    fn inlined(&mut self, binary: &Binary, address: u64, call: bool) -> Vec<String> {
        if binary.is_kernel() {
            return Vec::new();
        }
        let Some(vaddr) = self.loaded(binary).and_then(|t| t.vaddr(address)) else {
            return Vec::new();
        };
        let probe = if call { vaddr.saturating_sub(1) } else { vaddr };
        if !self.dwarf.contains_key(&binary.path) {
            let d = self.dwarf_of(binary);
            self.dwarf.insert(binary.path.clone(), d);
        }
        let Some(Some(ctx)) = self.dwarf.get(&binary.path) else {
            return Vec::new();
        };
        let mut names = Vec::new();
        if let Ok(mut frames) = ctx.find_frames(probe).skip_all_loads() {
            while let Ok(Some(frame)) = frames.next() {
                let name = frame
                    .function
                    .and_then(|f| f.raw_name().ok().map(|n| n.into_owned()));
                names.push(name.unwrap_or_else(|| "??".to_string()));
            }
        }
        names.pop();
        names
    }
}

impl ElfSymbolizer {
    /// A binary's symbol table, read once.
    fn loaded(&mut self, binary: &Binary) -> Option<&Table> {
        if !self.tables.contains_key(&binary.path) {
            let t = self.table(binary);
            self.tables.insert(binary.path.clone(), t);
        }
        self.tables.get(&binary.path)?.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "48dc540c8b76393804ca8088dbfa7d42911a9444";

    fn notes(id: &[u8]) -> Vec<u8> {
        let mut b = Vec::new();
        // A note of another kind first (namesz 6, "Linux", padded), then the build id.
        for (name, kind, desc) in [(&b"Linux\0"[..], 0x101u32, &[1u8, 2, 3][..]), (b"GNU\0", 3, id)] {
            for w in [name.len() as u32, desc.len() as u32, kind] {
                b.extend_from_slice(&w.to_ne_bytes());
            }
            b.extend_from_slice(name);
            b.resize(b.len().div_ceil(4) * 4, 0);
            b.extend_from_slice(desc);
            b.resize(b.len().div_ceil(4) * 4, 0);
        }
        b
    }

    fn kallsyms(text_at: u64) -> Kallsyms {
        parse_kallsyms(&format!(
            "{text_at:016x} T _text\n{text_at:016x} T _stext\n{:016x} T schedule\n{:016x} d data\n",
            text_at + 0x100,
            text_at + 0x200
        ))
        .unwrap()
    }

    fn recorded(id: Option<&str>, release: Option<&str>, text: Option<u64>) -> RecordedKernel {
        RecordedKernel {
            build_id: id.map(str::to_string),
            os_release: release.map(str::to_string),
            text: text.map(|a| ("_text".to_string(), a)),
        }
    }

    fn running(id: Option<&str>, release: &str) -> RunningKernel {
        RunningKernel {
            build_id: id.map(str::to_string),
            os_release: Some(release.to_string()),
        }
    }

    #[test]
    fn the_build_id_note_is_found_among_others() {
        let id: Vec<u8> = (0..20).collect();
        assert_eq!(note_build_id(&notes(&id)).as_deref(), Some(hex(&id).as_str()));
        assert_eq!(note_build_id(&[]), None);
        assert_eq!(note_build_id(&notes(&id)[..30]), None);
    }

    #[test]
    fn kallsyms_is_used_for_the_same_kernel_shifted_by_its_load_address() {
        const BASE: u64 = 0xffff_ffff_8100_0000;
        let k = kallsyms(BASE);
        let same = running(Some(ID), "6.1");
        // Same kernel, same place.
        assert_eq!(
            kernel_shift(&recorded(Some(ID), Some("6.1"), Some(BASE)), &same, Some(&k), "k"),
            Ok(0)
        );
        // Same kernel loaded 0x2a00000 higher this boot: recorded addresses shift by that.
        let moved = kallsyms(BASE + 0x2a0_0000);
        let shift = kernel_shift(&recorded(Some(ID), None, Some(BASE)), &same, Some(&moved), "k").unwrap();
        assert_eq!(
            moved.table.find((BASE + 0x150).wrapping_add(shift)),
            Some("schedule")
        );
        // … and lower.
        let lower = kallsyms(BASE - 0x400_0000);
        let shift = kernel_shift(&recorded(Some(ID), None, Some(BASE)), &same, Some(&lower), "k").unwrap();
        assert_eq!(
            lower.table.find((BASE + 0x150).wrapping_add(shift)),
            Some("schedule")
        );
        // No kernel MMAP record: used as is.
        assert_eq!(
            kernel_shift(&recorded(Some(ID), None, None), &same, Some(&moved), "k"),
            Ok(0)
        );
        // No build id in the recording: the releases decide.
        assert_eq!(
            kernel_shift(&recorded(None, Some("6.1"), Some(BASE)), &same, Some(&k), "k"),
            Ok(0)
        );
        // Another kernel, by build id (even of the same release) or by release.
        let other = running(Some("00"), "6.1");
        let e = kernel_shift(
            &recorded(Some(ID), Some("6.1"), Some(BASE)),
            &other,
            Some(&k),
            "k",
        )
        .unwrap_err();
        assert!(
            e.contains(&format!("build id {ID}")) && e.contains("not the running one"),
            "{e}"
        );
        let e = kernel_shift(&recorded(None, Some("5.10"), Some(BASE)), &same, Some(&k), "k").unwrap_err();
        assert!(e.contains("release 5.10"), "{e}");
        // Nothing to tell the kernel by; no addresses; no _text to compare with.
        assert!(kernel_shift(&recorded(None, None, None), &same, Some(&k), "k").is_err());
        assert!(kernel_shift(&recorded(Some(ID), None, None), &same, None, "k").is_err());
        assert!(parse_kallsyms("0000000000000000 T _text\n0000000000000000 T schedule\n").is_none());
        let bare = parse_kallsyms(&format!("{:016x} T schedule\n", BASE + 0x100)).unwrap();
        assert!(kernel_shift(&recorded(Some(ID), None, Some(BASE)), &same, Some(&bare), "k").is_err());
    }
}
