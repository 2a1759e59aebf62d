#!/usr/bin/env bash
# (session 68; issue #34) The `beta 1` 4096³ bench row (0.958–0.959 of cuBLAS sustained, 0.973–0.976 burst in run
# s68b, the one 16-bit row under 0.97) under the launch overrides that need no build: the tile order (bands of 16,
# the Hilbert curve), no stream-K tail, 128 SMs, the 128×128 ping-pong — two rounds alternated, bf16 "NN" `--beta 1`,
# each `--bench` sustained and burst.
# Package $D: host.xz (main's release host) and hgemm.ptx.xz (its module cut to the entries these launches take:
# `hgemm_bf16_{nn,tn}`, `hgemm_bf16_nn_pingpong128`).
#   BUDGET=200 D=.gpu/s68d NAME=s68d bash tools/gpu/gemm/beta-launch-overrides.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s68d}
c gemm --dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1
GARGS="--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1"
for i in 1 2; do
  for v in default CUTE_RS_HGEMM_SWIZZLE=16 CUTE_RS_HGEMM_SWIZZLE=hilbert CUTE_RS_HGEMM_STREAMK=0 CUTE_RS_HGEMM_SMS=128 \
    CUTE_RS_HGEMM_SCHEDULE=pingpong128; do
    [ $(left) -gt 15 ] || break 2
    if [ $v = default ]; then g "$v$i"; else g "${v#CUTE_RS_HGEMM_}$i" $v; fi
  done
done
t end
