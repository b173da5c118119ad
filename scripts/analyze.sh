#!/usr/bin/env bash
# analyze.sh - static analysis of the emulator's own sources over the compile database of a
# configured build (CMakeLists.txt sets CMAKE_EXPORT_COMPILE_COMMANDS):
#   scripts/analyze.sh [tidy|cppcheck|all] [BUILD_DIR [FILE...]]   (default: all build-release)
# FILE... (paths from the repo root) narrows the run to those translation units.
# tidy:     clang-tidy 14 with the checked-in .clang-tidy (bugprone, clang-analyzer, cert),
#           one process per file, JOBS (default 2) at a time through xargs -P.
# cppcheck: cppcheck 2.x, warning + performance + portability, inline suppressions honoured.
# Either fails on any finding: fix it, or suppress it where it stands with its reason
# (`// NOLINT(check): why`, `// cppcheck-suppress id ; why`). Each tool's full output is kept
# in BUILD_DIR/analysis/; the terminal gets one line per finding and a summary line.
#
# Scope: every translation unit of the libraries and the emulator binary. tests/ and bench/
# are left out: they are not shipped, and clang-analyzer over them would add ~2 minutes to a
# CI run that has a 5-minute budget for this script (the bench tools are checked by -Werror).
set -euo pipefail
cd "$(dirname "$0")/.."

what="${1:-all}"
build="${2:-build-release}"
only=("${@:3}")
JOBS="${JOBS:-2}"
root="$PWD"
out="$build/analysis"
# A run narrowed to some files keeps its own compile database and logs, so it never
# disturbs a whole run going on in the same build.
[ "${#only[@]}" -eq 0 ] || out="$build/analysis-partial"

# Files whose findings are printed but do not fail the run: none. A file goes here only
# while another branch moves it, and leaves when that lands (issue 7).
PENDING=()

if [ ! -f "$build/compile_commands.json" ]; then
    echo "analyze.sh: $build/compile_commands.json is missing: configure $build first" >&2
    exit 2
fi
mkdir -p "$out"

# The project's own translation units: every entry outside tests/, bench/ and the build dirs.
python3 - "$build/compile_commands.json" "$out/compile_commands.json" "$root" "${only[@]}" <<'EOF'
import json, os, sys
src, dst, root = sys.argv[1:4]
only = set(sys.argv[4:])
keep = []
for e in json.load(open(src)):
    rel = os.path.relpath(os.path.join(e["directory"], e["file"]), root)
    if rel.startswith(("tests/", "bench/", "build", "..")) or (only and rel not in only):
        continue
    keep.append(e)
json.dump(keep, open(dst, "w"), indent=1)
EOF
mapfile -t files < <(python3 -c 'import json,sys; [print(e["file"]) for e in json.load(open(sys.argv[1]))]' \
    "$out/compile_commands.json")

status=0

