#!/usr/bin/env bash
# fuzz.sh - bounded libFuzzer runs of every target in tests/fuzz/ (frame/request decoder,
# CQL parser, CQL engine, storage record decoder), built with clang and
# -fsanitize=fuzzer,address,undefined in BUILD_DIR (default build-fuzz, -DEMU_FUZZ=ON):
#   scripts/fuzz.sh [TARGET...]          (default: request cql_parse engine record)
# Each target starts from its checked-in corpus tests/fuzz/corpus/<target>/ (read only) and
# runs FUZZ_SECONDS (default 20) into a scratch corpus BUILD_DIR/fuzz-corpus/<target>/,
# which later runs resume from. Any crash, leak, sanitizer report or input slower than
# FUZZ_TIMEOUT (default 10 s) fails the script; the input that did it is saved as
# BUILD_DIR/fuzz-artifacts/<target>-crash-..., to replay with `BUILD_DIR/fuzz_<target> FILE`
# and then to add to the checked-in corpus with the fix.
# FUZZ_MERGE=1 afterwards merges what the scratch corpora found into the checked-in ones
# (libFuzzer -merge=1 keeps only inputs that add coverage); commit them with the change.
set -euo pipefail
cd "$(dirname "$0")/.."

build="${BUILD_DIR:-build-fuzz}"
seconds="${FUZZ_SECONDS:-20}"
timeout_s="${FUZZ_TIMEOUT:-10}"
JOBS="${JOBS:-2}"
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    targets=(request cql_parse engine record)
fi

t0=$SECONDS
# Only the fuzz targets and the libraries they link, all instrumented (EMU_FUZZ).
mkdir -p "$build"
{
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEMU_FUZZ=ON \
        -DCMAKE_C_COMPILER=clang &&
        cmake --build "$build" -j"$JOBS" --target "${targets[@]/#/fuzz_}"
} >"$build/fuzz-build.log" 2>&1 || {
    tail -30 "$build/fuzz-build.log"
    echo "fuzz.sh: the fuzz build failed (log: $build/fuzz-build.log)" >&2
    exit 1
}
echo "fuzz.sh: built ${targets[*]} in $((SECONDS - t0)) s"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
for t in "${targets[@]}"; do
    seeds="tests/fuzz/corpus/$t"
    work="$build/fuzz-corpus/$t"
    art="$build/fuzz-artifacts"
    mkdir -p "$work" "$art"
    log="$build/fuzz-$t.log"
    rc=0
    "$build/fuzz_$t" -max_total_time="$seconds" -timeout="$timeout_s" -print_final_stats=1 \
        -artifact_prefix="$art/$t-" "$work" "$seeds" >"$log" 2>&1 || rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    if [ "$rc" -ne 0 ]; then
        status=1
        grep -E 'ERROR: |SUMMARY: |runtime error|Test unit written' "$log" | head -10 || tail -20 "$log"
        echo "fuzz.sh: $t FAILED (exit $rc; log: $log)"
    else
        echo "fuzz.sh: $t ok: ${runs:-?} inputs in ${seconds} s, ${cov:-cov ?}, corpus $(ls "$work" | wc -l) files"
    fi
    if [ "${FUZZ_MERGE:-0}" = 1 ] && [ "$rc" -eq 0 ]; then
        "$build/fuzz_$t" -merge=1 "$seeds" "$work" >>"$log" 2>&1
        echo "fuzz.sh: $t merged into $seeds ($(ls "$seeds" | wc -l) files)"
    fi
done
echo "fuzz.sh: ${#targets[@]} targets, $((SECONDS - t0)) s in all"
exit "$status"
