#!/usr/bin/env python3
"""V8's optimising (TurboFan) compiles of wasm functions in one browser run, summed per module and per function.

A diagnosis, not a benchmark. Make the log with Chromium's own output and V8's compile trace, on a build whose
wasm keeps its function names (`bench/names-build.sh`; docs/BENCHMARKS.md, "A spare parse worker from the page…"):

    DEBUG=pw:browser node bench/fresh-file-browser.mjs DIST FILE 1 --trace-wasm-compilation-times > LOG 2>&1
    python3 bench/tierup-summary.py LOG [DIST/scorch-engine_bg.wasm]

With the engine's wasm given, its functions are named from the name section (V8 prints only their index). The
two modules (page and engine) are told apart by V8's module address; the largest sum is the engine's in a large
load.
"""
import collections
import re
import sys


def leb(b, i):
    r = s = 0
    while True:
        x = b[i]
        i += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, i


def names(path):
    """Function index -> name, from a wasm file's `name` section (indices count imported functions first)."""
    b = open(path, 'rb').read()
    i, out = 8, {}
    while i < len(b):
        sid = b[i]
        ln, i = leb(b, i + 1)
        end = i + ln
        if sid == 0:
            nl, j = leb(b, i)
            if b[j:j + nl] == b'name':
                j += nl
                while j < end:
                    sub = b[j]
                    sl, j = leb(b, j + 1)
                    if sub == 1:
                        n, k = leb(b, j)
                        for _ in range(n):
                            idx, k = leb(b, k)
                            l, k = leb(b, k)
                            out[idx] = b[k:k + l].decode('utf8', 'replace')
                            k += l
                    j += sl
        i = end
    return out


def main():
    per_module = collections.Counter()
    per_fn = collections.Counter()
    size = {}
    pat = re.compile(r'Compiled function (0x[0-9a-f]+)#(\d+) using TurboFan, took (\d+) μs.*bodysize (\d+)')
    for line in open(sys.argv[1], errors='replace'):
        m = pat.search(line)
        if not m:
            continue
        module, index, us, body = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
        per_module[module] += us
        per_fn[(module, index)] += us
        size[(module, index)] = body
    known = names(sys.argv[2]) if len(sys.argv) > 2 else {}
    for module, us in per_module.most_common():
        print(f'module {module}: {us / 1000:.0f} ms in {sum(1 for k in per_fn if k[0] == module)} functions')
    engine = per_module.most_common(1)[0][0] if per_module else None
    for (module, index), us in per_fn.most_common(15):
        name = known.get(index, '') if module == engine else '(the other module)'
        print(f'{us / 1000:6.1f} ms  #{index:<5} {size[(module, index)]:6} bytes  {name[:100]}')


if __name__ == '__main__':
    main()
