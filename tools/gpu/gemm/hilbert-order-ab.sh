#!/usr/bin/env bash
# The Hilbert-curve tile order (fast.cu's kernel 12) against the default bands of 8 N-tiles
# (#34): one release host (branch hilbert), the hgemm module cut to bf16/f16 TN and the FP8
# per-tensor entry (tools/gpu/cut_ptx.py, a short JIT); `CUTE_RS_HGEMM_SWIZZLE=hilbert` picks
# the order. Checks first, then each order alternated twice at 4096³ and 8192³ bf16 TN and
# 8192³ f16 TN (`host gemm --bench`: sustained and burst beside cuBLAS in the same process).
# Run from the repo root with $OUT set; ~150 s. D holds host.xz and hgemm.ptx.xz.
set -u
D=${D:-.gpu/hilbert}; R=/tmp/rhil; mkdir -p $R /tmp/ptxhil; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/hosthil','wb'))"; chmod +x /tmp/hosthil
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/hgemm.ptx.xz'), open('/tmp/ptxhil/hgemm.ptx','wb'))"
# an entry-less module in place of every other family (the context loads every module: no JIT
# of attention & co.; stub.ptx and stub-families.txt as tools/gpu/gemm/fused-epilogue-ab.sh's)
if [ -f $D/stub.ptx ]; then for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx /tmp/ptxhil/$f.ptx; done; fi
export CUTE_RS_PTX_DIR=/tmp/ptxhil
H=/tmp/hosthil
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
for p in "--ta --dtype bf16 --m 4096" "--ta --dtype bf16 --m 1000 --n 3000 --k 520" "--ta --dtype f16 --m 777 --n 9000 --k 300" "--dtype e4m3 --m 4096 --n 7168 --k 2048"; do
  CUTE_RS_HGEMM_SWIZZLE=hilbert timeout 120 $H gemm $p --check > $R/check.txt 2>&1; t "hilbert check $p rc=$?"; grep -E "PASS|FAIL|rror" $R/check.txt | tail -2 | tee -a $S
done
for i in 1 2; do
  for v in 8 hilbert; do
    for p in "--ta --dtype bf16 --m 4096" "--ta --dtype bf16 --m 8192"; do
      CUTE_RS_HGEMM_SWIZZLE=$v timeout 40 $H gemm $p --bench > $R/b.txt 2>&1; t "order $v $p round $i rc=$?"
      grep -iE "sustained|burst|ratio|TFLOP" $R/b.txt | tail -4 | tee -a $S
    done
  done
done
tar czf $OUT/rhil.tgz -C /tmp rhil
