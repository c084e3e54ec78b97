//! Stack health: how far the view's stacks can be trusted. A flame graph most often lies because the unwinder
//! stopped early (code without frame pointers) or could not name a frame (JIT code without a perf map, a stripped
//! binary), not because of the viewer; this module measures both and says what to do about it.
//!
//! - *broken*: the weight of the stacks that do not reach a known entry point ([`is_entry_point`]: `_start`,
//!   `__libc_start_main`, `start_thread`, `clone3`, `runtime.goexit`, kernel entry and idle paths, …); such a stack
//!   was cut short, so its outermost frames masquerade as callers;
//! - *unsymbolized*: the weight of the stacks with a frame that has no name ([`is_unsymbolized`]: `[unknown]`,
//!   `[libc.so.6]`, `0x4a5f20`);
//! - the depth distribution of the stacks (median, p99, max), weighted by the view's weight.
//!
//! One pass over the view's samples gives a weight per stack; one walk of the stack table in topological order
//! gives each row its flags and depth from its parent's, so the cost is O(samples + distinct stacks), never
//! samples × depth (as `functions.rs` does). The rules and their reasons are in docs/FORMATS.md.

use crate::model::units::format_percent;
use crate::model::{Format, FrameId, FrameKind, Profile, EMPTY_STACK, NO_PARENT};
use crate::view::{ViewOptions, WeightMode};

/// A share at or above this (percent of the view's total) is worth telling the user about.
pub const ATTENTION_PERCENT: f64 = 10.0;

/// The synthetic root that the `truncated` transform puts broken stacks under.
pub const TRUNCATED_ROOT: &str = "[truncated stack]";

/// The depth distribution, weighted by the view's weight (a sample of weight 3 counts three times; in count
/// mode every sample once). Depth is the number of frames, without the process or label pseudo frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct DepthStats {
    pub median: u32,
    pub p99: u32,
    pub max: u32,
}

/// How `broken` was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// From the frames' names: a stack is whole when it reaches a known entry point.
    EntryPoints,
    /// pprof written by the Go runtime, whose own unwinder walks every goroutine's stack to its start: whole by
    /// construction, `broken` is 0.
    GoRuntime,
    /// A V8 CPU profile (`.cpuprofile`, a Chrome trace's profile): V8's sampler records every JavaScript frame
    /// from its `(root)`, so stacks are whole by construction; `broken` is 0.
    V8Profiler,
    /// A deterministic profiler's call graph (Python's cProfile): every call from where profiling began was
    /// seen, so the stacks expanded from it are whole by construction; `broken` is 0.
    Traced,
    /// A pprof from another producer, a speedscope file, or a DHAT profile (valgrind stops below `main`), in
    /// which no stack names any entry point: its producer trims them, so names cannot tell; `broken` is 0 and
    /// not judged.
    NoEntryPoints,
    /// A JFR recording: the JVM walks every Java frame of a thread and marks the stacks it cut at the
    /// recording's depth, which the importer puts under `[truncated stack]`: `broken` is their weight.
    JvmWalker,
}

/// The stack health of a view. (Serde: the import worker computes it for the first view and sends it over.)
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StackHealth {
    /// The view's total (raw weight units).
    pub total: u64,
    /// Weight in stacks that do not reach a known entry point (0 when the stacks are complete by construction).
    pub broken: u64,
    /// Weight in stacks with at least one frame without a name.
    pub unsymbolized: u64,
    pub depth: DepthStats,
    /// How `broken` was decided (from names, or not at all when the producer guarantees whole stacks or
    /// trims entry points).
    pub basis: Basis,
    /// The input's format (the advice differs: perf can be re-recorded, pprof re-collected).
    pub format: Format,
    /// Whether the view counts samples (the badge then says "of samples").
    pub counts: bool,
    /// Whether an unsymbolized frame looks like JIT code (a `perf-PID.map` frame, or a JIT-kind frame).
    pub jit_seen: bool,
    /// The binaries whose addresses are not named yet (frames `MODULE+0xOFFSET`, as a perf.data recording
    /// names an address until its binary's symbols resolve it), each with the weight of the view's stacks that
    /// pass through one of its frames, heaviest first: the binaries that would name them.
    #[serde(default)]
    pub unresolved: Vec<(String, u64)>,
}

