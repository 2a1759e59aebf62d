#!/usr/bin/env bash
# (session 50; run s51d in session 51: level, doc/hopper-gemm.md; issue #34) Does our epilogue's code size cost 4096³? Under ncu (run s49f) 2.5 % of
# our warps' samples were "no instruction" (fast.cu's 0 %), in the epilogue's unrolled TMA path and the scheduler: code
# run once a tile, fetched cold. `hgemm_bf16_tn` holds every path (f32, bf16, f16 C; direct and TMA; beta 0 or a source):
# 12,488 SASS instructions (ptxas 13.0, `cuobjdump -sass`). Two measuring entries on branch `s50-epi-short` (feature
# `hgemm/epilogue-variants`; 0 spills, 168 registers as main's) cut it: `hgemm_bf16_tn_nosrc` (`HgemmEpilogue<_, false>`:
# no code that reads C) 7,184, and `hgemm_bf16_tn_bf16_nosrc` (bf16 C alone, no source) 3,336. Each is cut into a module
# under main's name (`tools/gpu/cut_ptx.py ENTRY=hgemm_bf16_tn`), so main's host launches it; valid only for beta 0 and
# a bf16 C, which is what this script runs. Checks first, then the three alternated, ROUNDS rounds, burst and sustained,
# bf16 TN 4096³ / 8192³ / 2048³, then ncu's warp states (the "no instruction" share) of main and `b16` at 4096³.
# Package $D: host.xz, stub.ptx + stub-families.txt, {main,nosrc,b16}/hgemm.ptx.xz (each: hgemm_bf16_tn and its
# _pp64 / _pingpong128 companions).   D=.gpu/s51d NAME=s51d BUDGET=400 bash tools/gpu/gemm/epilogue-short-ab.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s51d}
ROUNDS=${ROUNDS:-3}
for v in main nosrc b16; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/ 2>/dev/null; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx
  CUTE_RS_PTX_DIR=/tmp/pv$v c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 4096
  CUTE_RS_PTX_DIR=/tmp/pv$v c gemm --dtype bf16 --ta --m 1003 --n 1030 --k 520 --ldc 1008; done
ab "main nosrc b16" "--ta --dtype bf16 --m 4096" "--ta --dtype bf16 --m 8192" "--ta --dtype bf16 --m 2048"
SEC="--section WarpStateStats --section SpeedOfLight --section SourceCounters"
for v in main b16; do CUTE_RS_PTX_DIR=/tmp/pv$v ncu_src o$v --kernel-name hgemm_bf16_tn --launch-skip 4 \
  $H gemm --ta --dtype bf16 --m 4096 --bench --timing burst; done
t end
