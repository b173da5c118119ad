#!/usr/bin/env bash
# check_format.sh - every tracked C file is formatted by the checked-in
# .clang-format (clang-format 14, as Debian 12 ships it).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v clang-format >/dev/null 2>&1; then
    echo "check_format: clang-format not installed" >&2
    exit 1
fi
git ls-files '*.c' '*.h' | xargs clang-format --dry-run -Werror
echo "format: $(git ls-files '*.c' '*.h' | wc -l) files match .clang-format"
