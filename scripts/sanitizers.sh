#!/usr/bin/env bash
# The unsafe code under sanitizers (docs/reliability.md, "Unsafe code").
#
#   scripts/sanitizers.sh [miri|asan|tsan|all]...      (default: all)
#
# miri  Miri (`cargo +nightly miri test`) over the tests of the modules with `unsafe` it can run: the
#       lockless TT (mysl-engine tt::), the solver's SharedHash (mysl-problems solve::hash::), the heap
#       `Values` and `Bits` of the table generator (mysl-tb table::tests::, gen::tests::), the NNUE
#       inference (mysl-nnue network::tests::; Miri detects no AVX2 and runs the portable backend). The
#       threaded tests run under MIRI_SEEDS schedules (default 0..4: -Zmiri-many-seeds).
# asan  AddressSanitizer build (-Zbuild-std) of what Miri cannot run: the mapped generator values with
#       MADV_DONTNEED (tests/generation.rs), our table files mapped and probed (tests/files.rs,
#       tests/tablebases.rs with the Syzygy files' maps), and the Gaviota FFI of tests/exhaustive.rs
#       (libloading; its endings cut to ASAN_ENDINGS, default KRvK,KPvK,KQvKR). Leak detection on.
# tsan  ThreadSanitizer build of the threaded tests of the TT, SharedHash, Values and Bits.
#
# Needs the nightly toolchain with miri and rust-src (`rustup +nightly component add miri rust-src`);
# the shared data (../shared) for the table oracles, libgaviotatb1 for the FFI test (each skips with a
# message without them). Builds go to target/miri, target/asan, target/tsan. NICE (default 10) and
# JOBS (default 2) bound the load. Exits non-zero if any step fails.
set -uo pipefail
cd "$(dirname "$0")/.."
nice=${NICE:-10}
jobs=${JOBS:-2}
host=$(rustc +nightly -vV | sed -n 's/^host: //p')
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(all)
failed=()
mkdir -p target/sanitizer-logs
renice -n "$nice" $$ >/dev/null

# run NAME COMMAND...: runs a step, prints its time and result, keeps its log.
run() {
    local name=$1
    shift
    local log="target/sanitizer-logs/${name// /_}.log"
    echo "== $name"
    echo "   $*"
    local start
    start=$(date +%s)
    if "$@" >"$log" 2>&1; then
        local summary
        # Miri's many-seeds runs print their tests interleaved: count the seeds, not garbled result lines.
        if grep -q '^Trying seed' "$log"; then
            summary="$(grep -c '^Trying seed' "$log") more seeds after the first, every test ok"
        else
            summary=$(grep -E '^test result:' "$log" | awk '{p += $4; f += $6; i += $8} END {printf "%d passed, %d failed, %d ignored", p, f, i}')
        fi
        echo "   ok in $(($(date +%s) - start)) s: $summary (log $log)"
    else
        echo "   FAILED in $(($(date +%s) - start)) s (log $log):"
        grep -E "^error|Undefined Behavior|ERROR: (Address|Thread|Leak)Sanitizer|WARNING: ThreadSanitizer|SUMMARY|panicked|test result" "$log" | head -12 | sed 's/^/   /'
        failed+=("$name")
    fi
}

miri() {
    local flags="-Zmiri-many-seeds=${MIRI_SEEDS:-0..4}"
    run "miri engine tt" env MIRIFLAGS="$flags" cargo +nightly miri test -j "$jobs" -p mysl-engine --lib tt::
    run "miri problems SharedHash" env MIRIFLAGS="$flags" cargo +nightly miri test -j "$jobs" -p mysl-problems --lib solve::hash::
    run "miri tb Values Bits" env MIRIFLAGS="$flags" cargo +nightly miri test -j "$jobs" -p mysl-tb --lib -- table::tests:: gen::tests::
    run "miri nnue network" cargo +nightly miri test -j "$jobs" -p mysl-nnue --lib network::tests::
}

# sanitized KIND TARGET-DIR ARGS...: cargo test with -Zsanitizer=KIND over a sanitized standard library.
sanitized() {
    local kind=$1 dir=$2
    shift 2
    env RUSTFLAGS="-Zsanitizer=$kind" RUSTDOCFLAGS="-Zsanitizer=$kind" \
        cargo +nightly test -Zbuild-std -j "$jobs" --target "$host" --target-dir "$dir" "$@"
}

asan() {
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
    run "asan tb mapped generation, files, fronts" \
        sanitized address target/asan -p mysl-tb --test generation --test files --test tablebases
    MYSL_TB_ENDINGS=$ASAN_ENDINGS run "asan tb Gaviota FFI and Syzygy maps ($ASAN_ENDINGS)" \
        sanitized address target/asan -p mysl-tb --test exhaustive -- --ignored
}

tsan() {
    # TSan cannot see the synchronisation of an uninstrumented libstd: build-std instruments it.
    run "tsan engine tt" sanitized thread target/tsan -p mysl-engine --lib tt::
    run "tsan problems SharedHash" sanitized thread target/tsan -p mysl-problems --lib solve::hash::
    run "tsan tb Values Bits" sanitized thread target/tsan -p mysl-tb --lib gen::tests::
}

ASAN_ENDINGS=${ASAN_ENDINGS:-KRvK,KPvK,KQvKR}
for step in "${steps[@]}"; do
    case $step in
    miri) miri ;;
    asan) asan ;;
    tsan) tsan ;;
    all) miri; asan; tsan ;;
    *) echo "unknown step '$step' (miri, asan, tsan, all)" >&2; exit 2 ;;
    esac
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "failed: ${failed[*]}"
    exit 1
fi
echo "all passed"
