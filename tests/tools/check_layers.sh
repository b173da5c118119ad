#!/usr/bin/env bash
# check_layers.sh - the layering rule, checked on the sources (the build's
# include walls, cmake/Layers.cmake, enforce the same; tests/walls/ proves it):
#   base <- wire, storage, ru_meter, certs;  {base, wire, storage} <- cql;  all <- emulator
# A layer includes only its own headers and the public header of a layer
# below it (never another layer's *_int.h). Inside cql/ the rooms are
# parse <- value <- schema <- exec: a room includes its own files, the one
# header of a room below (cql/parse/parse.h, cql/value/value.h,
# cql/schema/schema.h) and cql/cql.h. No include may climb with "..".
# Prints each offending include and exits 1 if there is any.
set -euo pipefail
cd "$(dirname "$0")/../.."

declare -A allowed=(
    [base]="base"
    [wire]="base wire"
    [storage]="base storage"
    [ru_meter]="base ru_meter"
    [certs]="base certs"
    [cql]="base wire storage cql"
    [emulator]="base wire storage ru_meter certs cql emulator"
)
declare -A public=(
    [base]="base/base.h" [wire]="wire/wire.h" [storage]="storage/storage.h"
    [ru_meter]="ru_meter/ru_meter.h" [certs]="certs/certs.h" [cql]="cql/cql.h"
)
rooms="parse value schema exec"

bad=0
complain() {
    echo "$1: includes \"$2\" ($3)"
    bad=1
}

# check_room <file> <room> <include>: the cql/ room rule for one include.
check_room() {
    local f="$1" room="$2" inc="$3" r below=""
    for r in $rooms; do
        [ "$r" = "$room" ] && break
        below="$below cql/$r/$r.h"
    done
    case "$inc" in
    cql/cql.h | "cql/$room/"*) return ;;
    esac
    case " $below " in
    *" $inc "*) return ;;
    esac
    complain "$f" "$inc" "room cql/$room may include its own files, cql/cql.h and:${below:- nothing else}"
}

for layer in "${!allowed[@]}"; do
    while IFS= read -r f; do
        while IFS= read -r inc; do
            case "$inc" in
            *..*)
                complain "$f" "$inc" "no include climbs out of its folder"
                continue
                ;;
            esac
            dir="${inc%%/*}"
            case " ${allowed[$layer]} " in
            *" $dir "*) ;;
            *)
                complain "$f" "$inc" "layer $layer may include: ${allowed[$layer]}"
                continue
                ;;
            esac
            if [ "$dir" != "$layer" ] && [ "$inc" != "${public[$dir]}" ]; then
                complain "$f" "$inc" "only ${public[$dir]} of layer $dir is public"
                continue
            fi
            if [ "$layer" = cql ]; then
                room="${f#cql/}"
                room="${room%%/*}"
                if [ "$room" != cql.h ] && [ "$dir" = cql ]; then
                    check_room "$f" "$room" "$inc"
                fi
            fi
        done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | grep '/\|\.\.' || true)
    done < <(find "$layer" -name '*.[ch]' | sort)
done
if [ "$bad" -eq 0 ]; then
    echo "layering: every include points down (layers and cql rooms)"
fi
exit "$bad"
