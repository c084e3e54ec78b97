#!/usr/bin/env python3
"""Independent reading of the markers in a Chrome trace (JSON: `[event, ...]` or `{"traceEvents": [...]}`) or a
Firefox Profiler (processed Gecko) profile, written from the formats' documentation (the Trace Event Format;
the processed profile's `threads[].markers` table), not from scorch's code.

Chrome trace: `X` (ts, dur), `B`/`E` (matched last-in first-out per pid and tid), `I`/`i` (instants); times in
microseconds, as nanoseconds (rounded half away from zero); the thread is its `thread_name` metadata, else
`pid/tid`. `X` without `dur` and `B` never ended are instants.
Gecko: each thread's `markers` table (name: an index into the thread's `stringArray` or the shared
`shared.stringArray`, startTime/endTime in ms from `meta.startTime`, phase 0 instant, 1 interval, 2 start,
3 end); times in ms as nanoseconds (the samples' clock: no `meta.startTime` added); the thread is its `name`.

Usage: markers.py FILE -> lines `THREAD<TAB>NAME<TAB>START_NS<TAB>DURATION_NS` (`-` for an instant), sorted.
"""
import gzip
import json
import math
import sys


def ns(ms_or_us, scale):
    return int(math.floor(ms_or_us * scale + 0.5))


def chrome(doc):
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    names = {}
    for e in events:
        if e.get('ph') == 'M' and e.get('name') == 'thread_name':
            names[(e.get('pid'), e.get('tid'))] = e.get('args', {}).get('name', '').strip()
    out, stacks = [], {}
    for e in events:
        ph = e.get('ph')
        if ph not in ('X', 'B', 'E', 'I', 'i') or 'ts' not in e:
            continue
        key = (e.get('pid'), e.get('tid'))
        start = ns(e['ts'], 1000)
        if ph == 'E':
            if stacks.get(key):
                m = stacks[key].pop()
                m[3] = max(start, m[2]) - m[2]
            continue
        thread = names.get(key) or '%s/%s' % (key[0] if key[0] is not None else '?', key[1] if key[1] is not None else '?')
        dur = ns(e['dur'], 1000) if ph == 'X' and 'dur' in e else None
        m = [thread, e.get('name', ''), start, dur]
        out.append(m)
        if ph == 'B':
            stacks.setdefault(key, []).append(m)
    return out


def gecko(doc):
    base = 0
    shared = doc.get('shared', {}).get('stringArray')
    out = []
    for t in doc['threads']:
        strings = t.get('stringArray', shared)
        mk = t['markers']
        for i in range(mk['length']):
            name = strings[mk['name'][i]]
            start, end, phase = mk['startTime'][i], mk['endTime'][i], mk['phase'][i]
            if phase in (1,) and start is not None and end is not None:
                out.append([t.get('name', ''), name, ns(base + start, 1e6), ns(base + end, 1e6) - ns(base + start, 1e6)])
            elif phase in (0, 2) and start is not None:
                out.append([t.get('name', ''), name, ns(base + start, 1e6), None])
            elif phase == 3 and end is not None:
                out.append([t.get('name', ''), name, ns(base + end, 1e6), None])
    return out


def main():
    path = sys.argv[1]
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        doc = json.load(f)
    rows = gecko(doc) if isinstance(doc, dict) and 'meta' in doc and 'threads' in doc else chrome(doc)
    for r in sorted(rows, key=lambda r: (r[0], r[2], r[1], -1 if r[3] is None else r[3])):
        print('\t'.join([r[0], r[1], str(r[2]), '-' if r[3] is None else str(r[3])]))


main()
