#!/usr/bin/env bash
# The attention bench in one GPU call (issue #33): ours (`host bench attention`, each row beside a
# cuBLAS GEMM), torch's SDPA with the cuDNN and FlashAttention-2 backends on the same shapes
# (sdpa_bench.py, cuDNN beside FA2), and the joined table; then, where `import cute_rs` works, the
# like-for-like table (python/bench_attention.py: ours, cuDNN and FA2 alternated in one process on
# the same tensors). The two harnesses heat the GPU differently (a GEMM between our batches, FA2
# between cuDNN's), so the joined table's ours/cuDNN read 12-24 % lower than the like-for-like one
# (H200, 2026-11-29: doc/attention.md "Session 10"); the issue's ratios are the like-for-like ones.
#   tools/attention/bench.sh [HOST_BINARY] [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
host=${1:-target/release/host}
out=${2:-target/bench}
mkdir -p "$out"
"$host" bench attention --json > "$out/attention-host.json"
python3 "$here/sdpa_bench.py" --json > "$out/attention-sdpa.json"
python3 "$here/compare.py" "$out/attention-host.json" "$out/attention-sdpa.json" | tee "$out/attention-compare.md"
if (cd /tmp && python3 -c "import cute_rs" 2> /dev/null); then
  (cd /tmp && python3 "$here/../../python/bench_attention.py" --seqlens 512,1024,2048,4096,8192,16384 \
    --json "$out/attention-like-for-like.json") | tee "$out/attention-like-for-like.txt"
else
  echo "SKIP like-for-like: cute_rs is not importable (pip install ./python)"
fi
