//! Naming a recording's `MODULE+0xOFFSET` frames by function, through a [`Symbolizer`] that reads the
//! binaries (the core does no I/O; the CLI's symbolizer reads ELF symbol tables and `/proc/kallsyms`).

use super::{BINARY_INFO, KERNEL_MODULE, KERNEL_TEXT_INFO, OS_RELEASE_INFO};
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
        Some(s.symbolize(bin, addr).unwrap_or_else(|| {
            let base = bin.path.rsplit('/').next().unwrap_or(&bin.path);
            format!("[{base}]")
        }))
    })
}
