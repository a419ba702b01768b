#!/usr/bin/env bash
# Strength and reliability of mysl, measured against outside engines (a benchmark, not a test).
#
#   scripts/strength.sh [SECTION...]      sections: anchors wac variants reliability (default: all)
#
# Settings (environment):
#   MYSL=target/release/mysl   the engine under test (built with `cargo build --release` if missing)
#   GAMES=200                  games per anchor match (orthodox; paired openings, colours swapped)
#   TC=10+0.1                  time control of the anchor and variant matches
#   VGAMES=100                 games per variant match
#   RGAMES=1000                reliability games in all, at RTC, spread over orthodox and the variants
#   RTC=2+0.02                 reliability time control
#   RSEED=7                    seed of the reliability games' random openings (change it to add new games)
#   SEED=1                     seed of the anchor matches' opening order (another seed: other openings)
#   CONC=1                     games at a time (each engine has one thread; keep CONC <= cores)
#   ANCHORS="fairymax phalanx glaurung toga2 ethereal"
#   WAC_TIME=1                 seconds per WAC position
#   OUT=target/strength        PGN files and logs
#
# Anchors are Debian's engines (installed here with apt-get when missing and we are root). Orthodox
# matches use ../shared/tools/match.py with the UHO openings; variant and reliability games use
# `mysl match` (mysl referees every variant; no outside runner knows them all).
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
MYSL=${MYSL:-target/release/mysl}
GAMES=${GAMES:-200}
TC=${TC:-10+0.1}
VGAMES=${VGAMES:-100}
RGAMES=${RGAMES:-1000}
RTC=${RTC:-2+0.02}
RSEED=${RSEED:-7}
SEED=${SEED:-1}
CONC=${CONC:-1}
ANCHORS=${ANCHORS:-"fairymax phalanx glaurung toga2 ethereal"}
WAC_TIME=${WAC_TIME:-1}
OUT=${OUT:-target/strength}
SECTIONS=${*:-"anchors wac variants reliability"}

[ -d "$SHARED/data" ] || { echo "needs $SHARED/data (openings, suites, match.py)" >&2; exit 1; }
[ -x "$MYSL" ] || cargo build --release -p mysl
MYSL=$(realpath "$MYSL")
mkdir -p "$OUT"
python3 -c "import chess" 2>/dev/null || python3 -m pip install -q chess || python3 -m pip install -q --break-system-packages chess
need=()
for p in fairymax phalanx glaurung toga2 ethereal-chess stockfish fairy-stockfish; do
    [ -x "/usr/games/$p" ] || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -q >/dev/null && apt-get install -y -q "${need[@]}" >/dev/null
    else
        echo "missing engines: ${need[*]} (apt-get install them)" >&2
    fi
fi

MATCH="python3 $SHARED/tools/match.py"
UHO=$SHARED/data/engine-testing/openings/UHO_4060_v4.epd
ME="cmd=$MYSL proto=uci name=mysl option.Hash=64 option.Threads=1"
anchor_spec() {
    case "$1" in
        fairymax) echo "cmd=/usr/games/fairymax proto=xboard name=Fairy-Max" ;;
        phalanx) echo "cmd=/usr/games/phalanx proto=xboard name=Phalanx" ;;
        glaurung) echo "cmd=/usr/games/glaurung proto=uci name=Glaurung option.Hash=64 option.Threads=1 option.OwnBook=false" ;;
        toga2) echo "cmd=/usr/games/toga2 proto=uci name=Toga2 option.Hash=64 option.Threads=1 option.OwnBook=false" ;;
        ethereal) echo "cmd=/usr/games/ethereal-chess proto=uci name=Ethereal option.Hash=64 option.Threads=1" ;;
        *) echo "unknown anchor $1" >&2; return 1 ;;
    esac
}

summary=()
if [[ " $SECTIONS " == *" anchors "* ]]; then
    for a in $ANCHORS; do
        spec=$(anchor_spec "$a")
        openings=$UHO
        # The xboard anchors play PGN openings from the start position (Fairy-Max has no setboard).
        case "$a" in fairymax|phalanx) openings=$SHARED/data/engine-testing/openings/8moves_v3_2k.pgn ;; esac
        echo "== mysl vs $a: $GAMES games at $TC"
        # shellcheck disable=SC2086
        $MATCH --engine $ME --engine $spec --openings "$openings" --order random --seed "$SEED" \
            --rounds $((GAMES / 2)) --tc "$TC" --concurrency "$CONC" --pgn "$OUT/$a.pgn" \
            --report-every 50 | tee "$OUT/$a.log"
        summary+=("$a: $(grep -E '^(Final|Score) of' "$OUT/$a.log" | tail -1 || true)")
    done
