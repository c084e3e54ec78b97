//! Naming a recording's `MODULE+0xOFFSET` frames by function, through a [`Symbolizer`] that reads the
//! binaries (the core does no I/O; the CLI's symbolizer reads ELF symbol tables, DWARF and `/proc/kallsyms`).
//! Names are demangled as perf prints them ([`super::demangle`]) and tidied as the perf script reader tidies
//! perf's text (argument lists cut, `;` → `:`), so a recording names its frames as its `perf script` text does.

use super::{BINARY_INFO, KERNEL_MODULE, KERNEL_TEXT_INFO, OS_RELEASE_INFO};
use crate::import::symname::tidy_generic;
use crate::model::{FrameKind, Profile};
use rustc_hash::FxHashMap;

/// A binary frames point into, as the recording names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binary {
    /// Its path on the recording machine (`[kernel.kallsyms]` for the kernel, `[vdso]`, …).
    pub path: String,
    /// The GNU build id in hex, when the recording holds one.
    pub build_id: Option<String>,
    /// The prefix of its frames' names: the basename, or the path when another binary has that basename.
    pub name: String,
}

impl Binary {
    pub fn is_kernel(&self) -> bool {
        self.path == KERNEL_MODULE
    }
}

/// Resolves addresses of a binary to function names.
pub trait Symbolizer {
    /// The function at `address` of `binary`: a file offset for user-space binaries (what `perf script`
    /// prints), the address itself for the kernel. `None` when unknown.
    fn symbolize(&mut self, binary: &Binary, address: u64) -> Option<String>;

    /// Whether this symbolizer reads `binary` at all: the frames of one it does not keep their
    /// `MODULE+0xOFFSET` names (the stack health lists them); of one it does, an address without a symbol
    /// becomes `[BASENAME]`.
    fn knows(&mut self, _binary: &Binary) -> bool {
        true
    }

    /// The functions inlined at `address` of `binary` (a file offset), innermost first, without the function
    /// that holds them (the one [`Symbolizer::symbolize`] names), as their mangled names. `call`: the address
    /// is a return address (a caller's frame), so the call instruction before it is what was inlined there.
    /// Empty when unknown, the default.
    fn inlined(&mut self, _binary: &Binary, _address: u64, _call: bool) -> Vec<String> {
        Vec::new()
    }
}

/// A symbol's name as perf script prints it and the perf script reader keeps it: demangled, except in the
/// kernel (perf's `--demangle-kernel` is off by default), and tidied.
fn display_name(name: &str, kernel: bool) -> String {
    if kernel {
        tidy_generic(name)
    } else {
        tidy_generic(&super::demangle::demangle(name))
    }
}

/// The binaries a perf.data profile's frames point into (from its facts), in the order their names were
/// given.
pub fn binaries(p: &Profile) -> Vec<Binary> {
    let mut taken: FxHashMap<String, ()> = FxHashMap::default();
    let mut out = Vec::new();
    for (k, v) in &p.meta.info {
        if k != BINARY_INFO {
            continue;
        }
        let (path, build_id) = match v.strip_suffix(')').and_then(|s| s.rsplit_once(" (build id ")) {
            Some((path, id)) => (path.to_string(), Some(id.to_string())),
            None => (v.clone(), None),
        };
        let base = path.rsplit('/').next().unwrap_or(&path).to_string();
        let name = if taken.contains_key(&base) {
            path.clone()
        } else {
            base
        };
        taken.insert(name.clone(), ());
        out.push(Binary { path, build_id, name });
    }
    out
}

/// What a recording says of the kernel it was made on: enough to tell whether another machine's kallsyms
/// names its kernel addresses truly (same kernel, same load address, or one shifted by a constant).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordedKernel {
    /// The build id of `[kernel.kallsyms]` (the `BUILD_ID` feature; perf writes it when kernel frames were hit).
    pub build_id: Option<String>,
    /// The kernel release (`OSRELEASE` feature).
    pub os_release: Option<String>,
    /// The kernel MMAP record's symbol (`_text` or `_stext`) and the address it had then.
    pub text: Option<(String, u64)>,
}

/// The recording's kernel, from the profile's facts.
pub fn recorded_kernel(p: &Profile) -> RecordedKernel {
    let mut k = RecordedKernel {
        build_id: binaries(p)
            .into_iter()
            .find(Binary::is_kernel)
            .and_then(|b| b.build_id),
        ..RecordedKernel::default()
    };
    for (key, v) in &p.meta.info {
        if key == OS_RELEASE_INFO {
            k.os_release = Some(v.clone());
        } else if key == KERNEL_TEXT_INFO {
            k.text = v
                .split_once(" 0x")
                .and_then(|(sym, hex)| Some((sym.to_string(), u64::from_str_radix(hex, 16).ok()?)));
        }
    }
    k
}

/// `NAME+0xHEX` split into the name and the number.
fn split_frame(name: &str) -> Option<(&str, u64)> {
    let (m, hex) = name.rsplit_once("+0x")?;
    Some((m, u64::from_str_radix(hex, 16).ok()?))
}

/// The profile with its `MODULE+0xOFFSET` frames renamed by `s`: a resolved address takes its function's
/// name, an unresolved one `[BASENAME]` (what the perf script importer names perf's `[unknown] (DSO)`).
/// Frames that end up with one name merge, and so do the stacks they make equal.
pub fn symbolize(p: &Profile, s: &mut dyn Symbolizer) -> Profile {
    let bins = binaries(p);
    let by_name: FxHashMap<&str, &Binary> = bins.iter().map(|b| (b.name.as_str(), b)).collect();
    p.rename_frames(|name, kind| {
        if !matches!(kind, FrameKind::User | FrameKind::Kernel | FrameKind::Jit) {
            return None;
        }
        let (m, addr) = split_frame(name)?;
        let bin = by_name.get(m)?;
        if !s.knows(bin) {
            return None;
        }
        Some(
            s.symbolize(bin, addr)
                .map(|n| display_name(&n, bin.is_kernel()))
                .unwrap_or_else(|| {
                    let base = bin.path.rsplit('/').next().unwrap_or(&bin.path);
                    format!("[{base}]")
                }),
        )
    })
}

/// The profile with the functions inlined at each user-space address put under its `MODULE+0xOFFSET` frame as
/// inline frames (innermost at the leaf), through [`Symbolizer::inlined`]; then [`symbolize`] names the frames.
/// A frame's address is exact when it is the sample's leaf or the kernel frames above it ended there (the user
/// address the kernel was entered from), else a return address (`call`).
pub fn expand_inlined(p: &Profile, s: &mut dyn Symbolizer) -> Profile {
    let bins = binaries(p);
    let by_name: FxHashMap<&str, &Binary> = bins.iter().map(|b| (b.name.as_str(), b)).collect();
    let mut known: FxHashMap<String, bool> = FxHashMap::default();
    p.expand_frames(|name, kind, next| {
        if kind != FrameKind::User {
            return Vec::new();
        }
        let Some((m, addr)) = split_frame(name) else {
            return Vec::new();
        };
        let Some(bin) = by_name.get(m) else {
            return Vec::new();
        };
        let knows = *known.entry(bin.path.clone()).or_insert_with(|| s.knows(bin));
        if !knows || bin.is_kernel() {
            return Vec::new();
        }
        let call = next.is_some_and(|k| k != FrameKind::Kernel);
        let mut inl = s.inlined(bin, addr, call);
        inl.reverse();
        inl.into_iter()
            .map(|n| (display_name(&n, false), FrameKind::Inline))
            .collect()
    })
}
