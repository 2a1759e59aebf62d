#!/usr/bin/env bash
# FP8 GEMM bench rows (H200): ours (fast accumulation, per-tensor scales, bf16 D) against cuBLASLt FP8 in the same process.
set -u
mkdir -p /tmp/f3
[ -x /tmp/f3/host ] || { python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('.gpu/final3/host.xz'), open('/tmp/f3/host','wb'))"; chmod +x /tmp/f3/host; }
H=/tmp/f3/host; O=${OUT:-/tmp/out}; mkdir -p $O
for a in "--m 4096" "--m 8192" "--m 4096 --n 7168 --k 16384" "--m 128 --n 7168 --k 16384" "--m 4096 --n 2112 --k 7168"; do
  timeout 30 $H gemm --dtype e4m3 --fast-accum $a --bench 2>&1 | tail -n 4 | tee -a $O/fp8.txt
done
timeout 30 $H gemm --dtype e5m2 --fast-accum --m 4096 --bench 2>&1 | tail -n 4 | tee -a $O/fp8.txt
timeout 30 $H gemm --dtype e4m3 --fast-accum --m 2048 --n 1024 --k 4096 --check 2>&1 | tail -n 3 | tee -a $O/fp8.txt
