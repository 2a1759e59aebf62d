#!/usr/bin/env bash
# One GPU call for attention's host side (issue #33): `host run --only attention`, the CLI's
# refusals, one `host attention --check`, one `--bench` row, torch SDPA (cuDNN, FA2) on the
# bench shapes, the joined table, ptxas on the reference's PTX. Writes three files to $OUT (or
# ./attention-out): attention-gpu.log (everything, in order), sdpa.json, host-bench.json (a
# run tool brings back only a few files).
#   tools/attention/gpu-check.sh HOST_BINARY TOOLS_DIR [PTX_DIR]
# Environment: SWEEP (attention problems, default 200), RUN_TIMEOUT (s, default 300),
# SDPA_TIMEOUT (s, default 120), FULL_BENCH=1 to run `host bench attention` (all 36 shapes).
set -u
H=${1:-target/release/host}
T=${2:-tools/attention}
X=${3:-target/ptx}
O=${OUT:-attention-out}
mkdir -p "$O"
L="$O/attention-gpu.log"
t0=$(date +%s)
step() { echo; echo "== $* ($(( $(date +%s) - t0 )) s)"; }
{
  step gpu
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv 2>&1
  step "host run --only attention --sweep-attention ${SWEEP:-200}"
  timeout "${RUN_TIMEOUT:-300}" "$H" run --only attention --sweep-attention "${SWEEP:-200}"
  echo "rc=$?"
  for args in "--batch 1 --heads 8 --seqlen-q 9 --head-dim 96" \
              "--batch 1 --heads 6 --heads-kv 4 --seqlen-q 9 --head-dim 64" \
              "--batch 1 --heads 8 --seqlen-q 0 --head-dim 64" \
              "--batch 1 --heads 8 --seqlen-q 9 --head-dim 64 --causal diagonal" \
              "--batch 1 --heads 8 --seqlen-q 9 --head-dim 64 --dtype f16 --bench"; do
    step "host attention $args (a usage error: exit 2)"
    "$H" attention $args
    echo "rc=$?"
  done
  step "host attention --check"
  "$H" attention --batch 2 --heads 8 --heads-kv 2 --seqlen-q 1000 --seqlen-k 1500 --head-dim 128 \
    --causal bottom-right --check
  echo "rc=$?"
  "$H" attention --batch 3 --heads 4 --seqlen-q 777 --head-dim 256 --dtype f16
  echo "rc=$?"
  if [ "${FULL_BENCH:-0}" = 1 ]; then
    step "host bench attention --json"
    "$H" bench attention --json > "$O/host-bench.json"
  else
    step "host attention --bench --json (one shape)"
    "$H" attention --batch 32 --heads 16 --seqlen-q 512 --head-dim 128 --bench --json \
      > "$O/host-bench.json"
  fi
  echo "rc=$?"
  step "torch SDPA, cuDNN and FA2"
  timeout "${SDPA_TIMEOUT:-120}" python3 "$T/sdpa_bench.py" --json > "$O/sdpa.json"
  echo "rc=$?"
  step compare
  python3 "$T/compare.py" "$O/host-bench.json" "$O/sdpa.json"
  if [ -f "$X/attention_ref.ptx" ]; then
    step "ptxas attention_ref.ptx"
    P=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1)
    "$P" -arch=sm_90a -v -o /dev/null "$X/attention_ref.ptx"
    echo "rc=$?"
  fi
  step done
} > "$L" 2>&1
