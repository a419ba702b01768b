#!/usr/bin/env bash
# One NNUE cycle: train a network on the datagen chunks (the newest HELD_OUT chunks held out), compare
# its held-out loss with the hand-crafted evaluation's, measure its speed, and play an SPRT against the
# hand-crafted evaluation at fixed nodes, the network's nodes scaled by the measured speed ratio.
# A benchmark, not a test (docs/nnue.md).
#
#   scripts/nnue-cycle.sh DATA_DIR OUT.nnue
#
# Settings (environment): HIDDEN=64 EPOCHS=10 WD=1.0 LR=0.002 WDL=0.5 HELD_OUT=20 NODES=10000
#   ROUNDS=300 (SPRT game pairs at most) SPRT="elo0=0 elo1=10" CONC=2; SKIP_SPRT=1 stops after the loss.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { sed -n 2,11p "$0"; exit 2; }
DATA=$1; OUT=$2
HIDDEN=${HIDDEN:-64}; EPOCHS=${EPOCHS:-10}; WD=${WD:-1.0}; LR=${LR:-0.002}; WDL=${WDL:-0.5}
HELD_OUT=${HELD_OUT:-20}; NODES=${NODES:-10000}
cargo build --release -q -p mysl -p mysl-engine --example eval_loss --example nnue_speed
MYSL=target/release/mysl
work=$(mktemp -d "${TMPDIR:-/tmp}/nnue-cycle.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/train" "$work/held"
mapfile -t files < <(ls "$DATA"/chunk-*.bin | sort)
n=${#files[@]}
[ "$n" -gt "$HELD_OUT" ] || { echo "need more than $HELD_OUT chunks in $DATA" >&2; exit 1; }
for f in "${files[@]:0:n-HELD_OUT}"; do ln -s "$(realpath "$f")" "$work/train/"; done
for f in "${files[@]:n-HELD_OUT}"; do ln -s "$(realpath "$f")" "$work/held/"; done
echo "== train: $((n - HELD_OUT)) chunks, held out $HELD_OUT"
"$MYSL" train --data "$work/train" --out "$OUT" --hidden "$HIDDEN" --epochs "$EPOCHS" --weight-decay "$WD" \
    --lr "$LR" --wdl "$WDL" --batch 8192 --val-fraction 0.05 --mirror --checkpoint-dir "$work" 2>&1 | grep -E "positions from|^epoch +[0-9]+:"
echo "== held-out loss"
target/release/examples/eval_loss "$work/held" "$OUT" 1 "$WDL"
echo "== speed"
# (not `tee /dev/stderr`: with stderr redirected to a log file, tee would truncate the log)
speed_report=$(target/release/examples/nnue_speed "$OUT" 100000 3)
echo "$speed_report"
speed=$(awk '/^median/ {print $NF}' <<<"$speed_report")
[ "${SKIP_SPRT:-0}" = 1 ] && exit 0
net_nodes=$(python3 -c "print(int($NODES * $speed))")
echo "== SPRT: network at $net_nodes nodes against the hand-crafted evaluation at $NODES"
NEW_OPTS="option.EvalFile=$(realpath "$OUT")" BASE_OPTS="option.Use NNUE=false" ROUNDS=${ROUNDS:-300} \
    scripts/sprt.sh "$MYSL" "$net_nodes" "$MYSL" "$NODES"
