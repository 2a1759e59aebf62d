#!/usr/bin/env bash
# (as run in session 11, the lead's final call) The merged tree's checks on the H200: the FP8
# fused package first (helper fp8fused's tools/gpu/fp8/fused.sh, its own release host and cut
# module: checks, sweep, memcheck, fused vs plain vs cuBLASLt bench), then main's release host
# (CUTE_RS_ARCHS=sm_90a, D=.gpu/final11/host.xz): `host run` over every section (the attention
# sweep of 200 under session 11's d64 rule, owed by helper attnq2's calls; the JIT of every module
# first, inside the same timeout), the FP8 sweep (`host gemm --dtype e4m3`), and the Hilbert
# order's and the fused entries' checks on the merged host. Run from the repo root with $OUT set.
set -u
R=/tmp/rfin; mkdir -p $R; S=$R/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
mkdir -p $R/fp8; (OUT=$R/fp8 bash .gpu/fp8fused/go.sh > $R/fp8fused.log 2>&1); t "fp8fused go.sh rc=$?"
tail -45 $R/fp8/summary.txt 2>/dev/null | cut -c1-220 | tee -a $S
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fin
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('.gpu/final11/host.xz'), open('/tmp/hostfin','wb'))"; chmod +x /tmp/hostfin
H=/tmp/hostfin
timeout 330 $H run --sweep-gemm 20 --sweep-copy 10 --sweep-hgemm 60 --sweep-hgemm-sm80 30 --sweep-attention 200 > $R/run.txt 2>&1
t "host run rc=$?"; grep -E "passed|FAIL" $R/run.txt | tail -12 | cut -c1-220 | tee -a $S
timeout 60 $H gemm --dtype e4m3 > $R/fp8sweep.txt 2>&1; t "FP8 sweep rc=$?"
grep -cE "PASS" $R/fp8sweep.txt | sed 's/^/PASS rows: /' | tee -a $S; grep -E "FAIL" $R/fp8sweep.txt | head -5 | tee -a $S
for p in "--ta --dtype bf16 --m 2304 --n 2048 --k 2304 --bias m --act gelu" "--ta --dtype bf16 --m 1000 --n 1030 --k 512 --bias n --act silu"; do
  CUTE_RS_HGEMM_SWIZZLE=hilbert timeout 30 $H gemm $p --check > $R/c.txt 2>&1; t "hilbert check $p rc=$?"; grep -E "PASS|FAIL|rror" $R/c.txt | tail -1 | cut -c1-200 | tee -a $S
done
tar czf $OUT/rfin.tgz -C /tmp rfin
