#!/usr/bin/env bash
# (session 62; issue #37) The per-tensor tile order on the H100: run s62b (tools/gpu/fp8/h100-shortfalls.sh) had bands
# of 16 N-tiles (`CUTE_RS_HGEMM_SWIZZLE=16`) 2–3 % ahead of the default bands of 8 in bursts at 4096³ (1,272 against
# 1,237, 1,244 TFLOP/s), one sample. Here four rounds at 4096³ of the default, bands of 16 and bands of 4, alternated,
# then two rounds at 8192³ (128 × 192) of the default and bands of 16; each `--bench` sustained and burst against
# cuBLASLt in the same process. No build.
# Package $D: host.xz (this tree's release host).
#   BUDGET=260 D=.gpu/s62c NAME=s62c bash tools/gpu/fp8/per-tensor-bands.sh   (~200 s)
BUDGET=${BUDGET:-260}; . tools/gpu/lib.sh ${NAME:-s62c}
c gemm --dtype e4m3 --m 256 --n 256 --k 256
GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096"
for i in 1 2 3 4; do
  [ $(left) -gt 40 ] || break
  g band8-$i; g band16-$i CUTE_RS_HGEMM_SWIZZLE=16; g band4-$i CUTE_RS_HGEMM_SWIZZLE=4
done
GARGS="--dtype e4m3 --m 8192 --n 8192 --k 8192"
for i in 1 2; do
  [ $(left) -gt 30 ] || break
  g band8-$i; g band16-$i CUTE_RS_HGEMM_SWIZZLE=16
done
t end
