#!/usr/bin/env bash
# run.sh - quick start: install what is needed, build the Release binary, and
# run the emulator in the foreground with its defaults (TLS on
# 127.0.0.1:10350, account "localhost" with the well-known emulator key).
# Extra arguments are passed to the emulator, e.g. ./scripts/run.sh --no-tls
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
BUILD_DIR="${BUILD_DIR:-build-release}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)" --target cosmos-cassandra-emulator
exec "$BUILD_DIR/cosmos-cassandra-emulator" "$@"
