//! Frame lines of a call chain: `address symbol+offset (dso)`, and inferno's reading of them.

use super::header::is_space;
use crate::import::lines::trim_ascii;

/// A parsed frame line: address, symbol (may be empty) and dso (the last parenthesised group).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FrameLine<'a> {
    pub addr: &'a [u8],
    pub sym: &'a [u8],
    pub dso: &'a [u8],
}

// Real frame lines:
//   ffffffff8103ce3b native_safe_halt ([kernel.kallsyms])
//   7f533952bc77 _dl_check_map_versions+0x597 (/usr/lib/ld-2.28.so)
//   7f443cc8af43 __mmap64 (inlined)
//   7f89cc467bf0 Ljava/io/PrintStream;::println->Ljava/io/PrintStream;::print+0x0 (/tmp/perf-10487.map)
//   b3cea6c4<TAB>Lock::unlock() (/system/lib/libc.so)
//   7f1e2215d058  (/lib/x86_64-linux-gnu/libc-2.15.so)
//   7f00deadbeef foo (/usr/lib/libfoo.so (deleted))
pub(super) fn parse_frame(line: &[u8]) -> Option<FrameLine<'_>> {
    let line = trim_ascii(line);
    let addr_end = line.iter().position(|&b| is_space(b))?;
    let (addr, rest) = line.split_at(addr_end);
    if !addr.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let rest = trim_ascii(rest);
    if !rest.ends_with(b")") {
        return None;
    }
    // Find the '(' that matches the final ')', so dsos like `(/lib/x.so (deleted))` stay whole.
    let mut depth = 0usize;
    let mut open = None;
    for (i, &b) in rest.iter().enumerate().rev() {
        match b {
            b')' => depth += 1,
            b'(' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    // The dso group is separated from the symbol by whitespace (or is all there is).
    if let Some(open) = open.filter(|&o| o == 0 || rest.get(o - 1).is_some_and(|&b| is_space(b))) {
        return Some(FrameLine {
            addr,
            sym: trim_ascii(rest.get(..open).unwrap_or_default()),
            dso: rest.get(open + 1..rest.len() - 1).unwrap_or_default(),
        });
    }
    // Unbalanced parentheses (a corrupted line such as `start_secondary ([kernel.kallsyms])/libpthread.so)`):
    // like inferno, take the last whitespace-separated token that starts with '(' as the dso.
    let start = rest.iter().rposition(|&b| is_space(b)).map_or(0, |i| i + 1);
    let (before, last) = rest.split_at(start.min(rest.len()));
    if last.len() >= 2 && last.starts_with(b"(") {
        return Some(FrameLine {
            addr,
            sym: trim_ascii(before),
            dso: last.get(1..last.len() - 1).unwrap_or_default(),
        });
    }
    None
}

/// inferno's reading of a frame line (`stack_line_parts`), kept exactly for `--compat inferno`.
pub(super) fn parse_frame_inferno(line: &str) -> Option<(&str, &str, &str)> {
    let mut parts = line.trim_start().splitn(2, ' ');
    let pc = parts.next()?.trim_end();
    let mut rest = parts.next()?.rsplitn(2, ' ');
    let module = rest.next()?;
    if !module.starts_with('(') || !module.ends_with(')') || module.len() < 2 {
        return None;
    }
    let module = &module[1..module.len() - 1];
    let rawfunc = match rest.next()?.trim() {
        "" => " ",
        s => s,
    };
    Some((pc, rawfunc, module))
}
