#!/usr/bin/env python3
"""Generates big V8 profiles for the load benchmark, deterministically (stdlib only; the same bytes every time):

  v8-SIZEmb.cpuprofile  a `.cpuprofile` (node --cpu-prof's shape): a call tree of ~1/20 of the samples' count in
                        nodes, 2,000 functions over 200 scripts, samples walking the tree with 1 ms deltas
  trace-SIZEmb.json     a Chrome trace ({"traceEvents": [...]}) of the same kind of profile in ProfileChunk
                        events (100 samples each) among three times as many bytes of other events (complete
                        "X" events with args, as a Performance-panel trace has)

Usage: bench/gen-v8.py --out DIR --sizes 100 [--kinds cpuprofile,trace] [--seed 20240601]
"""
import argparse
import json
import os
import random


def tree(rng, nodes):
    """Nodes as (id, parent, function index); node 1 is (root)."""
    out = [(1, None, None)]
    for i in range(2, nodes + 1):
        # Prefer recent nodes as parents: deep stacks, like real programs.
        parent = rng.randint(max(1, i - 40), i - 1) if rng.random() < 0.9 else rng.randint(1, i - 1)
        out.append((i, parent, rng.randrange(2000)))
    return out


def call_frame(f):
    if f is None:
        return {"functionName": "(root)", "scriptId": "0", "url": "", "lineNumber": -1, "columnNumber": -1}
    return {"functionName": f"fn{f}" if f % 7 else "", "scriptId": str(f % 200 + 1),
            "url": f"file:///app/src/module{f % 200}.js", "lineNumber": f % 500, "columnNumber": f % 80}


def cpuprofile(path, size, rng):
    # ~10 bytes per sample and ~190 per node: a twentieth as many nodes as samples fills about half the file.
    samples = size // 20
    nodes = tree(rng, max(100, samples // 20))
    children = {}
    for i, p, _ in nodes:
        if p is not None:
            children.setdefault(p, []).append(i)
    with open(path, "w") as f:
        f.write('{"nodes":[')
        for k, (i, p, fn) in enumerate(nodes):
            n = {"id": i, "callFrame": call_frame(fn), "hitCount": 0}
            if i in children:
                n["children"] = children[i]
            f.write(("," if k else "") + json.dumps(n, separators=(",", ":")))
        f.write('],"startTime":1000000,"endTime":%d,' % (1000000 + samples * 1000 + 1000))
        ids = [rng.randint(2, len(nodes)) for _ in range(samples)]
        f.write('"samples":[' + ",".join(map(str, ids)) + "],")
        f.write('"timeDeltas":[' + ",".join(str(rng.randint(900, 1100)) for _ in range(samples)) + "]}")


def trace(path, size, rng):
    samples = size // 84
    nodes = tree(rng, max(100, samples // 20))
    per = 100
    with open(path, "w") as f:
        f.write('{"traceEvents":[\n')
        meta = [{"name": "process_name", "ph": "M", "pid": 7, "tid": 0, "args": {"name": "Renderer"}},
                {"name": "thread_name", "ph": "M", "pid": 7, "tid": 1, "args": {"name": "CrRendererMain"}},
                {"name": "Profile", "ph": "P", "pid": 7, "tid": 1, "id": "0x1", "ts": 1000000,
                 "cat": "disabled-by-default-v8.cpu_profiler", "args": {"data": {"startTime": 1000000}}}]
        for m in meta:
            f.write(json.dumps(m, separators=(",", ":")) + ",\n")
        sent = 0
        ts = 1000000
        for start in range(0, samples, per):
            new = [n for n in nodes[sent:sent + max(1, len(nodes) * per // samples + 1)]]
            sent += len(new)
            chunk_nodes = [dict({"id": i, "callFrame": call_frame(fn)}, **({"parent": p} if p else {}))
                           for i, p, fn in new]
            count = min(per, samples - start)
            data = {"cpuProfile": {"nodes": chunk_nodes, "samples": [rng.randint(1, max(1, sent)) for _ in range(count)]},
                    "timeDeltas": [rng.randint(900, 1100) for _ in range(count)]}
            text = json.dumps({"name": "ProfileChunk", "ph": "P", "pid": 7, "tid": 2, "id": "0x1", "ts": ts,
                               "cat": "disabled-by-default-v8.cpu_profiler", "args": {"data": data}},
                              separators=(",", ":")) + ",\n"
            f.write(text)
            # Other events: three times the chunk's bytes.
            other = 0
            while other < 3 * len(text):
                ts += 67
                other += f.write(json.dumps({"name": "FunctionCall", "ph": "X", "pid": 7, "tid": 1, "ts": ts, "dur": 50,
                                    "cat": "devtools.timeline", "args": {"data": {"frame": "F1", "functionName": "fn",
                                    "url": "file:///app/src/module.js", "lineNumber": 12, "columnNumber": 4}}},
                                   separators=(",", ":")) + ",\n")
        f.write(json.dumps({"name": "TracingStartedInBrowser", "ph": "I", "pid": 7, "tid": 1, "ts": ts, "s": "t"},
                           separators=(",", ":")) + "\n]}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--sizes", default="100")
    ap.add_argument("--kinds", default="cpuprofile,trace")
    ap.add_argument("--seed", type=int, default=20240601)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for s in a.sizes.split(","):
        size = int(s) << 20
        for kind in a.kinds.split(","):
            rng = random.Random(a.seed)
            if kind == "cpuprofile":
                path = os.path.join(a.out, f"v8-{s}mb.cpuprofile")
                cpuprofile(path, size, rng)
            else:
                path = os.path.join(a.out, f"trace-{s}mb.json")
                trace(path, size, rng)
            print(path, os.path.getsize(path))


if __name__ == "__main__":
    main()
