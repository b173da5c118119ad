#!/bin/sh
# entrypoint.sh - runs the emulator in the container. The binary reads the
# COSMOS_EMULATOR_* variables itself; this only turns the comma-separated
# COSMOS_EMULATOR_CERT_HOSTS (names or IPs clients use to reach the
# container) into --cert-host flags, so the generated certificate covers them.
#   docker run ... image                    serve
#   docker run ... image certs export       print the CA certificate
#   docker run ... image health             exit 0 once the server is ready
# COSMOS_EMULATOR_BIN names the binary (tests run this script outside a container).
set -eu
bin="${COSMOS_EMULATOR_BIN:-/usr/local/bin/cosmos-cassandra-emulator}"
case "${1:-}" in
certs | estimate | health) exec "$bin" "$@" ;; # commands take no --cert-host
esac
if [ -n "${COSMOS_EMULATOR_CERT_HOSTS:-}" ]; then
    old_ifs=$IFS
    IFS=','
    for host in $COSMOS_EMULATOR_CERT_HOSTS; do
        [ -n "$host" ] && set -- "$@" --cert-host "$host"
    done
    IFS=$old_ifs
fi
exec "$bin" "$@"
