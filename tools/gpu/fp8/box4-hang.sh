#!/usr/bin/env bash
# (session 58; issue #37) Session 57's run s57a: memcheck of the box-of-four entry (`CUTE_RS_FP8_BLOCK=stagedpp64x4`)
# at 640×2048×1152 (9 k-tiles: each tile's last four completed with three empty stages) ran past its 120 s where the
# same at ×1024 took a second, and racecheck / synccheck at ×1152 passed in a second each. Is it the entry (a wait
# that timing can leave unanswered) or the sanitizer? memcheck of both entries at ×1152, of the box-of-four one at
# ×1024 and at other tile-ends cut short, each timed; then many plain launches of the box-of-four entry at shapes with
# empty stages and several tiles a warpgroup (a hang would show as a timeout), and checks there (M·N·K ≤ 1e10).
# Package $D: host.xz as tools/gpu/fp8/block-pp64-box4.sh's (the `fp8-variants` modules).
#   D=.gpu/s57a NAME=s58a bash tools/gpu/fp8/box4-hang.sh   (~300 s)
BUDGET=${BUDGET:-480}; . tools/gpu/lib.sh ${NAME:-s58a}
warm
fms CUTE_RS_FP8_BLOCK=stagedpp64x4 100 --m 640 --n 2048 --k 1152
fms CUTE_RS_FP8_BLOCK=stagedpp64 100 --m 640 --n 2048 --k 1152
fms CUTE_RS_FP8_BLOCK=stagedpp64x4 60 --m 640 --n 2048 --k 1024
fms CUTE_RS_FP8_BLOCK=stagedpp64x4 60 --m 256 --n 1024 --k 640
fms CUTE_RS_FP8_BLOCK=stagedpp64x4 60 --m 640 --n 2048 --k 1280
fms CUTE_RS_FP8_BLOCK=pp64 60 --m 640 --n 2048 --k 1152
export CUTE_RS_FP8_BLOCK=stagedpp64x4
# several tiles a warpgroup with empty stages: 1024×7168 (896 tiles, ~7 a CTA), K of 9 and 25 k-tiles
for a in "--m 1024 --n 7168 --k 1152" "--m 640 --n 4096 --k 3200" "--m 256 --n 7168 --k 3200" \
         "--m 1000 --n 2000 --k 1152" "--m 132 --n 7168 --k 4224"; do
  c gemm --dtype e4m3 $a --block-scales
done
# many launches (host gemm --bench: its warm-up and rounds), where a rare missed wait would hang one
for a in "--m 640 --n 2048 --k 1152" "--m 1024 --n 7168 --k 1152" "--m 256 --n 7168 --k 8320" \
         "--m 128 --n 7168 --k 16512"; do
  GARGS="--dtype e4m3 $a --block-scales"; g hang
done
unset CUTE_RS_FP8_BLOCK
t end