/// One piece of advice: a short title and a paragraph in plain words.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Advice {
    pub title: &'static str,
    pub text: &'static str,
}

const ADVICE_FRAME_POINTERS: Advice = Advice {
    title: "Stacks stop early",
    text: "The unwinder followed frame pointers through code built without them (the -O2 default of most \
           compilers and of most distribution libraries), so it lost the callers and the outermost frames shown \
           are not the real callers. Rebuild your code with -fno-omit-frame-pointer (and \
           -mno-omit-leaf-frame-pointer), or record with perf record --call-graph dwarf, which copies the stack \
           and unwinds it with the binaries' DWARF tables (bigger files). If you recorded with --call-graph dwarf \
           already, stacks deeper than the copied 8 KB are cut: raise it (--call-graph dwarf,65528).",
};

const ADVICE_JIT: Advice = Advice {
    title: "JIT-compiled code has no names",
    text: "Code compiled at run time (JavaScript, Java, Python 3.12+, .NET) is not in any file perf can read, so \
           its frames show as [unknown]. Ask the runtime to write a perf map while you record: node \
           --perf-basic-prof, java with -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit (or perf-map-agent), \
           python -X perf, DOTNET_PerfMapEnabled=1; keep /tmp/perf-PID.map until perf script has run.",
};

const ADVICE_SYMBOLS: Advice = Advice {
    title: "Frames without names",
    text: "Frames shown as [unknown], as a library name in brackets or as a bare address come from binaries \
           without symbols (stripped, or their debug symbols are not installed where the report was made), or \
           from JIT code without a perf map. Install the debug symbols (the -dbgsym or -debuginfo package), do not \
           strip what you build, and run perf script (or symbolize the pprof) on the machine that recorded.",
};

const ADVICE_UNRESOLVED: Advice = Advice {
    title: "Addresses not named yet",
    text: "This recording names code by binary and offset (spin+0x1155): perf.data keeps addresses, and their \
           names are in the binaries' symbol tables. In the viewer, open the recording together with the binaries \
           it names (unstripped): each names its own frames. On the machine that recorded, scorch pack \
           perf.data -o profile.pb.gz names them all as perf script does (from the binaries, ~/.debug, \
           /usr/lib/debug and /proc/kallsyms), and the packed file opens anywhere with the names.",
};

const ADVICE_GO: Advice = Advice {
    title: "Complete by construction",
    text: "This profile was written by the Go runtime, whose own unwinder walks each goroutine's stack to its \
           start, so scorch does not guess whether stacks were cut short. Very deep stacks are still capped by \
           the runtime, and time outside Go code shows as runtime._ExternalCode or runtime._System.",
};

impl StackHealth {
    /// Broken weight as a percentage of the total (0 for an empty view).
    pub fn broken_percent(&self) -> f64 {
        percent(self.broken, self.total)
    }

    /// Unsymbolized weight as a percentage of the total (0 for an empty view).
    pub fn unsymbolized_percent(&self) -> f64 {
        percent(self.unsymbolized, self.total)
    }

    /// The badge's words when a share passes [`ATTENTION_PERCENT`] (the larger problem first), else `None`:
    /// `55.0 % of samples in truncated stacks — why?`.
    pub fn badge(&self) -> Option<String> {
        let of = if self.counts { "of samples" } else { "of the total" };
        let (b, u) = (self.broken_percent(), self.unsymbolized_percent());
        if b >= ATTENTION_PERCENT && b >= u {
            Some(format!(
                "{} {of} in truncated stacks — why?",
                format_percent(b, 100.0)
            ))
        } else if u >= ATTENTION_PERCENT {
            Some(format!(
                "{} {of} in stacks with unnamed frames{} — why?",
                format_percent(u, 100.0),
                self.unresolved_names(3)
                    .map_or(String::new(), |m| format!(" (no symbols: {m})"))
            ))
        } else {
            None
        }
    }

