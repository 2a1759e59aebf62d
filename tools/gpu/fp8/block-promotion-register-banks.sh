#!/usr/bin/env bash
# (session 36, lead; branch `s36-boxes`) The promotion's register banks: main's 128 × 128 block entry `_staged1_tma5sk`
# (b1: ptxas gives half of its 64 promotion FFMAs three sources of one parity) against `_swap` (each value promoted
# into its pair partner's register, `temp[v ^ 1]`: none; the column pairs then swapped, timing only), the paired
# `_staged_tma5` (b2dp, data-parallel) and the per-tensor kernels of the same configuration with one temporary (pt1,
# `_n128tma5one` as `n128tma5`) and paired (pt2, `_n128tma5`). Modules $D/m0 (pt1, b1, b2dp), m6 (pt2, swap).
#   D=.gpu/s36c NAME=s36c bash tools/gpu/fp8/block-promotion-register-banks.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s36c}
for m in m0 m6; do mkdir -p /tmp/p$m; cp $P/*.ptx /tmp/p$m/; x $D/$m/hgemm_fp8.ptx.xz /tmp/p$m/hgemm_fp8.ptx
  CUTE_RS_PTX_DIR=/tmp/p$m CUTE_RS_FP8_BLOCK=stagedonetma5sk timeout 150 $H gemm --dtype e4m3 --block-scales --m 512 --n 1024 --k 2048 --check > $R/c.txt 2>&1 < /dev/null
  t "jit $m rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
for i in 1 2 3; do for s in "4096 7168 16384" "8192 8192 8192" "4096 4096 4096"; do [ $(left) -gt 20 ] || break
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"
  g pt1 CUTE_RS_PTX_DIR=/tmp/pm0 CUTE_RS_FP8_PROMOTED=n128tma5
  g pt2 CUTE_RS_PTX_DIR=/tmp/pm6 CUTE_RS_FP8_PROMOTED=n128tma5
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  g b1 CUTE_RS_PTX_DIR=/tmp/pm0 CUTE_RS_FP8_BLOCK=stagedonetma5sk
  g swap CUTE_RS_PTX_DIR=/tmp/pm6 CUTE_RS_FP8_BLOCK=stagedonetma5sk
  g b2dp CUTE_RS_PTX_DIR=/tmp/pm0 CUTE_RS_FP8_BLOCK=stagedtma5
done; done
t end