fi

if [[ " $SECTIONS " == *" wac "* ]]; then
    echo "== WAC at ${WAC_TIME}s per position"
    # shellcheck disable=SC2086
    python3 "$SHARED/tools/epdtest.py" --engine $ME --epd "$SHARED/data/engine-testing/suites/wac.epd" \
        --time "$WAC_TIME" | tee "$OUT/wac.log"
    summary+=("WAC: $(grep -E '^[^ ]+: [0-9]+ / [0-9]+' "$OUT/wac.log" | tail -1 || true)")
fi

if [[ " $SECTIONS " == *" variants "* ]]; then
    for pair in antichess:fairy-stockfish 3check:fairy-stockfish extinction:fairy-stockfish \
        berolina:fairymax cylinder:fairymax; do
        v=${pair%%:*}
        e=${pair##*:}
        case "$e" in
            fairy-stockfish) spec="cmd=/usr/games/fairy-stockfish name=Fairy-Stockfish option.Threads=1 option.Hash=64" ;;
            fairymax) spec="cmd=/usr/games/fairymax proto=xboard name=Fairy-Max" ;;
        esac
        echo "== $v: mysl vs $e, $VGAMES games at $TC"
        "$MYSL" match --engine "cmd=$MYSL name=mysl" --engine "$spec" --variant "$v" --tc "$TC" \
            --games "$VGAMES" --random-plies 6 --seed 1 --concurrency "$CONC" --pgn "$OUT/variant-$v.pgn" \
            | tee "$OUT/variant-$v.log"
        summary+=("$v vs $e: $(grep -E '^Score of' "$OUT/variant-$v.log" | tail -1 || true)")
    done
fi

if [[ " $SECTIONS " == *" reliability "* ]]; then
    # Orthodox against two anchors and itself, then every variant against itself or an outside engine.
    runs=(
        "chess|cmd=/usr/games/glaurung name=Glaurung option.Threads=1 option.OwnBook=false|$UHO"
        "chess|cmd=/usr/games/phalanx proto=xboard name=Phalanx|"
        "chess|cmd=$MYSL name=mysl-b|$UHO"
        "antichess|cmd=/usr/games/fairy-stockfish name=Fairy-Stockfish option.Threads=1|"
        "3check|cmd=/usr/games/fairy-stockfish name=Fairy-Stockfish option.Threads=1|"
        "extinction|cmd=/usr/games/fairy-stockfish name=Fairy-Stockfish option.Threads=1|"
        "berolina|cmd=/usr/games/fairymax proto=xboard name=Fairy-Max|"
        "cylinder|cmd=/usr/games/fairymax proto=xboard name=Fairy-Max|"
        "dice|cmd=$MYSL name=mysl-b|"
        "knightrelay|cmd=$MYSL name=mysl-b|"
        "recycle|cmd=$MYSL name=mysl-b|"
        "antichess-noep|cmd=$MYSL name=mysl-b|"
    )
    per=$(( (RGAMES + ${#runs[@]} - 1) / ${#runs[@]} ))
    per=$(( (per + 1) / 2 * 2 ))
    : > "$OUT/reliability.log"
    for r in "${runs[@]}"; do
        IFS='|' read -r v spec openings <<<"$r"
        echo "== reliability: $v vs ${spec##*name=}, $per games at $RTC"
        args=(--engine "cmd=$MYSL name=mysl" --engine "$spec" --variant "$v" --tc "$RTC" --games "$per"
            --seed "$RSEED" --concurrency "$CONC" --pgn "$OUT/reliability-$v.pgn")
        if [ -n "$openings" ]; then args+=(--openings "$openings"); else args+=(--random-plies 8); fi
        "$MYSL" match "${args[@]}" | tee -a "$OUT/reliability.log" | grep -E '^(Score|mysl|after)' || true
    done
    games=$(grep -cE '^game ' "$OUT/reliability.log" || true)
    faults=$(grep -E '^mysl: ' "$OUT/reliability.log" | awk '{c+=$2; i+=$6; t+=$9} END {printf "%d crashes or hangs, %d illegal moves, %d losses on time", c, i, t}')
    summary+=("reliability: $games games at $RTC; mysl: $faults")
fi

echo
echo "== summary ($(date -u +%F), $(nproc) cores, mysl $("$MYSL" bench 2>/dev/null | grep 'Nodes searched' | awk '{print $NF}') bench nodes)"
printf '%s\n' "${summary[@]}"
