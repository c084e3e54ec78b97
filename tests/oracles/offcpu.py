#!/usr/bin/env python3
"""Off-CPU time from `perf script` text of sched:sched_switch events, read independently of scorch.

Usage: offcpu.py FILE [FILE.gz]

The rule (docs/FORMATS.md, "Off-CPU time"): a switch-out of thread T (`prev_pid=T`, the stack printed under that
event) at t0 waits until T's next switch-in (`next_pid=T`, on any CPU) at t1; the wait weighs t1 - t0 ns on the
switch-out's stack. pid 0 (the idle task) is never matched; a switch-out in state Z or X (the thread exiting) is
no wait. A switch-out followed by another switch-out of the
same thread before any switch-in, or by nothing, is unmatched.

Prints one folded line per stack, `comm;outermost;...;leaf NS`, sorted, then `# unmatched N` and
`# switch-outs N`. Frame names: the symbol without `+0x…`; `[unknown]` becomes `[dso basename]` when the dso is
known; `;` becomes `:`; a kernel dso (`[kernel.kallsyms]`, `[…]` but `[unknown]`) adds `_[k]`, a perf map
(`/tmp/perf-PID.map`) `_[j]`. These are scorch's rules for the C, Rust, kernel and perf-map frames this is used
on (no Java, jitdump, inline frames or C++ argument lists).
"""
import gzip
import re
import sys
from collections import defaultdict

HEADER = re.compile(
    r"^(?P<comm>.*?)\s+(?P<pid>-?\d+)(?:/(?P<tid>-?\d+))?\s+(?:\[(?P<cpu>\d+)\]\s+)?"
    r"(?P<secs>\d+)\.(?P<frac>\d+):\s+(?:(?P<period>\d+)\s+)?(?P<event>\S+):\s*(?P<rest>.*)$"
)
PAYLOAD = re.compile(r"prev_pid=(\d+) .*prev_state=(\S+) ==> .*next_pid=(\d+)")


def parse_frame(line):
    """`addr sym (dso)` -> (sym, dso); the dso is the last parenthesised group, which may hold parentheses."""
    parts = line.strip().split(None, 1)
    if len(parts) != 2 or not re.fullmatch(r"[0-9a-fA-F]+", parts[0]) or not parts[1].endswith(")"):
        return None
    rest, depth = parts[1], 0
    for i in range(len(rest) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(rest[i], 0)
        if depth == 0:
            return rest[:i].strip(), rest[i + 1 : -1]
    return None


def frame_name(sym, dso):
    sym = re.sub(r"\+0x[0-9a-fA-F]+$", "", sym)
    if sym == "[unknown]" and dso != "[unknown]":
        sym = "[" + dso.rsplit("/", 1)[-1] + "]"
    sym = sym.replace(";", ":")
    if dso.startswith("[") and dso != "[unknown]":
        sym += "_[k]"
    elif dso.startswith("/tmp/perf-") and dso.endswith(".map"):
        sym += "_[j]"
    return sym


def records(text):
    """(comm, time_ns, event, payload, frames leaf first) for each event record."""
    for block in re.split(r"\n\s*\n", text):
        lines = [l for l in block.split("\n") if l.strip() and not l.startswith("#")]
        if not lines:
            continue
        m = HEADER.match(lines[0].strip())
        if not m:
            continue
        ns = int(m["secs"]) * 10**9 + int((m["frac"] + "000000000")[:9])
        frames = []
        for l in lines[1:]:
            f = parse_frame(l)
            if f:
                frames.append(frame_name(*f))
        yield m["comm"].strip(), ns, m["event"], m["rest"], frames


def main(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    events = []
    for i, (comm, ns, event, rest, frames) in enumerate(records(raw.decode("utf-8", "replace"))):
        if event != "sched:sched_switch":
            continue
        p = PAYLOAD.search(rest)
        if p:
            events.append((ns, i, comm, int(p[1]), p[2], int(p[3]), frames))
    events.sort(key=lambda e: (e[0], e[1]))
    pending = {}
    sums = defaultdict(int)
    unmatched = 0
    outs = 0
    for ns, _, comm, prev_pid, state, next_pid, frames in events:
        if next_pid != 0 and next_pid in pending:
            t0, c, fr = pending.pop(next_pid)
            sums[";".join([c] + fr[::-1])] += ns - t0
        if prev_pid != 0 and state[0] not in "ZX":
            outs += 1
            if prev_pid in pending:
                unmatched += 1
            pending[prev_pid] = (ns, comm, frames)
    unmatched += len(pending)
    for stack in sorted(sums):
        print(f"{stack} {sums[stack]}")
    print(f"# unmatched {unmatched}")
    print(f"# switch-outs {outs}")


if __name__ == "__main__":
    main(sys.argv[1])
