#!/usr/bin/env bash
# (session 14, lead; issue #37) The block-scaled default (`_staged_tma5`, data-parallel) against the same kernel with a
# stream-K tail only (`_staged_tma5tail`, `StreamKFp8`: a last wave at most a quarter full split by k-tiles, no split-K;
# 0 spills, where `_staged_tma5sk` with split-K too spilled 28 bytes). Then the FP8 sweep and memcheck with it as the
# block entry. Package (D, default .gpu/s14h): host.xz (built with
# CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants), hgemm.ptx.xz (cut to the FP8 entries of the default build and `_staged_tma5tail`),
# stub.ptx + stub-families.txt. Run from the repo root with $OUT set: D=.gpu/s14h bash tools/gpu/fp8/block-stream-k.sh
set -u
D=${D:-.gpu/s14h}; R=/tmp/r14h; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-14h
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-90}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
fin() { cp $S $OUT/ 2>/dev/null; tar czf $OUT/r14h.tgz -C /tmp r14h 2>/dev/null; exit 0; }
trap fin EXIT
x $D/host.xz /tmp/h14g && chmod +x /tmp/h14g; H=/tmp/h14g
P=/tmp/p14g2; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do [ $f = hgemm ] || cp $D/stub.ptx $P/$f.ptx; done
cp $D/stub.ptx $P/attention.ptx
export CUTE_RS_PTX_DIR=$P
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
G="$H gemm --dtype e4m3 --block-scales"
for a in "--m 512 --n 384 --k 2048" "--m 1000 --n 2112 --k 1024" "--m 128 --n 4096 --k 2048" "--m 2048 --n 1700 --k 1008 --out f32" "--m 4096 --n 2112 --k 1024"; do
  CUTE_RS_FP8_BLOCK=stagedtma5tail timeout 100 $G $a --check > $R/c.txt 2>&1; t "check tail $a rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -E 'rror' $R/c.txt | head -1 | cut -c1-120)"
done
CUTE_RS_FP8_BLOCK=stagedtma5tail timeout 60 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1; t "FP8 sweep (block entry: tail) rc=$? PASS $(grep -c PASS $R/sweep.txt) FAIL $(grep -c FAIL $R/sweep.txt)"
CUTE_RS_FP8_BLOCK=stagedtma5tail timeout 40 compute-sanitizer --tool memcheck --print-limit 5 $G --m 1000 --n 2112 --k 1024 --check > $R/m.txt 2>&1; t "memcheck tail rc=$? $(grep -E 'ERROR SUMMARY' $R/m.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/m.txt | head -1)"
for r in 1 2; do
  for s in "4096x2112x7168:--m 4096 --n 2112 --k 7168" "8192^3:--m 8192" "4096x7168x16384:--m 4096 --n 7168 --k 16384" "4096^3:--m 4096"; do
    for v in stagedtma5 stagedtma5tail; do
      [ $(left) -gt 4 ] || { t "cut (time)"; break 3; }
      CUTE_RS_FP8_BLOCK=$v timeout 30 $G ${s#*:} --bench > $R/b.txt 2>&1
      t "$v ${s%%:*} r$r rc=$? $(grep -E 'TFLOP' $R/b.txt | tail -1 | cut -c1-150)"
    done
  done
done
t end