# report TOOL FINDINGS_FILE: prints the findings (paths made relative, wall headers named by
# their source path) and counts those outside PENDING into $counted.
counted=0
report() {
    local tool="$1" list="$2" line rel pending=0
    counted=0
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        local f p skip=""
        if [[ "$line" == "PENDING "* ]]; then # found while analysing a PENDING file
            skip=1
            line="${line#PENDING }"
        fi
        rel="${line#"$root"/}"
        f="${rel%%:*}"
        if [[ "$f" == "$build"/walls/* ]]; then # a header seen through an include wall (symlink)
            local real
            real=$(realpath --relative-to="$root" "$root/$f")
            rel="$real${rel#"$f"}"
            f="$real"
        fi
        for p in "${PENDING[@]}"; do
            [ "$f" = "$p" ] && skip=1
        done
        if [ -n "$skip" ]; then
            echo "(pending, not counted) $rel"
            pending=$((pending + 1))
        else
            echo "$rel"
            counted=$((counted + 1))
        fi
    done < <(sort -u "$list")
    [ "$pending" -eq 0 ] || echo "$tool: $pending findings in pending files (${PENDING[*]}) not counted"
}

run_tidy() {
    local t0=$SECONDS logs="$out/tidy"
    rm -rf "$logs"
    mkdir -p "$logs"
    # One log per file, so parallel runs never interleave; each log ends with its time.
    printf '%s\0' "${files[@]}" | xargs -0 -P "$JOBS" -n 1 bash -c '
        log="$1/$(printf "%s" "${2#/}" | tr / _).log"
        t=$(date +%s%N)
        clang-tidy-14 -p "$0" --quiet "$2" >"$log" 2>&1 || echo "clang-tidy exit $?" >>"$log"
        echo "elapsed_ms $(( ($(date +%s%N) - t) / 1000000 )) $2" >>"$log"
    ' "$out" "$logs"
    cat "$logs"/*.log >"$out/clang-tidy.log"
    # Findings of a PENDING translation unit, headers included, are marked as such.
    : >"$out/clang-tidy.findings"
    local log tu p mark
    for log in "$logs"/*.log; do
        tu=$(sed -n 's/^elapsed_ms [0-9]* //p' "$log")
        mark=""
        for p in "${PENDING[@]}"; do
            [ "$tu" = "$root/$p" ] && mark="PENDING "
        done
        grep -E '^/[^ ]*:[0-9]+:[0-9]+: (warning|error): ' "$log" | sed "s|^|$mark|" \
            >>"$out/clang-tidy.findings" || true
    done
    # A file clang-tidy could not compile counts as a finding (with its path).
    grep -h -E '^(Error while processing|clang-tidy exit)' "$logs"/*.log | sed "s|^|$root/tidy-error:0:0: |" \
        >>"$out/clang-tidy.findings" || true
    report clang-tidy "$out/clang-tidy.findings"
    echo "clang-tidy: ${#files[@]} files, $counted findings, $((SECONDS - t0)) s (log: $out/clang-tidy.log)"
    [ "$counted" -eq 0 ] || status=1
}

run_cppcheck() {
    local log="$out/cppcheck.log" t0=$SECONDS rc=0
    mkdir -p "$out/cppcheck-cache"
    # posix/gnu: the C library calls the code makes (open, write, strndup, ...);
    # openssl: certs/ and emulator/tls.c. missingIncludeSystem: cppcheck reads its .cfg
    # files instead of the system headers, by design.
    cppcheck --project="$out/compile_commands.json" --cppcheck-build-dir="$out/cppcheck-cache" \
        --enable=warning,performance,portability --inline-suppr --error-exitcode=1 \
        --library=posix --library=gnu --library=openssl \
        --suppress=missingIncludeSystem --suppress=unmatchedSuppression \
        -j "$JOBS" -q --template='{file}:{line}:{column}: {severity}: {message} [{id}]' \
        >"$log" 2>&1 || rc=$?
    grep -E ':[0-9]+:[0-9]+: [a-z]+: .*\[[A-Za-z0-9_]+\]$' "$log" >"$out/cppcheck.findings" || true
    report cppcheck "$out/cppcheck.findings"
    if [ "$rc" -ne 0 ] && [ ! -s "$out/cppcheck.findings" ]; then
        tail -5 "$log" # cppcheck failed without a finding: a configuration error
        counted=$((counted + 1))
    fi
    echo "cppcheck: ${#files[@]} files, $counted findings, $((SECONDS - t0)) s (log: $log)"
    [ "$counted" -eq 0 ] || status=1
}

if [ "${#files[@]}" -eq 0 ]; then
    echo "analyze.sh: no translation unit to analyze" >&2
    exit 2
fi

case "$what" in
tidy) run_tidy ;;
cppcheck) run_cppcheck ;;
all)
    run_tidy
    run_cppcheck
    ;;
*)
    echo "usage: scripts/analyze.sh [tidy|cppcheck|all] [BUILD_DIR]" >&2
    exit 2
    ;;
esac
exit "$status"
