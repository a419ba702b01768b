#!/usr/bin/env bash
# Rebuilds the small default book that ships inside mysl (crates/book/data/default.mbk) from the master
# games in ../shared/data/pgn (pgnmentor.com files, MIT-licensed collection). A test checks that the
# committed file equals what this command builds.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release -q -- book build --pgn ../shared/data/pgn/pgnmentor-12players.pgn.zst \
    --min-elo 2400 --max-ply 20 --min-games 5 --out crates/book/data/default.mbk --quiet
