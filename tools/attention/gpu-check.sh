#!/usr/bin/env bash
# One GPU call for attention's host side (issue #33): `host run --only attention`, the CLI's
# refusals, one `host attention --check`, one `--bench` row, torch SDPA (cuDNN, FA2) on the
# bench shapes, the joined table. Logs to $OUT (or ./attention-out).
#   tools/attention/gpu-check.sh HOST_BINARY TOOLS_DIR
set -u
H=${1:-target/release/host}
T=${2:-tools/attention}
O=${OUT:-attention-out}
mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$O/gpu.txt" 2>&1
"$H" info > "$O/info.txt" 2>&1
t0=$(date +%s)
timeout 150 "$H" run --only attention > "$O/run-attention.txt" 2> "$O/run-attention.err"
echo "rc=$? ($(( $(date +%s) - t0 )) s)" >> "$O/run-attention.txt"
{
  for args in "--batch 1 --heads 8 --seqlen-q 9 --head-dim 96" \
              "--batch 1 --heads 6 --heads-kv 4 --seqlen-q 9 --head-dim 64" \
              "--batch 1 --heads 8 --seqlen-q 0 --head-dim 64" \
              "--batch 1 --heads 8 --seqlen-q 9 --head-dim 64 --causal diagonal" \
              "--batch 1 --heads 8 --seqlen-q 9 --head-dim 64 --dtype f16 --bench"; do
    echo "\$ host attention $args"
    "$H" attention $args
    echo "rc=$?"
  done
} > "$O/cli-errors.txt" 2>&1
{
  "$H" attention --batch 2 --heads 8 --heads-kv 2 --seqlen-q 1000 --seqlen-k 1500 --head-dim 128 \
    --causal bottom-right --check
  echo "rc=$?"
  "$H" attention --batch 3 --heads 4 --seqlen-q 777 --head-dim 256 --dtype f16
  echo "rc=$?"
} > "$O/one-check.txt" 2>&1
"$H" attention --batch 32 --heads 16 --seqlen-q 512 --head-dim 128 --bench --json \
  > "$O/host-bench.json" 2> "$O/host-bench.err"
echo "rc=$?" >> "$O/host-bench.err"
timeout 60 python3 "$T/sdpa_bench.py" --json > "$O/sdpa.json" 2> "$O/sdpa.log"
echo "rc=$?" >> "$O/sdpa.log"
python3 "$T/compare.py" "$O/host-bench.json" "$O/sdpa.json" > "$O/compare.md" 2>&1
echo "total $(( $(date +%s) - t0 )) s" > "$O/time.txt"
