#!/usr/bin/env bash
# (session 27, lead) The 128 × 192 block entry against the 128 × 192 per-tensor one (same tile, epilogue, stages but
# for the scales): ncu source counters and warp states of one launch each at 4096×7168×16384 and 4096³.
# Package: run s27b's (.gpu/s27b).   D=.gpu/s27b NAME=s27c bash tools/gpu/fp8/block-vs-per-tensor-n192-ncu.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s27c}
for s in "4096 7168 16384" "4096 4096 4096"; do set -- $s; B="gemm --dtype e4m3 --m $1 --n $2 --k $3"; tag=$2x$3
  [ $tag = 7168x16384 ] && { timeout 150 $H $B --block-scales --bench > $R/jit.txt 2>&1 < /dev/null; t "jit rc=$? $(grep TFLOP $R/jit.txt | tr -s ' ' | cut -c1-160)"; }
  ncu_src block$tag -k regex:gemm_fp8_e4m3_tn_promoted_staged_n192tma $H $B --block-scales --bench
  CUTE_RS_FP8_PROMOTED=n192tma ncu_src pt$tag -k regex:gemm_fp8_e4m3_tn_promoted_n192tma $H $B --bench
done
t end
