#!/usr/bin/env bash
# Runs every test: format, lint, native tests, the wasm build, and the browser tests in headless Chromium and in
# headless Firefox ESR. SCORCH_BROWSERS="chromium" (or "firefox") runs the browser tests in one engine only.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser --fuzz
. scripts/env.sh
# Each step says when it starts (seconds since this script began), so a slow step shows in the log.
step() { printf '\n\033[1m== %s\033[0m (%d s)\n' "$*" "$SECONDS"; }

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

step "fuzz (20 s per target, two at a time; long runs: fuzz/run.sh TARGET SECONDS, figures in docs/BENCHMARKS.md)"
printf '%s\n' loader folded perf perfdata pprof link json callgrind heapprofile cprofile dhat jfr |
    FUZZ_QUIET=1 xargs -P 2 -I '{}' fuzz/run.sh '{}' 20

step "wasm build (release, with the test hooks: the \`testing\` feature)"
# The browser tests reach the page through hooks (window.__scorchFramePoint, the load throttle…) that only a
# build with the `testing` feature has; ./scripts/serve.sh builds the product without them.
trunk build --release --features testing

# One harness, two engines: every browser test runs in each (tests/e2e/harness.mjs; SCORCH_BROWSER picks one).
# The two engines' runs go side by side: a browser test mostly waits on its browser, so on two cores the pair takes
# about as long as the slower engine alone. Each run's TAP goes to target/e2e-ENGINE.log, printed when it ends.
engines=${SCORCH_BROWSERS:-chromium firefox}
for engine in $engines; do
    case "$engine" in
        chromium | firefox) ;;
        *) echo "SCORCH_BROWSERS: unknown engine $engine (chromium, firefox)" >&2; exit 2 ;;
    esac
done
step "browser tests: $engines (headless Chromium through playwright-core, headless Firefox ESR through puppeteer-core over WebDriver BiDi)"
start=$SECONDS
declare -A runs
for engine in $engines; do
    # --test-force-exit: a file whose tests are over exits even if something it opened (a browser a failed hook
    # never handed on) is still alive, so a failed setup ends its file with a failure instead of hanging the run.
    SCORCH_BROWSER=$engine node --test --test-concurrency=1 --test-force-exit tests/e2e/ >"target/e2e-$engine.log" 2>&1 &
    runs[$engine]=$!
done
failed=""
for engine in $engines; do
    rc=0
    wait "${runs[$engine]}" || rc=$?
    step "browser tests in $engine: exit $rc, $((SECONDS - start)) s since both started"
    cat "target/e2e-$engine.log"
    [ "$rc" = 0 ] || failed="$failed $engine"
done
if [ -n "$failed" ]; then
    echo "browser tests failed in:$failed (logs: target/e2e-*.log)" >&2
    exit 1
fi
step "all tests passed"
