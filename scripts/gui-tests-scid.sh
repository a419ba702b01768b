#!/usr/bin/env bash
# mysl as SCID's analysis engine (Debian's `scid` package) under Xvfb: SCID's own engine window and engine
# code, driven from a Tcl script inside SCID (scripts/gui-tests-scid.tcl). See docs/gui-tests.md.
#
#   scripts/gui-tests-scid.sh [--fast] [MYSL]     --fast: UCI only (a few seconds); else UCI and xboard
#
# Installs scid and xvfb with apt-get when they are missing and this runs as root; otherwise prints
# `SKIP` lines. Prints `PASS name` / `FAIL name: reason` per check and `N passed, M failed` last.
set -euo pipefail
cd "$(dirname "$0")/.."
FAST=""
MYSL=${MYSL:-target/release/mysl}
for a in "$@"; do
    case "$a" in
        --fast) FAST=--fast ;;
        *) MYSL=$a ;;
    esac
done
CHECKS=(scid-uci-analysis scid-uci-analysis-window)
[ -n "$FAST" ] || CHECKS=(scid-uci-analysis scid-xboard-analysis scid-uci-analysis-window scid-xboard-analysis-window)

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/games/$1" ]; }
missing=()
for tool in tkscid xvfb-run xauth; do have "$tool" || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "gui-tests-scid: installing scid xvfb xauth (missing: ${missing[*]})"
        export DEBIAN_FRONTEND=noninteractive
        timeout 600 apt-get install -y -q --no-install-recommends scid xvfb xauth >/dev/null 2>&1 ||
            { timeout 300 apt-get update -q >/dev/null 2>&1 &&
              timeout 600 apt-get install -y -q --no-install-recommends scid xvfb xauth >/dev/null 2>&1; } ||
            echo "gui-tests-scid: apt-get install failed"
    fi
fi
missing=()
for tool in tkscid xvfb-run xauth; do have "$tool" || missing+=("$tool"); done
[ -f /usr/games/scid ] || missing+=("/usr/games/scid (SCID's start-up script)")
if [ ${#missing[@]} -gt 0 ] || [ ! -x "$MYSL" ]; then
    why="not installed: ${missing[*]:-}"
    [ -x "$MYSL" ] || why="no engine at $MYSL"
    for c in "${CHECKS[@]}"; do echo "SKIP $c: $why"; done
    echo "0 passed, 0 failed"
    exit 0
fi
TKSCID=$(command -v tkscid || echo /usr/games/tkscid)
MYSL=$(realpath "$MYSL")
echo "gui-tests-scid: $MYSL with $TKSCID (scid $(dpkg-query -W -f '${Version}' scid 2>/dev/null || echo '?'))${FAST:+ (fast)}"

DIR=$(mktemp -d "${TMPDIR:-/tmp}/mysl-scid-XXXXXX")
pass=0
fail=0
for c in "${CHECKS[@]}"; do
    # One SCID per check, each with a fresh HOME (SCID keeps its settings and engine list in ~/.scid4.7).
    mkdir -p "$DIR/$c/home"
    status=0
    HOME="$DIR/$c/home" timeout -k 10 150 xvfb-run -a -s "-screen 0 1280x1024x24" \
        "$TKSCID" scripts/gui-tests-scid.tcl "$MYSL" "$DIR/$c/results" "$c" >"$DIR/$c/scid.out" 2>&1 || status=$?
    line=$(grep -E "^(PASS|FAIL) $c:" "$DIR/$c/results" 2>/dev/null | head -1 || true)
    if [ -z "$line" ]; then
        case $status in
            124|137) line="FAIL $c: SCID timed out after 150 s" ;;
            *) line="FAIL $c: no result from SCID (exit $status; $(grep -v -i 'mixer' "$DIR/$c/scid.out" | tail -3 | tr '\n' ' '))" ;;
        esac
    fi
    case $line in
        PASS*) pass=$((pass + 1)) ;;
        *) fail=$((fail + 1)); line="$line (see $DIR/$c)" ;;
    esac
    echo "$line"
done
[ "$fail" -gt 0 ] || [ "${GUI_TESTS_KEEP:-}" = 1 ] || rm -rf "$DIR"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
