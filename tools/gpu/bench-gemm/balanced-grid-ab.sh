#!/usr/bin/env bash
# (session 50, issue #34) Run s50a: fast.cu's 128 SMs in ours (CUTE_RS_HGEMM_SMS=128) ran 8192³ bf16 TN 1.2 % faster
# burst (813–815 against 804–805 TFLOP/s) and 1 % slower sustained; at 128 SMs the 1,024 cluster tiles make 16 whole
# waves, where the default 66 clusters run 15 and share the part-empty 16th out by k-tiles (the stream-K tail). Here the
# tail against a balanced data-parallel grid (the host's new `HgemmPlan::balance`: the clusters the waves need,
# `tiles.div_ceil(waves)`; CUTE_RS_HGEMM_STREAMK=0 takes it) on shapes whose last wave is 6 % to 88 % full, burst and
# sustained, ROUNDS rounds alternated; then the balance alone (CUTE_RS_HGEMM_BALANCE=0: every resident cluster) on the
# data-parallel FP8 rows (per-tensor 128 × 192 at 4096³: 352 cluster tiles in 6 waves of 59 rather than 66).
# Package $D: host.xz (this checkout's), hgemm.ptx.xz, hgemm_fp8.ptx.xz (whole modules: no stubs).
#   D=.gpu/s50c NAME=s50c bash tools/gpu/bench-gemm/balanced-grid-ab.sh
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s50c}
ROUNDS=${ROUNDS:-3}
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 4096
CUTE_RS_HGEMM_STREAMK=0 c gemm --dtype bf16 --ta --m 8192 --n 8192 --k 8192
c gemm --dtype e4m3 --m 4096 --n 4096 --k 4096
# last wave of 66 clusters (256 × 256 cluster tiles): 4096³ 58, 8192³ 34, 6144³ 48, 5120³ 4, 3072³ 12
for i in $(seq $ROUNDS); do
  for GARGS in "--ta --dtype bf16 --m 4096" "--ta --dtype bf16 --m 8192" "--dtype bf16 --m 8192" \
    "--tb --dtype f16 --m 8192" "--ta --dtype bf16 --m 6144" "--ta --dtype bf16 --m 5120" \
    "--ta --dtype bf16 --m 3072" "--ta --dtype bf16 --m 4096 --beta 1"; do
    [ $(left) -gt 100 ] || break 2
    g "tail$i"; g "dp$i" CUTE_RS_HGEMM_STREAMK=0
  done
  for GARGS in "--dtype e4m3 --m 4096" "--dtype e4m3 --m 4096 --block-scales"; do
    [ $(left) -gt 60 ] || break 2
    g "bal$i"; g "all$i" CUTE_RS_HGEMM_BALANCE=0
  done
done
t end
