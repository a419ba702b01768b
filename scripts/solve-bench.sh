#!/usr/bin/env bash
# Our CPU time per supported entry of ../shared/data/problems/popeye-set.jsonl next to Popeye's
# popeye_seconds (and, with POPEYE=/path/to/py, Popeye measured in the same run).
#
# usage: scripts/solve-bench.sh [MYSL_BINARY] [TIMEOUT_SECONDS]
#   MYSL_BINARY defaults to $CARGO_TARGET_DIR/release/mysl (or target/release/mysl), else the debug one.
#   Time an optimised binary: `cargo build -p mysl --release`, or `cargo test -p mysl --no-run`, which
#   builds target/debug/mysl with the test profile (opt-level 3). A plain dev build is unoptimised
#   and about ten times slower.
#   Entries that mysl reports as "not supported yet" are listed as unsupported and not timed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
set_file="$root/../shared/data/problems/popeye-set.jsonl"
if [ ! -f "$set_file" ]; then
    echo "skipped: $set_file not found" >&2
    exit 0
fi
target="${CARGO_TARGET_DIR:-$root/target}"
mysl="${1:-}"
if [ -z "$mysl" ]; then
    for c in "$target/release/mysl" "$target/debug/mysl"; do
        if [ -x "$c" ]; then mysl="$c"; break; fi
    done
fi
[ -x "$mysl" ] || { echo "no mysl binary; build it with cargo build -p mysl --release" >&2; exit 2; }
limit="${2:-120}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 - "$set_file" "$tmp" <<'PY'
import json, sys, os
for line in open(sys.argv[1]):
    d = json.loads(line)
    open(os.path.join(sys.argv[2], d["id"] + ".inp"), "w").write(d["popeye_input"] + "\n")
    open(os.path.join(sys.argv[2], d["id"] + ".py"), "w").write(str(d["popeye_seconds"]))
PY
printf '%-10s %12s %12s %8s %s\n' id mysl_cpu_s popeye_cpu_s ratio note
total_ours=0; total_py=0
for inp in "$tmp"/*.inp; do
    id="$(basename "$inp" .inp)"
    py="$(cat "$tmp/$id.py")"
    out="$tmp/$id.out"
    set +e
    /usr/bin/time -f '%U %S' -o "$tmp/$id.time" timeout "$limit" "$mysl" solve --threads 1 "$inp" >"$out" 2>"$tmp/$id.err"
    rc=$?
    set -e
    case "$rc" in
        0) note="" ;;
        124) note="timeout ${limit}s (time is a lower bound)" ;;
        *) note="exit $rc" ;;
    esac
    if grep -q "not supported yet" "$out" 2>/dev/null; then
        printf '%-10s %12s %12s %8s %s\n' "$id" - "$py" - "unsupported: $(grep -m1 'not supported yet' "$out")"
        continue
    fi
    ours="$(tail -n1 "$tmp/$id.time" | awk '{printf "%.3f", $1+$2}')"
    ratio="$(python3 -c "print('%.2f' % ($ours / max($py, 0.001)))")"
    extra=""
    if [ -n "${POPEYE:-}" ]; then
        /usr/bin/time -f '%U %S' -o "$tmp/$id.pytime" timeout "$limit" "$POPEYE" -maxtime "$limit" "$inp" >/dev/null 2>&1 || true
        extra="popeye_here=$(tail -n1 "$tmp/$id.pytime" | awk '{printf "%.3f", $1+$2}')"
    fi
    printf '%-10s %12s %12s %8s %s\n' "$id" "$ours" "$py" "$ratio" "$note $extra"
    total_ours="$(python3 -c "print($total_ours + $ours)")"
    total_py="$(python3 -c "print($total_py + $py)")"
done
printf 'total over supported entries: mysl %.3f s, popeye %.3f s\n' "$total_ours" "$total_py"
