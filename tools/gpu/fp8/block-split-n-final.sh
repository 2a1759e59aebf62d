#!/usr/bin/env bash
# (session 55; issue #37) The final host of the block entry's column split (`Fp8BlockEntry::split_n` with its least
# size, `Error::Override`): the FP8 sweep and `host run --only hgemm` through the launch path every GEMM now takes
# (`Context::hgemm_launch_at`), forced splits checked (bf16 and f32 D, the rest on either entry), and a split the host
# refuses before any launch (exit 2).
# Package $D: host.xz (this tree's release host; its embedded modules are main's).
#   D=.gpu/s55e NAME=s55e bash tools/gpu/fp8/block-split-n-final.sh   (~200 s)
BUDGET=${BUDGET:-260}; . tools/gpu/lib.sh ${NAME:-s55e}
warm
timeout 200 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null
t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/sweep.txt | tail -1)"
timeout 200 $H run --only hgemm > $R/run.txt 2>&1 < /dev/null
t "C run --only hgemm rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
export CUTE_RS_FP8_BLOCK_SPLIT=1152; c gemm --dtype e4m3 --m 2048 --n 4096 --k 1024 --block-scales
export CUTE_RS_FP8_BLOCK_SPLIT=384;  c gemm --dtype e4m3 --m 2048 --n 1300 --k 2048 --block-scales --out f32
export CUTE_RS_FP8_BLOCK_SPLIT=3840; c gemm --dtype e4m3 --m 4096 --n 4096 --k 512 --block-scales
export CUTE_RS_FP8_BLOCK_SPLIT=128;  c gemm --dtype e4m3 --m 2048 --n 1000 --k 384 --block-scales
unset CUTE_RS_FP8_BLOCK_SPLIT
c gemm --dtype e4m3 --m 4096 --n 1000 --k 512 --block-scales
t end
