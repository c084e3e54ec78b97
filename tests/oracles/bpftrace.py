#!/usr/bin/env python3
"""An independent oracle for scorch's bpftrace importer: reads bpftrace's printed maps of stacks with a regular
expression over the whole text (written from bpftrace's documented output and docs/FORMATS.md, not from
scorch's code) and prints `STACK BLOCKS COUNT` per distinct stack of one map, sorted: BLOCKS is how many
`@...[...]: COUNT` blocks have that stack, COUNT their summed counts.

    python3 tests/oracles/bpftrace.py FILE [MAP]     # MAP: `@` (default) or `@name`

- A block is `@NAME[` ... `]: COUNT` at the start of a line. Its keys are separated by commas that end a stack
  (a line starting with `,`) or sit on the block's first or last line; a key spanning lines is a stack (one
  frame per line, leaf first), any other key is a scalar (comm, pid).
- The folded stack is the scalar keys in order, then the stacks from the last key to the first, each reversed
  (outermost first). A frame's `+123` / `+0x7b` offset is dropped. In a block with two stacks, the first
  stack's frames are kernel frames, written with scorch's `_[k]` suffix.
"""

import re
import sys
from collections import defaultdict

BLOCK = re.compile(r"^@(\w*)\[(.*?)\]: (\d+)$", re.M | re.S)
OFFSET = re.compile(r"\+(0x[0-9a-fA-F]+|[0-9]+)$")


def frame(s):
    s = s.strip()
    m = OFFSET.search(s)
    return s[: m.start()] if m and m.start() > 0 else s


def main(path, want="@"):
    text = open(path, encoding="utf-8", errors="replace").read()
    out = defaultdict(lambda: [0, 0])
    for m in BLOCK.finditer(text):
        name, body, count = "@" + m.group(1), m.group(2), int(m.group(3))
        if name != want or "\n@" in body:
            continue
        # Keys: cut the body at commas that are not inside a frame line (a frame line never starts with `,`).
        keys, cur = [], None  # cur: the lines of a stack being read
        lines = body.split("\n")
        for i, line in enumerate(lines):
            if i == 0 or line.lstrip().startswith(","):
                parts = line.split(",")
                for j, p in enumerate(parts):
                    p = p.strip()
                    if j == 0 and i > 0:
                        keys.append(("stack", cur or []))
                        cur = None
                    elif p:
                        keys.append(("scalar", p))
                    elif j < len(parts) - 1:
                        keys.append(("stack", []))
                    else:
                        cur = []
            elif line.strip():
                cur = (cur or []) + [frame(line)]
        if cur is not None:
            keys.append(("stack", cur))
        stacks = [k for k in keys if k[0] == "stack"]
        names = [frame(v) for t, v in keys if t == "scalar"]
        for n, (_, frames) in enumerate(reversed(stacks)):
            kernel = len(stacks) >= 2 and n == len(stacks) - 1
            names += [f + ("_[k]" if kernel else "") for f in reversed(frames) if f]
        key = ";".join(names)
        out[key][0] += 1
        out[key][1] += count
    for key in sorted(out):
        print(f"{key} {out[key][0]} {out[key][1]}")


if __name__ == "__main__":
    main(*sys.argv[1:])
