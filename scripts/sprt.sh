#!/usr/bin/env bash
# SPRT between two mysl builds or settings at fixed nodes per move (load-independent), with
# ../shared/tools/match.py and scripts/nodes-proxy.py. A benchmark, not a test.
#
#   scripts/sprt.sh NEW_BINARY NEW_NODES BASE_BINARY BASE_NODES [match.py options...]
#
# Settings (environment):
#   NEW_OPTS / BASE_OPTS   extra match.py engine tokens separated by ';', e.g. "option.EvalFile=net.nnue"
#                          or "option.Use NNUE=false" (option names may hold spaces)
#   ROUNDS=500             game pairs at most (SPRT stops earlier)
#   SPRT="elo0=0 elo1=10"  hypotheses
#   CONC=2                 games at a time
#   OUT=target/sprt        PGN and log
# Give the evaluation that is slower per node proportionally more nodes (the ratio of the two builds'
# `mysl bench` Nodes/second, measured in the same run) so that the test compares equal time.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
[ $# -ge 4 ] || { sed -n 2,13p "$0"; exit 2; }
NEW=$(realpath "$1"); NEW_NODES=$2; BASE=$(realpath "$3"); BASE_NODES=$4; shift 4
ROUNDS=${ROUNDS:-500}
SPRT=${SPRT:-"elo0=0 elo1=10"}
CONC=${CONC:-2}
OUT=${OUT:-target/sprt}
mkdir -p "$OUT"
python3 -c "import chess" 2>/dev/null || python3 -m pip install -q chess || python3 -m pip install -q --break-system-packages chess
PROXY=$(realpath scripts/nodes-proxy.py)
UHO=$SHARED/data/engine-testing/openings/UHO_4060_v4.epd
stamp=$(date -u +%Y%m%d-%H%M%S)
IFS=';' read -r -a new_opts <<< "${NEW_OPTS:-}"
IFS=';' read -r -a base_opts <<< "${BASE_OPTS:-}"
# shellcheck disable=SC2086
python3 "$SHARED/tools/match.py" \
    --engine cmd=python3 arg="$PROXY" arg="$NEW" arg="$NEW_NODES" proto=uci name=new option.Hash=16 "${new_opts[@]}" \
    --engine cmd=python3 arg="$PROXY" arg="$BASE" arg="$BASE_NODES" proto=uci name=base option.Hash=16 "${base_opts[@]}" \
    --openings "$UHO" --rounds "$ROUNDS" --tc 60+1 --concurrency "$CONC" --seed 1 \
    --pgn "$OUT/sprt-$stamp.pgn" --sprt $SPRT "$@" 2>&1 | tee "$OUT/sprt-$stamp.log"
