#!/usr/bin/env bash
# mysl with tables against Stockfish from random table positions (issue 6's play check).
# Builds mysl (test profile: optimized, no LTO), generates our 3-4 piece tables into target/tb if they
# are missing, then runs scripts/tb-play.py: won positions (3-4 pieces: every mysl move DTM-optimal and
# mate; 5 pieces from ../shared/data/syzygy: mate within the 50-move rule) and drawn positions with a
# losing move (never lost, no move that gives Stockfish a table win). Stockfish has no tables.
# Settings: WON (50), DRAWN (50), FIVE (share of 5-piece positions, 0.3), SF_MS (50), MYSL_MS (100), SEED (1).
# Needs python-chess (pip install chess) and Debian's stockfish (/usr/games/stockfish).
set -euo pipefail
cd "$(dirname "$0")/.."
SYZYGY=${SYZYGY:-../shared/data/syzygy}
TABLES=${TABLES:-target/tb}
SF=${SF:-/usr/games/stockfish}
cargo build --profile test -p mysl
BIN=${CARGO_TARGET_DIR:-target}/debug/mysl
"$BIN" tb gen --max-pieces 4 --dir "$TABLES"
python3 scripts/tb-play.py --mysl "$BIN" --tables "$TABLES" --syzygy "$SYZYGY" --sf "$SF" \
  --won "${WON:-50}" --drawn "${DRAWN:-50}" --five "${FIVE:-0.3}" --sf-ms "${SF_MS:-50}" \
  --mysl-ms "${MYSL_MS:-100}" --seed "${SEED:-1}" --out "${OUT:-target/tb-play.json}"
