#!/usr/bin/env bash
# (session 26, lead) The closing call: the small-M block entry with clusters of 1 (CUTE_RS_HGEMM_CLUSTER=1: are the
# cluster's two CTAs, coupled by B's multicast, what starves its consumer?), `host run --only hgemm`, the FP8 sweep,
# then the whole `host bench gemm --json` table (every module embedded).   Package: $D/host.xz.
#          D=.gpu/s26d bash tools/gpu/closing/fp8-block-small-m-cluster-1.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s26d}
unset CUTE_RS_PTX_DIR
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
full gemm --dtype e4m3 --block-scales --m 128 --n 7168 --k 2048 --check > $R/jit.txt 2>&1; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
for i in 1 2; do GARGS="--dtype e4m3 --block-scales --m 128 --n 7168 --k 16384"; g block X=1; g block-cluster1 CUTE_RS_HGEMM_CLUSTER=1
  GARGS="--dtype e4m3 --m 128 --n 7168 --k 16384"; g pt X=1; g pt-cluster1 CUTE_RS_HGEMM_CLUSTER=1; done
full run --only hgemm --seed 2601 > $R/run.txt 2>&1; t "C host run --only hgemm --seed 2601 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
TO=$(( $(left) - 15 )) full bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err; t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
t end
