#!/usr/bin/env bash
# Records the profiles for the diff gate's false-alarm and power experiment (docs/DIFF.md, docs/BENCHMARKS.md):
# REPS repetitions, each with 3 fresh runs of the unchanged build as base (rK-baseI), 3 fresh runs of the unchanged
# build as target (rK-sameI), and 3 fresh runs of the build that doubles one function's work (rK-doubleI,
# main.stringWork), plus one heap profile. With ONLY_DOUBLE=1 it records only doubled runs, of DOUBLE (a function
# name) into rK-TAGI: `DOUBLE=main.hashWork TAG=doublehash ONLY_DOUBLE=1 bench/diffgate/record.sh`.
# Usage: bench/diffgate/record.sh [OUT_DIR] [REPS] [ROUNDS]   (defaults: /tmp/scorch-diffgate 10 800)
# Needs Go (Debian's golang-go 1.19 was used).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/scorch-diffgate}
reps=${2:-10}
rounds=${3:-800}
double=${DOUBLE:-main.stringWork}
tag=${TAG:-double}
mkdir -p "$out"
(cd "$here" && go build -o "$out/work" .)
if [ -z "${ONLY_DOUBLE:-}" ]; then
  "$out/work" -o "$out/heap-cpu.pb.gz" -mem "$out/heap.pb.gz" -rounds 50
fi
for r in $(seq 1 "$reps"); do
  for i in 1 2 3; do
    if [ -z "${ONLY_DOUBLE:-}" ]; then
      "$out/work" -o "$out/r$r-base$i.pb.gz" -rounds "$rounds"
      "$out/work" -o "$out/r$r-same$i.pb.gz" -rounds "$rounds"
    fi
    "$out/work" -o "$out/r$r-$tag$i.pb.gz" -rounds "$rounds" -double "$double"
  done
  echo "repetition $r recorded"
done
go version > "$out/go-version.txt"
