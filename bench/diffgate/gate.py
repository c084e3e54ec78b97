#!/usr/bin/env python3
"""The diff gate's false-alarm rate and power on real recordings (made by bench/diffgate/record.sh).

Usage: bench/diffgate/gate.py [DIR] [PCT] [SPLITS]   (defaults: /tmp/scorch-diffgate 1 200)
SCORCH (environment) names the binary (default target/release/scorch).

1. The 10 repetitions as recorded: rK-base{1,2,3} against rK-same{1,2,3} (an unchanged build, fresh runs) and
   against rK-double{1,2,3} (main.stringWork's work doubled), at the default setting (--on total, --alpha 0.01).
2. Random 3-against-3 splits of all unchanged runs (base and same of every repetition, no run on both sides),
   seeded: the false-alarm rate over many more comparisons than 10.
3. Every doubled triple against every base triple: how often the gate catches the regression, and names the
   doubled function. Doubled runs: rK-double (main.stringWork) and, when recorded, rK-doublehash (main.hashWork).
4. For contrast, the one-pair gate: 200 random pairs of unchanged runs (seed 7), one run against one,
   at --fail-if-grows 1, 2 and 5.
Prints one line per comparison group; exit status 0 (this is a measurement, not a test).
"""
import glob
import os
import random
import subprocess
import sys

DIR = sys.argv[1] if len(sys.argv) > 1 else "/tmp/scorch-diffgate"
PCT = sys.argv[2] if len(sys.argv) > 2 else "1"
SPLITS = int(sys.argv[3]) if len(sys.argv) > 3 else 200
SCORCH = os.environ.get("SCORCH", "target/release/scorch")


def gate(base, target, extra=()):
    """Exit status and the names of the functions that failed."""
    r = subprocess.run(
        [SCORCH, "diff", "-n", "0", *extra, "--fail-if-grows", PCT, "--base", *base, "--target", *target],
        capture_output=True,
        text=True,
    )
    failed = [l.split(":")[0][5:] for l in r.stdout.splitlines() if l.startswith("FAIL ")]
    if r.returncode not in (0, 3):
        sys.exit(f"scorch failed ({r.returncode}): {r.stderr}")
    return r.returncode, failed


def runs(rep, kind):
    return [f"{DIR}/r{rep}-{kind}{i}.pb.gz" for i in (1, 2, 3)]


reps = sorted(
    {int(os.path.basename(p).split("-")[0][1:]) for p in glob.glob(f"{DIR}/r*-base1.pb.gz")}
)
DOUBLED = [
    (t, fn)
    for t, fn in (("double", "main.stringWork"), ("doublehash", "main.hashWork"))
    if os.path.exists(f"{DIR}/r{reps[0]}-{t}1.pb.gz")
]
print(f"{len(reps)} repetitions in {DIR}; --fail-if-grows {PCT}, default --on total --alpha 0.01")
for extra in ([], ["--on", "self"]):
    tag = " ".join(extra) or "--on total"
    same = [gate(runs(r, "base"), runs(r, "same"), extra) for r in reps]
    print(
        f"[{tag}] unchanged, as recorded: {sum(c == 3 for c, _ in same)} of {len(same)} failed "
        f"{[f for _, f in same if f]}"
    )
    for dtag, fn in DOUBLED:
        dbl = [gate(runs(r, "base"), runs(r, dtag), extra) for r in reps]
        print(
            f"[{tag}] doubled {fn}, as recorded: {sum(c == 3 for c, _ in dbl)} of {len(dbl)} failed, "
            f"{sum(fn in f for _, f in dbl)} naming {fn}"
        )
    pool = [p for r in reps for k in ("base", "same") for p in runs(r, k)]
    rng = random.Random(20261123)
    alarms = []
    for _ in range(SPLITS):
        pick = rng.sample(pool, 6)
        code, failed = gate(pick[:3], pick[3:], extra)
        if code == 3:
            alarms.append(failed)
    print(
        f"[{tag}] unchanged, {SPLITS} random 3-vs-3 splits of {len(pool)} runs: {len(alarms)} failed "
        f"({100 * len(alarms) / SPLITS:.1f} %) {alarms[:5]}"
    )
    for dtag, fn in DOUBLED:
        hits = named = 0
        for rb in reps:
            for rd in reps:
                code, failed = gate(runs(rb, "base"), runs(rd, dtag), extra)
                hits += code == 3
                named += fn in failed
        n = len(reps) ** 2
        print(f"[{tag}] doubled {fn}, every base triple x every doubled triple: {hits} of {n} failed, {named} naming it")

pool = [p for r in reps for k in ("base", "same") for p in runs(r, k)]
rng = random.Random(7)
pairs = [rng.sample(pool, 2) for _ in range(200)]
for pct in ("1", "2", "5"):
    fa = sum(
        subprocess.run([SCORCH, "diff", "--fail-if-grows", pct, a, b], capture_output=True).returncode == 3
        for a, b in pairs
    )
    print(f"[one run against one] unchanged, 200 random pairs, --fail-if-grows {pct}: {fa} failed")
