#!/usr/bin/env python3
"""Why the gate floors each side's variance: the gate's test and three variants, re-implemented here from each
run's total shares as `scorch top` prints them (two decimals) and its sample records (`scorch info`), over the
recordings of record.sh. Needs SciPy. Usage: SCORCH=target/release/scorch bench/diffgate/variants.py [DIR] [on]

Variants: with or without the sampling-variance floor, with or without a Bonferroni correction over the functions
whose growth exceeds PCT; for PCT 1, 2, 3 and alpha 0.01, 0.05. False alarms: 1000 random 3-vs-3 splits of the
unchanged runs (seed 1); caught: every base triple against every doubled (main.stringWork) triple.
"""
import glob
import math
import os
import random
import subprocess
import sys

from scipy.stats import t as T

SCORCH = os.environ.get("SCORCH", "target/release/scorch")
DIR = sys.argv[1] if len(sys.argv) > 1 else "/tmp/scorch-diffgate"
on = sys.argv[2] if len(sys.argv) > 2 else "total"

d = {}
for f in sorted(glob.glob(f"{DIR}/r*-*.pb.gz")):
    lines = subprocess.run([SCORCH, "top", "-n", "0", f], capture_output=True, text=True).stdout.splitlines()
    tot, slf = {}, {}
    for l in lines[2:]:
        c = l.split()
        pcts = [x for x in c if x.endswith("%")]
        slf[c[-1]] = float(pcts[0][:-1])
        tot[c[-1]] = float(pcts[2][:-1])
    info = subprocess.run([SCORCH, "info", f], capture_output=True, text=True).stdout
    n = int([l for l in info.splitlines() if l.startswith("samples:")][0].split()[1])
    d[os.path.basename(f)] = {"total": tot, "self": slf, "records": n}
reps = sorted({k.split('-')[0] for k in d})
def runs(r, kind): return [f"{r}-{kind}{i}.pb.gz" for i in (1,2,3)]
pool = [f for r in reps for k in ("base","same") for f in runs(r,k)]
def welch(b, t, floor_b=0, floor_t=0):
    n1, n2 = len(b), len(t)
    m1, m2 = sum(b)/n1, sum(t)/n2
    v1 = max(sum((x-m1)**2 for x in b)/(n1-1), floor_b)
    v2 = max(sum((x-m2)**2 for x in t)/(n2-1), floor_t)
    a, c = v1/n1, v2/n2
    delta = m2 - m1
    if a + c == 0: return delta, (0.0 if delta > 0 else 1.0)
    tt = delta / math.sqrt(a+c)
    df = (a+c)**2 / (a*a/(n1-1) + c*c/(n2-1))
    return delta, T.sf(tt, df)
def gate(B, Tg, pct, alpha, floor=False, corr=None):
    names = set().union(*[d[f][on] for f in B+Tg])
    cands = []
    for n in names:
        b = [d[f][on].get(n, 0.0) for f in B]; t = [d[f][on].get(n, 0.0) for f in Tg]
        fb = ft = 0
        if floor:
            fb = sum((x/100)*(1-x/100)/d[f]["records"] for x, f in zip(b, B))/3*1e4
            ft = sum((x/100)*(1-x/100)/d[f]["records"] for x, f in zip(t, Tg))/3*1e4
        delta, p = welch(b, t, fb, ft)
        if delta > pct: cands.append((p, n))
    k = len(cands)
    if corr == "bonf": return [n for p, n in cands if p < alpha / max(k,1)]
    return [n for p, n in cands if p < alpha]
rng = random.Random(1)
splits = [rng.sample(pool, 6) for _ in range(1000)]
dbl = [(runs(rb,"base"), runs(rd,"double")) for rb in reps for rd in reps]
for pct in (1, 2, 3):
  for alpha in (0.01, 0.05):
    for floor in (False, True):
      for corr in (None, "bonf"):
        fa = sum(bool(gate(s[:3], s[3:], pct, alpha, floor, corr)) for s in splits)
        hit = sum("main.stringWork" in gate(b, t, pct, alpha, floor, corr) for b, t in dbl)
        print(f"{on} pct={pct} alpha={alpha} floor={floor!s:5} corr={corr!s:4}: false alarms {fa/10:.1f}%  caught {hit}/{len(dbl)}")
