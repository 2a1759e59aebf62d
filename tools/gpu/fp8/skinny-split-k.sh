#!/usr/bin/env bash
# (as run in session 10, call 6: D=.gpu/fp8skinny holds host.xz (a release host) and hgemm.ptx.xz (the hgemm module cut to its FP8 entries, tools/gpu/cut_ptx.py))
# Helper fp8skinny (issue #37): split-K for small-M FP8 GEMMs (branch fp8skinny). Run from the
# repo root with $OUT set; ~130 s. The FP8 sweep (+8 fixed small-M problems on the split grid),
# --check of skinny problems, memcheck on one, then the bench of 128x7168x16384 with the split
# (default) and without (CUTE_RS_HGEMM_STREAMK=0: the old grid, one cluster per tile),
# alternated, fast-accum and promoted; 4096x7168x16384 (no split: unchanged plan).
set -u
D=.gpu/fp8skinny; R=/tmp/rfp8; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/hostfp8','wb'))"; chmod +x /tmp/hostfp8
# the hgemm module cut to its 4 FP8 entries (one JIT of ~1/4 of the module, cached after)
mkdir -p /tmp/ptxfp8 && python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/hgemm.ptx.xz'), open('/tmp/ptxfp8/hgemm.ptx','wb'))"
export CUTE_RS_PTX_DIR=/tmp/ptxfp8
H=/tmp/hostfp8
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
timeout 50 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1; t "FP8 sweep rc=$?"
grep -cE "PASS" $R/sweep.txt | sed 's/^/PASS rows: /' | tee -a $S
grep -E "FAIL|128x1024|64x2048|200x768|17x520|256x300|argument" $R/sweep.txt | head -20 | tee -a $S
for p in "--fast-accum --m 128 --n 7168 --k 16384" "--m 128 --n 7168 --k 16384" "--fast-accum --m 64 --n 4096 --k 8192" \
         "--m 200 --n 2112 --k 7168" "--dtype e5m2 --fast-accum --m 33 --n 1000 --k 6160 --scale-a 0.5"; do
  case "$p" in *--dtype*) q="$p";; *) q="--dtype e4m3 $p";; esac
  timeout 25 $H gemm $q --check > $R/check.txt 2>&1; t "check $q rc=$?"; grep -E "PASS|FAIL|err" $R/check.txt | tail -3 | tee -a $S
done
timeout 60 compute-sanitizer --tool memcheck $H gemm --dtype e4m3 --fast-accum --m 64 --n 1024 --k 4096 --check > $R/memcheck.txt 2>&1; t "memcheck fast 64x1024x4096 rc=$?"
tail -4 $R/memcheck.txt | tee -a $S
for i in 1 2; do
  for v in new old; do
    E=""; [ $v = old ] && E="CUTE_RS_HGEMM_STREAMK=0"
    env $E timeout 20 $H gemm --dtype e4m3 --fast-accum --m 128 --n 7168 --k 16384 --bench > $R/bench-fast-$v-$i.txt 2>&1; t "bench fast 128x7168x16384 $v round $i rc=$?"
    tail -6 $R/bench-fast-$v-$i.txt | tee -a $S
    env $E timeout 20 $H gemm --dtype e4m3 --m 128 --n 7168 --k 16384 --bench > $R/bench-prom-$v-$i.txt 2>&1; t "bench promoted 128x7168x16384 $v round $i rc=$?"
    tail -6 $R/bench-prom-$v-$i.txt | tee -a $S
  done
done
timeout 20 $H gemm --dtype e4m3 --fast-accum --m 4096 --n 7168 --k 16384 --bench > $R/bench-fast-big.txt 2>&1; t "bench fast 4096x7168x16384 rc=$?"
tail -6 $R/bench-fast-big.txt | tee -a $S
tar czf $OUT/rfp8.tgz -C /tmp rfp8
