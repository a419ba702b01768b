#!/usr/bin/env bash
# Calibrates mysl's strength levels (UCI_LimitStrength + UCI_Elo, docs/levels.md) against Stockfish's own
# UCI_LimitStrength at the same UCI_Elo: one match per level, balanced openings (8moves_v3), colours
# swapped per opening. A benchmark, not a test: it prints one table row per level and writes PGNs.
#
#   scripts/calibrate-levels.sh [ELO ...]          default: 1350 1600 1900 2100 2250 2500
#
# Settings (environment):
#   MYSL=target/release/mysl      the engine under test
#   STOCKFISH=/usr/games/stockfish  the reference (Debian's Stockfish 15.1: UCI_Elo 1350-2850)
#   ROUNDS=20                     game pairs per level (40 games)
#   TC=5+0.05                     time control below HIGH_FROM=2000; TC_HIGH=20+0.2 from there up, where mysl's
#                                 node limit (over 60k nodes) or the full engine would otherwise be cut by the clock
#   CONC=2                        games at a time
#   OUT=target/calibration        PGNs and logs
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
MYSL=$(realpath "${MYSL:-target/release/mysl}")
STOCKFISH=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
ROUNDS=${ROUNDS:-20}
TC=${TC:-5+0.05}
TC_HIGH=${TC_HIGH:-20+0.2}
HIGH_FROM=${HIGH_FROM:-2000}
CONC=${CONC:-2}
OUT=${OUT:-target/calibration}
LEVELS=("$@")
[ ${#LEVELS[@]} -gt 0 ] || LEVELS=(1350 1600 1900 2100 2250 2500)
[ -x "$STOCKFISH" ] || { echo "stockfish not found: apt-get install stockfish (Debian puts it in /usr/games)" >&2; exit 2; }
python3 -c "import chess" 2>/dev/null || python3 -m pip install -q chess || python3 -m pip install -q --break-system-packages chess
OPENINGS=$SHARED/data/engine-testing/openings/8moves_v3_2k.pgn
[ -f "$OPENINGS" ] || { echo "missing $OPENINGS (../shared)" >&2; exit 2; }
mkdir -p "$OUT"
echo "mysl: $MYSL ($("$MYSL" --version)); reference: $("$STOCKFISH" <<< quit | head -1)"
echo "| UCI_Elo | control | games | mysl W-D-L | mysl score | Elo diff (95%) |"
echo "|---|---|---|---|---|---|"
for elo in "${LEVELS[@]}"; do
    tc=$TC
    [ "$elo" -lt "$HIGH_FROM" ] || tc=$TC_HIGH
    log=$OUT/level-$elo.log
    python3 "$SHARED/tools/match.py" \
        --engine cmd="$MYSL" proto=uci name="mysl-$elo" option.Hash=16 option.Threads=1 \
            option.UCI_LimitStrength=true option.UCI_Elo="$elo" \
        --engine cmd="$STOCKFISH" proto=uci name="sf15.1-$elo" option.Hash=16 option.Threads=1 \
            option.UCI_LimitStrength=true option.UCI_Elo="$elo" \
        --openings "$OPENINGS" --order random --seed "$elo" --rounds "$ROUNDS" --tc "$tc" \
        --concurrency "$CONC" --pgn "$OUT/level-$elo.pgn" > "$log" 2>&1 || { echo "level $elo: match failed, see $log" >&2; continue; }
    python3 - "$log" "$elo" "$tc" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
# match.py's final report: "Final of A vs B: W - L - D  [ratio] N" and an "Elo difference" line.
score = re.findall(r"Final of .*?: (\d+) - (\d+) - (\d+)", text)
elo = re.findall(r"Elo difference: ([^\n]*)", text)
if not score:
    print(f"| {sys.argv[2]} | {sys.argv[3]} | ? | see {sys.argv[1]} | | |"); sys.exit()
w, l, d = map(int, score[-1]); n = w + l + d
print(f"| {sys.argv[2]} | {sys.argv[3]} | {n} | {w}-{d}-{l} | {100 * (w + d / 2) / n:.1f}% | {elo[-1].split(', LOS')[0].strip() if elo else '?'} |")
EOF
done
