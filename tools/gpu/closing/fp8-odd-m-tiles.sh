#!/usr/bin/env bash
# (session 28) The closing call on main (every module embedded): the per-tensor tile at two odd counts of M-tiles under
# the new clusters (the default's 128 × 128 against 128 × 192), `host run --only hgemm`, the FP8 sweep, then
# `host bench gemm --json` (79 rows: the 384×7168×8192 and 512×7168×8192 rows new).
#          D=.gpu/s28d bash tools/gpu/closing/fp8-odd-m-tiles.sh       Package: $D/host.xz.
BUDGET=${BUDGET:-570}; . tools/gpu/lib.sh ${NAME:-s28d}
unset CUTE_RS_PTX_DIR
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
full gemm --dtype e4m3 --block-scales --m 384 --n 7168 --k 2048 --check > $R/jit.txt 2>&1; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
for i in 1 2; do for s in "640 7168 8192" "384 4096 8192" "896 4096 8192"; do set -- $s
  GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g default X=1; g n192tma CUTE_RS_FP8_PROMOTED=n192tma; done; done
full run --only hgemm --seed 2801 > $R/run.txt 2>&1; t "C host run --only hgemm --seed 2801 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
full gemm --dtype e4m3 > $R/f8.txt 2>&1; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
TO=$(( $(left) - 15 )) full bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err; t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
t end
