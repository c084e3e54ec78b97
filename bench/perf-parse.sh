#!/usr/bin/env bash
# Native parse throughput: `scorch fold` versus `inferno-collapse-perf -n 1` (single-threaded) on the largest
# corpus perf file and on generated perf scripts of about 100 and 400 MB. Not a test: prints hyperfine tables
# and writes JSON to $OUT (default /tmp/scorch-bench).
#
# Needs: hyperfine (Debian), inferno 0.12.8 (`cargo install inferno --version 0.12.8 --locked`), python3, and
# ../shared/tools/viewer-bench/gen_profiles.py beside the repo (the shared deterministic generator).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/scorch-bench}
RUNS=${RUNS:-7}
GEN=${GEN:-../shared/tools/viewer-bench/gen_profiles.py}
mkdir -p "$OUT"
cargo build --release -q -p scorch-cli
SCORCH=$PWD/target/release/scorch
[ -f "$OUT/perf-400mb.linux-perf.txt" ] || python3 "$GEN" --out "$OUT" --seed 20240601 --kinds perf --sizes 100,400
LARGEST=crates/core/tests/data/perf/fg-perf-vertx-stacks-01.txt
for f in "$LARGEST" "$OUT/perf-100mb.linux-perf.txt" "$OUT/perf-400mb.linux-perf.txt"; do
    name=$(basename "$f")
    # Same answer first: compat output must equal inferno's.
    cmp <("$SCORCH" fold --compat inferno "$f" | LC_ALL=C sort) <(inferno-collapse-perf -n 1 "$f" | LC_ALL=C sort)
    hyperfine -N -w 2 -r "$RUNS" --export-json "$OUT/perf-parse-$name.json" \
        -n "scorch fold" "$SCORCH fold $f" \
        -n "scorch fold --compat inferno" "$SCORCH fold --compat inferno $f" \
        -n "inferno-collapse-perf -n 1" "inferno-collapse-perf -n 1 $f"
done
python3 - "$OUT" <<'PY'
import json, sys, glob, os
print("\n| input | MB | scorch fold (median) | --compat inferno | inferno -n 1 | speed-up (scorch / compat) |")
print("|---|---|---|---|---|---|")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "perf-parse-*.json"))):
    r = {x["command"]: x for x in json.load(open(path))["results"]}
    name = path.split("perf-parse-")[1][:-5]
    med = lambda k: r[k]["median"]
    s, c, i = med("scorch fold"), med("scorch fold --compat inferno"), med("inferno-collapse-perf -n 1")
    size = os.path.getsize(os.path.join(sys.argv[1], name)) if os.path.exists(os.path.join(sys.argv[1], name)) else 1046370
    fmt = lambda t: f"{t*1000:.1f} ms" if t < 1 else f"{t:.3f} s"
    print(f"| {name} | {size/1e6:.1f} | {fmt(s)} | {fmt(c)} | {fmt(i)} | {i/s:.1f}× / {i/c:.1f}× |")
PY
