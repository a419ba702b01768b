#!/usr/bin/env bash
# Tablebase benchmark (issue 6):
#  1. generation time of all 3-4 piece endings, DTM + DTZ50, THREADS threads (default 2): per ending and in
#     total, wall and CPU (user + system) time; the machine's load average is printed beside it, since wall
#     time on a shared machine says little;
#  2. the 5-piece endings of the issue (KRBvKR KQRvKR KRRvKR KRNvKR KRPvKR KQPvKQ): not supported yet, said so;
#  3. file sizes (format version 2): bits per unique position (Syzygy's count: positions up to symmetry,
#     both sides to move) of the WDL, DTZ and DTM streams, against the Syzygy files of the same endings;
#  4. warm probe latency of random legal positions, ours against shakmaty-syzygy on the same positions.
# Usage: scripts/tb-bench.sh [OUTPUT_DIR]   (default: a fresh temporary directory)
# Environment: THREADS, POSITIONS (probe sample, default 100000), SYZYGY (default ../shared/data/syzygy),
# CARGO_TARGET_DIR as usual, PROFILE (default release; release has LTO and takes minutes to build),
# MYSL_TB_TRACE=1 for a per-phase breakdown (init, DTM levels, DTZ levels).
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-2}
POSITIONS=${POSITIONS:-100000}
SYZYGY=${SYZYGY:-../shared/data/syzygy}
PROFILE=${PROFILE:-release}
DIR=${1:-$(mktemp -d)}
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p "$DIR"

cargo build --profile "$PROFILE" -p mysl-tb --example gen_time --example probe_bench -q
BIN="$TARGET/$PROFILE/examples"
[ "$PROFILE" = dev ] && BIN="$TARGET/debug/examples"

echo "== generation: all 3-4 piece endings, DTM + DTZ50, $THREADS threads (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
OUT=$(mktemp)
/usr/bin/time -f "process: %e s wall, %U s user, %S s system, %M KB peak memory" \
    env MYSL_TB_SIZES=1 MYSL_TB_DIR="$DIR" "$BIN/gen_time" "$THREADS" 2>&1 | tee "$OUT"
echo "(load average after: $(cut -d' ' -f1-3 /proc/loadavg); the per-ending and total times cover generation, the"
echo " process line also the encoding and checking of the files)"

echo
echo "== 5-piece endings (KRBvKR KQRvKR KRRvKR KRNvKR KRPvKR KQPvKQ): not supported yet"
echo "   (the generator needs 16 bytes per index entry: about 2 GB without pawns, more with; the target is 1 GB)"

echo
echo "== sizes against Syzygy (the same 35 endings)"
positions=$(sed -n 's/^sizes: \([0-9]*\) unique positions.*/\1/p' "$OUT")
if [ -d "$SYZYGY" ] && [ -n "$positions" ]; then
    wdl=0; dtz=0
    for f in "$DIR"/*.mtb; do
        m=$(basename "$f" .mtb)
        wdl=$((wdl + $(stat -c %s "$SYZYGY/$m.rtbw")))
        dtz=$((dtz + $(stat -c %s "$SYZYGY/$m.rtbz")))
    done
    echo "Syzygy: WDL $wdl bytes ($(echo "scale=3; 8 * $wdl / $positions" | bc) bits/position), DTZ $dtz bytes ($(echo "scale=3; 8 * $dtz / $positions" | bc) bits/position)"
    grep '^sizes:' "$OUT" | sed 's/^sizes:/mysl:  /'
    echo "(Syzygy stores DTZ for one side to move only and resolves captures by search; see docs/tablebases.md)"
    echo "files: $(ls "$DIR"/*.mtb | wc -l), $(du -cb "$DIR"/*.mtb | tail -1 | cut -f1) bytes in total (WDL + DTZ + DTM)"
else
    echo "skipped: $SYZYGY not found"
fi

echo
echo "== warm probe latency, $POSITIONS random legal positions of the 4-piece endings"
if [ -d "$SYZYGY" ]; then
    "$BIN/probe_bench" "$DIR" "$SYZYGY" "$POSITIONS"
else
    echo "skipped: $SYZYGY not found"
fi
rm -f "$OUT"
