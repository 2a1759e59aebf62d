#!/usr/bin/env bash
# (as run in session 10; $D/clocks.py was tools/attention/clocks.py, $D/ab.py tools/attention/ab_rounds.py; call 1 sampled one more nvidia-smi field, removed for call 2)
# Session s10 call 2 (lead): main 01306bf on the H200 — the like-for-like attention bench
# (python/bench_attention.py: ours, cuDNN, FA2 alternated on the same tensors), sustained clocks
# and power of ours vs cuDNN, and the full `host bench gemm` (#34). Everything into one tarball.
set -u
D=.gpu/call2; R=/tmp/r2; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/hostm','wb'))"; chmod +x /tmp/hostm
H=/tmp/hostm
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/native.xz'), open('/tmp/py/cute_rs/_native.abi3.so','wb'))"
export PYTHONPATH=/tmp/py
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
timeout 150 python3 python/bench_attention.py --seqlens 512,1024,2048,4096,8192,16384 --json $R/bench_attention.json > $R/bench_attention.txt 2>&1; t "bench_attention.py rc=$?"
tail -45 $R/bench_attention.txt | tee -a $S
timeout 80 python3 $D/clocks.py $R/smi.csv > $R/clocks.txt 2>&1; t "clocks rc=$?"
tail -30 $R/clocks.txt | tee -a $S
timeout 300 $H bench gemm --svg $R/gemm.svg > $R/bench-gemm.txt 2>&1; t "bench gemm rc=$?"
tail -70 $R/bench-gemm.txt | tee -a $S
tar czf $OUT/r2.tgz -C /tmp r2
