#!/usr/bin/env bash
# (session 58; issue #37) Run s58a: memcheck of the box-of-four entry ran past its limit at 640×2048×1152 and ×1280
# (two tiles on some CTAs, a tile's last four cut short: empty stages in the ring's second round) and passed in a
# second at ×1024 (no empty stage) and 256×1024×640 (one tile a CTA, the empty stages in the first round); the global
# and box-of-one entries passed at ×1152; plain launches passed everywhere. Which condition: one tile a CTA with empty
# stages in a later round (128×1024×1152, ×2176), whole fours that wrap with two tiles (640×2048×1536), one empty stage
# (640×2048×1408)? Each memcheck's own log kept (what it reported before the limit).
# Package $D: host.xz as tools/gpu/fp8/block-pp64-box4.sh's (the `fp8-variants` modules).
#   D=.gpu/s57a NAME=s58b bash tools/gpu/fp8/box4-hang2.sh   (~250 s)
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s58b}
timeout 300 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null
t "warm $(grep -Eo 'PASS|FAIL' $R/w1.txt | head -1)"
fms CUTE_RS_FP8_BLOCK=stagedpp64x4 30 --m 640 --n 2048 --k 1152
fms CUTE_RS_FP8_BLOCK=stagedpp64x4 30 --m 128 --n 1024 --k 1152
fms CUTE_RS_FP8_BLOCK=stagedpp64x4 30 --m 128 --n 1024 --k 2176
fms CUTE_RS_FP8_BLOCK=stagedpp64x4 30 --m 640 --n 2048 --k 1536
fms CUTE_RS_FP8_BLOCK=stagedpp64x4 30 --m 640 --n 2048 --k 1408
fms CUTE_RS_FP8_BLOCK=stagedpp64x4 30 --m 128 --n 1024 --k 1024
fms CUTE_RS_FP8_BLOCK=stagedpp64x4 30 --m 1024 --n 2048 --k 512
cp $R/ms1.txt $OUT/ 2>/dev/null
t end
