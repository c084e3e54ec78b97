#!/usr/bin/env python3
"""An independent oracle for scorch's thread choice (`--tagfilter tid=N`, `diff --base-filter tid=A
--target-filter tid=B`) and the app's thread list, on crates/core/tests/data/perf-made/threads.txt.

It reads the perf script text itself (not through scorch): every event header line `comm pid/tid time: period
event:` is one sample, the lines below it are its frames `address symbol+offset (dso)`, leaf first. A frame's
name is the symbol without `+0x…`; a frame of `[kernel.kallsyms]` gets `_[k]` as scorch's canonical folded text
writes kernel frames. Per thread (comm, pid, tid) it writes the sample count, the sum of periods, and the folded
stacks (root first, under a `comm` root frame as `scorch fold` puts them by default) to
crates/cli/tests/data/threads/oracle.json, which crates/cli/tests/threads.rs and tests/e2e/threads.test.mjs read.

Run from the repository root: `python3 tests/oracles/threads.py`
"""

import json
import re
from collections import defaultdict

SRC = "crates/core/tests/data/perf-made/threads.txt"
OUT = "crates/cli/tests/data/threads/oracle.json"
HEAD = re.compile(r"^(\S.*?)\s+(\d+)/(\d+)\s+(\d+)\.(\d+):\s+(\d+)\s+(\S+):")

threads = {}
with open(SRC) as f:
    blocks = f.read().split("\n\n")
for block in blocks:
    lines = [l for l in block.split("\n") if l.strip()]
    if not lines:
        continue
    m = HEAD.match(lines[0])
    assert m, lines[0]
    comm, pid, tid, period, event = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(6)), m.group(7)
    assert event == "cpu-clock"
    frames = []
    for l in lines[1:]:
        parts = l.split()
        sym = parts[1].split("+")[0]
        if parts[-1] == "([kernel.kallsyms])":
            sym += "_[k]"
        frames.append(sym)
    stack = ";".join([comm] + frames[::-1])
    t = threads.setdefault((comm, pid, tid), {"samples": 0, "total": 0, "folded": defaultdict(int)})
    t["samples"] += 1
    t["total"] += period
    t["folded"][stack] += period

out = {
    "profile": "perf-made/threads.txt",
    "threads": [
        {
            "name": f"{comm}-{pid}/{tid}",
            "comm": comm,
            "pid": pid,
            "tid": tid,
            "samples": t["samples"],
            "total": t["total"],
            "folded": dict(sorted(t["folded"].items())),
        }
        for (comm, pid, tid), t in sorted(threads.items(), key=lambda kv: (-kv[1]["samples"], kv[0][2]))
    ],
}
with open(OUT, "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
