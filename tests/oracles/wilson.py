#!/usr/bin/env python3
"""An independent oracle for `scorch top --json`'s sample counts and 95 % intervals.

For each profile below it reads the samples itself (not through scorch), counts per function name the samples
whose leaf is the function (flat) and whose stack contains it, once per sample (cum), and computes their
Wilson score intervals with statsmodels (`proportion_confint(k, n, alpha=0.05, method="wilson")`). It writes
one JSON file per profile to crates/cli/tests/data/wilson/, which crates/cli/tests/cli.rs compares with
`scorch top --json`.

Run from the repository root, with statsmodels installed (e.g. `python3 -m venv /tmp/sm &&
/tmp/sm/bin/pip install statsmodels`):

    /tmp/sm/bin/python tests/oracles/wilson.py

How each format's samples are read here:
- folded text: one line is `stack count`; the count is that many samples; frames are split on `;`.
- pprof: the official-proto oracle's `samples_count` fold (crates/core/tests/data/pprof/oracle-official, made with
  google/pprof's own profile.proto), i.e. the `samples/count` value of every pprof sample.
- perf script: every event header line is one sample (whatever its period); its frames are the lines below it,
  `address symbol+offset (dso)`; the name is the symbol without `+0x…`, `[unknown]` becomes `[dso basename]` as
  in stackcollapse-perf.pl; `PERF_RECORD_*` lines are not samples.
"""

import gzip
import json
import os
import re
import sys
from collections import defaultdict

from statsmodels.stats.proportion import proportion_confint

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "crates/core/tests/data")
OUT = os.path.join(ROOT, "crates/cli/tests/data/wilson")


def folded_samples(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            stack, count = line.rsplit(" ", 1)
            yield stack.split(";"), int(count)


def perf_samples(path):
    frames, in_sample = None, False
    offset = re.compile(r"\+0x[0-9a-fA-F]+$")
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                if frames is not None:
                    yield list(reversed(frames)), 1
                frames = None
                continue
            if not line[0].isspace():
                if frames is not None:
                    yield list(reversed(frames)), 1
                frames = None
                if "PERF_RECORD_" in line:
                    continue
                frames = []
                continue
            if frames is None:
                continue
            m = re.match(r"\s*[0-9a-fA-F]+\s+(.*?)\s+\((.*)\)$", line)
            sym, dso = m.group(1), m.group(2)
            sym = offset.sub("", sym)
            if sym == "[unknown]" and dso != "[unknown]":
                sym = "[" + os.path.basename(dso) + "]"
            frames.append(sym)
    if frames is not None:
        yield list(reversed(frames)), 1


def oracle(samples):
    flat, cum, n = defaultdict(int), defaultdict(int), 0
    for frames, count in samples:
        n += count
        if frames:
            flat[frames[-1]] += count
        for name in set(frames):
            cum[name] += count
    def ci(k):
        lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
        return {"lo": float(lo), "hi": float(hi)}
    return {
        "samples": n,
        "functions": {
            name: {
                "flat_samples": flat.get(name, 0),
                "cum_samples": cum[name],
                "flat_interval": ci(flat.get(name, 0)),
                "cum_interval": ci(cum[name]),
            }
            for name in sorted(cum)
        },
    }


PROFILES = [
    ("folded-dtrace", "folded/inf-dtrace-example.folded", folded_samples, "folded/inf-dtrace-example.folded"),
    ("pprof-gp-sample", "pprof/gp-sample.cpu.pb.gz", folded_samples,
     "pprof/oracle-official/gp-sample.cpu.pb.gz.samples_count.folded.gz"),
    ("pprof-parca-fib", "pprof/parca-fib.pb.gz", folded_samples,
     "pprof/oracle-official/parca-fib.pb.gz.samples_count.folded.gz"),
    ("perf-lost", "perf-made/lost.txt", perf_samples, "perf-made/lost.txt"),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, profile, read, source in PROFILES:
        o = oracle(read(os.path.join(DATA, source)))
        o["profile"] = profile
        with open(os.path.join(OUT, name + ".json"), "w") as f:
            json.dump(o, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"{name}: {o['samples']} samples, {len(o['functions'])} functions", file=sys.stderr)


if __name__ == "__main__":
    main()
