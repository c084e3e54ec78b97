//! What a frame is called: scorch's naming (kinds as attributes) and inferno 0.12.8's, exactly.

use super::frame::{parse_frame_inferno, FrameLine};
use super::InfernoFlags;
use crate::import::kind::{is_jit_dso, is_kernel_dso};
pub(super) use crate::import::symname::tidy_generic;
use crate::model::FrameKind;

fn strip_offset(sym: &str) -> &str {
    if let Some(i) = sym.rfind("+0x") {
        if sym[i + 3..].bytes().all(|b| b.is_ascii_hexdigit()) {
            return &sym[..i];
        }
    }
    sym
}

/// [`strip_offset`] on a symbol's bytes: the same cut (the offset is ASCII, so a lossy reading of the bytes
/// before it is the lossy reading of the whole before it).
pub(super) fn strip_offset_bytes(sym: &[u8]) -> &[u8] {
    if let Some(i) = sym.windows(3).rposition(|w| w == b"+0x") {
        if sym
            .get(i + 3..)
            .unwrap_or_default()
            .iter()
            .all(u8::is_ascii_hexdigit)
        {
            return sym.get(..i).unwrap_or(sym);
        }
    }
    sym
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `[unknown]` becomes `[dso basename]` when the dso is known (like stackcollapse-perf.pl and inferno).
fn unknown_fallback(func: &str, dso: &str, addr: &str, addrs: bool) -> String {
    if func != "[unknown]" {
        return func.to_string();
    }
    let name = match (dso, addrs) {
        ("[unknown]", true) => "unknown",
        ("[unknown]", false) => return func.to_string(),
        (dso, _) => basename(dso),
    };
    if addrs {
        format!("[{name} <{addr}>]")
    } else {
        format!("[{name}]")
    }
}

/// `Ljava/lang/Thread;::run` → `java/lang/Thread:::run` (after [`tidy_generic`]), for Java processes.
fn tidy_java(mut func: String) -> String {
    if func.starts_with('L') && func.contains('/') {
        func.remove(0);
    }
    func
}

const RUST_HASH_LEN: usize = 17;

/// Finishes demangling legacy Rust symbols perf left half-done (`_$LT$…$GT$::run::h0123456789abcdef`).
pub(super) fn fix_rust_symbol(sym: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let bytes = sym.as_bytes();
    if sym.len() < RUST_HASH_LEN {
        return Cow::Borrowed(sym);
    }
    let hash = bytes.get(sym.len() - RUST_HASH_LEN..).unwrap_or_default();
    if hash.first() != Some(&b'h')
        || !hash.iter().skip(1).all(u8::is_ascii_hexdigit)
        || !sym.is_char_boundary(sym.len() - RUST_HASH_LEN)
    {
        return Cow::Borrowed(sym);
    }
    let mut rest = &sym[..sym.len() - RUST_HASH_LEN];
    rest = rest.strip_suffix("::").unwrap_or(rest);
    if rest.starts_with("_$") {
        rest = &rest[1..];
    }
    const CODES: [(&str, &str); 20] = [
        ("$SP$", "@"),
        ("$BP$", "*"),
        ("$RF$", "&"),
        ("$LT$", "<"),
        ("$GT$", ">"),
        ("$LP$", "("),
        ("$RP$", ")"),
        ("$C$", ","),
        ("$u7e$", "~"),
        ("$u20$", " "),
        ("$u27$", "'"),
        ("$u3d$", "="),
        ("$u5b$", "["),
        ("$u5d$", "]"),
        ("$u7b$", "{"),
        ("$u7d$", "}"),
        ("$u3b$", ";"),
        ("$u2b$", "+"),
        ("$u21$", "!"),
        ("$u22$", "\""),
    ];
    let mut out = String::with_capacity(rest.len());
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            if let Some(after2) = after.strip_prefix('.') {
                out.push_str("::");
                rest = after2;
            } else {
                out.push('.');
                rest = after;
            }
        } else if rest.starts_with('$') {
            match CODES.iter().find(|(code, _)| rest.starts_with(code)) {
                Some((code, text)) => {
                    out.push_str(text);
                    rest = &rest[code.len()..];
                }
                None => {
                    out.push_str(rest);
                    break;
                }
            }
        } else {
            let i = rest.find(['$', '.']).unwrap_or(rest.len());
            out.push_str(&rest[..i]);
            rest = &rest[i..];
        }
    }
    Cow::Owned(out)
}

/// scorch's names for one frame line: outermost first (a perf-map-agent `a->b->c` chain gives three).
pub(super) fn scorch_names(f: &FrameLine<'_>, java: bool) -> Vec<(String, FrameKind)> {
    let sym = String::from_utf8_lossy(f.sym);
    let dso = String::from_utf8_lossy(f.dso);
    let addr = String::from_utf8_lossy(f.addr);
    let sym = strip_offset(&sym);
    // A parenthesised symbol is no frame (flamegraph.pl's "process names"), but a C++ name in an anonymous
    // namespace is one (inferno drops it: `--compat inferno` still does).
    if sym.starts_with('(') && !sym.starts_with("(anonymous namespace)") {
        return Vec::new();
    }
    let sym = if sym.is_empty() { "[unknown]" } else { sym };
    let sym = fix_rust_symbol(sym);
    let kind = if dso == "inlined" {
        FrameKind::Inline
    } else if is_kernel_dso(&dso) {
        FrameKind::Kernel
    } else if is_jit_dso(&dso) {
        FrameKind::Jit
    } else {
        FrameKind::User
    };
    sym.split("->")
        .enumerate()
        .map(|(i, part)| {
            let mut name = tidy_generic(&unknown_fallback(part.trim(), &dso, &addr, false));
            if java {
                name = tidy_java(name);
            }
            // No surrounding whitespace: folded text (exports, links) could not carry it at a stack's ends.
            (
                name.trim().to_string(),
                if i == 0 { kind } else { FrameKind::Inline },
            )
        })
        .collect()
}

/// inferno 0.12.8's names for one frame line (`on_stack_line`), outermost first.
pub(super) fn inferno_names(line: &str, java: bool, flags: &InfernoFlags) -> Option<Vec<String>> {
    let (pc, rawfunc, module) = parse_frame_inferno(line)?;
    let rawfunc = strip_offset(rawfunc);
    if rawfunc.starts_with('(') {
        return Some(Vec::new());
    }
    let rawfunc = fix_rust_symbol(rawfunc);
    let mut out = Vec::new();
    for func in rawfunc.split("->") {
        let mut func = tidy_generic(&unknown_fallback(func, module, pc, flags.addrs));
        if java {
            func = tidy_java(func);
        }
        if !out.is_empty() {
            if !func.contains("_[i]") {
                func.push_str("_[i]");
            }
        } else if flags.kernel && is_kernel_dso(module) {
            func.push_str("_[k]");
        } else if flags.jit && is_jit_dso(module) && !func.contains("_[j]") {
            func.push_str("_[j]");
        }
        out.push(func);
    }
    Some(out)
}
