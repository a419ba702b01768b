#!/usr/bin/env bash
# Engine-vs-engine games over both protocols and all ten variants (issue 24 item 5): mysl over UCI against
# mysl over xboard (dice: UCI against UCI, as `mysl match` sends the roll in a FEN), refereed by `mysl match`,
# counting crashes or hangs, illegal moves and losses on time. A benchmark, not a test.
#
#   scripts/protocol-games.sh                # GAMES=2000 in all (200 a variant), 1+0.01, one game at a time
#   GAMES=400 scripts/protocol-games.sh      # a fraction
#
# Settings: GAMES (in all, spread over the variants), TC (1+0.01), CONC (1), SEED (1), MYSL
# (target/release/mysl), OUT (target/protocol-games: PGN files and the log). Games are played to the end
# (no score adjudication), draw at move 150.
set -euo pipefail
cd "$(dirname "$0")/.."
MYSL=${MYSL:-$PWD/target/release/mysl}
GAMES=${GAMES:-2000}
TC=${TC:-1+0.01}
CONC=${CONC:-1}
SEED=${SEED:-1}
OUT=${OUT:-target/protocol-games}
mkdir -p "$OUT"
variants=(chess antichess antichess-noep 3check extinction berolina cylinder dice knightrelay recycle)
per=$(( (GAMES + ${#variants[@]} - 1) / ${#variants[@]} ))
per=$(( (per + 1) / 2 * 2 ))
log="$OUT/games.log"
: > "$log"
start=$(date +%s)
for v in "${variants[@]}"; do
    second="cmd=$MYSL proto=xboard name=mysl-xboard"
    [ "$v" = dice ] && second="cmd=$MYSL name=mysl-xboard"   # dice needs UCI (name kept for the summary)
    echo "== $v: $per games at $TC"
    "$MYSL" match --engine "cmd=$MYSL name=mysl-uci" --engine "$second" --variant "$v" --tc "$TC" --games "$per" \
        --random-plies 8 --seed "$SEED" --concurrency "$CONC" --resign-moves 0 --max-moves 150 \
        --pgn "$OUT/games-$v.pgn" | tee -a "$log" | grep -E '^(Score|mysl-)' || true
done
games=$(grep -cE '^game ' "$log" || true)
faults=$(grep -E '^mysl-(uci|xboard): ' "$log" | awk '{c+=$2; i+=$6; t+=$9} END {printf "%d crashes or hangs, %d illegal moves, %d losses on time", c, i, t}')
echo "== $games games at $TC in $(( $(date +%s) - start )) s, $CONC at a time: $faults"
