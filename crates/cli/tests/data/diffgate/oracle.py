#!/usr/bin/env python3
"""Writes oracle.txt: each profile's main.* totals as shares, from `go tool pprof -top` (not scorch), its sample
records from `go tool pprof -raw`, and the gate's one-sided Welch test on those shares (each side's variance at
least the mean of q(1 - q)/N over its runs, q the share and N the records; p from SciPy's Student t), for
crates/cli/tests/diff_gate.rs.

Run from this folder with Go and SciPy installed: python3 oracle.py > oracle.txt
"""
import math
import re
import subprocess

from scipy.stats import t as student_t

FUNCS = ["main.stringWork", "main.hashWork", "main.sortWork", "main.mathWork"]
FILES = [f"{k}{i}.pb.gz" for k in ("base", "same", "double") for i in (1, 2, 3)]


def shares(path):
    out = subprocess.run(
        ["go", "tool", "pprof", "-top", "-unit=ns", "-nodecount=100000", "-nodefraction=0", "-edgefraction=0", path],
        capture_output=True, text=True, check=True,
    ).stdout
    total = int(re.search(r"Total samples = (\d+)ns", out).group(1))
    cum = {}
    for line in out.splitlines():
        # pprof marks a function inlined into its caller `NAME (inline)`; to scorch the kind is an attribute
        # (the function shows up in one form only in these profiles).
        cols = line.removesuffix(" (inline)").split()
        if len(cols) == 6 and cols[5] in FUNCS:
            assert cols[5] not in cum, f"{cols[5]} twice in {path}"
            cum[cols[5]] = int(cols[3].removesuffix("ns")) if cols[3] != "0" else 0
    return {f: 100.0 * cum.get(f, 0) / total for f in FUNCS}


def records(path):
    out = subprocess.run(["go", "tool", "pprof", "-raw", path], capture_output=True, text=True, check=True).stdout
    return sum(1 for line in out.splitlines() if re.match(r"^\s+\d+\s+\d+: ", line))


def welch_floored(b, t, nb, nt):
    """One-sided Welch (t larger than b) with each side's variance at least its mean sampling variance."""
    def side(xs, ns):
        m = sum(xs) / len(xs)
        var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
        floor = sum((x / 100) * (1 - x / 100) / n * 1e4 for x, n in zip(xs, ns)) / len(xs)
        return m, max(var, floor) / len(xs)
    m1, a = side(b, nb)
    m2, c = side(t, nt)
    tt = (m2 - m1) / math.sqrt(a + c)
    df = (a + c) ** 2 / (a * a / (len(b) - 1) + c * c / (len(t) - 1))
    return m2 - m1, tt, float(student_t.sf(tt, df))


table = {f: shares(f) for f in FILES}
n = {f: records(f) for f in FILES}
for path in FILES:
    print(f"records {path} {n[path]}")
    for fn in FUNCS:
        print(f"share {path} {fn} {table[path][fn]!r}")
for target in ("same", "double"):
    for fn in FUNCS:
        b = [table[f"base{i}.pb.gz"][fn] for i in (1, 2, 3)]
        t = [table[f"{target}{i}.pb.gz"][fn] for i in (1, 2, 3)]
        nb = [n[f"base{i}.pb.gz"] for i in (1, 2, 3)]
        nt = [n[f"{target}{i}.pb.gz"] for i in (1, 2, 3)]
        delta, tt, p = welch_floored(b, t, nb, nt)
        print(f"welch {target} {fn} {delta!r} {tt!r} {p!r}")
