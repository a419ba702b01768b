#!/usr/bin/env bash
# mysl driven through python-chess's engine API (SimpleEngine), as lichess-bot and other GUIs drive it:
# UCI identity and options, a pondering game, MultiPV analysis, the variants python-chess shares with
# mysl, Chess960, and the xboard (CECP v2) side. See docs/gui-tests.md.
#
#   scripts/gui-tests.sh [--fast]        --fast: the CI subset (well under a minute)
#
# Settings (environment):
#   MYSL=target/release/mysl   the engine under test (built with `cargo build --release` if missing)
#
# Prints `PASS name` / `FAIL name: reason` per check and `N passed, M failed` last; exits non-zero
# when a check fails. python-chess is installed with pip when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
MYSL=${MYSL:-target/release/mysl}

if ! python3 -c 'import chess.engine' 2>/dev/null; then
    python3 -m pip install --quiet chess 2>/dev/null || python3 -m pip install --quiet --break-system-packages chess
fi
[ -x "$MYSL" ] || cargo build --release -p mysl
exec python3 scripts/gui-tests.py "$@" "$(realpath "$MYSL")"
