#!/usr/bin/env bash
# check_docker_context.sh - the Dockerfile's build stage, without Docker (no
# engine runs on the project's machines): copy exactly what its COPY lines copy
# into an empty folder and configure the project there without tests, so a new
# top-level folder the build needs cannot be forgotten in the image. Then the
# recipe: the build stage builds with scripts/build.sh, the script CI's
# scripts/test.sh builds with; the image has a HEALTHCHECK that runs the
# binary's own `health` command; the entrypoint is valid sh. (The entrypoint
# and the health command are run for real by tests/integration/test_admin_ops.py.)
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
fail() {
    echo "docker recipe: $*" >&2
    exit 1
}
# the build stage with its continued lines joined
build_stage=$(sed -n '/AS build/,/^FROM /p' docker/Dockerfile | sed -e ':a' -e '/\\$/N; s/\\\n//; ta')
grep -q 'RUN .*\./scripts/build\.sh /build ' <<<"$build_stage" ||
    fail "the build stage does not build with ./scripts/build.sh"
grep -q '^ *JOBS="\$JOBS" \./scripts/build\.sh "\$@"' scripts/test.sh ||
    fail "scripts/test.sh does not build with ./scripts/build.sh"
grep -q 'COPY --from=build /build/cosmos-cassandra-emulator ' docker/Dockerfile ||
    fail "the runtime stage does not take the binary scripts/build.sh made"
grep -A1 '^HEALTHCHECK ' docker/Dockerfile | grep -q 'CMD \["/usr/local/bin/cosmos-cassandra-emulator", "health"' ||
    fail "no HEALTHCHECK running 'cosmos-cassandra-emulator health'"
sh -n docker/entrypoint.sh || fail "docker/entrypoint.sh is not valid sh"
echo "docker context: configures from the Dockerfile's COPY lines alone; the recipe matches CI's"
