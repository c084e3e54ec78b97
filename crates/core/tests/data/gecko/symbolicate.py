#!/usr/bin/env python3
"""Writes a symbolicated copy of a samply profile, as the Firefox Profiler does before it downloads one: each
function named by an address (`0x124f`) gets the symbol that covers that address in samply's
`--unstable-presymbolicate` sidecar (`FILE.syms.json`: per library, `symbol_table` entries of `rva`, `size`,
`symbol`, names in `string_table`). Only `funcTable.name` and `stringArray` change.

    python3 symbolicate.py samply-two-threads.json.gz samply-two-threads.symbolicated.json
"""

import gzip
import json
import sys

src, dst = sys.argv[1], sys.argv[2]
prof = json.load(gzip.open(src) if src.endswith(".gz") else open(src))
syms = json.load(open(src.removesuffix(".gz") + ".syms.json"))
names = syms["string_table"]
libs = {d["debug_name"]: d["symbol_table"] for d in syms["data"]}

for t in prof["threads"]:
    strings = t["stringArray"]
    for f, (name_idx, res) in enumerate(zip(t["funcTable"]["name"], t["funcTable"]["resource"])):
        name = strings[name_idx]
        if not name.startswith("0x") or res is None or res < 0:
            continue
        lib = prof["libs"][t["resourceTable"]["lib"][res]]["debugName"]
        addr = int(name, 16)
        for e in libs.get(lib, []):
            if e["rva"] <= addr < e["rva"] + e["size"]:
                strings.append(names[e["symbol"]])
                t["funcTable"]["name"][f] = len(strings) - 1
                break

json.dump(prof, open(dst, "w"), separators=(",", ":"))
