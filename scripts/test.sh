#!/usr/bin/env bash
# Runs every test: format, lint, native tests, the wasm build, and the browser tests in headless Chromium and in
# headless Firefox ESR. SCORCH_BROWSERS="chromium" (or "firefox") runs the browser tests in one engine only.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser --fuzz
. scripts/env.sh
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "format"
cargo fmt --all --check

step "lint (native and wasm32)"
cargo clippy --locked -p scorch-core -p scorch-cli --all-targets -- -D warnings
cargo clippy --locked -p scorch-app --target wasm32-unknown-unknown -- -D warnings
cargo clippy --locked -p scorch-app --target wasm32-unknown-unknown --features testing -- -D warnings

step "native tests"
cargo test --locked -p scorch-core -p scorch-cli
# The app's own unit tests (the URL state) run natively too.
cargo test --locked -p scorch-app --lib

step "fuzz (20 s per target; long runs: fuzz/run.sh TARGET SECONDS, figures in docs/BENCHMARKS.md)"
for t in loader folded perf perfdata pprof link json callgrind heapprofile cprofile dhat jfr; do
    FUZZ_QUIET=1 fuzz/run.sh "$t" 20
done

step "wasm build (release, with the test hooks: the \`testing\` feature)"
# The browser tests reach the page through hooks (window.__scorchFramePoint, the load throttle…) that only a
# build with the `testing` feature has; ./scripts/serve.sh builds the product without them.
trunk build --release --features testing

# One harness, two engines: every browser test runs in each (tests/e2e/harness.mjs; SCORCH_BROWSER picks one).
for engine in ${SCORCH_BROWSERS:-chromium firefox}; do
    case "$engine" in
        chromium) step "browser tests (headless Chromium, through playwright-core)" ;;
        firefox) step "browser tests (headless Firefox ESR, through puppeteer-core over WebDriver BiDi)" ;;
        *) echo "SCORCH_BROWSERS: unknown engine $engine (chromium, firefox)" >&2; exit 2 ;;
    esac
    start=$SECONDS
    # --test-force-exit: a file whose tests are over exits even if something it opened (a browser a failed hook
    # never handed on) is still alive, so a failed setup ends its file with a failure instead of hanging the run.
    SCORCH_BROWSER=$engine node --test --test-concurrency=1 --test-force-exit tests/e2e/
    echo "browser tests in $engine: $((SECONDS - start)) s"
done
