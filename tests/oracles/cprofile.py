#!/usr/bin/env python3
"""Independent reading of a pstats file (`python -m cProfile -o FILE`) by Python's own `pstats` module, with
scorch's documented frame naming (docs/FORMATS.md, cProfile), not scorch's code.

Usage: cprofile.py FILE -> one line per function, tab-separated:
       NAME  NCALLS  PRIMITIVE_CALLS  TOTTIME_NS  CUMTIME_NS  RECURSIVE(0/1)
       and a last line `TOTAL  <total_tt in ns>`.
Times are pstats' seconds as whole nanoseconds, round(seconds * 1e9) (Python's round: half to even).
"""
import collections
import pstats
import sys


def display(func):
    file, line, name = func
    # pstats prints a builtin (file `~`, line 0) `<built-in method x>` as `{built-in method x}`.
    if file == '~' and line == 0 and name.startswith('<') and name.endswith('>'):
        return '{' + name[1:-1] + '}'
    return name


def main():
    st = pstats.Stats(sys.argv[1])
    funcs = set(st.stats)
    for _, _, _, _, callers in st.stats.values():
        funcs.update(callers)
    shared = collections.Counter(name for _, _, name in funcs)
    for func, (cc, nc, tt, ct, callers) in st.stats.items():
        name = display(func)
        if shared[func[2]] > 1:
            name = '%s (%s:%d)' % (name, func[0], func[1])
        print('\t'.join([name, str(nc), str(cc), str(round(tt * 1e9)), str(round(ct * 1e9)),
                         '1' if nc != cc else '0']))
    print('TOTAL\t%d' % round(st.total_tt * 1e9))


main()
