#!/usr/bin/env bash
# Benchmark (not a test): our `mysl perft --variant V` against Debian's fairy-stockfish
# (`setoption name UCI_Variant value V`, `go perft 6`) on the start positions of antichess, 3check and
# extinction, single thread, same machine, one run. Prints node rates and ratios (> 1.0 = we are faster).
# Usage: scripts/perft-vs-fairy-stockfish.sh [depth] [repeats]   (defaults 6 and 3; best time counts)
set -euo pipefail
cd "$(dirname "$0")/.."
DEPTH="${1:-6}"
REPEATS="${2:-3}"

FSF="$(command -v fairy-stockfish || true)"
[ -z "$FSF" ] && [ -x /usr/games/fairy-stockfish ] && FSF=/usr/games/fairy-stockfish
if [ -z "$FSF" ]; then
    echo "installing Debian fairy-stockfish..." >&2
    (apt-get update -qq && apt-get install -y -qq fairy-stockfish) >&2 || sudo apt-get install -y -qq fairy-stockfish >&2
    FSF=/usr/games/fairy-stockfish
fi
cargo build --release -q -p mysl
MYSL=target/release/mysl

# variant name for mysl | UCI_Variant for fairy-stockfish | start FEN for mysl
VARIANTS=(
    "antichess|antichess|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    "3check|3check|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"
    "extinction|extinction|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
)

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.9f\", $* }"; }
best_time() {
    local best="" nodes=""
    for _ in $(seq "$REPEATS"); do
        local t0 t1 out dt
        t0=$(now)
        out=$("$@")
        t1=$(now)
        nodes=$(printf '%s\n' "$out" | sed -n 's/^Nodes searched: *//p' | tail -1)
        dt=$(calc "$t1 - $t0")
        if [ -z "$best" ] || [ "$(awk "BEGIN { print ($dt < $best) }")" = 1 ]; then best=$dt; fi
    done
    echo "$best $nodes"
}
fsf_perft() { printf 'uci\nsetoption name Threads value 1\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' "$1" "$2" | "$FSF"; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "fairy-stockfish: $("$FSF" quit </dev/null | head -1)"
echo "mysl: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
printf '%-11s %5s %12s %10s %14s %10s %14s %7s\n' variant depth nodes mysl_s mysl_nps fsf_s fsf_nps ratio
status=0
for entry in "${VARIANTS[@]}"; do
    IFS='|' read -r ours theirs fen <<<"$entry"
    read -r ours_t ours_n < <(best_time "$MYSL" perft --variant "$ours" --depth "$DEPTH" --fen "$fen")
    read -r fsf_t fsf_n < <(best_time fsf_perft "$theirs" "$DEPTH")
    if [ "$ours_n" != "$fsf_n" ]; then
        echo "node count mismatch on $ours: mysl $ours_n, fairy-stockfish $fsf_n" >&2
        status=1
    fi
    printf '%-11s %5s %12s %10.3f %14.0f %10.3f %14.0f %7.2f\n' "$ours" "$DEPTH" "$ours_n" "$ours_t" \
        "$(calc "$ours_n / $ours_t")" "$fsf_t" "$(calc "$fsf_n / $fsf_t")" "$(calc "$fsf_t / $ours_t")"
done
echo "target: ratio >= 2.0 in each variant"
exit $status
