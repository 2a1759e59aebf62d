#!/usr/bin/env bash
# (session 63; issue #37) The block-scaled rows short of 0.90 of our per-tensor kernel on an H100 (run s63a's bench:
# 4096³ 0.853, 512×7168×8192 0.799): the default entry choice against the others, each `host gemm --block-scales
# --bench` timing block against cuBLASLt and against our per-tensor kernel in one process, sustained and burst, two
# rounds alternated. 4096³: default (3840 columns on 128 × 192 + 256 on 128 × 128 split-K), no split (128 × 192, 6
# waves), all on 128 × 128 stream-K (`stagedonetma5sk`); 512×7168×8192: default (`stagedonetma5sk`), `stagedpp64x4`,
# `pp64`, `stagedn192tma`. Package $D: host.xz.   BUDGET=420 D=.gpu/s63b NAME=s63d bash tools/gpu/fp8/block-entries-h100.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s63d}
c gemm --dtype e4m3 --m 256 --n 256 --k 256 --block-scales
for i in 1 2; do
  [ $(left) -gt 60 ] || break
  GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096 --block-scales"
  g b4096-default-$i; g b4096-nosplit-$i CUTE_RS_FP8_BLOCK_SPLIT=0; g b4096-one128sk-$i CUTE_RS_FP8_BLOCK=stagedonetma5sk
  [ $(left) -gt 60 ] || break
  GARGS="--dtype e4m3 --m 512 --n 7168 --k 8192 --block-scales"
  g b512-default-$i; g b512-pp64x4-$i CUTE_RS_FP8_BLOCK=stagedpp64x4; g b512-pp64-$i CUTE_RS_FP8_BLOCK=pp64
  g b512-n192-$i CUTE_RS_FP8_BLOCK=stagedn192tma
done
t end
