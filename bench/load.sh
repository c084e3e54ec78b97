#!/usr/bin/env bash
# scorch against speedscope, loading generated profiles in headless Chromium (bench/load-browser.mjs).
# Builds the release viewer, installs speedscope 1.25.0 (npm, bench/node_modules), generates the profiles with
# ../shared/tools/viewer-bench/gen_profiles.py (seed 20240601, byte-identical every time) into target/bench-profiles.
#   bench/load.sh [--sizes 1,10,100,400] [--kinds perf,folded,pprof,cpuprofile,trace] [--reps 3] [--apps scorch,speedscope]
# (cpuprofile and trace: V8 profiles made by bench/gen-v8.py, seed 20240601)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
SIZES=1,10,100,400
KINDS=perf,folded,pprof
for ((i = 1; i <= $#; i++)); do
    [ "${!i}" = --sizes ] && { j=$((i + 1)); SIZES=${!j}; }
    [ "${!i}" = --kinds ] && { j=$((i + 1)); KINDS=${!j}; }
done
[ -d bench/node_modules/speedscope ] || (cd bench && npm install --no-audit --no-fund --loglevel=error)
trunk build --release >/dev/null 2>&1 || trunk build --release
mkdir -p target/bench-profiles
for s in ${SIZES//,/ }; do
    for k in cpuprofile trace; do
        case ",$KINDS," in *",$k,"*)
            f=target/bench-profiles/v8-${s}mb.cpuprofile; [ $k = trace ] && f=target/bench-profiles/trace-${s}mb.json
            [ -f "$f" ] || python3 bench/gen-v8.py --out target/bench-profiles --sizes "$s" --kinds $k >&2 ;;
        esac
    done
    case ",$KINDS," in *,perf,*|*,folded,*|*,pprof,*) ;; *) continue ;; esac
    if [ ! -f "target/bench-profiles/perf-${s}mb.linux-perf.txt" ]; then
        python3 ../shared/tools/viewer-bench/gen_profiles.py --out target/bench-profiles --seed 20240601 --sizes "$s" >&2
    fi
done
exec node bench/load-browser.mjs "$@"
