#!/bin/bash
# Lead's final GPU call on the merged tree: attention (kernel + sweep + bench vs torch SDPA),
# the collectives-built hgemm (checks, both timings), the sm_80 build's run.
cd "$(dirname "$0")"
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvcache
H=./host
t0=$(date +%s); st() { echo "[$(( $(date +%s) - t0 )) s] $*" >> $OUT/time.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
st start
timeout 130 $H run --only attention --sweep-attention 200 > $OUT/run-attention.txt 2>&1; echo "rc=$?" >> $OUT/run-attention.txt; st attention-run
timeout 100 $H run --only hgemm --sweep-hgemm 150 > $OUT/run-hgemm.txt 2>&1; echo "rc=$?" >> $OUT/run-hgemm.txt; st hgemm-run
{ for m in 4096 8192; do timeout 40 $H gemm --m $m --ta --dtype bf16 --check --bench; echo "rc=$?"; done
  timeout 20 $H gemm --dtype bf16 --m 64 --alpha inf --check; echo "rc=$? (alpha inf: want 2)"; } > $OUT/gemm.txt 2>&1; st gemm
mkdir -p $OUT/b
timeout 150 bash attention/bench.sh $H $OUT/b > $OUT/bench-attention.txt 2>&1; echo "rc=$?" >> $OUT/bench-attention.txt; st bench-attention
timeout 45 $H --arch sm_80 run --sweep-gemm 20 --sweep-copy 20 --sweep-hgemm 0 --sweep-attention 10 > $OUT/run-sm80.txt 2>&1; echo "rc=$?" >> $OUT/run-sm80.txt; st sm80
tar czf $OUT/logs.tgz -C $OUT b 2>/dev/null; rm -rf $OUT/b
