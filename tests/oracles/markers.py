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
The raw format Firefox writes (tables as `schema` + `data` rows, strings in `stringTable`, content processes
in `processes[]` whose times move by their `meta.startTime` minus the parent's) is first turned into the same
columns, as the Firefox Profiler's processing does. Markers are then derived as the profiler's
`deriveMarkersFromRawMarkerTable` does: 2 and 3 paired by name per thread, last in first out, into an
interval; an unmatched end starts at min(end, the thread's first sample), an unmatched start ends at
max(start, last sample + meta.interval); payloads of type `JS allocation`/`Native allocation` are no markers.

Usage: markers.py FILE -> lines `THREAD<TAB>NAME<TAB>START_NS<TAB>DURATION_NS<TAB>PID<TAB>TID` (`-` for an
instant, empty for an unknown id), sorted.

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
        m = [thread, e.get('name', ''), start, dur, str(key[0]) if key[0] is not None else '', str(key[1]) if key[1] is not None else '']
        out.append(m)
        if ph == 'B':
            stacks.setdefault(key, []).append(m)
    return out


def table(t, key):
    """A raw `{schema, data}` table as a dict of columns (a short row's missing cells are None)."""
    tb = t[key]
    cols = {}
    for name, at in tb['schema'].items():
        cols[name] = [row[at] if at < len(row) else None for row in tb['data']]
    cols['length'] = len(tb['data'])
    return cols


def raw_thread(t, offset):
    """A raw thread's samples' times and markers, as processed columns."""
    times = [r + offset for r in table(t, 'samples')['time']]
    mk = table(t, 'markers')
    for k in ('startTime', 'endTime'):
        mk[k] = [None if v is None else v + offset for v in mk[k]]
    return times, mk, t['stringTable']


def derive(tname, pid, tid, strings, mk, times, interval, out):
    def typ(i):
        d = mk.get('data', [None] * mk['length'])[i]
        return d.get('type') if isinstance(d, dict) else None
    keep = [i for i in range(mk['length']) if typ(i) not in ('JS allocation', 'Native allocation')]
    if times:
        lo, hi = times[0], times[-1] + interval
    else:
        pts = []
        for i in keep:
            ph, s, e = mk['phase'][i], mk['startTime'][i], mk['endTime'][i]
            pts += [x for x in ((s,) if ph in (0, 2) else (e,) if ph == 3 else (s, e) if ph == 1 else ()) if x is not None]
        lo, hi = (min(pts), max(pts) + interval) if pts else (math.inf, -math.inf)

    def emit(i, start, end):
        s = ns(start, 1e6)
        out.append([tname, strings[mk['name'][i]], s, None if end is None else max(ns(end, 1e6), s) - s, pid, tid])
    opened = {}
    order = []
    for i in keep:
        ph, s, e, n = mk['phase'][i], mk['startTime'][i], mk['endTime'][i], mk['name'][i]
        if ph == 0 and s is not None:
            emit(i, s, None)
        elif ph == 1 and s is not None and e is not None:
            emit(i, s, e)
        elif ph == 2 and s is not None and n is not None:
            if not opened.get(n):
                order.append(n)
            opened.setdefault(n, []).append(i)
        elif ph == 3 and e is not None and n is not None:
            if opened.get(n):
                si = opened[n].pop()
                emit(si, mk['startTime'][si], e)
            else:
                emit(i, min(e, lo), e)
    for n in order:
        for si in opened.pop(n, []):
            emit(si, mk['startTime'][si], max(hi, mk['startTime'][si]))


def lead_int(v):
    digits = ''
    for ch in str(v) if v is not None else '':
        if not ch.isdigit():
            break
        digits += ch
    return digits


def gecko(doc):
    shared = doc.get('shared', {}).get('stringArray')
    interval = doc['meta'].get('interval', 1)
    out = []
    threads = [(t, 0.0) for t in doc['threads']]
    parent = doc['meta'].get('startTime', 0)
    for sp in doc.get('processes', []):
        threads += [(t, sp['meta']['startTime'] - parent) for t in sp['threads']]
    for t, offset in threads:
        if 'schema' in t['samples']:
            times, mk, strings = raw_thread(t, offset)
        else:
            strings = t.get('stringArray', shared)
            mk = t['markers']
            sm = t['samples']
            if 'time' in sm:
                times = sm['time']
            else:
                acc, times = 0.0, []
                for d in sm.get('timeDeltas', []):
                    acc += d
                    times.append(acc)
        derive(t.get('name', '').strip(), lead_int(t.get('pid')), lead_int(t.get('tid')), strings, mk, times, interval, out)
    return out


def main():
    path = sys.argv[1]
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        doc = json.load(f)
    rows = gecko(doc) if isinstance(doc, dict) and 'meta' in doc and 'threads' in doc else chrome(doc)
    for r in sorted(rows, key=lambda r: (r[0], r[2], r[1], -1 if r[3] is None else r[3])):
        print('\t'.join([r[0], r[1], str(r[2]), '-' if r[3] is None else str(r[3]), r[4], r[5]]))


main()
