#!/usr/bin/env bash
# mysl driven by real clients, as users drive it (issue 25). Three parts, see docs/gui-tests.md:
#   python-chess  python-chess's engine API (SimpleEngine), as lichess-bot and other GUIs use it: UCI
#                 identity and options, pondering games, MultiPV analysis, variants, Chess960, the xboard
#                 side (scripts/gui-tests.py)
#   xboard        engine matches run by xboard (Debian's package) under Xvfb against Fairy-Max: orthodox
#                 chess, Berolina, Cylinder (scripts/gui-tests-xboard.sh)
#   scid          mysl as the analysis engine of SCID's engine window under Xvfb (scripts/gui-tests-scid.sh)
#
#   scripts/gui-tests.sh [--fast]        --fast: the CI subset (about two minutes)
#
# Settings (environment):
#   MYSL=target/release/mysl     the engine under test (built with `cargo build --release` if missing)
#   GUI_TESTS_PARTS="python-chess xboard scid"   the parts to run
#   GUI_TESTS_KEEP=1             keep the folders of passing xboard matches and SCID runs too
#
# Prints `PASS name` / `FAIL name: reason` (`SKIP name: reason` where a client cannot be installed) per
# check and `N passed, M failed` over all parts last; exits non-zero when a check fails. Installs what it
# needs when missing: python-chess with pip; xboard, fairymax, scid, xvfb with apt-get (as root).
set -uo pipefail
cd "$(dirname "$0")/.."
MYSL=${MYSL:-target/release/mysl}
PARTS=${GUI_TESTS_PARTS:-python-chess xboard scid}
FAST=""
for a in "$@"; do
    case "$a" in
        --fast) FAST=--fast ;;
        *) echo "usage: scripts/gui-tests.sh [--fast]" >&2; exit 2 ;;
    esac
done

if [ ! -x "$MYSL" ]; then
    cargo build --release -p mysl || exit 1
fi
MYSL=$(realpath "$MYSL")

if ! python3 -c 'import chess.engine' 2>/dev/null; then
    timeout 300 python3 -m pip install --quiet chess 2>/dev/null ||
        timeout 300 python3 -m pip install --quiet --break-system-packages chess
fi

LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
passed=0
failed=0
skipped=0
# run_part NAME LIMIT COMMAND...: the part's lines as they come; its `N passed, M failed` is added up.
run_part() {
    local name=$1 limit=$2
    shift 2
    echo "== $name"
    timeout -k 10 "$limit" "$@" 2>&1 | tee "$LOG"
    local rc=${PIPESTATUS[0]}
    local summary
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG" | tail -1)
    skipped=$((skipped + $(grep -c '^SKIP ' "$LOG")))
    if [ -z "$summary" ]; then
        echo "FAIL $name: ended without a summary (exit $rc)"
        failed=$((failed + 1))
        return
    fi
    local p f
    read -r p _ f _ <<<"$summary"
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name: exit $rc"
        failed=$((failed + 1))
    fi
}

for part in $PARTS; do
    case $part in
        python-chess) run_part python-chess 900 python3 scripts/gui-tests.py $FAST "$MYSL" ;;
        xboard) run_part xboard "$([ -n "$FAST" ] && echo 600 || echo 3600)" scripts/gui-tests-xboard.sh $FAST "$MYSL" ;;
        scid) run_part scid 600 scripts/gui-tests-scid.sh $FAST "$MYSL" ;;
        *) echo "FAIL $part: unknown part (python-chess, xboard, scid)"; failed=$((failed + 1)) ;;
    esac
done
[ "$skipped" -eq 0 ] || echo "gui-tests: $skipped checks skipped (a client could not be installed)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
