#!/usr/bin/env bash
# (session 29) The closing call after the 16-bit small-M rules (every module embedded): `host run --only hgemm`, the
# cluster rule on the other launches of the cooperative 128×256 kernel (FP8 fast accumulation, the fused bf16 entry)
# against clusters of 2 forced, then `host bench gemm --json` (87 rows).
#          D=.gpu/s29e bash tools/gpu/closing/gemm-small-m-cluster-rule.sh       Package: $D/host.xz.
BUDGET=${BUDGET:-480}; . tools/gpu/lib.sh ${NAME:-s29e}
unset CUTE_RS_PTX_DIR
full() { timeout ${TO:-200} $H "$@" < /dev/null; }
full run --only hgemm --seed 2902 > $R/run.txt 2>&1; t "C host run --only hgemm --seed 2902 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -1)"
grep FAIL $R/run.txt | head -3 | cut -c1-200 | tee -a $S
for s in "--dtype e4m3 --fast-accum --m 1152 --n 7168 --k 8192" "--dtype e4m3 --fast-accum --m 384 --n 11264 --k 8192" \
  "--ta --dtype bf16 --m 1152 --n 7168 --k 4096 --bias m --act gelu"; do
  GARGS="$s"; g old CUTE_RS_HGEMM_CLUSTER=2; g new X=1; done
TO=$(( $(left) - 15 )) full bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err; t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
t end
