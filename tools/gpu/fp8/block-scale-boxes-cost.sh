#!/usr/bin/env bash
# (session 36, lead; branch `s36-boxes`) What the block scales cost on one kernel: the 128 × 128 block entry
# `_staged1_tma5sk` (one temporary, 5 stages, two chunk buffers, the per-tensor scheduler) against the per-tensor
# kernel that is the same but for the scales (`_n128tma5one`, measured as `n128tma5`), and against itself with its
# scale boxes left unloaded (A's: `_noa`, B's: `_nob`, both: `_nobox`; results wrong, timing only); the 128 × 192
# default `_staged_n192tma` against its `_nobox`. Modules: $D/m0 (main's entries), m1 (one, nobox, n192 nobox), m2
# (noa), m3 (nob); each variant renamed as the entry it stands in for (tools/gpu/cut_ptx.py ENTRY=ALIAS).
#   D=.gpu/s36a bash tools/gpu/fp8/block-scale-boxes-cost.sh
BUDGET=${BUDGET:-520}; . tools/gpu/lib.sh ${NAME:-s36a}
for m in m0 m1 m2 m3; do mkdir -p /tmp/p$m; cp $P/*.ptx /tmp/p$m/; x $D/$m/hgemm_fp8.ptx.xz /tmp/p$m/hgemm_fp8.ptx; done
# the first launch of each module JITs it
for m in m0 m1 m2 m3; do CUTE_RS_PTX_DIR=/tmp/p$m CUTE_RS_FP8_BLOCK=stagedonetma5sk timeout 150 $H gemm --dtype e4m3 --block-scales --m 512 --n 1024 --k 2048 --check > $R/c.txt 2>&1 < /dev/null
  t "jit $m rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
CUTE_RS_PTX_DIR=/tmp/pm0 timeout 100 $H gemm --dtype e4m3 --block-scales --m 1000 --n 1030 --k 1024 --check > $R/c.txt 2>&1 < /dev/null; t "check m0 default rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
CUTE_RS_PTX_DIR=/tmp/pm1 CUTE_RS_FP8_PROMOTED=n128tma5 timeout 100 $H gemm --dtype e4m3 --m 1000 --n 1030 --k 1024 --check > $R/c.txt 2>&1 < /dev/null; t "check m1 n128tma5one rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for i in 1 2 3; do for s in "4096 7168 16384" "4096 4096 4096" "8192 8192 8192"; do [ $(left) -gt 40 ] || break
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"
  g pt2 CUTE_RS_PTX_DIR=/tmp/pm0 CUTE_RS_FP8_PROMOTED=n128tma5
  g pt1 CUTE_RS_PTX_DIR=/tmp/pm1 CUTE_RS_FP8_PROMOTED=n128tma5
  g ptdef CUTE_RS_PTX_DIR=/tmp/pm0
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  g b1 CUTE_RS_PTX_DIR=/tmp/pm0 CUTE_RS_FP8_BLOCK=stagedonetma5sk
  g b1nobox CUTE_RS_PTX_DIR=/tmp/pm1 CUTE_RS_FP8_BLOCK=stagedonetma5sk
  g b1noa CUTE_RS_PTX_DIR=/tmp/pm2 CUTE_RS_FP8_BLOCK=stagedonetma5sk
  g b1nob CUTE_RS_PTX_DIR=/tmp/pm3 CUTE_RS_FP8_BLOCK=stagedonetma5sk
  g bw CUTE_RS_PTX_DIR=/tmp/pm0 CUTE_RS_FP8_BLOCK=stagedn192tma
  g bwnobox CUTE_RS_PTX_DIR=/tmp/pm1 CUTE_RS_FP8_BLOCK=stagedn192tma
done; done
t end
