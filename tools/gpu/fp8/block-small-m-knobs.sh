#!/usr/bin/env bash
# (session 55; issue #37) Small M with block scales (128×7168×16384: 0.89 of per-tensor, run s55f), the launch's knobs
# without a build: clusters of 1 (`CUTE_RS_HGEMM_CLUSTER=1`: no B multicast, no coupling of the two CTAs' stage
# releases) against the default 2, the global-scale quad entry (`CUTE_RS_FP8_BLOCK=pp64`) against the staged one,
# per-tensor beside them; 64 and 256 rows too. Three rounds, one process each.
# Package $D: host.xz (this tree's release host).   D=.gpu/s55g NAME=s55g bash tools/gpu/fp8/block-small-m-knobs.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s55g}
warm
for i in 1 2 3; do [ $(left) -gt 30 ] || break
  for a in "--m 128 --n 7168 --k 16384" "--m 64 --n 7168 --k 16384" "--m 256 --n 7168 --k 16384"; do
    GARGS="--dtype e4m3 $a"; g "pt$i"; g "pt-c1-$i" CUTE_RS_HGEMM_CLUSTER=1
    GARGS="--dtype e4m3 $a --block-scales"; g "block$i"; g "block-c1-$i" CUTE_RS_HGEMM_CLUSTER=1
    g "block-pp64-$i" CUTE_RS_FP8_BLOCK=pp64
  done
done
t end
