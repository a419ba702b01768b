#!/usr/bin/env bash
# Tablebase benchmark (issue 6):
#  1. generation time of all 3-4 piece endings, DTM + DTZ50, THREADS threads (default 2): per ending and in
#     total, wall and CPU (user + system) time; the machine's load average is printed beside it, since wall
#     time on a shared machine says little;
#  2. with FIVE='KRNvKR ...': 5-piece endings, each in its own process (time with the file, peak memory; a
#     pawn ending such as KRPvKR or KQPvKQ generates the 5-piece endings it promotes into first, each timed);
#  3. file sizes (the current file format): bits per unique position (Syzygy's count: positions up to symmetry,
#     both sides to move) of the WDL, DTZ and DTM streams, against the Syzygy files of the same endings;
#  4. warm probe latency of random legal positions, ours against shakmaty-syzygy on the same positions.
# Usage: scripts/tb-bench.sh [OUTPUT_DIR]   (default: a fresh temporary directory)
# Environment: THREADS, FIVE (5-piece endings to time), POSITIONS (probe sample, default 100000), SYZYGY (default ../shared/data/syzygy),
# CARGO_TARGET_DIR as usual, PROFILE (default release; release has LTO and takes minutes to build),
# MYSL_TB_TRACE=1 for a per-phase breakdown (init, DTM levels, DTZ levels).
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-2}
POSITIONS=${POSITIONS:-100000}
FIVE=${FIVE:-}
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
if [ -n "$FIVE" ]; then
    echo "== 5-piece endings ($FIVE), $THREADS threads, one process each (its 3-4 piece sub-endings first; the"
    echo "   5-piece line's time includes encoding and writing the file; peak memory is the whole process's)"
    for m in $FIVE; do
        /usr/bin/time -f "$m process: %e s wall, %U s user, %S s system, %M KB peak memory" \
            "$BIN/gen_time" "$THREADS" "$m" 2>&1 | grep -E "^(K[A-Z]{2}vK[A-Z]|K[A-Z]{3}vK|K[A-Z]vK[A-Z]{2}) |^$m process"
    done
else
    echo "== 5-piece endings: skipped (FIVE='KRNvKR KRBvKR KQRvKR KRRvKR KRPvKR KQPvKQ' times them: minutes each)"
fi

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
