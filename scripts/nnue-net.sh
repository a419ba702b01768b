#!/usr/bin/env bash
# Rebuilds an NNUE network of mysl's lineage bit for bit, from an empty data directory
# (docs/nnue.md#nets-and-lineage). Long: the data take about 2 hours on 2 free cores (resumable: re-run the
# script after an interruption); training takes one or two minutes.
#
#   scripts/nnue-net.sh [DATA_DIR] [OUT.nnue]     defaults: target/nnue-data/net$NET, target/nnue/rebuilt-net$NET.nnue
#
# NET=2 (default): the embedded crates/engine/nets/mysl-h256-b8b5a63d.nnue, from data of the engine at
#   930fe5e (bench 1670280, which embeds network 1).
# NET=1: the first network, mysl-h128-3ae88916.nnue (embedded until 2026-11-29), from data of the
#   hand-crafted engine at d49b4b5 (bench 1864593).
# The data engine is built in a worktree under target/; the training uses the current `mysl train`.
# Same bytes on any x86-64 machine with AVX2+FMA (the trainer's kernels; the portable ones round
# differently). A chunk depends only on its seed (`--seed` + chunk index), not on --threads.
set -euo pipefail
cd "$(dirname "$0")/.."
NET=${NET:-2}
DATA=${1:-target/nnue-data/net$NET}
OUT=${2:-target/nnue/rebuilt-net$NET.nnue}
case $NET in
1)
    DATA_COMMIT=d49b4b5
    RUNS=("1 28050")   # seed, games in all: chunks 0-560 (50 games each)
    TRAIN=(--hidden 128 --epochs 10 --weight-decay 0.5)
    EXPECTED=3ae88916da055d3391f1569eeced6c1033569e374ccbfd812d5c0b4202d92fcf ;;
2)
    DATA_COMMIT=930fe5e
    # Made in three sittings, each resuming with the next seed: chunks 0-843 from seed 1000001, chunks
    # 844-1179 from seed 1000002 (chunk k from seed + k); chunks 1180-1199 were the held-out games.
    RUNS=("1000001 42200" "1000002 59000")
    TRAIN=(--hidden 256 --epochs 10 --weight-decay 0.3)
    EXPECTED=b8b5a63de5298ddace6aa692a12f9eb295004765c8622bde6d67e35d976f6562 ;;
*) echo "NET must be 1 or 2" >&2; exit 2 ;;
esac

datagen_tree=target/nnue-datagen-$DATA_COMMIT
if [ ! -x "$datagen_tree/target/release/mysl" ]; then
    [ -d "$datagen_tree" ] || git worktree add --detach "$datagen_tree" "$DATA_COMMIT"
    (cd "$datagen_tree" && cargo build --release -p mysl)
fi
mkdir -p "$DATA" "$(dirname "$OUT")"
for run in "${RUNS[@]}"; do
    read -r seed games <<< "$run"
    "$datagen_tree/target/release/mysl" datagen --out "$DATA" --threads 2 --nodes 5000 --seed "$seed" --games "$games"
done
cargo build --release -q -p mysl
target/release/mysl train --data "$DATA" --out "$OUT" "${TRAIN[@]}" \
    --lr 0.002 --wdl 0.5 --batch 8192 --val-fraction 0.05 --mirror --threads 2 --seed 1 \
    --checkpoint-dir "$(dirname "$OUT")"
sum=$(sha256sum "$OUT" | cut -d' ' -f1)
echo "$OUT: sha256 $sum"
[ "$sum" = "$EXPECTED" ] && echo "identical to network $NET" || { echo "differs from network $NET ($EXPECTED)"; exit 1; }
