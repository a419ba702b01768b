#!/usr/bin/env bash
# Coverage-guided fuzzing of mysl's input readers (docs/reliability.md).
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]     run one target (or each in turn) for SECONDS (default 60)
#   scripts/fuzz.sh --list                     the targets
#
# Needs the nightly toolchain and cargo-fuzz (`rustup toolchain install nightly`,
# `cargo install cargo-fuzz`). The targets are thin wrappers (fuzz/fuzz_targets/) over the entry points
# of crates/fuzz-entry, which `cargo test` also runs on every committed corpus file (stable, in CI).
#
# Each run reads the committed corpus fuzz/corpus/TARGET and writes what it finds to fuzz/run-corpus/TARGET
# (not committed). With MERGE=1, inputs that add coverage are merged into fuzz/corpus/TARGET afterwards
# (libFuzzer -merge=1: the committed corpus stays minimal). A crash, hang (> 1 s) or out-of-memory
# (> 2 GiB) leaves its input in fuzz/artifacts/TARGET/ and makes the script exit non-zero; reproduce it with
#   cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/crash-...
# Environment: SANITIZER (default none: the code is safe Rust but for the memory map of table files;
# address finds memory errors at a third of the speed), NICE (default 19), JOBS (cargo build jobs, default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
TARGETS=(fen moves pgn book popeye uci xboard tb syzygy web shakmaty tbdiff)
# Largest input: 4 KiB, but table files (the small real tables among the seeds run to 16 KiB).
max_len() { case "$1" in tb | syzygy) echo 16384 ;; *) echo 4096 ;; esac; }
if [ "${1:-}" = "--list" ]; then printf '%s\n' "${TARGETS[@]}"; exit 0; fi
target=${1:-all}
seconds=${2:-60}
sanitizer=${SANITIZER:-none}
nice=${NICE:-19}
if [ "$target" = all ]; then selected=("${TARGETS[@]}"); else selected=("$target"); fi
command -v cargo-fuzz >/dev/null 2>&1 || { echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2; exit 2; }
rustup run nightly rustc --version >/dev/null 2>&1 || { echo "the nightly toolchain is missing: rustup toolchain install nightly" >&2; exit 2; }

# glibc keeps memory that the protocol and web targets' threads freed (an arena per thread, each input a
# fresh session): without a trim threshold the resident size climbs past -rss_limit_mb over some 10,000
# inputs with nothing leaked (peak 59 MB with these settings, over 2 GB without).
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2} MALLOC_TRIM_THRESHOLD_=${MALLOC_TRIM_THRESHOLD_:-16777216}
CARGO_BUILD_JOBS=${JOBS:-1} nice -n "$nice" cargo +nightly fuzz build -s "$sanitizer" --debug-assertions
mkdir -p target/fuzz-logs
status=0
for t in "${selected[@]}"; do
    [ -d "fuzz/corpus/$t" ] || { echo "no such target: $t (scripts/fuzz.sh --list)" >&2; exit 2; }
    mkdir -p "fuzz/run-corpus/$t" "fuzz/artifacts/$t"
    dict=()
    [ -f "fuzz/dict/$t.dict" ] && dict=("-dict=fuzz/dict/$t.dict")
    before=$(ls "fuzz/artifacts/$t" | wc -l)
    log="target/fuzz-logs/$t.log"
    start=$(date +%s)
    set +e
    nice -n "$nice" cargo +nightly fuzz run -s "$sanitizer" --debug-assertions "$t" "fuzz/run-corpus/$t" "fuzz/corpus/$t" -- \
        -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -max_len="$(max_len "$t")" -print_final_stats=1 "${dict[@]}" >"$log" 2>&1
    rc=$?
    set -e
    elapsed=$(($(date +%s) - start))
    after=$(ls "fuzz/artifacts/$t" | wc -l)
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    echo "$t: ${execs:-?} executions in ${elapsed} s, ${cov:-cov: ?}, exit $rc, $((after - before)) new artifacts (log $log)"
    if [ "$rc" -ne 0 ] || [ "$after" -ne "$before" ]; then
        status=1
        grep -E "panicked at|ERROR: libFuzzer|SUMMARY|Test unit written" "$log" | head -8 || true
    fi
    if [ "${MERGE:-0}" = 1 ]; then
        nice -n "$nice" cargo +nightly fuzz run -s "$sanitizer" --debug-assertions "$t" "fuzz/corpus/$t" "fuzz/run-corpus/$t" -- \
            -merge=1 -timeout=1 -rss_limit_mb=2048 >>"$log" 2>&1 || status=1
        echo "$t: corpus now $(ls "fuzz/corpus/$t" | wc -l) files, $(du -sk "fuzz/corpus/$t" | cut -f1) KiB"
    fi
done
exit $status
