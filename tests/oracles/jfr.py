#!/usr/bin/env python3
"""Independent reading of `jfr print` output (the JDK's own rendering of a JFR recording), written from what
`jfr print --stack-depth 64 --events ...` prints (text) and from `jfr print --json` reduced to one event a line
(`tests/data/jfr/PROVENANCE.md`), not from scorch's code.

Each event is `jdk.NAME {` ... `}` with `key = value` lines; `stackTrace = [` lists one frame a line, the top
frame first, as `package.Class.method(Params) line: N` (or without ` line: N`), and a last `...` line when the
stack was cut (taken as a `[truncated stack]` root, docs/FORMATS.md). A frame is taken as `package.Class.method`: the text before the parameter list's `(`.

In the JSON lines a frame is `[class, method, hidden]`: taken as `class.method` with the class's `/` as `.`,
and left out when hidden (as the text leaves hidden frames out).

Usage: jfr.py TEXT stacks [EVENT...]         -> lines `STACK COUNT` (root first, `;`-joined), one per event
       jfr.py TEXT threads [EVENT...]        -> lines `THREAD COUNT` (the sampled or event thread's name)
       jfr.py TEXT truncated                 -> `truncated N`: the stacks with a `...` line
       jfr.py JSONL weights FIELD EVENT      -> lines `STACK SUM` of FIELD (`weight`: bytes; `duration`: ISO
                                                `PTnS` as nanoseconds)
       jfr.py JSONL markers                  -> lines `THREAD<TAB>TYPE<TAB>START_NS<TAB>DURATION_NS`, sorted:
                                                every event of `jfr print --json` reduced to type, startTime
                                                (ISO 8601 UTC, to the nanosecond), duration (ISO `PTnHnMnS`)
                                                and its eventThread's javaName, else osName, else `JVM`
"""
import json
from decimal import Decimal
import re
import sys

def events(path):
    """Yields (name, fields, frames, truncated) for every top-level event."""
    name, fields, frames, in_stack, cut = None, {}, [], False, False
    with open(path, encoding='utf-8') as f:
        for raw in f:
            line = raw.rstrip('\n')
            if name is None:
                m = re.match(r'^(\S+) \{$', line)
                if m:
                    name, fields, frames, in_stack, cut = m.group(1), {}, [], False, False
                continue
            if line == '}':
                yield name, fields, frames, cut
                name = None
                continue
            s = line.strip()
            if in_stack:
                if s == ']':
                    in_stack = False
                elif s == '...':
                    cut = True
                else:
                    frames.append(s[:s.index('(')] if '(' in s else s)
                continue
            if s == 'stackTrace = [':
                in_stack = True
            elif line.startswith('  ') and not line.startswith('   ') and ' = ' in s:
                k, v = s.split(' = ', 1)
                fields[k] = v


def nanos(iso):
    """`PT0.033672742S` (or with `M`/`H`) as whole nanoseconds."""
    m = re.match(r'^PT(?:(\d+)H)?(?:(\d+)M)?(?:([0-9.]+)S)?$', iso)
    h, mi, sec = m.group(1) or 0, m.group(2) or 0, m.group(3) or '0'
    return int((Decimal(h) * 3600 + Decimal(mi) * 60 + Decimal(sec)) * 10 ** 9)


def weights(path, field, event):
    out = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            e = json.loads(line)
            if e['type'] != event:
                continue
            frames = [c.replace('/', '.') + '.' + m for c, m, hidden in e['frames'] if not hidden]
            key = ';'.join(['[truncated stack]'] * e['truncated'] + list(reversed(frames)))
            w = e[field] if field == 'weight' else nanos(e[field])
            out[key] = out.get(key, 0) + w
    for k, v in sorted(out.items()):
        print(k, v)


def iso_ns(text):
    """`2026-11-27T10:18:28.414933693Z` as nanoseconds since the epoch (exact: the fraction as digits)."""
    import calendar
    m = re.match(r'^(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)(?:\.(\d+))?Z$', text)
    y, mo, d, h, mi, sec, frac = m.groups()
    whole = calendar.timegm((int(y), int(mo), int(d), int(h), int(mi), int(sec), 0, 0, 0))
    return whole * 10**9 + int((frac or '').ljust(9, '0')[:9])


def duration_ns(text):
    """An ISO 8601 duration `PT[nH][nM][n.nS]` as nanoseconds."""
    m = re.match(r'^PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$', text)
    h, mi, sec = m.groups()
    return (int(h or 0) * 3600 + int(mi or 0) * 60) * 10**9 + int(Decimal(sec or '0') * 10**9)


def marker_rows(path):
    rows = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            e = json.loads(line)
            thread = e.get('javaName') or e.get('osName') or 'JVM'
            rows.append((thread, e['type'], iso_ns(e['startTime']), duration_ns(e['duration'])))
    for r in sorted(rows):
        print('\t'.join(map(str, r)))


def main():
    path, mode = sys.argv[1], sys.argv[2]
    if mode == 'markers':
        marker_rows(path)
        return
    if mode == 'weights':
        weights(path, sys.argv[3], sys.argv[4])
        return
    rest = sys.argv[3:]
    want = set(rest)
    out = {}
    cut = 0
    for name, fields, frames, truncated in events(path):
        if want and name not in want:
            continue
        cut += truncated
        key = ';'.join(['[truncated stack]'] * truncated + list(reversed(frames)))
        if mode == 'stacks':
            out[key] = out.get(key, 0) + 1
        elif mode == 'threads':
            t = fields.get('sampledThread', fields.get('eventThread', ''))
            m = re.match(r'^"(.*)" \(javaThreadId = \d+\)$', t)
            t = m.group(1) if m else t
            out[t] = out.get(t, 0) + 1
    if mode == 'truncated':
        print('truncated', cut)
        return
    for k, v in sorted(out.items()):
        print(k, v)


main()
