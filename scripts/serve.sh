#!/usr/bin/env bash
# Builds scorch (release) and serves it on http://127.0.0.1:8080 with the demo profile open.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/env.sh
echo "scorch: building and serving on http://127.0.0.1:8080 (Ctrl-C stops)" >&2
# --no-autoreload: the live-reload script Trunk would inject is inline, which the page's CSP forbids.
# The product build: no cargo features, so none of the test hooks (`testing`, which scripts/test.sh enables).
unset TRUNK_BUILD_FEATURES TRUNK_BUILD_ALL_FEATURES TRUNK_SERVE_FEATURES TRUNK_SERVE_ALL_FEATURES
exec trunk serve --release --no-autoreload
