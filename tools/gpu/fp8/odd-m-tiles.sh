#!/usr/bin/env bash
# (session 28) M with an odd count of 128-row blocks: the FP8 plans cluster 2 CTAs along M, so the last cluster row
# of 384 rows is half empty (76 cluster tiles of 256 × 192 for 114 real ones at 384×7168; run s28a: per-tensor
# 0.66 of cuBLASLt there against 0.98–1.00 at 256 and 512). Per-tensor: default, cluster 1, 128×128 (n128tma6), both;
# block: default, cluster 1, `_staged1_tma5sk` (sk1), both; two rounds, rows alternated. Package of run s28a
# (host of branch s27-small-m-sk at 18dae69, the default FP8 entries + the two split entries).
#          D=.gpu/s28a bash tools/gpu/fp8/odd-m-tiles.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh ${NAME:-s28b}
timeout 150 $H gemm --dtype e4m3 --block-scales --m 384 --n 7168 --k 2048 --check > $R/c.txt 2>&1 < /dev/null; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for s in "384 7168 2048" "640 4096 1024"; do set -- $s
  for e in "X=1" "CUTE_RS_HGEMM_CLUSTER=1" "CUTE_RS_FP8_BLOCK=stagedonetma5sk CUTE_RS_HGEMM_CLUSTER=1"; do
    env $e timeout 60 $H gemm --dtype e4m3 --block-scales --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null; t "check block $e $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"; done
  for e in "CUTE_RS_HGEMM_CLUSTER=1" "CUTE_RS_FP8_PROMOTED=n128tma6 CUTE_RS_HGEMM_CLUSTER=1"; do
    env $e timeout 60 $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null; t "check pt $e $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"; done; done
for i in 1 2; do for s in "384 7168 8192" "640 7168 8192" "384 4096 8192" "1152 7168 4096" "896 4096 8192" "384 7168 2048" "512 7168 8192"; do
  [ $(left) -gt 20 ] || break; set -- $s
  GARGS="--dtype e4m3 --m $1 --n $2 --k $3"
  g pt X=1; g pt-c1 CUTE_RS_HGEMM_CLUSTER=1; g pt-n128 CUTE_RS_FP8_PROMOTED=n128tma6; g pt-n128-c1 CUTE_RS_FP8_PROMOTED=n128tma6 CUTE_RS_HGEMM_CLUSTER=1
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  g bl X=1; g bl-c1 CUTE_RS_HGEMM_CLUSTER=1; g sk1 CUTE_RS_FP8_BLOCK=stagedonetma5sk; g sk1-c1 CUTE_RS_FP8_BLOCK=stagedonetma5sk CUTE_RS_HGEMM_CLUSTER=1
done; done
t end
