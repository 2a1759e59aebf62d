#!/usr/bin/env bash
# (as run in session 12, the lead's final call) The merged tree on the H200 in one call: main's
# release host (CUTE_RS_ARCHS=sm_90a, D/host.xz) and the same build's Python extension
# (D/native.xz = target/release/lib_native.so): `host run` over every section (the JIT of every
# module inside it; the attention sweep of 200 under session 12's d256 rule), the FP8 sweep
# (`host gemm --dtype e4m3`: the 128x192 per-tensor default), attention like for like
# (python/bench_attention.py: ours, cuDNN and FlashAttention-2 alternated in one process), then
# the full `host bench gemm` (bf16/fp16 sustained and burst, fused, FP8 rows beside cuBLAS /
# cuBLASLt). Run from the repo root with $OUT set: D=.gpu/final12 bash tools/gpu/closing/run-fp8-sweep-lfl-bench-gemm.sh
set -u
D=${D:-.gpu/final12}; R=/tmp/rf12; mkdir -p $R; S=$OUT/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-f12
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/hf12 && chmod +x /tmp/hf12; H=/tmp/hf12
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
timeout 190 $H run --sweep-gemm 20 --sweep-copy 10 --sweep-hgemm 60 --sweep-hgemm-sm80 30 --sweep-attention 200 > $R/run.txt 2>&1
t "host run rc=$?"; grep -E "passed|failed" $R/run.txt | tail -3 | cut -c1-220 | tee -a $S; grep -E "FAIL" $R/run.txt | head -8 | cut -c1-220 | tee -a $S
timeout 45 $H gemm --dtype e4m3 > $R/fp8sweep.txt 2>&1; t "FP8 sweep rc=$?"; tail -2 $R/fp8sweep.txt | cut -c1-200 | tee -a $S
(cd /tmp/py && PYTHONPATH=/tmp/py timeout ${LFL_S:-165} python3 bench_attention.py --seqlens 512,1024,2048,4096,8192,16384 \
  --json $R/bench_attention.json > $R/bench_attention.txt 2>&1); t "bench_attention.py rc=$?"
tail -45 $R/bench_attention.txt | tee -a $S
if [ "${GEMM:-1}" = 1 ]; then
  timeout ${GEMM_S:-175} $H bench gemm --csv > $R/bench-gemm.csv 2> $R/bench-gemm.err; t "bench gemm rc=$?"
  grep -vE "^sgemm" $R/bench-gemm.csv | cut -c1-200 | tee -a $S
fi
cp $S $R/ 2>/dev/null; tar czf $OUT/rf12.tgz -C /tmp rf12
