#!/usr/bin/env bash
# build.sh DIR [CMAKE_ARGS...] - configures and builds the project in DIR: the
# one build recipe that CI (scripts/test.sh) and the container image
# (docker/Dockerfile's build stage) share, so the image holds the binary CI
# tested. JOBS (default 2) sets the parallelism; EMU_BUILD_TARGET builds one
# target instead of all.
set -euo pipefail
dir="$1"
shift
src="$(cd "$(dirname "$0")/.." && pwd)"
cmake -S "$src" -B "$dir" "$@" >/dev/null
cmake --build "$dir" -j"${JOBS:-2}" ${EMU_BUILD_TARGET:+--target "$EMU_BUILD_TARGET"}
