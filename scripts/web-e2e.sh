#!/usr/bin/env bash
# End-to-end tests of the web UI (crates/web/e2e/run.mjs): a real `mysl web` on a free localhost port,
# driven in Debian's headless Chromium by playwright-core. Installs what it needs (apt chromium when
# missing, `npm ci` with the committed lock file), builds mysl (dev profile unless MYSL_BIN is given),
# runs the tests and exits non-zero on any failure. Screenshots: target/web-e2e/ (or $E2E_OUT).
# Usage: scripts/web-e2e.sh [test-name-filter]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
    echo "web-e2e: installing Debian's chromium" >&2
    if [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null
    else
        (sudo apt-get update -qq && sudo apt-get install -y -qq chromium) >/dev/null
    fi
fi
command -v node >/dev/null || { echo "web-e2e: node and npm are needed" >&2; exit 2; }

(cd crates/web/e2e && npm ci --no-audit --no-fund --loglevel=error)

if [ -z "${MYSL_BIN:-}" ]; then
    cargo build -p mysl --quiet
    target=${CARGO_TARGET_DIR:-$root/target}
    MYSL_BIN="$target/debug/mysl"
fi
MYSL_BIN=$(realpath "$MYSL_BIN")
export MYSL_BIN
export E2E_OUT=${E2E_OUT:-$root/target/web-e2e}
rm -rf "$E2E_OUT"
mkdir -p "$E2E_OUT"

# The tablebase tests compare the panel with `mysl tb probe` on KRvK (generated in a second or two)
export E2E_TB_DIR=${E2E_TB_DIR:-$root/target/web-e2e-tb}
"$MYSL_BIN" tb gen KRvK --dir "$E2E_TB_DIR" >/dev/null
# and a variant's own tables (cylinder KQvK, a few seconds): DIR/cylinder/
"$MYSL_BIN" tb gen --variant cylinder KQvK --dir "$E2E_TB_DIR" >/dev/null 2>&1

cd crates/web/e2e
timeout 300 node run.mjs "${1:-}"
