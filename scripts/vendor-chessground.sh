#!/usr/bin/env bash
# Re-fetches the vendored chessground board (crates/web/assets/vendor/chessground/) from the npm
# registry: the published package, checked against its known checksum, copied unchanged. No build step.
# Usage: scripts/vendor-chessground.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version=9.2.1
sha256=6bcb9f102c05aa1d5e3cfe9eb82338fb79d829cd575b545a6896706b4a06d058
dest=crates/web/assets/vendor/chessground
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "chessground@$version" >/dev/null)
echo "$sha256  $work/chessground-$version.tgz" | sha256sum -c --quiet
tar -xzf "$work/chessground-$version.tgz" -C "$work"
mkdir -p "$dest"
cp "$work/package/dist/chessground.min.js" "$work/package/LICENSE" \
   "$work/package/assets/chessground.base.css" "$work/package/assets/chessground.brown.css" \
   "$work/package/assets/chessground.cburnett.css" "$dest/"
echo "chessground $version vendored into $dest"
