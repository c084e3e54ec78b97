#!/usr/bin/env python3
"""An independent oracle for scorch's Firefox Profiler (processed Gecko) importer: reads the profile with Python's
json module (gzip'd or not), written from the Firefox Profiler's processed-format documentation
(docs-developer/CHANGELOG-formats.md and src/types/profile.js of firefox-devtools/profiler) and the rules in
docs/FORMATS.md, not from scorch's code. Prints `THREAD;frame;...;leaf COUNT WEIGHT TIMED` per distinct stack,
sorted: COUNT samples, WEIGHT their summed weight, TIMED how many of them have a time.

    python3 tests/oracles/gecko.py FILE

- Each thread's sample i has the stack `samples.stack[i]` (null: no frames); a stack is its frame plus its
  `prefix` stack's frames; a frame's name is `funcTable.name[frameTable.func[frame]]` in the thread's
  `stringArray` (or the profile's `shared.stringArray`); a name that is an address (`0x…`) gets its library,
  `0x124f (two)`, from `resourceTable.name`.
- The root is the thread's `name`; a sample weighs `samples.weight[i]` (1 when the column is null).
"""

import gzip
import json
import sys
from collections import defaultdict


def main(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    prof = json.loads(raw)
    shared = prof.get("shared", {}).get("stringArray", [])
    out = defaultdict(lambda: [0, 0, 0])
    for t in prof["threads"]:
        s = t["samples"]
        if not s.get("stack"):
            continue
        strings = t.get("stringArray", shared)
        ft, fn, st = t["frameTable"], t["funcTable"], t["stackTable"]

        def fname(frame):
            func = ft["func"][frame]
            name = strings[fn["name"][func]].strip()
            res = fn["resource"][func]
            if name.startswith("0x") and res is not None and res >= 0:
                name = f"{name} ({strings[t['resourceTable']['name'][res]]})"
            return name

        times = s.get("time")
        for i, stack in enumerate(s["stack"]):
            frames = []
            while stack is not None:
                frames.append(fname(st["frame"][stack]))
                stack = st["prefix"][stack]
            key = ";".join([t["name"]] + frames[::-1])
            w = s["weight"][i] if s.get("weight") else 1
            out[key][0] += 1
            out[key][1] += int(w)
            out[key][2] += 1 if times is not None and times[i] is not None else 0
    for key in sorted(out):
        print(f"{key} {out[key][0]} {out[key][1]} {out[key][2]}")


if __name__ == "__main__":
    main(sys.argv[1])
