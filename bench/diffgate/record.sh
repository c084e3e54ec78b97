#!/usr/bin/env bash
# Records the profiles for the diff gate's false-alarm and power experiment (docs/DIFF.md, docs/BENCHMARKS.md):
# REPS repetitions, each with 3 fresh runs of the unchanged build as base, 3 fresh runs of the unchanged build as
# target, and 3 fresh runs of the build that doubles one function's work (main.stringWork), plus one heap profile.
# Usage: bench/diffgate/record.sh [OUT_DIR] [REPS] [ROUNDS]   (defaults: /tmp/scorch-diffgate 10 800)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/scorch-diffgate}
reps=${2:-10}
rounds=${3:-800}
mkdir -p "$out"
(cd "$here" && go build -o "$out/work" .)
"$out/work" -o "$out/heap-cpu.pb.gz" -mem "$out/heap.pb.gz" -rounds 50
for r in $(seq 1 "$reps"); do
  for i in 1 2 3; do
    "$out/work" -o "$out/r$r-base$i.pb.gz" -rounds "$rounds"
    "$out/work" -o "$out/r$r-same$i.pb.gz" -rounds "$rounds"
    "$out/work" -o "$out/r$r-double$i.pb.gz" -rounds "$rounds" -double main.stringWork
  done
  echo "repetition $r recorded"
done
go version > "$out/go-version.txt"
