#!/usr/bin/env python3
"""An independent oracle for scorch's speedscope importer: reads a speedscope JSON file with Python's json module
(written from speedscope's file-format schema, https://www.speedscope.app/file-format-schema.json, and the rules
in docs/FORMATS.md, not from scorch's code) and prints folded lines `ROOT;frame;...;leaf COUNT WEIGHT`, one per
distinct stack, sorted: COUNT is how many samples (sampled) or open intervals (evented) have that stack, WEIGHT
their summed weight (units of time in integer nanoseconds, as scorch stores them).

    python3 tests/oracles/speedscope.py FILE

- ROOT is the profile's `name` (`profile N` when it has none).
- A frame is its `name`; when one name stands for several (file, line, col) locations, `name (file:line)`, with
  `:col` when two of them share a file and line.
- sampled: sample i's stack is `samples[i]` (frame indices, root first), its weight `weights[i]`. An empty stack
  is the profile's root alone.
- evented: between consecutive events, while a frame is open, one interval with the open frames, weighing the
  difference of `at`; frames still open at the end are closed at `endValue`.
"""

import json
import sys
from collections import defaultdict
from decimal import Decimal

NS = {"nanoseconds": 1, "microseconds": 10**3, "milliseconds": 10**6, "seconds": 10**9}


def main(path):
    with open(path, "rb") as f:
        doc = json.loads(f.read().decode("utf-8-sig"), parse_float=Decimal)
    frames = doc.get("shared", {}).get("frames", [])

    def base(fr):
        return fr["name"].strip() or "(anonymous)"

    def num(v):
        return None if v is None else str(v)

    places = defaultdict(set)
    for fr in frames:
        places[base(fr)].add((fr.get("file"), num(fr.get("line")), num(fr.get("col"))))

    def name(fr):
        b = base(fr)
        locs = places[b]
        if len(locs) == 1:
            return b
        lines = {(f, l) for (f, l, _) in locs}
        loc = (fr.get("file") or "").strip()
        line, col = num(fr.get("line")), num(fr.get("col"))
        if line is not None:
            loc = f"{loc}:{line}" if loc else line
            if len(lines) < len(locs) and col is not None:
                loc += f":{col}"
        return f"{b} ({loc})" if loc else b

    names = [name(fr) for fr in frames]
    out = defaultdict(lambda: [0, 0])

    def add(root, stack, w):
        key = ";".join([root] + [names[i] for i in stack])
        out[key][0] += 1
        out[key][1] += w

    for k, prof in enumerate(doc["profiles"]):
        root = (prof.get("name") or "").strip() or f"profile {k + 1}"
        per = NS.get(prof.get("unit", "none"), 1)

        def val(x):
            return int((Decimal(x) * per).to_integral_value())

        if prof["type"] == "sampled":
            for stack, w in zip(prof["samples"], prof["weights"]):
                add(root, stack, val(w))
        else:
            opened, last = [], None
            for e in prof["events"]:
                at = val(e["at"])
                if last is not None and opened and at > last:
                    add(root, opened, at - last)
                last = at
                if e["type"] == "O":
                    opened.append(e["frame"])
                else:
                    assert opened.pop() == e["frame"]
            if opened and "endValue" in prof and val(prof["endValue"]) > last:
                add(root, opened, val(prof["endValue"]) - last)

    for key in sorted(out):
        print(f"{key} {out[key][0]} {out[key][1]}")


if __name__ == "__main__":
    main(sys.argv[1])
