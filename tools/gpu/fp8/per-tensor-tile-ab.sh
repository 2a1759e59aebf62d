#!/usr/bin/env bash
# (session 60; issue #37) The per-tensor tile rule against a measurement: run s60a found 128 × 192 (`n192tma`) ahead
# of the rule's 128 × 128 (`n128tma6`) at 8192³ (sustained 1,261, 1,266 against 1,243, 1,244 TFLOP/s; burst 1,486
# against 1,429), where the rule's estimate then gave 128 × 128 a 5 % lead per k-tile (dropped in session 60). Both
# tiles forced, alternated, two rounds, each `--bench` sustained and burst against cuBLASLt in the same process: 8192³
# again, then the shapes where the rule took 128 × 128 with 128 × 192's estimated use equal or close (6144³, a tie:
# 128 × 192 since session 61; 8192×4096×8192, 4096×8192×8192) or further below (4096×7168×16384, 2048×7168×8192). No build (the tiles are
# forced); no warm-up but the FP8 module's JIT.
# Package $D: host.xz (run s60a's: `.gpu/s60a`).
#   BUDGET=330 D=.gpu/s60a NAME=s60b bash tools/gpu/fp8/per-tensor-tile-ab.sh   (~300 s)
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s60b}
c gemm --dtype e4m3 --m 256 --n 256 --k 256
for i in 1 2; do
  for a in "--m 8192 --n 8192 --k 8192" "--m 4096 --n 7168 --k 16384" "--m 6144 --n 6144 --k 6144" \
           "--m 8192 --n 4096 --k 8192" "--m 4096 --n 8192 --k 8192" "--m 2048 --n 7168 --k 8192"; do
    [ $(left) -gt 25 ] || break 2
    GARGS="--dtype e4m3 $a"; g "n192-$i" CUTE_RS_FP8_PROMOTED=n192tma; g "n128-$i" CUTE_RS_FP8_PROMOTED=n128tma6
  done
done
t end
