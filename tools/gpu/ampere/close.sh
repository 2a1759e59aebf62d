#!/usr/bin/env bash
# Issue #35's closing checks of the sm_80 build (session 11, after tools/gpu/ampere/vs-tutorial-2048.sh in
# the same call): the Ampere kernel's majorities at 4096³ beside cuBLAS (f16 NN/NT/TN/TT, bf16
# TN; "within 5 % of our TN"), `host --arch sm_80 run` over every section (every kernel of the
# sm_80 build loaded and checked on the GPU), racecheck and synccheck on the forced Ampere GEMM.
# D holds host.xz (CUTE_RS_ARCHS=sm_80 release host). Run from the repo root with $OUT set.
set -u
D=${D:-.gpu/ampere11}; R=/tmp/rac; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-/tmp/nvc-amp11}
H=/tmp/amp11-host; [ -x $H ] || { python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),open(sys.argv[2],'wb'))" $D/host.xz $H; chmod +x $H; }
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
for i in 1 2; do
  for p in "--dtype f16 --ta" "--dtype f16" "--dtype f16 --tb" "--dtype f16 --ta --tb" "--dtype bf16 --ta"; do
    timeout 40 $H --arch sm_80 gemm --kernel sm80 --m 4096 $p --bench --timing sustained > $R/maj.txt 2>&1; t "4096 $p round $i rc=$?"
    grep -E "TFLOP" $R/maj.txt | tail -2 | tee -a $S
  done
done
timeout 150 $H --arch sm_80 run > $R/run.txt 2>&1; t "host --arch sm_80 run rc=$?"
grep -E "passed|failed|SKIP|FAIL" $R/run.txt | tail -15 | tee -a $S
for tool in racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --print-limit 5 $H --arch sm_80 gemm --kernel sm80 --m 300 --n 200 --k 520 --dtype f16 --ta --check > $R/$tool.txt 2>&1; t "$tool rc=$?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASS|FAIL" $R/$tool.txt | tail -3 | tee -a $S
done
tar czf $OUT/rac.tgz -C /tmp rac
