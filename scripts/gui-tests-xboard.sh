#!/usr/bin/env bash
# mysl in engine matches run by xboard (Debian's package) under Xvfb: against Fairy-Max in orthodox chess,
# Berolina and Cylinder (and, without --fast, against itself in Chess960 and 3check, refereed by xboard).
# The checks are in scripts/gui-tests-xboard.py; see docs/gui-tests.md.
#
#   scripts/gui-tests-xboard.sh [--fast] [MYSL]     --fast: the CI subset (about a minute)
#
# Installs xboard, xvfb and fairymax with apt-get when they are missing and this runs as root; otherwise
# prints `SKIP` lines. Prints `PASS name` / `FAIL name: reason` per match and `N passed, M failed` last.
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

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/games/$1" ]; }
missing=()
for tool in xboard xvfb-run fairymax xauth; do have "$tool" || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "gui-tests-xboard: installing xboard xvfb xauth fairymax (missing: ${missing[*]})"
        export DEBIAN_FRONTEND=noninteractive
        timeout 600 apt-get install -y -q --no-install-recommends xboard xvfb xauth fairymax >/dev/null 2>&1 ||
            { timeout 300 apt-get update -q >/dev/null 2>&1 &&
              timeout 600 apt-get install -y -q --no-install-recommends xboard xvfb xauth fairymax >/dev/null 2>&1; } ||
            echo "gui-tests-xboard: apt-get install failed"
    else
        echo "gui-tests-xboard: missing ${missing[*]}, and cannot install them here (needs root and apt-get)"
    fi
fi
# The python script prints SKIP lines for whatever is still missing.
exec python3 scripts/gui-tests-xboard.py $FAST "$(realpath -m "$MYSL")"
