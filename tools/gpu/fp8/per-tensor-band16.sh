#!/usr/bin/env bash
# (session 62; issue #37) The promoted per-tensor 128 × 128 tiles in bands of 16 N-tiles (`config::SWIZZLE_FP8_N128`,
# the launch's default since session 62) against the bands of 8 before (`CUTE_RS_HGEMM_SWIZZLE=8`), alternated, each
# `--bench` sustained and burst against cuBLASLt in the same process, at the shapes the tile rule gives 128 × 128:
# 4096³ (measured in run s62c: +2.5 %), 4096×7168×16384 and 8192×4096×8192; `--check` at 4096³ and at an edge first.
# Package $D: host.xz (this tree's release host).
#   BUDGET=250 D=.gpu/s62d NAME=s62d bash tools/gpu/fp8/per-tensor-band16.sh   (~200 s)
BUDGET=${BUDGET:-250}; . tools/gpu/lib.sh ${NAME:-s62d}
c gemm --dtype e4m3 --m 4096 --n 4096 --k 4096
c gemm --dtype e4m3 --m 4000 --n 4104 --k 2048
for i in 1 2; do
  for a in "--m 4096 --n 4096 --k 4096" "--m 4096 --n 7168 --k 16384" "--m 8192 --n 4096 --k 8192"; do
    [ $(left) -gt 30 ] || break 2
    GARGS="--dtype e4m3 $a"; g band16-$i; g band8-$i CUTE_RS_HGEMM_SWIZZLE=8
  done
done
t end
