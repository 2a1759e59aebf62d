#!/usr/bin/env bash
# (session 20, lead) Small-M FP8 per-tensor with split-K by whole tiles: 128x192 (n192tma, the default: 4 stages of
# 40 KiB) against 128x128 (n128tma6: 6 stages of 32 KiB, more bytes in flight), alternated, two rounds.
#      D=.gpu/s20d bash tools/gpu/fp8/small-m-split-k-tile.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh s20f
timeout 200 $H gemm --dtype e4m3 --m 128 --n 7168 --k 4096 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
timeout 100 env CUTE_RS_FP8_PROMOTED=n128tma6 $H gemm --dtype e4m3 --m 100 --n 1000 --k 8192 --check > $R/c.txt 2>&1 < /dev/null
t "check n128tma6 split rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
g() { local tag=$1; shift; timeout 60 env "$@" $H gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-220 | tr '\n' '|')"; }
for i in 1 2; do
  for s in "128 7168 16384" "64 7168 16384" "128 7168 4096" "128 4096 8192" "128 2112 7168" "256 7168 16384" "128 7168 2048"; do
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g n192tma X=0; g n128tma6 CUTE_RS_FP8_PROMOTED=n128tma6; done
done
t end
