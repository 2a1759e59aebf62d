#!/usr/bin/env bash
# (session 36, lead; branch `s36-boxes`) The block scales' consumer side on the 128 × 128 one-temporary kernel: main's
# `_staged1_tma5sk` (b1) against itself reading no scales (each promotion by 1.0: `_noread`, the per-tensor loop with
# the boxes still loaded) and reading B's scale alone (`_bonly`), and the per-tensor kernel that is the same but for the
# scales (`_n128tma5one` as `n128tma5`: pt1); then ncu (source counters, warp states) of b1 and pt1 at
# 4096×7168×16384. Modules $D/m0 (b1, pt1), m4 (noread), m5 (bonly), variants renamed (tools/gpu/cut_ptx.py).
#   D=.gpu/s36b NAME=s36b bash tools/gpu/fp8/block-scale-reads-cost.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s36b}
for m in m0 m4 m5; do mkdir -p /tmp/p$m; cp $P/*.ptx /tmp/p$m/; x $D/$m/hgemm_fp8.ptx.xz /tmp/p$m/hgemm_fp8.ptx
  CUTE_RS_PTX_DIR=/tmp/p$m CUTE_RS_FP8_BLOCK=stagedonetma5sk timeout 150 $H gemm --dtype e4m3 --block-scales --m 512 --n 1024 --k 2048 --check > $R/c.txt 2>&1 < /dev/null
  t "jit $m rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
for i in 1 2 3; do for s in "4096 7168 16384" "8192 8192 8192" "4096 4096 4096"; do [ $(left) -gt 150 ] || break
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"
  g pt1 CUTE_RS_PTX_DIR=/tmp/pm0 CUTE_RS_FP8_PROMOTED=n128tma5
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  for v in b1:m0 noread:m4 bonly:m5; do g ${v%:*} CUTE_RS_PTX_DIR=/tmp/p${v#*:} CUTE_RS_FP8_BLOCK=stagedonetma5sk; done
done; done
B="gemm --dtype e4m3 --m 4096 --n 7168 --k 16384 --bench"
CUTE_RS_PTX_DIR=/tmp/pm0 CUTE_RS_FP8_BLOCK=stagedonetma5sk ncu_src b1 -k regex:gemm_fp8_e4m3_tn_promoted_staged1_tma5sk $H $B --block-scales
CUTE_RS_PTX_DIR=/tmp/pm0 CUTE_RS_FP8_PROMOTED=n128tma5 ncu_src pt1 -k regex:gemm_fp8_e4m3_tn_promoted_n128tma5 $H $B
t end
