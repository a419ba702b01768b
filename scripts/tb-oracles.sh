#!/usr/bin/env bash
# Every position of every 3- and 4-piece ending against Syzygy (WDL, DTZ) and Gaviota (DTM): the ignored
# tests of crates/tb/tests/exhaustive.rs (about 11 minutes on 2 cores). Needs ../shared/data; installs
# Debian's libgaviotatb1 (the Gaviota probing library) when missing and we are root.
# Usage: scripts/tb-oracles.sh            (MYSL_TB_ENDINGS=KQvKR,KPvKP restricts the endings)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! ldconfig -p | grep -q libgaviotatb.so.1; then
    if [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && apt-get install -y -qq libgaviotatb1) >/dev/null
    else
        echo "tb-oracles: libgaviotatb1 is missing (sudo apt-get install libgaviotatb1); the Gaviota check will skip" >&2
    fi
fi
cargo test --release -p mysl-tb --test exhaustive -- --ignored --nocapture --test-threads 1
