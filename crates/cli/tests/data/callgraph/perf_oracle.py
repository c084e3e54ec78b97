#!/usr/bin/env python3
"""An independent call graph with pprof's rules, from folded stacks (`scorch fold FILE`), for perf recordings,
which `go tool pprof` cannot read. Written from google/pprof's internal/graph/graph.go and
internal/report/report.go (newGraph, newTrimmedGraph, EntropyOrder, TrimLowFrequencyEdges,
RemoveRedundantEdges), without looking at scorch's code. No nodecount (it is 0 here): pprof's nodelet
counting needs labels, which folded text has not.

Usage: perf_oracle.py NODEFRACTION EDGEFRACTION < folded > graph.json

A frame's name is the function; the suffixes `_[k]`, `_[j]`, `_[i]` (kernel, JIT, inlined) are kinds, not part of
the name; an edge into an `_[i]` frame is an inline call.
"""
import json
import math
import sys


def parse(lines):
    paths = []
    for line in lines:
        line = line.rstrip("\n")
        if not line:
            continue
        stack, w = line.rsplit(" ", 1)
        w = int(w)
        if w == 0:
            continue
        frames = []
        for f in stack.split(";"):
            inline = f.endswith("_[i]")
            for k in ("_[k]", "_[j]", "_[i]"):
                if f.endswith(k):
                    f = f[: -len(k)]
                    break
            frames.append((f, inline))
        paths.append((frames, w))
    return paths


def build(paths, kept):
    flat, cum, edges = {}, {}, {}
    for frames, w in paths:
        seen_n, seen_e = set(), set()
        parent, residual = None, False
        for name, inline in frames:
            if kept is not None and name not in kept:
                residual = True
                continue
            if name not in seen_n:
                seen_n.add(name)
                cum[name] = cum.get(name, 0) + w
                flat.setdefault(name, 0)
            if parent is not None and parent != name and (parent, name) not in seen_e:
                seen_e.add((parent, name))
                e = edges.get((parent, name))
                if e is None:
                    edges[(parent, name)] = {"weight": w, "residual": residual, "inline": inline}
                else:
                    e["weight"] += w
                    e["residual"] = e["residual"] or residual
                    e["inline"] = e["inline"] and inline
            parent, residual = name, False
        if parent is not None and not residual:
            flat[parent] += w
    nodes = {n: (flat[n], cum[n]) for n in cum if flat[n] or cum[n]}
    return nodes, edges


def entropy(weights, own):
    total = own + sum(w for w in weights if w > 0)
    s = 0.0
    if total:
        for w in weights:
            f = w / total
            s += -f * math.log2(f)
        if own > 0:
            f = own / total
            s += -f * math.log2(f)
    return s


def order(nodes, edges):
    ins, outs = {n: [] for n in nodes}, {n: [] for n in nodes}
    for (a, b), e in edges.items():
        outs[a].append(e["weight"])
        ins[b].append(e["weight"])
    def score(n):
        flat, cum = nodes[n]
        s = (1.0 if not ins[n] else entropy(ins[n], 0)) + (1.0 if not outs[n] else entropy(outs[n], flat))
        return int(s * cum) + flat
    return sorted(nodes, key=lambda n: (-abs(score(n)), n.encode(), -nodes[n][0]))


def edge_key(item):
    (a, b), e = item
    return (-e["weight"], a.encode(), b.encode())


def remove_redundant(nodes, edges, sorted_nodes):
    ins = {n: [] for n in nodes}
    for pair, e in sorted(edges.items(), key=edge_key):
        ins[pair[1]].append(pair)
    alive = set(edges)
    for n in reversed(sorted_nodes):
        for pair in reversed(ins[n]):
            if not edges[pair]["residual"]:
                break
            src = pair[0]
            seen, queue, found = {n}, [n], False
            while queue and not found:
                m = queue.pop(0)
                for ie in ins[m]:
                    if ie == pair or ie not in alive or ie[0] in seen:
                        continue
                    if ie[0] == src:
                        found = True
                        break
                    seen.add(ie[0])
                    queue.append(ie[0])
            if found:
                alive.discard(pair)
    return {p: e for p, e in edges.items() if p in alive}


def main():
    nf, ef = float(sys.argv[1]), float(sys.argv[2])
    paths = parse(sys.stdin)
    nodes, edges = build(paths, None)
    total = sum(f for f, _ in nodes.values())
    node_cut, edge_cut = int(total * nf), int(total * ef)
    dropped_nodes = 0
    if node_cut > 0:
        kept = {n for n, (_, c) in nodes.items() if c >= node_cut}
        if len(kept) != len(nodes):
            dropped_nodes = len(nodes) - len(kept)
            nodes, edges = build(paths, kept)
    sorted_nodes = order(nodes, edges)
    before = len(edges)
    edges = {p: e for p, e in edges.items() if e["weight"] >= edge_cut}
    dropped_edges = before - len(edges)
    edges = remove_redundant(nodes, edges, sorted_nodes)
    json.dump(
        {
            "total": total,
            "dropped_nodes": dropped_nodes,
            "dropped_edges": dropped_edges,
            "nodes": [{"name": n, "flat": nodes[n][0], "cum": nodes[n][1]} for n in sorted_nodes],
            "edges": [
                {"from": a, "to": b, **e} for (a, b), e in sorted(edges.items(), key=edge_key)
            ],
        },
        sys.stdout,
        indent=1,
        sort_keys=True,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
