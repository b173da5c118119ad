#!/usr/bin/env bash
# check_docker_context.sh - the Dockerfile's build stage, without Docker (no
# engine runs on the project's machines): copy exactly what its COPY lines copy
# into an empty folder and configure the project there without tests, so a new
# top-level folder the build needs cannot be forgotten in the image.
set -euo pipefail
cd "$(dirname "$0")/../.."
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
# COPY lines of the build stage (before the runtime stage's FROM)
sed -n '/AS build/,/^FROM /p' docker/Dockerfile | awk '$1 == "COPY" && $2 !~ /^--/ { print $2 }' |
    while read -r path; do
        cp -r "$path" "$ctx/"
    done
if ! cmake -S "$ctx" -B "$ctx/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
    >"$ctx/configure.log" 2>&1; then
    cat "$ctx/configure.log"
    echo "docker context: the Dockerfile's COPY lines miss something the build needs" >&2
    exit 1
fi
echo "docker context: configures from the Dockerfile's COPY lines alone"
