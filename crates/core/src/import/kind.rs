//! Frame kinds that more than one format derives from the same evidence (a dso or mapping path). Below every
//! format: perf and pprof both ask it, neither asks the other.

/// Kernel dso: `[kernel.kallsyms]`, `[nf_conntrack]`, `*.ko`, `vmlinux*` (not `[unknown]`).
pub(crate) fn is_kernel_dso(dso: &str) -> bool {
    let vmlinux = dso.rfind("vmlinux").is_some_and(|i| {
        dso[i..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
    });
    (dso.starts_with('[') || dso.ends_with(".ko") || vmlinux) && dso != "[unknown]"
}

/// JIT dso: perf-map-agent and friends (`/tmp/perf-PID.map`) or jitdump (`…/jitted-PID-N.so`).
pub(crate) fn is_jit_dso(dso: &str) -> bool {
    (dso.starts_with("/tmp/perf-") && dso.ends_with(".map"))
        || (dso.contains("/jitted-") && dso.ends_with(".so"))
}
