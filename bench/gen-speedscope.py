#!/usr/bin/env python3
"""Generates a big speedscope file for the import figures in docs/BENCHMARKS.md, deterministically (stdlib only):
four `sampled` profiles (py-spy's shape: one per thread, unit seconds, weights 0.01) of 250,000 samples each over
2,000 frames, stacks 8 to 40 deep.

  --shape pool      every sample one of 5,000 stacks (a real program's repetition)
  --shape distinct  every sample its own random stack (the worst case: ~1,000,000 distinct stacks)

Usage: bench/gen-speedscope.py --shape pool --out /tmp/big2.speedscope.json [--seed 7]
"""
import argparse
import json
import random

ap = argparse.ArgumentParser()
ap.add_argument("--shape", choices=["pool", "distinct"], default="pool")
ap.add_argument("--out", required=True)
ap.add_argument("--seed", type=int, default=7)
a = ap.parse_args()
rng = random.Random(a.seed)
frames = [{"name": f"fn_{i}", "file": f"/src/mod_{i % 50}.py", "line": i % 300 + 1} for i in range(2000)]


def stack():
    return [rng.randrange(0, 2000) if d > 5 else d for d in range(rng.randint(8, 40))]


pool = [stack() for _ in range(5000)] if a.shape == "pool" else None
profiles = []
for t in range(4):
    samples = [rng.choice(pool) if pool else stack() for _ in range(250000)]
    profiles.append({"type": "sampled", "name": f"Thread {t}", "unit": "seconds", "startValue": 0,
                     "endValue": 2500, "samples": samples, "weights": [0.01] * len(samples)})
doc = {"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": frames},
       "profiles": profiles}
with open(a.out, "w") as f:
    json.dump(doc, f, separators=(",", ":"))
