#!/usr/bin/env bash
# Benchmark (not a test): our `mysl perft` against Stockfish's `go perft` on the same machine, single
# thread, same positions. Prints node rates and the ratio ours/Stockfish (> 1.0 = we are faster).
# Usage: scripts/perft-vs-stockfish.sh [repeats]   (default 3; the best time of the repeats counts)
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS="${1:-3}"

STOCKFISH="$(command -v stockfish || true)"
[ -z "$STOCKFISH" ] && [ -x /usr/games/stockfish ] && STOCKFISH=/usr/games/stockfish
if [ -z "$STOCKFISH" ]; then
    echo "installing Debian stockfish..." >&2
    (apt-get update -qq && apt-get install -y -qq stockfish) >&2 || sudo apt-get install -y -qq stockfish >&2
    STOCKFISH=/usr/games/stockfish
fi
cargo build --release -q -p mysl
MYSL=target/release/mysl

POSITIONS=(
    "startpos|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6"
    "kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5"
    "position3|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|7"
)

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.9f\", $* }"; }
best_time() { # command... -> prints "seconds nodes"
    local best="" nodes=""
    for _ in $(seq "$REPEATS"); do
        local t0 t1 out
        t0=$(now)
        out=$("$@")
        t1=$(now)
        nodes=$(printf '%s\n' "$out" | sed -n 's/^Nodes searched: *//p' | tail -1)
        local dt
        dt=$(calc "$t1 - $t0")
        if [ -z "$best" ] || [ "$(awk "BEGIN { print ($dt < $best) }")" = 1 ]; then best=$dt; fi
    done
    echo "$best $nodes"
}
sf_perft() { printf 'setoption name Threads value 1\nposition fen %s\ngo perft %s\nquit\n' "$1" "$2" | "$STOCKFISH"; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "stockfish: $("$STOCKFISH" quit </dev/null | head -1)"
echo "mysl: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
printf '%-10s %5s %12s %10s %14s %10s %14s %7s\n' position depth nodes mysl_s mysl_nps sf_s sf_nps ratio
total_ours=0; total_sf=0
for entry in "${POSITIONS[@]}"; do
    IFS='|' read -r name fen depth <<<"$entry"
    read -r ours_t ours_n < <(best_time "$MYSL" perft --depth "$depth" --fen "$fen")
    read -r sf_t sf_n < <(best_time sf_perft "$fen" "$depth")
    if [ "$ours_n" != "$sf_n" ]; then
        echo "node count mismatch on $name: mysl $ours_n, stockfish $sf_n" >&2
        exit 1
    fi
    ratio=$(calc "$sf_t / $ours_t")
    printf '%-10s %5s %12s %10.3f %14.0f %10.3f %14.0f %7.2f\n' "$name" "$depth" "$ours_n" "$ours_t" \
        "$(calc "$ours_n / $ours_t")" "$sf_t" "$(calc "$sf_n / $sf_t")" "$ratio"
    total_ours=$(calc "$total_ours + $ours_t"); total_sf=$(calc "$total_sf + $sf_t")
done
printf 'overall ratio (Stockfish time / mysl time): %.2f  (target >= 1.0)\n' "$(calc "$total_sf / $total_ours")"
