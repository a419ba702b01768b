#!/usr/bin/env bash
# The Snakemake job graph of tablebase generation (workflow/Snakefile) against one `mysl tb gen` process:
# both write the endings ENDINGS needs into their own directory; every file must be byte-for-byte the same.
# Installs snakemake into target/smk-venv (PyPI) when it is not on the PATH.
# Usage: scripts/tb-workflow-check.sh [ENDINGS]   (default KRvKP: 10 endings, about a minute on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
ENDINGS=${1:-KRvKP}
MYSL=${MYSL:-target/release/mysl}
[ -x "$MYSL" ] || cargo build --release -p mysl
SMK=$(command -v snakemake || true)
if [ -z "$SMK" ]; then
    [ -x target/smk-venv/bin/snakemake ] || { python3 -m venv target/smk-venv && target/smk-venv/bin/pip install -q snakemake; }
    SMK=target/smk-venv/bin/snakemake
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$SMK" -s workflow/Snakefile --directory "$WORK" --cores 2 -q \
    --config endings="$ENDINGS" dir="$WORK/graph" mysl="$(realpath "$MYSL")"
"$MYSL" tb gen $ENDINGS --dir "$WORK/one" --threads 2
n=0
for f in "$WORK"/one/*.mtb; do
    cmp "$f" "$WORK/graph/$(basename "$f")"
    n=$((n + 1))
done
[ "$n" -eq "$(ls "$WORK"/graph/*.mtb | wc -l)" ] || { echo "the job graph wrote other endings" >&2; exit 1; }
echo "tb-workflow-check: $n endings, the job graph's files equal one process's"