    /// The first `k` binaries of [`StackHealth::unresolved`], comma-separated, `…` when there are more.
    pub fn unresolved_names(&self, k: usize) -> Option<String> {
        if self.unresolved.is_empty() {
            return None;
        }
        let mut s = self
            .unresolved
            .iter()
            .take(k)
            .map(|(m, _)| m.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        if self.unresolved.len() > k {
            s.push_str(", …");
        }
        Some(s)
    }

    /// Plain-words cause and fix for what this view shows: frame-pointer unwinding when stacks are cut short,
    /// perf maps when unnamed frames look like JIT code, symbols otherwise; the Go runtime's guarantee.
    pub fn advice(&self) -> Vec<Advice> {
        let mut out = Vec::new();
        if self.basis == Basis::GoRuntime {
            out.push(ADVICE_GO);
        }
        if self.basis == Basis::EntryPoints && self.broken_percent() >= ATTENTION_PERCENT {
            out.push(ADVICE_FRAME_POINTERS);
        }
        if self.unsymbolized_percent() >= ATTENTION_PERCENT {
            out.push(if !self.unresolved.is_empty() {
                ADVICE_UNRESOLVED
            } else if self.jit_seen {
                ADVICE_JIT
            } else {
                ADVICE_SYMBOLS
            });
        }
        out
    }

    /// The lines `scorch info` prints (without advice).
    pub fn describe(&self) -> Vec<String> {
        let broken = match self.basis {
            Basis::GoRuntime => "complete by construction (pprof from the Go runtime)".to_string(),
            Basis::V8Profiler => "complete by construction (V8's profiler records every frame)".to_string(),
            Basis::Traced => "complete by construction (the profiler saw every call)".to_string(),
            Basis::NoEntryPoints => {
                "not judged (no stack names an entry point: this file's producer trims them)".to_string()
            }
            Basis::JvmWalker => format!(
                "{} of the total in stacks the JVM cut at the recording's stack depth",
                format_percent(self.broken_percent(), 100.0)
            ),
            Basis::EntryPoints => format!(
                "{} of the total in stacks that reach no known entry point",
                format_percent(self.broken_percent(), 100.0)
            ),
        };
        vec![
            format!("truncated:       {broken}"),
            format!(
                "unsymbolized:    {} of the total in stacks with an unnamed frame",
                format_percent(self.unsymbolized_percent(), 100.0)
            ),
            format!(
                "stack depth:     median {}, p99 {}, max {} (weighted by the total)",
                self.depth.median, self.depth.p99, self.depth.max
            ),
        ]
        .into_iter()
        .chain(self.unresolved_names(8).map(|m| format!("no symbols for:  {m}")))
        .collect()
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64 * 100.0
    }
}

/// The function name without the decorations of its producer: DTrace's `module`` prefix, ELF symbol versions
/// (`@@GLIBC_2.34`, `@plt`), and whether a module prefix was there.
fn bare(name: &str) -> (&str, bool) {
    let (name, module) = match name.rsplit_once('`') {
        Some((_, f)) => (f, true),
        None => (name, false),
    };
    let name = name.split_once('@').map_or(name, |(f, _)| f);
    (name, module)
}

/// User-space entry points: where a process's or a thread's stack begins when it was walked to the end.
const USER_ENTRIES: &[&str] = &[
    "_start",
    "__libc_start_main",
    "__libc_start_main_impl",
    "__libc_start_call_main",
    "_dl_start",
    "_dl_start_user",
    "start_thread",
    "__start_thread",
    "clone",
    "__clone",
    "clone3",
    "__clone3",
    "thread_start",
    "_pthread_start",
];

/// The Go runtime's goroutine and thread starts (perf names them with ABI suffixes: `runtime.goexit.abi0`).
const GO_ENTRIES: &[&str] = &[
    "runtime.goexit",
    "runtime.main",
    "runtime.mstart",
    "runtime.rt0_go",
];

/// Kernel entry paths (system calls, interrupts, exceptions, new tasks) and idle/boot paths; they count only
/// when no user frame lies above them (a kernel-only stack), since an interrupt entry under a cut user stack
/// says nothing about the user part.
const KERNEL_ENTRIES: &[&str] = &[
    "entry_SYSCALL_64",
    "entry_SYSCALL_64_after_hwframe",
    "entry_SYSCALL_compat",
    "entry_SYSENTER_compat",
    "entry_INT80_compat",
    "ret_from_fork",
    "ret_from_fork_asm",
    "secondary_startup_64",
    "secondary_startup_64_no_verify",
    "common_startup_64",
    "start_secondary",
    "x86_64_start_kernel",
    "x86_64_start_reservations",
    "start_kernel",
    "rest_init",
    "cpu_startup_entry",
    "xen_start_kernel",
    "secondary_start_kernel",
    "__secondary_switched",
    "__primary_switched",
];

/// Is this a user-space entry point (the list above, Go's with any ABI suffix, or DTrace's `dyld`start`)?
pub fn is_entry_point(name: &str) -> bool {
    let (f, module) = bare(name);
    USER_ENTRIES.contains(&f)
        || (module && f == "start")
        || GO_ENTRIES.iter().any(|g| {
            f.strip_prefix(g)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(".abi"))
        })
}

