#!/usr/bin/env python3
"""Writes oracle.txt: each profile's main.* totals as shares, from `go tool pprof -top` (not scorch), and Welch's
one-sided t-test on them from SciPy, for crates/cli/tests/diff_gate.rs.

Run from this folder with Go and SciPy installed: python3 oracle.py > oracle.txt
"""
import re
import subprocess

from scipy.stats import ttest_ind

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


table = {f: shares(f) for f in FILES}
for path in FILES:
    for fn in FUNCS:
        print(f"share {path} {fn} {table[path][fn]!r}")
for target in ("same", "double"):
    for fn in FUNCS:
        b = [table[f"base{i}.pb.gz"][fn] for i in (1, 2, 3)]
        t = [table[f"{target}{i}.pb.gz"][fn] for i in (1, 2, 3)]
        r = ttest_ind(t, b, equal_var=False, alternative="greater")
        delta = sum(t) / 3 - sum(b) / 3
        print(f"welch {target} {fn} {delta!r} {float(r.statistic)!r} {float(r.pvalue)!r}")
