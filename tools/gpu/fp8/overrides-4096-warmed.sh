#!/usr/bin/env bash
# (session 73; issue #37) The FP8 4096³ plan's run-time choices again on the warmed sustained mode (its ratios within
# ~0.5 %): e4m3 per-tensor under the default tile (128 × 128, 6 stages) against 128 × 192 and 128 × 160
# (CUTE_RS_FP8_PROMOTED), and block scales under the default split (3840 columns, then 256 on their own launch)
# against one launch (CUTE_RS_FP8_BLOCK_SPLIT=0) and the split with a lead of 60 % (CUTE_RS_FP8_BLOCK_LEAD),
# `host gemm --bench` (sustained and burst), alternated, rounds while the budget lasts.
# Package $D: host.xz (this tree's release host) and cubin/ (bash tools/gpu/pack-cubins.sh $D).
#   BUDGET=300 D=.gpu/s73b NAME=s73e bash tools/gpu/fp8/overrides-4096-warmed.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s73e}
for i in 1 2 3; do
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096"
  for v in "default X=0" "n192tma CUTE_RS_FP8_PROMOTED=n192tma" "n160tma CUTE_RS_FP8_PROMOTED=n160tma"; do
    [ $(left) -gt 20 ] || break 2; set -- $v; tag=$1; shift; g "$tag$i" "$@"
  done
  GARGS="--dtype e4m3 --block-scales --m 4096 --n 4096 --k 4096"
  for v in "default X=0" "nosplit CUTE_RS_FP8_BLOCK_SPLIT=0" "lead60 CUTE_RS_FP8_BLOCK_LEAD=60"; do
    [ $(left) -gt 20 ] || break 2; set -- $v; tag=$1; shift; g "$tag$i" "$@"
  done
done
t end