/// Is this a kernel entry or idle path (x86-64 `asm_*` interrupt and exception entries, arm64 `el0*`/`el1*`
/// vectors, and the list above)?
pub fn is_kernel_entry(name: &str) -> bool {
    let (f, _) = bare(name);
    KERNEL_ENTRIES.contains(&f)
        || f.starts_with("asm_")
        || ((f.starts_with("el0") || f.starts_with("el1")) && f.contains("_64_"))
}

/// The binary of a frame named `MODULE+0xOFFSET` (`spin+0x1155`, `[kernel.kallsyms]+0xffffffff81000d62`): the
/// name a perf.data recording gives an address until its binary's symbols resolve it (`import::perfdata`).
pub fn unresolved_module(name: &str) -> Option<&str> {
    // The last `+` (a char search; a `+0x` before it leaves a non-hex offset after it all the same).
    let (module, off) = name.trim().rsplit_once('+')?;
    let off = off.strip_prefix("0x")?;
    (!module.is_empty() && is_hex(off) && !module.contains(char::is_whitespace)).then_some(module)
}

/// Does this frame have no name: `[unknown]`, a module in brackets (`[libc.so.6]`, `[perf-123.map]`), a module
/// and offset (`base.odex[+41107f]`, perf.data's `spin+0x1155`), or an address (`0x4a5f20`, `0x4a5f20 (app)`,
/// `7f3a12bc40`)?
pub fn is_unsymbolized(name: &str) -> bool {
    let name = name.trim();
    if name == TRUNCATED_ROOT {
        return false;
    }
    if name.starts_with('[') && name.ends_with(']') {
        return true;
    }
    if unresolved_module(name).is_some() {
        return true;
    }
    if let Some((_, off)) = name.rsplit_once('[') {
        if off
            .strip_prefix('+')
            .and_then(|o| o.strip_suffix(']'))
            .is_some_and(is_hex)
        {
            return true;
        }
    }
    if let Some(hex) = name.strip_prefix("0x") {
        let hex = hex.split_once(' ').map_or(hex, |(h, _)| h);
        return is_hex(hex);
    }
    name.len() >= 6 && is_hex(name) && name.bytes().any(|b| b.is_ascii_digit())
}

