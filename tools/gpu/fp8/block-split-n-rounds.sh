#!/usr/bin/env bash
# (session 55; issue #37) The final host of the block entry's column split (`Fp8BlockEntry::split_scales_offset` shared
# by the rule, the override's check and the launch): its checks again (forced splits, the refusal, the FP8 sweep), then
# three rounds of the shapes — per-tensor, block scales as launched (the rule) and without a split
# (`CUTE_RS_FP8_BLOCK_SPLIT=0`) — in one process each, alternated.
# Package $D: host.xz (this tree's release host; its embedded modules are main's).
#   D=.gpu/s55f NAME=s55f bash tools/gpu/fp8/block-split-n-rounds.sh   (~200 s)
BUDGET=${BUDGET:-260}; . tools/gpu/lib.sh ${NAME:-s55f}
warm
timeout 200 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null
t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/sweep.txt | tail -1)"
export CUTE_RS_FP8_BLOCK_SPLIT=1152; c gemm --dtype e4m3 --m 2048 --n 4096 --k 1024 --block-scales
export CUTE_RS_FP8_BLOCK_SPLIT=384;  c gemm --dtype e4m3 --m 2048 --n 1300 --k 2048 --block-scales --out f32
export CUTE_RS_FP8_BLOCK_SPLIT=128;  c gemm --dtype e4m3 --m 2048 --n 1000 --k 384 --block-scales
unset CUTE_RS_FP8_BLOCK_SPLIT
for i in 1 2 3; do [ $(left) -gt 40 ] || break
  for a in "--m 4096 --n 4096 --k 4096" "--m 4096 --n 7168 --k 16384" "--m 1024 --n 7168 --k 16384" \
           "--m 8192 --n 8192 --k 8192" "--m 128 --n 7168 --k 16384"; do
    GARGS="--dtype e4m3 $a"; g "pt$i"; GARGS="--dtype e4m3 $a --block-scales"; g "block$i"; g "whole$i" CUTE_RS_FP8_BLOCK_SPLIT=0
  done
done
t end
