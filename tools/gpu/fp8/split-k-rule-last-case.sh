#!/usr/bin/env bash
# (session 20, lead) The split-K rule's last case (fewer than two pieces a tile: split over all clusters only with at
# least half again as many clusters as tiles): main's host ($D/old.xz) and the branch's alternated on the small-M FP8
# shapes it touches, two rounds; --check on them.
#      D=.gpu/s20h bash tools/gpu/fp8/split-k-rule-last-case.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh s20h
x $D/old.xz /tmp/old-s20h && chmod +x /tmp/old-s20h; OLD=/tmp/old-s20h
for s in "256 7168 4096" "200 2112 7168" "256 1000 4096" "250 7168 8192"; do
  set -- $s; timeout 200 $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "check $s rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
g() { local tag=$1 h=$2; timeout 60 $h gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"; }
for i in 1 2; do
  for s in "256 7168 16384" "256 7168 4096" "200 2112 7168" "128 7168 16384" "256 4096 8192" "384 7168 16384"; do
    [ $(left) -gt 20 ] || break
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g main $OLD; g new $H; done
done
t end