fn is_hex(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Per stack row: does the path from the root to it reach an entry point? Plus the row's depth (frames other
/// than process pseudo frames and the `[truncated stack]` root, so grouping does not change it). One pass in topological order. In folded input the outermost frame is often
/// the process name (stackcollapse-perf writes it), so it does not count as a user frame above a kernel entry.
pub fn reaches_entry(p: &Profile) -> (Vec<bool>, Vec<u32>) {
    let folded = p.meta.format == Format::Folded;
    let n = p.stacks.len();
    let mut frame_flags: Vec<u8> = Vec::with_capacity(p.frames.len());
    for i in 0..p.frames.len() {
        let f = FrameId(i as u32);
        let name = p.frame_name(f);
        let mut b = 0u8;
        if is_entry_point(name) {
            b |= USER_ENTRY;
        }
        if is_kernel_entry(name) {
            b |= KERNEL_ENTRY;
        }
        if unresolved_module(name).is_some() {
            b |= UNRESOLVED;
        }
        match p.frame_kind(f) {
            FrameKind::Kernel => b |= KERNEL,
            FrameKind::Process => b |= PSEUDO,
            _ if name == TRUNCATED_ROOT => b |= PSEUDO,
            _ => {}
        }
        frame_flags.push(b);
    }
    // Per row: reaches an entry; has a user frame on its path (itself included).
    let mut ok: Vec<bool> = Vec::with_capacity(n);
    let mut user: Vec<bool> = Vec::with_capacity(n);
    let mut depth: Vec<u32> = Vec::with_capacity(n);
    for i in 0..n {
        let parent = p.stacks.parent.get(i).copied().unwrap_or(NO_PARENT);
        let f = p.stacks.frame.get(i).copied().unwrap_or(FrameId(0));
        let b = frame_flags.get(f.idx()).copied().unwrap_or(0);
        let (pok, puser, pdepth) = if parent == NO_PARENT {
            (false, false, 0)
        } else {
            let k = parent as usize;
            (
                ok.get(k).copied().unwrap_or(false),
                user.get(k).copied().unwrap_or(false),
                depth.get(k).copied().unwrap_or(0),
            )
        };
        let kernel_ok = b & KERNEL_ENTRY != 0 && !puser;
        // A frame not named yet (perf.data's `MODULE+0xOFFSET`) may be an entry point: such a stack is not
        // judged cut short until its binary's symbols name it (a kernel one only where it could be the kernel
        // entry: no user frame above it).
        let unresolved_ok = b & UNRESOLVED != 0 && (b & KERNEL == 0 || !puser);
        ok.push(pok || b & USER_ENTRY != 0 || kernel_ok || unresolved_ok);
        let counts_as_user =
            b & (KERNEL | PSEUDO) == 0 && !(folded && parent == NO_PARENT) && b & KERNEL_ENTRY == 0;
        user.push(puser || counts_as_user);
        depth.push(pdepth + u32::from(b & PSEUDO == 0));
    }
    (ok, depth)
}

const USER_ENTRY: u8 = 1;
const KERNEL_ENTRY: u8 = 2;
const KERNEL: u8 = 4;
const PSEUDO: u8 = 8;
const UNRESOLVED: u8 = 16;

/// Was this pprof written by the Go runtime? Go's `runtime/pprof` starts each goroutine's stack at its own
/// function (it drops `runtime.goexit`), so names cannot tell a cut stack from a whole one; what marks a Go
/// profile is the runtime package itself: some frame is a `runtime.` function (the scheduler, the collector,
/// `runtime.main`, allocation paths), which other pprof producers (perf_to_profile, pprof-rs, Java and eBPF
/// agents) do not write.
fn written_by_go(p: &Profile) -> bool {
    p.meta.format == Format::Pprof
        && (0..p.frames.len()).any(|i| {
            let (f, _) = bare(p.frame_name(FrameId(i as u32)));
            f.strip_prefix("runtime.")
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        })
}

fn basis(p: &Profile, ok: &[bool]) -> Basis {
    if written_by_go(p) {
        Basis::GoRuntime
    } else if matches!(
        p.meta.format,
        Format::V8CpuProfile | Format::ChromeTrace | Format::V8HeapProfile
    ) {
        Basis::V8Profiler
    } else if p.meta.format == Format::Jfr {
        Basis::JvmWalker
    } else if p.meta.format == Format::Cprofile {
        Basis::Traced
    } else if matches!(p.meta.format, Format::Pprof | Format::Speedscope | Format::Dhat)
        && !ok.iter().any(|&b| b)
    {
        Basis::NoEntryPoints
    } else {
        Basis::EntryPoints
    }
}

/// The stack health of the samples a view selects.
pub fn stack_health(p: &Profile, v: &ViewOptions) -> StackHealth {
    let n = p.stacks.len();
    let mut per_stack = vec![0u64; n];
    let mut total = 0u64;
    // Frameless samples (perf prints events without a call chain) have nothing to mislead with: not broken.
    let mut empty = 0u64;
    for i in 0..p.samples.len() {
        let Some(w) = v.weigh(p, i) else { continue };
        total = total.saturating_add(w);
        let s = p.samples.stack.get(i).copied().unwrap_or(EMPTY_STACK);
        match per_stack.get_mut(s.idx()) {
            Some(x) => *x = x.saturating_add(w),
            None => empty = empty.saturating_add(w),
        }
    }
    let (ok, depth) = reaches_entry(p);
    // Per row: an unnamed frame on its path (`any`), and one below an entry point (`after`: the unwinder often
    // reads one garbage return address past `_start` or `runtime.mstart`, which says nothing about the stack).
    // A stack that reaches an entry counts `after`, a cut one `any`.
    let frame_unnamed: Vec<bool> = (0..p.frames.len())
        .map(|i| is_unsymbolized(p.frame_name(FrameId(i as u32))))
        .collect();
    // Unnamed JIT code: a frame perf attributes to a perf map it could not read (or a JIT-kind frame).
    let jit_seen = (0..p.frames.len()).any(|i| {
        let f = FrameId(i as u32);
        frame_unnamed.get(i).copied().unwrap_or(false)
            && (p.frame_kind(f) == FrameKind::Jit || p.frame_name(f).contains("perf-"))
    });
    let (mut any, mut after): (Vec<bool>, Vec<bool>) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        let parent = p.stacks.parent.get(i).copied().unwrap_or(NO_PARENT) as usize;
        let f = p.stacks.frame.get(i).copied().unwrap_or(FrameId(0));
        let here = frame_unnamed.get(f.idx()).copied().unwrap_or(false);
        let (pany, pafter, pok) = (
            any.get(parent).copied().unwrap_or(false),
            after.get(parent).copied().unwrap_or(false),
            ok.get(parent).copied().unwrap_or(false),
        );
        any.push(pany || here);
        // `ok` of this row without its parent's: this frame made the stack whole (an entry point, named, or a
        // frame not named yet, which is itself unnamed and counts).
        let own = ok.get(i).copied().unwrap_or(false) && !pok;
        after.push(pafter || (here && (pok || own)));
    }
    let unnamed: Vec<bool> = (0..n)
        .map(|i| {
            let col = if ok.get(i).copied().unwrap_or(false) {
                &after
            } else {
                &any
            };
            col.get(i).copied().unwrap_or(false)
        })
        .collect();
    let (mut broken, mut unsym) = (0u64, 0u64);
    let max_depth = depth.iter().copied().max().unwrap_or(0) as usize;
    let mut hist = vec![0u64; max_depth + 1];
    if let Some(h) = hist.first_mut() {
        *h = empty;
    }
    for (i, &w) in per_stack.iter().enumerate() {
        if w == 0 {
            continue;
        }
        if !ok.get(i).copied().unwrap_or(false) {
            broken = broken.saturating_add(w);
        }
        if unnamed.get(i).copied().unwrap_or(false) {
            unsym = unsym.saturating_add(w);
        }
        let d = depth.get(i).copied().unwrap_or(0) as usize;
        if let Some(h) = hist.get_mut(d) {
            *h = h.saturating_add(w);
        }
    }
    let unresolved = unresolved_weights(p, &per_stack);
    let basis = basis(p, &ok);
    let broken = match basis {
        Basis::EntryPoints => broken,
        Basis::JvmWalker => {
            let cut = under_truncated_root(p);
            per_stack
                .iter()
                .zip(&cut)
                .filter(|(_, &c)| c)
                .fold(0u64, |a, (&w, _)| a.saturating_add(w))
        }
        _ => 0,
    };
    StackHealth {
        total,
        broken,
        unsymbolized: unsym,
        depth: depth_stats(&hist, total),
        basis,
        format: p.meta.format,
        counts: v.weight == WeightMode::Count || v.unit(p) == crate::model::Unit::Samples,
        jit_seen,
        unresolved,
    }
}

