#!/usr/bin/env bash
# The CLI's parallel parse (issue 19): `scorch fold` and `scorch info` of the generated 400 MB perf script and
# 400 MB folded files on 1 and 2 threads. Not a test. Prints, per run:
#  - wall time, CPU and peak RSS (`/usr/bin/time`), with the load average before the run (the machine is
#    shared: read the wall times with the load beside them);
#  - the on-CPU time of every thread (`perf record -e task-clock`, one sample per ms): the 2-thread run's
#    critical path (main thread + the longer slice) against the 1-thread run's CPU time, a speed-up that other
#    processes' load does not stretch.
# Before timing, the outputs of 1 and 2 threads are compared with cmp.
# Needs: python3, perf, and ../shared/tools/viewer-bench/gen_profiles.py beside the repo.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/scorch-bench}
RUNS=${RUNS:-3}
GEN=${GEN:-../shared/tools/viewer-bench/gen_profiles.py}
mkdir -p "$OUT"
cargo build --release -q -p scorch-cli
B=$PWD/target/release/scorch
[ -f "$OUT/perf-400mb.linux-perf.txt" ] || python3 "$GEN" --out "$OUT" --seed 20240601 --kinds perf --sizes 400
[ -f "$OUT/folded-400mb.collapsedstack.txt" ] || python3 "$GEN" --out "$OUT" --seed 20240601 --kinds folded --sizes 400
FILES="$OUT/perf-400mb.linux-perf.txt $OUT/folded-400mb.collapsedstack.txt"
for f in $FILES; do
    cmp <("$B" fold --threads 1 "$f") <("$B" fold --threads 2 "$f")
done
for cmd in fold info; do
    for f in $FILES; do
        for _ in $(seq "$RUNS"); do
            for t in 1 2; do
                l=$(cut -d' ' -f1 /proc/loadavg)
                /usr/bin/time -f "$cmd $(basename "$f") threads=$t: %e s wall, %U user, %S sys, %M KB, load $l" \
                    "$B" "$cmd" --threads "$t" "$f" >/dev/null
            done
        done
    done
done
for cmd in fold info; do
    for f in $FILES; do
        for _ in $(seq "$RUNS"); do
            perf record -q -e task-clock -c 1000000 -o "$OUT/c1.data" "$B" "$cmd" --threads 1 "$f" >/dev/null 2>&1
            one=$(perf script -i "$OUT/c1.data" -F tid 2>/dev/null | wc -l)
            perf record -q -e task-clock -c 1000000 -o "$OUT/c2.data" "$B" "$cmd" --threads 2 "$f" >/dev/null 2>&1
            perf script -i "$OUT/c2.data" -F tid 2>/dev/null | sort -n | uniq -c |
                awk -v one="$one" -v what="$cmd $(basename "$f")" '
                NR==1 {main=$1; next} {if ($1>mx) mx=$1; sum+=$1}
                END {printf "%s: 1 thread %d ms CPU; 2 threads: main %d ms + slices %d ms (longest %d) -> critical path %d ms, %.2fx\n", what, one, main, sum, mx, main+mx, one/(main+mx)}'
        done
    done
done
