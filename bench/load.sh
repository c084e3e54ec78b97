#!/usr/bin/env bash
# scorch against speedscope, loading generated profiles in headless Chromium (bench/load-browser.mjs).
# Builds the release viewer, installs speedscope 1.25.0 (npm, bench/node_modules), generates the profiles with
# ../shared/tools/viewer-bench/gen_profiles.py (seed 20240601, byte-identical every time) into target/bench-profiles.
#   bench/load.sh [--sizes 1,10,100,400] [--kinds perf,folded,pprof] [--reps 3] [--apps scorch,speedscope]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
SIZES=1,10,100,400
for ((i = 1; i <= $#; i++)); do [ "${!i}" = --sizes ] && { j=$((i + 1)); SIZES=${!j}; }; done
[ -d bench/node_modules/speedscope ] || (cd bench && npm install --no-audit --no-fund --loglevel=error)
trunk build --release >/dev/null 2>&1 || trunk build --release
mkdir -p target/bench-profiles
for s in ${SIZES//,/ }; do
    if [ ! -f "target/bench-profiles/perf-${s}mb.linux-perf.txt" ]; then
        python3 ../shared/tools/viewer-bench/gen_profiles.py --out target/bench-profiles --seed 20240601 --sizes "$s" >&2
    fi
done
exec node bench/load-browser.mjs "$@"
