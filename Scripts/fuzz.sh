#!/usr/bin/env bash
# `make fuzz`: builds glslice-fuzz with libFuzzer and AddressSanitizer and runs
# each target for FUZZ_SECONDS (default 600), FUZZ_JOBS at a time (default 1).
# Each run starts from Fuzz/corpus/<target>; what it finds that adds coverage
# is merged back there (commit it). A crash, leak or sanitizer report fails the
# run and leaves its input in out/fuzz/<target>/ (add it to Fixtures/bad/).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${FUZZ_SECONDS:-600}"
TARGETS="${FUZZ_TARGETS:-png ninepatch nptc contents manifest options contentsdisk query}"
PARALLEL="${FUZZ_JOBS:-1}"
SCRATCH=.build-fuzz
swift build --product glslice-fuzz --scratch-path "$SCRATCH" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xcc -fsanitize=fuzzer-no-link,address
BIN="$SCRATCH/debug/glslice-fuzz"
run_one() {
    local target="$1" work="out/fuzz/$1"
    rm -rf "$work" && mkdir -p "$work/corpus"
    echo "fuzz: $target for ${SECONDS_EACH}s" >&2
    local status=0
    # HummingbirdTesting's router client leaks each request's test channel (about 10 KB; see
    # Fuzz/lsan-suppressions.txt), so the query target's memory grows with its executions.
    local rss=2048
    [ "$target" = query ] && rss=12288
    GLSLICE_FUZZ_TARGET="$target" ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt" "$BIN" "$work/corpus" "Fuzz/corpus/$target" \
        -max_total_time="$SECONDS_EACH" -rss_limit_mb="$rss" -max_len=65536 -timeout=20 \
        -artifact_prefix="$work/" -print_final_stats=1 >"$work/log" 2>&1 || status=$?
    local runs
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" | grep -o '[0-9]*$' || echo "?")
    if [ "$status" != 0 ]; then
        echo "fuzz: $target FAILED (exit $status) after $runs executions; see $work/log and $work/crash-*" >&2
        return 1
    fi
    GLSLICE_FUZZ_TARGET="$target" LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt" "$BIN" -merge=1 \
        -artifact_prefix="$work/" "Fuzz/corpus/$target" "$work/corpus" >>"$work/log" 2>&1
    echo "fuzz: $target ok: $runs executions in ${SECONDS_EACH}s, corpus $(ls "Fuzz/corpus/$target" | wc -l) files" >&2
}
export -f run_one
export BIN SECONDS_EACH
printf '%s\n' $TARGETS | xargs -P "$PARALLEL" -I{} bash -c 'run_one {}'
