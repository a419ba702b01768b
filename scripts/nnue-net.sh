#!/usr/bin/env bash
# Rebuilds the embedded network crates/engine/nets/mysl-h128-3ae88916.nnue bit for bit, from an empty
# data directory (docs/nnue.md#nets-and-lineage). Long: the data take about 2 hours on 2 free cores
# (resumable: re-run the script after an interruption); training takes under a minute.
#
#   scripts/nnue-net.sh [DATA_DIR] [OUT.nnue]     defaults: target/nnue-data/hce-n5000, target/nnue/rebuilt.nnue
#
# The data come from the hand-crafted engine at d49b4b5 (bench 1864593), built in a worktree under
# target/; the training from the current `mysl train`. Same bytes on any x86-64 machine with AVX2+FMA
# (the trainer's kernels; the portable ones round differently).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:-target/nnue-data/hce-n5000}
OUT=${2:-target/nnue/rebuilt.nnue}
DATA_COMMIT=d49b4b5
GAMES=28050   # 561 chunks of 50 games
EXPECTED=3ae88916da055d3391f1569eeced6c1033569e374ccbfd812d5c0b4202d92fcf

datagen_tree=target/nnue-datagen-$DATA_COMMIT
if [ ! -x "$datagen_tree/target/release/mysl" ]; then
    [ -d "$datagen_tree" ] || git worktree add --detach "$datagen_tree" "$DATA_COMMIT"
    (cd "$datagen_tree" && cargo build --release -p mysl)
fi
mkdir -p "$DATA" "$(dirname "$OUT")"
"$datagen_tree/target/release/mysl" datagen --out "$DATA" --threads 2 --nodes 5000 --seed 1 --games "$GAMES"
cargo build --release -q -p mysl
target/release/mysl train --data "$DATA" --out "$OUT" --hidden 128 --epochs 10 --weight-decay 0.5 \
    --lr 0.002 --wdl 0.5 --batch 8192 --val-fraction 0.05 --mirror --threads 2 --seed 1 \
    --checkpoint-dir "$(dirname "$OUT")"
sum=$(sha256sum "$OUT" | cut -d' ' -f1)
echo "$OUT: sha256 $sum"
[ "$sum" = "$EXPECTED" ] && echo "identical to the embedded network" || { echo "differs from the embedded network ($EXPECTED)"; exit 1; }
