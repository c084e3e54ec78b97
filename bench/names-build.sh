#!/bin/bash
# bench/names-build.sh SRC_DIST OUT: a copy of a product build (SRC_DIST, made by `trunk build --release --dist
# SRC_DIST` just before: it takes that build's wasm from target/) whose two wasm binaries keep their function
# names, for CPU profiles and V8's compile traces (bench/tierup-summary.py). Not the product: built for size
# as the product is (wasm-opt -Os), with the name section kept (-g).
set -e
cd "$(dirname "$0")/.."
. scripts/env.sh
SRC=$1; OUT=$2
[ -d "$SRC" ] && [ -n "$OUT" ] || { echo "usage: bench/names-build.sh SRC_DIST OUT" >&2; exit 2; }
rm -rf "$OUT"; cp -r "$SRC" "$OUT"
T=$(mktemp -d)
for b in scorch-app scorch-engine; do
  wasm-bindgen --keep-debug --target web --out-dir "$T" --out-name $b target/wasm32-unknown-unknown/wasm/$b.wasm
  wasm-opt -Os -g --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    "$T/${b}_bg.wasm" -o "$OUT/${b}_bg.wasm"
  cp "$T/$b.js" "$OUT/$b.js"
  gzip -9 -n -k -f "$OUT/${b}_bg.wasm"
done
rm -rf "$T"
