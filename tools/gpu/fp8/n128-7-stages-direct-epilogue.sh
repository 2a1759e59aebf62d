#!/usr/bin/env bash
# (session 20, lead) 128x128 with 7 stages and the direct epilogue (`CUTE_RS_FP8_PROMOTED=n128s7`, feature
# fp8-variants) against the default on the split-K problems (n128tma6: 6 stages, the TMA epilogue), two rounds.
# The entry was removed after the call (0.55 against 0.86 at 128x7168x16384; doc/fp8-gemm.md, "Small M again").
#      D=.gpu/s20k bash tools/gpu/fp8/n128-7-stages-direct-epilogue.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh s20k
S7="CUTE_RS_FP8_PROMOTED=n128s7"
for s in "128 7168 4096" "100 1000 8192" "256 1000 4096" "200 2112 7168"; do set -- $s
  timeout 100 env $S7 $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "check n128s7 $s rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
g() { local tag=$1; shift; timeout 60 env "$@" $H gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2; do
  for s in "128 7168 16384" "128 7168 4096" "128 4096 8192" "256 7168 16384" "200 2112 7168" "256 7168 4096"; do
    [ $(left) -gt 15 ] || break
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g default X=0; g n128s7 $S7; done
done
t end
