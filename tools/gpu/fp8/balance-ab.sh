#!/usr/bin/env bash
# (session 50; run s51b in session 51: the rule stays; issue #37) Whether the balanced data-parallel grid (the clusters the waves need,
# session 50) helps or hurts the promoted FP8 entries, which keep every resident cluster by default: run s50f read the
# block-scale entry at 4096×7168×16384 0.86 of our per-tensor kernel against stop 84's 0.895 while the balance applied
# to it (across calls). Here, in one process per launch, alternated, ROUNDS rounds: the default (`def`) against
# CUTE_RS_HGEMM_BALANCE=1 (`bal`, every entry balanced), per-tensor and block scales at 4096³ (per-tensor 128 × 192:
# 352 tiles in 6 waves of 59 rather than 66), 8192³, 4096×7168×16384 and 4096×2112×7168.
# Package $D: host.xz (session 50's final), hgemm.ptx.xz, hgemm_fp8.ptx.xz.
#   D=.gpu/s51a NAME=s51b BUDGET=200 bash tools/gpu/fp8/balance-ab.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s51b}
ROUNDS=${ROUNDS:-4}
c gemm --dtype e4m3 --m 2048 --n 2048 --k 2048 --block-scales
for i in $(seq $ROUNDS); do
  for GARGS in "--dtype e4m3 --m 4096" "--dtype e4m3 --m 4096 --block-scales" "--dtype e4m3 --m 8192 --block-scales" \
    "--dtype e4m3 --m 4096 --n 7168 --k 16384" "--dtype e4m3 --m 4096 --n 7168 --k 16384 --block-scales" \
    "--dtype e4m3 --m 4096 --n 2112 --k 7168" "--dtype e4m3 --m 4096 --n 2112 --k 7168 --block-scales"; do
    [ $(left) -gt 15 ] || break 2
    g "def$i"; g "bal$i" CUTE_RS_HGEMM_BALANCE=1
  done
done
t end
