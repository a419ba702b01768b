#!/usr/bin/env bash
# Book building speed and memory: mysl against Debian's `polyglot make-book`, same machine, same run.
# Builds from ../shared/data/pgn/pgnmentor-12players.pgn.zst (30,914 games) with and without -max-ply 30,
# both tools reading the same decompressed file, and prints wall time, games per second and peak memory.
# mysl runs with --polyglot-compat, so both must write the same bytes (checked). mysl runs twice per
# case: with its default memory budget and with a budget that keeps it under polyglot's peak memory.
# Usage: scripts/book-vs-polyglot.sh [MYSL_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
MYSL=${1:-target/release/mysl}
PGN_ZST=../shared/data/pgn/pgnmentor-12players.pgn.zst
GAMES=30914
[ -x "$MYSL" ] || cargo build --release -q
POLYGLOT=$(command -v polyglot || echo /usr/games/polyglot)
if [ ! -x "$POLYGLOT" ]; then
    (apt-get update -qq && apt-get install -y -qq polyglot) >/dev/null 2>&1 || sudo apt-get install -y -qq polyglot >/dev/null
    POLYGLOT=$(command -v polyglot || echo /usr/games/polyglot)
fi
command -v /usr/bin/time >/dev/null || { apt-get install -y -qq time >/dev/null 2>&1 || true; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
zstd -dc "$PGN_ZST" > "$work/games.pgn"

measure() { # label, command...: prints "label wall_s peak_kb"
    local label=$1; shift
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>&1
    read -r wall kb < "$work/time"
    echo "$label $wall $kb"
}

printf "%-34s %8s %10s %10s %9s %8s\n" case "wall s" "games/s" "peak MiB" "speed x" "mem x"
for maxply in 1024 30; do
    p=$(measure polyglot "$POLYGLOT" make-book -pgn "$work/games.pgn" -bin "$work/poly.bin" -max-ply $maxply)
    read -r _ pw pk <<< "$p"
    budgets="64"
    [ $maxply = 30 ] && budgets="64 12"
    printf "%-34s %8.2f %10.0f %10.1f %9s %8s\n" "polyglot -max-ply $maxply" "$pw" "$(echo "$GAMES / $pw" | bc -l)" "$(echo "$pk / 1024" | bc -l)" 1.00 1.00
    for mem in $budgets; do
        m=$(measure mysl "$MYSL" book build --pgn "$work/games.pgn" --out "$work/mysl.bin" --polyglot-compat --max-ply $maxply --memory $mem --quiet)
        read -r _ mw mk <<< "$m"
        cmp -s "$work/poly.bin" "$work/mysl.bin" || { echo "mysl and polyglot books differ (max-ply $maxply)"; exit 1; }
        printf "%-34s %8.2f %10.0f %10.1f %9.2f %8.2f\n" "mysl -max-ply $maxply --memory $mem" "$mw" "$(echo "$GAMES / $mw" | bc -l)" "$(echo "$mk / 1024" | bc -l)" "$(echo "$pw / $mw" | bc -l)" "$(echo "$mk / $pk" | bc -l)"
    done
done
m=$(measure mysl-zst "$MYSL" book build --pgn "$PGN_ZST" --out "$work/zst.bin" --polyglot-compat --quiet)
read -r _ zw zk <<< "$m"
printf "%-34s %8.2f %10.0f %10.1f\n" "mysl from .zst, default budget" "$zw" "$(echo "$GAMES / $zw" | bc -l)" "$(echo "$zk / 1024" | bc -l)"
echo "(speed x = polyglot time / mysl time; mem x = mysl peak / polyglot peak; $(nproc) cores)"
