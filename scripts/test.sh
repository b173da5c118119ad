#!/usr/bin/env bash
# test.sh - install what is needed, then build and run every test (unit and
# integration) twice: in a Release build and in an ASan+UBSan build. The
# integration tests start the built binary on free loopback ports and drive
# it with the Python and Node.js drivers. Then the static analysis (scripts/analyze.sh) and
# bounded fuzzing (scripts/fuzz.sh). Exits non-zero if any test, finding or crash fails.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
JOBS="${JOBS:-2}"

build() { # build <dir> <cmake args...>: the same script the Docker image builds with
    JOBS="$JOBS" ./scripts/build.sh "$@"
}

build build-release -DCMAKE_BUILD_TYPE=Release
build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSANITIZE=ON

status=0
echo "== Release build: unit + integration tests"
(cd build-release && ctest --output-on-failure -j"$JOBS") || status=1

echo "== ASan+UBSan build: unit + integration tests"
(
    cd build-asan
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    ctest --output-on-failure -j"$JOBS"
) || status=1

echo "== Static analysis: clang-tidy and cppcheck over the Release compile database"
JOBS="$JOBS" ./scripts/analyze.sh all build-release || status=1

echo "== Fuzzing: each libFuzzer target for ${FUZZ_SECONDS:-20} s from its corpus"
JOBS="$JOBS" ./scripts/fuzz.sh || status=1

if [ "$status" -ne 0 ]; then
    echo "test.sh: some tests failed (see above)" >&2
fi
exit "$status"
