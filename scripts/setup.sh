#!/usr/bin/env bash
# Installs what scorch's build and tests need, idempotently, from the registries this machine reaches.
# Usage: scripts/setup.sh [--browser] [--fuzz]
#   --browser  also installs Debian's chromium and firefox-esr for the browser tests
#   --fuzz     also installs a nightly toolchain and cargo-fuzz for the fuzz targets in fuzz/
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1msetup:\033[0m %s\n' "$*" >&2; }

# rustup target and components
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
fi
for c in rustfmt clippy; do
    if ! rustup component list --installed | grep -q "^$c"; then
        say "adding rustup component $c"
        rustup component add "$c"
    fi
done

# trunk, pinned: 0.22 needs a newer rustc than this machine has.
TRUNK_VERSION=0.21.14
if ! trunk --version 2>/dev/null | grep -qF "$TRUNK_VERSION"; then
    say "installing trunk $TRUNK_VERSION (about 8 minutes the first time)"
    cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock. Not --locked: its own lockfile
# names a webpki-roots release the registry does not serve.
WBG_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -qF "$WBG_VERSION"; then
    say "installing wasm-bindgen-cli $WBG_VERSION (about 3 minutes the first time)"
    cargo install wasm-bindgen-cli --version "$WBG_VERSION" --force
fi

# npm: binaryen (wasm-opt 132, never Debian's 108, which breaks the page), playwright-core (drives Chromium) and
# puppeteer-core (drives Firefox over WebDriver BiDi; like playwright-core, it never downloads a browser) and
# axe-core (the accessibility rules tests/e2e/a11y.test.mjs injects into the page).
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/puppeteer-core ] \
    || [ ! -d node_modules/axe-core ] || [ package.json -nt node_modules/.package-lock.json ]; then
    say "installing npm packages"
    npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error
fi

# Debian's chromium and firefox-esr for the browser tests (Playwright's own browser downloads do not work here).
ARGS=" $* "
if [[ "$ARGS" == *" --browser "* ]]; then
    MISSING=()
    [ -x /usr/bin/chromium ] || MISSING+=(chromium)
    [ -x /usr/bin/firefox-esr ] || MISSING+=(firefox-esr)
    if [ ${#MISSING[@]} -gt 0 ]; then
        say "installing Debian's ${MISSING[*]}"
        SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${MISSING[@]}" >/dev/null
    fi
fi

# Fuzzing: libFuzzer needs a nightly toolchain (minimal profile, from rustup's own server) and cargo-fuzz.
if [[ "$ARGS" == *" --fuzz "* ]]; then
    if ! rustup toolchain list | grep -q '^nightly'; then
        say "installing a nightly toolchain (minimal) for cargo-fuzz"
        rustup toolchain install nightly --profile minimal
    fi
    if ! cargo fuzz --version >/dev/null 2>&1; then
        say "installing cargo-fuzz (about 2 minutes the first time)"
        cargo install cargo-fuzz --version 0.13.2 --locked
    fi
fi

# Dependencies, so that trunk's offline cargo build finds everything.
cargo fetch --locked -q 2>/dev/null || cargo fetch
