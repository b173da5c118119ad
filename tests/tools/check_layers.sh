#!/usr/bin/env bash
# check_layers.sh - the layering rule, checked on the sources: a layer may
# include only its own headers and those of the layers below it.
#   base <- wire, storage, ru_meter, certs;  {base, wire, storage} <- cql;  all <- emulator
# Prints each upward include and exits 1 if there is any.
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

bad=0
for layer in "${!allowed[@]}"; do
    for f in "$layer"/*.[ch]; do
        [ -e "$f" ] || continue
        while IFS= read -r inc; do
            dir="${inc%%/*}"
            case " ${allowed[$layer]} " in
            *" $dir "*) ;;
            *)
                echo "$f: includes \"$inc\" (layer $layer may include: ${allowed[$layer]})"
                bad=1
                ;;
            esac
        done < <(sed -n 's/^#include "\([^"]*\/[^"]*\)".*/\1/p' "$f")
    done
done
if [ "$bad" -eq 0 ]; then
    echo "layering: every include points down"
fi
exit "$bad"
