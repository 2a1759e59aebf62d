#!/usr/bin/env bash
# (session 60; issue #37) The per-tensor tile rule of session 60 (128 × 192 wherever its estimated use is above
# 128 × 128's, no 5 % premium): the default against 128 × 128 forced (`CUTE_RS_FP8_PROMOTED=n128tma6`) at 8192³ (the
# shape of run s60a) and 8192×8192×16384 (the same estimates, moved unmeasured), each `--bench` sustained and burst
# against cuBLASLt in the same process, alternated. No warm-up but the FP8 module's JIT.
# Package $D: host.xz (this tree's release host).
#   BUDGET=110 D=.gpu/s60c NAME=s60c bash tools/gpu/fp8/per-tensor-tile-default.sh   (~100 s)
BUDGET=${BUDGET:-110}; . tools/gpu/lib.sh ${NAME:-s60c}
c gemm --dtype e4m3 --m 256 --n 256 --k 256
for i in 1 2; do
  for a in "--m 8192 --n 8192 --k 8192" "--m 8192 --n 8192 --k 16384"; do
    [ $(left) -gt 22 ] || break 2
    GARGS="--dtype e4m3 $a"; g "default-$i"; g "n128-$i" CUTE_RS_FP8_PROMOTED=n128tma6
  done
done
t end