/// Per binary with frames not named yet ([`unresolved_module`]), the weight of the stacks through one of its
/// frames (a stack once per binary), heaviest first, then by name. Nothing to do (one pass over the frames) when
/// no frame is unresolved; else each weighed stack's path is walked: O(distinct stacks × depth).
fn unresolved_weights(p: &Profile, per_stack: &[u64]) -> Vec<(String, u64)> {
    let mut modules: Vec<&str> = Vec::new();
    let module_of: Vec<Option<u32>> = (0..p.frames.len())
        .map(|i| {
            let m = unresolved_module(p.frame_name(FrameId(i as u32)))?;
            let k = modules.iter().position(|x| *x == m).unwrap_or_else(|| {
                modules.push(m);
                modules.len() - 1
            });
            Some(k as u32)
        })
        .collect();
    if modules.is_empty() {
        return Vec::new();
    }
    let mut weight = vec![0u64; modules.len()];
    let mut seen: Vec<u32> = Vec::new();
    for (i, &w) in per_stack.iter().enumerate() {
        if w == 0 {
            continue;
        }
        seen.clear();
        let mut row = i;
        while let Some(&f) = p.stacks.frame.get(row) {
            if let Some(Some(m)) = module_of.get(f.idx()) {
                if !seen.contains(m) {
                    seen.push(*m);
                    if let Some(x) = weight.get_mut(*m as usize) {
                        *x = x.saturating_add(w);
                    }
                }
            }
            match p.stacks.parent.get(row) {
                Some(&parent) if parent != NO_PARENT => row = parent as usize,
                _ => break,
            }
        }
    }
    let mut out: Vec<(String, u64)> = modules
        .into_iter()
        .zip(weight)
        .filter(|&(_, w)| w > 0)
        .map(|(m, w)| (m.to_string(), w))
        .collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// Weighted median (the smallest depth with at least half the weight at or below it), p99 likewise, and the
/// deepest depth with weight.
fn depth_stats(hist: &[u64], total: u64) -> DepthStats {
    let rank = |q: u128| -> u32 {
        // The smallest d with cumulative weight × 100 ≥ total × q.
        let need = u128::from(total) * q;
        let mut acc = 0u128;
        for (d, &w) in hist.iter().enumerate() {
            acc += u128::from(w);
            if w > 0 && acc * 100 >= need {
                return d as u32;
            }
        }
        0
    };
    DepthStats {
        median: rank(50),
        p99: rank(99),
        max: hist.iter().rposition(|&w| w > 0).unwrap_or(0) as u32,
    }
}

/// Rows whose stacks reach no entry point, for the *stack health* colouring: `true` where the path is cut short.
/// Same rule as [`stack_health`]; none when the basis is neither [`Basis::EntryPoints`] nor [`Basis::JvmWalker`].
pub fn truncated_rows(p: &Profile) -> Vec<bool> {
    let ok = reaches_entry(p).0;
    match basis(p, &ok) {
        Basis::EntryPoints => ok.into_iter().map(|ok| !ok).collect(),
        Basis::JvmWalker => under_truncated_root(p),
        _ => vec![false; ok.len()],
    }
}

/// Per stack row: is its root frame `[truncated stack]` (where an importer that knows a stack was cut puts it)?
fn under_truncated_root(p: &Profile) -> Vec<bool> {
    let n = p.stacks.len();
    let mut out: Vec<bool> = Vec::with_capacity(n);
    for i in 0..n {
        let parent = p.stacks.parent.get(i).copied().unwrap_or(NO_PARENT);
        let cut = if parent == NO_PARENT {
            let f = p.stacks.frame.get(i).copied().unwrap_or(FrameId(0));
            p.frame_name(f) == TRUNCATED_ROOT
        } else {
            out.get(parent as usize).copied().unwrap_or(false)
        };
        out.push(cut);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::folded::parse;

    #[test]
    fn unresolved_addresses_name_their_binary() {
        assert_eq!(unresolved_module("spin+0x1155"), Some("spin"));
        assert_eq!(
            unresolved_module("[kernel.kallsyms]+0xffffffff81000d62"),
            Some("[kernel.kallsyms]")
        );
        assert_eq!(unresolved_module("libc.so.6+0x2724a"), Some("libc.so.6"));
        for named in [
            "leaf_a",
            "+0x12",
            "f+0x",
            "f+0xzz",
            "a b+0x1",
            "x+0x1 (y)",
            "f+0x1+g",
            "f+0x1+0xq",
        ] {
            assert_eq!(unresolved_module(named), None, "{named}");
        }
        // The last `+0x` is the one read, even after an earlier one.
        assert_eq!(unresolved_module("f+0x1+0x2"), Some("f+0x1"));
        assert!(is_unsymbolized("a[+1]b[+2f]"));
        assert!(!is_unsymbolized("a[+1f] [x]y"));
        assert!(!is_unsymbolized("a[+1f]x"));
        assert!(is_unsymbolized("spin+0x1155"));
        // A stack whose only unnamed frames are addresses of binaries is not judged cut short; the binaries
        // are named with the weight through them.
        let p = parse(b"p;a+0x10;a+0x20;b+0x5 3\np;a+0x10;main 2\np;work 1\n").unwrap();
        let h = stack_health(&p, &ViewOptions::default_for(&p));
        assert_eq!((h.total, h.broken, h.unsymbolized), (6, 1, 5));
        assert_eq!(h.unresolved, vec![("a".to_string(), 5), ("b".to_string(), 3)]);
        assert!(h.badge().unwrap().contains("(no symbols: a, b)"));
    }

    #[test]
    fn names() {
        assert!(is_entry_point("runtime.goexit.abi0"));
        assert!(is_entry_point("runtime.main"));
        assert!(!is_entry_point("runtime.mainloop"));
        assert!(is_entry_point("start_thread@@GLIBC_2.34"));
        assert!(is_entry_point("libdyld.dylib`start"));
        assert!(!is_entry_point("start"));
        assert!(is_kernel_entry("asm_exc_page_fault"));
        assert!(is_unsymbolized("[unknown]"));
        assert!(is_unsymbolized("[libc.so.6]"));
        assert!(is_unsymbolized("0x4a5f20 (app)"));
        assert!(is_unsymbolized("base.odex[+41107f]"));
        assert!(is_unsymbolized("7f3a12bc40"));
        assert!(!is_unsymbolized("deadbeef"));
        assert!(!is_unsymbolized(TRUNCATED_ROOT));
        assert!(!is_unsymbolized("std::vector<int>::push_back"));
    }

    #[test]
    fn shares_and_depth() {
        // 6 of 10 in stacks without an entry; 3 with an unnamed frame.
        let p = parse(b"_start;main;f 4\nf;g 3\nx;[unknown];g 3\n").unwrap();
        let h = stack_health(&p, &ViewOptions::default_for(&p));
        assert_eq!((h.total, h.broken, h.unsymbolized), (10, 6, 3));
        // Depths: 3 ×4, 2 ×3, 3 ×3 → sorted 2,2,2,3,… median 3, p99 3, max 3.
        assert_eq!(
            h.depth,
            DepthStats {
                median: 3,
                p99: 3,
                max: 3
            }
        );
        assert!(h.badge().is_some_and(|b| b.contains("60.0 %")));
    }

    #[test]
    fn unnamed_frames_beyond_an_entry_point_do_not_count() {
        // perf: the view's comm root is not in the stack, so the outermost frame here is `[unknown]`.
        let mut p = parse(b"[unknown];_start;main 2\n_start;[unknown];f 1\n").unwrap();
        p.meta.format = Format::PerfScript;
        let h = stack_health(&p, &ViewOptions::default_for(&p));
        assert_eq!((h.total, h.broken, h.unsymbolized), (3, 0, 1));
    }

    #[test]
    fn kernel_entries_only_count_without_user_frames_above() {
        // perf-like: the comm root is the view's, not the stack's.
        let p = parse(b"comm;f;asm_sysvec_apic_timer_interrupt_[k] 1\ncomm;entry_SYSCALL_64_[k];x_[k] 1\n")
            .unwrap();
        let h = stack_health(&p, &ViewOptions::default_for(&p));
        assert_eq!(h.broken, 1);
    }

    #[test]
    fn grouping_moves_the_broken_stacks_and_keeps_the_numbers() {
        use crate::analysis::transforms::{apply, Transform};
        use crate::export::to_folded_view;
        let p = parse(b"_start;main;f 4\nf;g 3\nruntime.goexit;[unknown];h 2\n").unwrap();
        let h = stack_health(&p, &ViewOptions::default_for(&p));
        assert_eq!((h.broken, h.unsymbolized), (3, 2));
        let q = apply(&p, &Transform::GroupTruncated).unwrap();
        q.validate().unwrap();
        let v = ViewOptions::default_for(&q);
        assert_eq!(
            to_folded_view(&q, &v),
            "[truncated stack];f;g 3\n_start;main;f 4\nruntime.goexit;[unknown];h 2\n"
        );
        assert_eq!(stack_health(&q, &v), h);
        assert_eq!(
            Transform::from_text("truncated:"),
            Some(Transform::GroupTruncated)
        );
        assert_eq!(Transform::GroupTruncated.to_text(), "truncated:");
    }
}
