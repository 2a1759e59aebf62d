#!/usr/bin/env bash
# (session 28) The closing call on main after the 16-bit split-K (every module embedded): `host run --only hgemm`,
# bf16 at two small-M shapes, then `host bench gemm --json` (79 rows).
#          D=.gpu/s28f bash tools/gpu/closing/gemm-split-k.sh       Package: $D/host.xz.
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s28f}
unset CUTE_RS_PTX_DIR
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
full run --only hgemm --seed 2802 > $R/run.txt 2>&1; t "C host run --only hgemm --seed 2802 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
for s in "128 7168 8192" "256 4096 8192"; do set -- $s; GARGS="--ta --dtype bf16 --m $1 --n $2 --k $3"; g default X=1; done
TO=$(( $(left) - 15 )) full bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err; t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
t end
