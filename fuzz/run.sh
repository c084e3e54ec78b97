#!/usr/bin/env bash
# Runs one fuzz target for SECONDS (default 60), seeded from the repo's test data. Needs a nightly toolchain
# and cargo-fuzz (`cargo install cargo-fuzz --locked`). Findings land in fuzz/artifacts/TARGET/.
# Usage: fuzz/run.sh loader|folded|perf|perfdata|pprof|link|json|callgrind|heapprofile|cprofile|dhat|jfr [SECONDS]   (FUZZ_QUIET=1: one summary line, as in the tests)
set -euo pipefail
cd "$(dirname "$0")"
target=$1
secs=${2:-60}
data=../crates/core/tests/data
mkdir -p "corpus/$target"
case $target in
    folded) cp -n $data/folded/*.txt $data/folded/*.folded $data/folded/*.collapsed "corpus/$target/" 2>/dev/null || true ;;
    perf) find $data/perf $data/perf-made -maxdepth 1 -type f ! -name '*.gz' ! -name '*.md' -size -200k -exec cp -n {} "corpus/$target/" \;
          head -c 16000 ../crates/cli/tests/data/lines/spin.srcline.txt > "corpus/$target/spin.srcline.txt" ;;
    perfdata) cp -n ../crates/cli/tests/data/perfdata/*.data "corpus/$target/" ;;
    pprof) for f in $data/pprof/*.pb.gz; do zcat -f "$f" > "corpus/$target/$(basename "$f" .gz)" 2>/dev/null || true; done; cp -n $data/pprof/*.pb "corpus/$target/" ;;
    json) cp -n $data/v8/*.cpuprofile $data/v8/*.json $data/speedscope/*.json $data/gecko/*.symbolicated.json \
            $data/bpftrace/*.txt "corpus/$target/" ;;
    callgrind) cp -n ../crates/cli/tests/data/callgrind/callgrind.out $data/callgrind/callgrind.out.test "corpus/$target/"
               zcat ../crates/cli/tests/data/callgrind/callgrind-instr.out.gz > "corpus/$target/callgrind-instr.out" ;;
    heapprofile) cp -n ../crates/cli/tests/data/heapprofile/prog.heapprofile "corpus/$target/"
                 printf '{"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":1,"children":[{"callFrame":{"functionName":"f","url":"a.js","lineNumber":2},"selfSize":8,"id":2,"children":[]}]},"samples":[{"size":8,"nodeId":2,"ordinal":1}]}' > "corpus/$target/small.heapprofile" ;;
    cprofile) cp -n ../crates/cli/tests/data/cprofile/prog.prof "corpus/$target/" ;;
    jfr) cp -n ../crates/cli/tests/data/jfr/hot.jfr "corpus/$target/" ;;
    dhat) cp -n ../crates/cli/tests/data/dhat/dhat.out "corpus/$target/" ;;
    loader|link) cp -n $data/folded/inf-base-flames.txt $data/perf/fg-perf-dd-stacks-01.txt $data/pprof/parca-fib.pb.gz "corpus/$target/" ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
esac
# Memory is bounded in proportion to the input: inputs are at most 1 MiB (-max_len), and scorch's model costs about
# 30x its input at worst (a 5,000,000-frame stack: 325 MB for 10 MB), so no single allocation may pass 256 MB
# (-malloc_limit_mb; a growing table reallocates whole, so any structure that outgrows its input shows up here).
# The RSS limit is looser: it also holds libFuzzer's corpus (tens of MB) and AddressSanitizer's quarantine, which
# reached 551 MB while merely loading the loader target's seed corpus.
args=(-max_total_time="$secs" -rss_limit_mb=2048 -malloc_limit_mb=256 -max_len=1048576)
if [ -z "${FUZZ_QUIET:-}" ]; then
    exec cargo +nightly fuzz run "$target" "corpus/$target" -- "${args[@]}"
fi
# Quiet (the test command): one line per target; the log's tail on a finding.
log="target/last-$target.log"
mkdir -p target
if cargo +nightly fuzz run "$target" "corpus/$target" -- "${args[@]}" >"$log" 2>&1; then
    echo "fuzz $target: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$log" | tail -1)"
else
    tail -n 60 "$log" >&2
    echo "fuzz $target: FAILED (a finding is in fuzz/artifacts/$target/; the log is fuzz/$log)" >&2
    exit 1
fi
