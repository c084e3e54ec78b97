#!/usr/bin/env python3
"""Independent reading of a V8 sampling heap profile (`node --heap-prof`, a `.heapprofile`), written from the
format (Chrome DevTools Protocol, HeapProfiler.SamplingHeapProfile: head node {callFrame, selfSize, id,
children}, samples [{size, nodeId, ordinal}]) and scorch's documented frame naming (docs/FORMATS.md, V8), not
from scorch's code.

Usage: heapprofile.py FILE stacks     -> lines `STACK SELF_BYTES ALLOCATIONS` (one per node path with either)
       heapprofile.py FILE functions  -> lines `FUNCTION FLAT_BYTES CUM_BYTES`
"""
import json
import sys


def base_name(cf):
    name = ''.join('\\x%02x' % ord(c) if ord(c) < 32 or 0x7f <= ord(c) < 0xa0 else c
                   for c in cf.get('functionName', '').strip())
    return name or '(anonymous)'


def main():
    path, mode = sys.argv[1], sys.argv[2]
    with open(path, encoding='utf-8') as f:
        doc = json.load(f)
    nodes = []  # (node, parent index)
    todo = [(doc['head'], -1)]
    while todo:
        node, parent = todo.pop()
        nodes.append((node, parent))
        me = len(nodes) - 1
        for child in node.get('children', []):
            todo.append((child, me))
    # A name that stands for several locations gets its location (1-based line; the column too when two of
    # its locations share a line).
    places = {}
    for node, _ in nodes:
        cf = node['callFrame']
        places.setdefault(base_name(cf), set()).add(
            (cf.get('url', ''), cf.get('lineNumber', -1), cf.get('columnNumber', -1)))

    def name(cf):
        base = base_name(cf)
        ps = places[base]
        if len(ps) < 2:
            return base
        with_column = len({(u, l) for u, l, _ in ps}) < len(ps)
        loc = cf.get('url', '').strip()
        line, col = cf.get('lineNumber', -1), cf.get('columnNumber', -1)
        if line >= 0:
            loc = (loc + ':' if loc else '') + str(line + 1)
            if with_column and col >= 0:
                loc += ':' + str(col + 1)
        return '%s (%s)' % (base, loc) if loc else base

    paths = []
    for node, parent in nodes:
        if parent < 0 and node['callFrame'].get('functionName') == '(root)':
            paths.append([])
        else:
            paths.append((paths[parent] if parent >= 0 else []) + [name(node['callFrame'])])
    index = {node['id']: i for i, (node, _) in enumerate(nodes)}
    allocs = [0] * len(nodes)
    for s in doc.get('samples', []):
        i = index.get(s['nodeId'])
        if i is not None:
            allocs[i] += 1
    if mode == 'stacks':
        for i, (node, _) in enumerate(nodes):
            if node['selfSize'] or allocs[i]:
                print('%s %d %d' % (';'.join(paths[i]), node['selfSize'], allocs[i]))
    else:
        flat, cum = {}, {}
        for i, (node, _) in enumerate(nodes):
            for f in paths[i]:
                flat.setdefault(f, 0)
            if paths[i]:
                flat[paths[i][-1]] += node['selfSize']
            for f in set(paths[i]):
                cum[f] = cum.get(f, 0) + node['selfSize']
        for f in flat:
            print('%s %d %d' % (f, flat[f], cum.get(f, 0)))


main()
