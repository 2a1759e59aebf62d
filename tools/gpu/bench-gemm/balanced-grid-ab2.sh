#!/usr/bin/env bash
# (session 50, issue #34) Run s50c's follow-up: whether the data-parallel 8192³ / 6144³ grids gained from the whole waves
# of 64 clusters (the balance) or from the stream-K tail's absence alone. Three arms alternated, ROUNDS rounds, burst and
# sustained: `tail` (the default: 66 clusters, the last wave shared out by k-tiles), `dpbal` (CUTE_RS_HGEMM_STREAMK=0:
# data-parallel, the clusters the waves need), `dpall` (CUTE_RS_HGEMM_STREAMK=0 CUTE_RS_HGEMM_BALANCE=0: data-parallel on
# all 66); then the balance alone on the data-parallel FP8 rows (`bal` / `all`), with more rounds than s50c's two.
# Package $D: host.xz, hgemm.ptx.xz, hgemm_fp8.ptx.xz.   D=.gpu/s50c NAME=s50d bash tools/gpu/bench-gemm/balanced-grid-ab2.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s50d}
ROUNDS=${ROUNDS:-2}
CUTE_RS_HGEMM_STREAMK=0 c gemm --dtype bf16 --ta --m 6144 --n 6144 --k 6144
c gemm --dtype e4m3 --m 2048 --n 2048 --k 2048
c gemm --dtype e4m3 --m 2048 --n 2048 --k 2048 --block-scales
for i in $(seq $ROUNDS); do
  for GARGS in "--ta --dtype bf16 --m 8192" "--dtype bf16 --m 8192" "--ta --dtype bf16 --m 6144"; do
    [ $(left) -gt 70 ] || break 2
    g "tail$i"; g "dpbal$i" CUTE_RS_HGEMM_STREAMK=0; g "dpall$i" CUTE_RS_HGEMM_STREAMK=0 CUTE_RS_HGEMM_BALANCE=0
  done
done
for i in 1 2 3 4; do
  for GARGS in "--dtype e4m3 --m 4096" "--dtype e4m3 --m 4096 --block-scales" "--dtype e4m3 --m 4096 --n 2112 --k 7168"; do
    [ $(left) -gt 20 ] || break 2
    g "bal$i"; g "all$i" CUTE_RS_HGEMM_BALANCE=0
  done
done
t end
