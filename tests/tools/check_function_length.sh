#!/usr/bin/env bash
# check_function_length.sh - no function body in the checked folders is longer
# than MAX_LINES lines (between its braces). Long functions hide their steps;
# split them into named ones. Parses the clang-format'ed layout (ctags is not
# needed): a definition ends its signature with ")" and opens with "{" in
# column 0 on the next line; its body ends at the next "}" in column 0.
# Usage: check_function_length.sh [folder...] (default: the checked folders).
# Prints each offender as file:line: name (n lines) and exits 1 if there is any.
set -euo pipefail
cd "$(dirname "$0")/../.."
MAX_LINES=80
folders=("$@")
if [ ${#folders[@]} -eq 0 ]; then
    folders=(cql)
fi
files=$(git ls-files -- "${folders[@]/%//*.c}")
if [ -z "$files" ]; then
    echo "check_function_length: no C files under ${folders[*]}" >&2
    exit 1
fi
# shellcheck disable=SC2086
awk -v max="$MAX_LINES" '
    FNR == 1 { sig = ""; prev = ""; start = 0 }
    /^[a-z_A-Z].*\(/ && !/;$/ { sig = $0; sigline = FNR }
    /^\{$/ && prev ~ /\)$/ && start == 0 { start = FNR; name = sig; line = sigline }
    /^\}/ && start > 0 {
        n = FNR - start - 1
        sub(/\(.*/, "", name)
        sub(/.*[ *]/, "", name)
        checked++
        if (n > max) {
            printf "%s:%d: %s (%d lines, at most %d)\n", FILENAME, line, name, n, max
            bad++
        }
        start = 0
    }
    { prev = $0 }
    END {
        if (bad > 0) {
            printf "function_length: %d of %d functions are longer than %d lines\n", bad, checked, max
            exit 1
        }
        printf "function_length: %d functions, none longer than %d lines\n", checked, max
    }
' $files
