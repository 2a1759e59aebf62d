#!/usr/bin/env bash
# (session 20, lead) Split-K by whole tiles (config::split_k_clusters: a whole multiple of the tiles, one piece of one
# tile a cluster) against main's (as many clusters as fit): the same PTX, main's host ($D/old.xz) and the new one
# alternated, two rounds, ours / cuBLASLt per-tensor e4m3 (and fast accumulation) on the split-K shapes; --check on
# split shapes with the new host.
#      D=.gpu/s20d bash tools/gpu/fp8/split-k-whole-tiles-ab.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh s20d
x $D/old.xz /tmp/old-s20d && chmod +x /tmp/old-s20d; OLD=/tmp/old-s20d
timeout 200 $H gemm --dtype e4m3 --m 128 --n 7168 --k 4096 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
for s in "100 1000 8192" "128 2112 7168" "64 4096 8192" "200 2112 7168" "1 7168 4096" "128 7232 8192"; do
  set -- $s; timeout 60 $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "check $s rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
  timeout 60 $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --fast-accum --check > $R/c.txt 2>&1 < /dev/null
  t "check fast $s rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
g() { local tag=$1 h=$2; timeout 60 $h gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-220 | tr '\n' '|')"; }
for i in 1 2; do
  for s in "128 7168 16384" "64 7168 16384" "128 4096 8192" "128 2112 7168" "200 2112 7168" "128 7168 4096" "64 4096 8192"; do
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g main $OLD; g new $H; done
  GARGS="--dtype e4m3 --m 128 --n 7168 --k 16384 --fast-accum"; g main $OLD; g new $H
done
t end
