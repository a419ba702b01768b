#!/usr/bin/env bash
# Tablebase benchmark: generation time of all 3-4 piece endings (release build, THREADS threads, default 2),
# per-ending wall and CPU time, and the size of the written files (bytes per index entry and side to move,
# and in total). Usage: scripts/tb-bench.sh [OUTPUT_DIR]   (default: a fresh temporary directory)
# Environment: CARGO_TARGET_DIR as usual; MYSL_TB_TRACE=1 adds a per-phase breakdown (init, DTM, DTZ).
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-2}
DIR=${1:-$(mktemp -d)}
TARGET=${CARGO_TARGET_DIR:-target}

echo "== in-memory generation (DTM + DTZ50, all 3-4 piece endings, $THREADS threads)"
cargo build --release -p mysl-tb --example gen_time -q
"$TARGET/release/examples/gen_time" "$THREADS"

echo "== mysl tb gen --max-pieces 4 --dir $DIR (generation + writing the files)"
cargo build --release -p mysl -q
start=$(date +%s.%N)
"$TARGET/release/mysl" tb gen --max-pieces 4 --dir "$DIR" --threads "$THREADS"
end=$(date +%s.%N)
echo "wall: $(echo "$end - $start" | bc) s"
total=$(du -cb "$DIR"/*.mtb | tail -1 | cut -f1)
echo "files: $(ls "$DIR"/*.mtb | wc -l), $total bytes in total"
