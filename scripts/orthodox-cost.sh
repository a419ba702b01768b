#!/usr/bin/env bash
# Benchmark (not a test): what a change costs orthodox perft, counted in executed instructions
# (valgrind's callgrind), which unlike wall time is stable on a shared machine.
# Usage: scripts/orthodox-cost.sh OLD_REV [NEW_REV] [DEPTH]   (NEW_REV defaults to the working tree)
set -euo pipefail
cd "$(dirname "$0")/.."
OLD="${1:?usage: $0 OLD_REV [NEW_REV] [DEPTH]}"
NEW="${2:-}"
DEPTH="${3:-5}"
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() { # rev dir -> binary path
    local rev=$1 dir=$2
    git worktree add -q --detach "$dir" "$rev"
    (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo build --release -q -p mysl)
    echo "$dir/target/release/mysl"
}
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" perft --depth "$DEPTH" 2>&1 |
        sed -n 's/.*Collected : *//p'
}
old_bin=$(build "$OLD" "$work/old")
if [ -n "$NEW" ]; then new_bin=$(build "$NEW" "$work/new"); else cargo build --release -q -p mysl; new_bin=target/release/mysl; fi
old_n=$(count "$old_bin"); new_n=$(count "$new_bin")
git worktree remove --force "$work/old" >/dev/null 2>&1 || true
[ -n "$NEW" ] && git worktree remove --force "$work/new" >/dev/null 2>&1 || true
echo "orthodox perft $DEPTH from the start position, instructions executed:"
echo "  $OLD: $old_n"
echo "  ${NEW:-working tree}: $new_n"
awk "BEGIN { printf \"  change: %+.2f%%\n\", ($new_n - $old_n) * 100 / $old_n }"
