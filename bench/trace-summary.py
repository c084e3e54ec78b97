#!/usr/bin/env python3
"""Summaries of a Chrome trace written by `bench/trace-load.mjs` or `bench/trace-key.mjs`.

A diagnosis, not a benchmark. Times are ms after navigation, or after the first trace event named by the
environment's ORIGIN (a mark such as `trace:file` or `bench:import-done`).

    python3 bench/trace-summary.py tasks TRACE [MIN_MS]
        the page's main-thread tasks of MIN_MS (30) or more: wall, CPU, V8's lazy wasm compile in them (ms and
        functions), the marks within 5 ms, and what they spent their time in
    python3 bench/trace-summary.py lazy TRACE WASM FROM TO
        the wasm functions V8 compiled on first call (`wasm.CompileLazy`) between FROM and TO, the largest
        compile first, named from WASM's name section (a names build: `bench/names-build.sh`)
    python3 bench/trace-summary.py threads TRACE FROM TO
        each thread's busy wall time and CPU between FROM and TO (who shares the two cores)
    python3 bench/trace-summary.py cpu TRACE FROM TO [TOP]
        the main thread's CPU profile samples between FROM and TO, self and inclusive time per function
        (a trace made with SCORCH_CPU_PROFILE=1)
"""
import collections
import importlib.util
import json
import os
import sys


def load(path):
    ev = json.load(open(path))
    return ev if isinstance(ev, list) else ev["traceEvents"]


def thread_names(ev):
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"}


def origin(ev):
    name = os.environ.get("ORIGIN", "navigationStart")
    ts = [e["ts"] for e in ev if e.get("name") == name]
    return min(ts) if ts else min(e["ts"] for e in ev if "ts" in e and e["ts"] > 0)


def main_thread(ev, names):
    """The renderer main thread that ran the most tasks (the page's, not a popup's)."""
    runs = collections.Counter(
        (e["pid"], e["tid"]) for e in ev if e.get("name") == "RunTask" and names.get((e["pid"], e["tid"])) == "CrRendererMain"
    )
    return runs.most_common(1)[0][0]


def tasks(path, least=30.0):
    ev = load(path)
    names = thread_names(ev)
    main = main_thread(ev, names)
    o = origin(ev)
    on = [e for e in ev if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X"]
    marks = [(e["ts"], e["name"]) for e in ev if "user_timing" in e.get("cat", "") and (e.get("pid"), e.get("tid")) == main]
    for t in on:
        if t["name"] != "RunTask" or t.get("dur", 0) < least * 1000:
            continue
        a, b = t["ts"], t["ts"] + t["dur"]
        inner = [e for e in on if a <= e["ts"] < b and e is not t]
        lazy = [e for e in inner if e["name"] == "wasm.CompileLazy"]
        spent = collections.Counter()
        for e in inner:
            spent[e["name"]] += e.get("dur", 0)
        near = [n for ts, n in marks if a - 5000 <= ts <= b + 5000]
        print(
            f"@{(a - o) / 1000:.0f} wall {t['dur'] / 1000:.1f} cpu {t.get('tdur', 0) / 1000:.1f} "
            f"lazy {sum(e.get('dur', 0) for e in lazy) / 1000:.1f} ({len(lazy)}) marks {near}"
        )
        print("    " + ", ".join(f"{n} {d / 1000:.1f}" for n, d in spent.most_common(8)))


# The wasm reading (LEB128 numbers, the name section) is tierup-summary.py's.
_spec = importlib.util.spec_from_file_location("tierup_summary", os.path.join(os.path.dirname(__file__), "tierup-summary.py"))
tierup = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tierup)
leb = tierup.leb


def wasm_functions(path):
    """Function index → (name, body bytes): the sizes from the import and code sections, the names from
    `tierup-summary.py`'s reading of the name section (its indices count imported functions first, as V8's do)."""
    b = open(path, "rb").read()
    i, imported, sizes = 8, 0, []
    while i < len(b):
        sid = b[i]
        n, i = leb(b, i + 1)
        end = i + n
        if sid == 2:  # imports: only functions take indices before the module's own
            count, j = leb(b, i)
            for _ in range(count):
                for _ in range(2):
                    length, j = leb(b, j)
                    j += length
                kind = b[j]
                j += 1
                if kind == 0:
                    _, j = leb(b, j)
                    imported += 1
                elif kind in (1, 2):  # table (type, limits), memory (limits)
                    j += kind == 1
                    flags = b[j]
                    _, j = leb(b, j + 1)
                    if flags & 1:
                        _, j = leb(b, j)
                elif kind == 3:
                    j += 2
                elif kind == 4:
                    _, j = leb(b, j + 1)
        elif sid == 10:
            count, j = leb(b, i)
            for _ in range(count):
                length, j = leb(b, j)
                sizes.append(length)
                j += length
        i = end
    named = tierup.names(path)
    return {imported + n: (named.get(imported + n, f"function {imported + n}"), s) for n, s in enumerate(sizes)}


