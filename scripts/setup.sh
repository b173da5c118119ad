#!/usr/bin/env bash
# setup.sh - installs what building and testing the emulator needs on Debian 12
# (run as root, or with sudo available), then the Node.js test dependencies.
# Idempotent: run.sh and test.sh call it every time.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "setup.sh: run as root (or install sudo): apt-get is needed" >&2
        exit 1
    fi
fi

packages=(
    build-essential cmake pkg-config            # toolchain
    libevent-dev libssl-dev liblz4-dev libcjson-dev  # the emulator's libraries
    libcmocka-dev                               # unit tests
    python3 python3-cassandra python3-lz4       # Python driver integration tests
    golang-go golang-github-gocql-gocql-dev     # gocql integration tests (offline, GOPATH)
    openssl ca-certificates clang-format       # format check (tests/tools/check_format.sh)
    clang-tidy cppcheck                         # static analysis (scripts/analyze.sh)
    clang libclang-rt-14-dev                    # libFuzzer + sanitizer runtimes (scripts/fuzz.sh)
    chromium                                    # the live dashboard, tested in headless Chromium
    libedit-dev tmux                            # the shell: line editing; tested through tmux
)
# Node.js may come from elsewhere (e.g. NodeSource, whose nodejs bundles npm):
# only ask Debian for what is missing, so the two never conflict.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null

# The Node.js driver for the integration tests, exactly as package-lock.json pins it.
npm ci --no-audit --no-fund --loglevel=error
