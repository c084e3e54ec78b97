#!/usr/bin/env python3
"""Independent reading of a DHAT profile (`valgrind --tool=dhat`, dhat.out.PID), written from DHAT's file
format (dhat/dh_main.c and dh_view.js: `pps` with per-point numbers and `fs` indexes into `ftbl`, innermost
frame first) and scorch's documented frame naming (docs/FORMATS.md, DHAT), not from scorch's code.

Usage: dhat.py FILE stacks FIELD     -> lines `STACK VALUE` (root first, `;`-joined)
       dhat.py FILE functions FIELD  -> lines `FUNCTION FLAT CUM`
       dhat.py FILE totals           -> lines `FIELD SUM` for every field
"""
import json
import re
import sys

FIELDS = ['tb', 'tbk', 'gb', 'gbk', 'eb', 'ebk', 'mb', 'mbk', 'rb', 'wb', 'tl']


def function(text):
    m = re.match(r'0x[0-9A-Fa-f]+: (.*)$', text)
    rest = m.group(1) if m else text
    if rest.endswith(')') and ' (' in rest and not rest.startswith('???'):
        rest = rest[:rest.rindex(' (')]
    return rest or '(unnamed)'


def main():
    with open(sys.argv[1], encoding='utf-8') as f:
        doc = json.load(f)
    mode = sys.argv[2]
    if mode == 'totals':
        for k in FIELDS:
            print(k, sum(pp.get(k, 0) for pp in doc['pps']))
        return
    field = sys.argv[3]
    names = [function(t) for t in doc['ftbl']]
    if mode == 'stacks':
        for pp in doc['pps']:
            if pp.get(field, 0):
                print(';'.join(names[i] for i in reversed(pp['fs'])), pp[field])
    else:
        flat, cum = {}, {}
        for pp in doc['pps']:
            w = pp.get(field, 0)
            frames = [names[i] for i in pp['fs']]
            if not w or not frames:
                continue
            flat[frames[0]] = flat.get(frames[0], 0) + w
            for fn in set(frames):
                cum[fn] = cum.get(fn, 0) + w
        for fn in cum:
            print(fn, flat.get(fn, 0), cum[fn])


main()
