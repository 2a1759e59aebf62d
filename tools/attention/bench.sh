#!/usr/bin/env bash
# The attention bench in one GPU call (issue #33): ours (`host bench attention`), torch's SDPA
# with the cuDNN and FlashAttention-2 backends on the same shapes, and the joined table.
#   tools/attention/bench.sh [HOST_BINARY] [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
host=${1:-target/release/host}
out=${2:-target/bench}
mkdir -p "$out"
"$host" bench attention --json > "$out/attention-host.json"
python3 "$here/sdpa_bench.py" --json > "$out/attention-sdpa.json"
python3 "$here/compare.py" "$out/attention-host.json" "$out/attention-sdpa.json" | tee "$out/attention-compare.md"
