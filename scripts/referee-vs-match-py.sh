#!/usr/bin/env bash
# `mysl match` against ../shared/tools/match.py on orthodox chess: both runners play the same openings
# between the same two engines, each limited to a fixed number of nodes a move (through
# scripts/nodes-proxy.py), so every game is deterministic and the two runners must produce the same
# games: the same moves, the same results and the same W/D/L. A benchmark script, not a test (it needs
# ../shared and python-chess).
#
#   scripts/referee-vs-match-py.sh            settings: MYSL, OTHER (second engine), NODES, PAIRS, OUT
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
MYSL=${MYSL:-target/release/mysl}
OTHER=${OTHER:-$MYSL}
NODES=${NODES:-20000}
PAIRS=${PAIRS:-10}
OUT=${OUT:-target/referee-check}
[ -d "$SHARED/data" ] || { echo "needs $SHARED/data" >&2; exit 1; }
[ -x "$MYSL" ] || cargo build --release -p mysl
MYSL=$(realpath "$MYSL")
OTHER=$(realpath "$OTHER")
python3 -c "import chess" 2>/dev/null || python3 -m pip install -q chess || python3 -m pip install -q --break-system-packages chess
rm -rf "$OUT" && mkdir -p "$OUT"
head -n "$PAIRS" "$SHARED/data/engine-testing/openings/UHO_4060_v4.epd" > "$OUT/openings.epd"
PROXY=$(realpath scripts/nodes-proxy.py)

# No adjudication and no move limit in either runner: games end by the rules only.
python3 "$SHARED/tools/match.py" \
    --engine cmd=python3 arg="$PROXY" arg="$MYSL" arg="$NODES" proto=uci name=A option.Hash=16 \
    --engine cmd=python3 arg="$PROXY" arg="$OTHER" arg="$NODES" proto=uci name=B option.Hash=16 \
    --openings "$OUT/openings.epd" --order sequential --rounds "$PAIRS" --tc 1000+1 \
    --resign movecount=0 --draw movecount=0 --maxmoves 0 --concurrency 1 --pgn "$OUT/match-py.pgn" \
    > "$OUT/match-py.log"
"$MYSL" match \
    --engine "cmd=python3 arg=$PROXY arg=$MYSL arg=$NODES name=A option.Hash=16" \
    --engine "cmd=python3 arg=$PROXY arg=$OTHER arg=$NODES name=B option.Hash=16" \
    --openings "$OUT/openings.epd" --games $((2 * PAIRS)) --tc 1000+1 --resign-moves 0 --max-moves 10000 \
    --concurrency 1 --pgn "$OUT/mysl-match.pgn" > "$OUT/mysl-match.log"

python3 - "$OUT/match-py.pgn" "$OUT/mysl-match.pgn" <<'EOF'
import sys, chess.pgn
def games(path):
    out = {}
    with open(path) as f:
        while (g := chess.pgn.read_game(f)) is not None:
            key = (" ".join(g.headers.get("FEN", "").split()[:4]), g.headers["White"])
            out[key] = ([m.uci() for m in g.mainline_moves()], g.headers["Result"])
    return out
a, b = games(sys.argv[1]), games(sys.argv[2])
# match.py ends a game as soon as a threefold repetition can be claimed (python-chess: the next move
# would repeat the position a third time); mysl match when the position has occurred three times,
# one ply later. So a game agrees when the results are equal and the moves agree up to the shorter
# game, the longer by at most one ply.
def agree(x, y):
    (mx, rx), (my, ry) = x, y
    n = min(len(mx), len(my))
    return rx == ry and mx[:n] == my[:n] and abs(len(mx) - len(my)) <= 1
same = sum(1 for k in a if k in b and agree(a[k], b[k]))
exact = sum(1 for k in a if k in b and a[k] == b[k])
print(f"match.py games: {len(a)}, mysl match games: {len(b)}, agreeing: {same} ({exact} move for move, "
      f"{same - exact} ending one ply apart at a threefold repetition)")
def wdl(g):
    w = d = l = 0
    for (fen, white), (moves, r) in g.items():
        if r == "1/2-1/2": d += 1
        elif (r == "1-0") == (white == "A"): w += 1
        else: l += 1
    return w, d, l
print("A's W/D/L: match.py %s, mysl match %s" % (wdl(a), wdl(b)))
for k in a:
    if k not in b or not agree(a[k], b[k]):
        print("differs:", k, a[k][1], b.get(k, (None, None))[1], len(a[k][0]), len(b.get(k, ([], None))[0]))
sys.exit(0 if same == len(a) == len(b) and wdl(a) == wdl(b) else 1)
EOF
