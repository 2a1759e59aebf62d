#!/usr/bin/env bash
# (session 58; issue #37) Runs s58a–s58b: memcheck of the box-of-four entry runs past its limit exactly where a CTA
# takes two tiles and each tile ends on empty stages (640×2048 with 9, 10, 11 k-tiles); one tile a CTA with empty
# stages, or two tiles without, pass in a second; no sanitizer: every launch passes. Which part: the cluster pair
# (CUTE_RS_HGEMM_CLUSTER=1), the second tile (CUTE_RS_HGEMM_PERSISTENT=0: a CTA a tile), the grid (fewer SMs, more
# tiles a CTA)? And what the sanitizer's options say about bulk copies and barriers.
# Package $D: host.xz as tools/gpu/fp8/block-pp64-box4.sh's (the `fp8-variants` modules).
#   D=.gpu/s57a NAME=s58c bash tools/gpu/fp8/box4-hang3.sh   (~200 s)
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s58c}
compute-sanitizer --help > $R/help.txt 2>&1; compute-sanitizer --version | tail -1 | tee -a $S
grep -iE -A1 "bulk|tma|barrier|mbarrier|padding|tensor" $R/help.txt | head -40 | tee -a $S
timeout 300 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null
t "warm $(grep -Eo 'PASS|FAIL' $R/w1.txt | head -1)"
fms "CUTE_RS_FP8_BLOCK=stagedpp64x4 CUTE_RS_HGEMM_CLUSTER=1" 30 --m 640 --n 2048 --k 1152
fms "CUTE_RS_FP8_BLOCK=stagedpp64x4 CUTE_RS_HGEMM_PERSISTENT=0" 30 --m 640 --n 2048 --k 1152
fms "CUTE_RS_FP8_BLOCK=stagedpp64x4 CUTE_RS_HGEMM_CLUSTER=2" 30 --m 640 --n 2048 --k 1152
fms "CUTE_RS_FP8_BLOCK=stagedpp64x4 CUTE_RS_HGEMM_SMS=38" 30 --m 256 --n 2048 --k 1152
fms "CUTE_RS_FP8_BLOCK=stagedpp64x4 CUTE_RS_HGEMM_SMS=38 CUTE_RS_HGEMM_CLUSTER=1" 30 --m 256 --n 2048 --k 1152
fms "CUTE_RS_FP8_BLOCK=stagedpp64x4 CUTE_RS_HGEMM_SMS=38" 30 --m 256 --n 2048 --k 1024
# racecheck and synccheck where memcheck stops (they passed at 640×2048×1152), at a shape of several tiles a CTA
for tool in racecheck synccheck; do
  CUTE_RS_FP8_BLOCK=stagedpp64x4 CUTE_RS_HGEMM_SMS=38 timeout 60 compute-sanitizer --tool $tool --print-limit 5 $H gemm \
    --dtype e4m3 --m 256 --n 2048 --k 1152 --block-scales --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | SMS=38 256x2048x1152 | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
done
cp $R/help.txt $OUT/ 2>/dev/null
t end
