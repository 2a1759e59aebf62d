#!/usr/bin/env bash
# The full `host bench gemm` (every family row, sustained and burst, beside cuBLAS / cuBLASLt) on the GPU machine;
# run from the repository root with OUT set (as the device tool does). 218 s on an H200 from a cold JIT (2026-11-29).
set -u
D=${D:-.gpu/benchgemm8}; S=$OUT/summary.txt   # D: the package folder (host.xz = a release host, xz)
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/hostm','wb'))"; chmod +x /tmp/hostm
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
timeout 540 /tmp/hostm bench gemm --svg $OUT/gemm.svg > $OUT/bench-gemm.txt 2>&1; t "bench gemm rc=$?"
tail -60 $OUT/bench-gemm.txt >> $S