def lazy(path, wasm, start, stop):
    ev = load(path)
    funcs = wasm_functions(wasm)
    o = origin(ev)
    rows = []
    for e in ev:
        if e.get("name") == "wasm.CompileLazy" and start <= (e["ts"] - o) / 1000 <= stop:
            name, size = funcs.get(e.get("args", {}).get("func_index"), ("?", 0))
            rows.append((e.get("dur", 0) / 1000, size, name))
    rows.sort(reverse=True)
    print(f"{len(rows)} compiles, {sum(r[0] for r in rows):.1f} ms, {sum(r[1] for r in rows)} bytes")
    for ms, size, name in rows[:40]:
        print(f"{ms:6.2f} {size:7d} {name[:150]}")


def threads(path, start, stop):
    ev = load(path)
    names = thread_names(ev)
    procs = {e["pid"]: e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "process_name"}
    o = origin(ev)
    lo, hi = o + start * 1000, o + stop * 1000
    by = collections.defaultdict(list)
    for e in ev:
        if e.get("ph") == "X" and "dur" in e:
            by[(e["pid"], e["tid"])].append(e)
    for key, es in by.items():
        es.sort(key=lambda e: (e["ts"], -e["dur"]))
        end, wall, cpu = -1, 0.0, 0.0
        for e in es:  # the outermost events only
            if e["ts"] < end:
                continue
            end = e["ts"] + e["dur"]
            a, b = max(e["ts"], lo), min(end, hi)
            if b > a:
                wall += b - a
                cpu += e.get("tdur", 0) * (b - a) / max(e["dur"], 1)
        if wall > 1000:
            print(f"{procs.get(key[0], '?')[:12]:12} {names.get(key, str(key))[:30]:30} wall {wall / 1000:7.1f} cpu {cpu / 1000:7.1f}")


def cpu(path, start, stop, top=30):
    ev = load(path)
    names = thread_names(ev)
    o = origin(ev)
    profiles = {(e["pid"], e["id"]): (e["tid"], e["args"]["data"].get("startTime")) for e in ev if e.get("name") == "Profile"}
    nodes, samples, clock = {}, [], {}
    for e in ev:
        if e.get("name") != "ProfileChunk":
            continue
        key = (e["pid"], e["id"])
        tid, first = profiles.get(key, (e["tid"], None))
        if names.get((e["pid"], tid)) != "CrRendererMain":
            continue
        data = e["args"]["data"]
        profile = data.get("cpuProfile", {})
        for n in profile.get("nodes", []):
            nodes[(key, n["id"])] = (n["callFrame"].get("functionName") or "(anonymous)", n.get("parent"))
        t = clock.get(key, first)
        for s, dt in zip(profile.get("samples", []), data.get("timeDeltas", [])):
            t += dt
            samples.append((t, key, s))
        clock[key] = t
    samples.sort()
    own, inclusive = collections.Counter(), collections.Counter()
    for i, (t, key, s) in enumerate(samples):
        if not o + start * 1000 <= t <= o + stop * 1000 or (key, s) not in nodes:
            continue
        dt = min((samples[i + 1][0] - t) / 1000, 2.0) if i + 1 < len(samples) else 0.0
        own[nodes[(key, s)][0]] += dt
        seen, k = set(), (key, s)
        while k in nodes:
            name, parent = nodes[k]
            if name not in seen:
                inclusive[name] += dt
                seen.add(name)
            if parent is None:
                break
            k = (key, parent)
    for title, counts in (("self", own), ("inclusive", inclusive)):
        print(f"{title}:")
        for name, ms in counts.most_common(top):
            print(f"  {ms:6.1f} {name[:150]}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    what, a = sys.argv[1], sys.argv[2:]
    if what == "tasks":
        tasks(a[0], float(a[1]) if len(a) > 1 else 30.0)
    elif what == "lazy":
        lazy(a[0], a[1], float(a[2]), float(a[3]))
    elif what == "threads":
        threads(a[0], float(a[1]), float(a[2]))
    elif what == "cpu":
        cpu(a[0], float(a[1]), float(a[2]), int(a[3]) if len(a) > 3 else 30)
    else:
        sys.exit(__doc__)
