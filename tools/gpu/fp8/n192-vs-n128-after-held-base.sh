#!/usr/bin/env bash
# (session 54; issue #37) The per-tensor tile rule after the held descriptor base and the 128 × 192 ranged index
# (e073fcc, a024609): 128 × 128 (`n128tma6`, the default where both tiles fill the machine alike) against 128 × 192
# (`n192tma`, forced with CUTE_RS_FP8_PROMOTED) at 8192³, 4096³, 4096×7168×16384, 8192×8192×16384, three rounds
# alternated in the same module (the package's `oi` module: main at a024609).
#   D=.gpu/s54f NAME=s54g bash tools/gpu/fp8/n192-vs-n128-after-held-base.sh   (~90 s)
BUDGET=${BUDGET:-150}; . tools/gpu/lib.sh ${NAME:-s54g}
mkdir -p /tmp/pvoi; cp $P/*.ptx /tmp/pvoi/; x $D/oi/hgemm_fp8.ptx.xz /tmp/pvoi/hgemm_fp8.ptx; export CUTE_RS_PTX_DIR=/tmp/pvoi
c gemm --dtype e4m3 --m 256 --n 384 --k 256
for i in 1 2 3; do for s in "8192 8192 8192" "4096 4096 4096" "4096 7168 16384" "8192 8192 16384"; do
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"
  [ $(left) -gt 12 ] || break 2
  g "n128-$i" CUTE_RS_FP8_PROMOTED=n128tma6; g "n192-$i" CUTE_RS_FP8_PROMOTED=n192tma
done; done
t end
