#!/usr/bin/env bash
# (session 21, lead) The whole `host bench gemm` table of the branch (the producer warp) in one call, every module
# embedded (no PTX folder), as JSON, after a first launch that JIT-compiles the hgemm module; then the attention
# problems at an unseen seed on the final attention module.  [NAME=s22f SEED=…] D=.gpu/s21d bash tools/gpu/bench-gemm/json-and-attention-run.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s21d}
unset CUTE_RS_PTX_DIR
timeout 200 $H gemm --dtype e4m3 --m 128 --n 7168 --k 4096 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
timeout $(( $(left) - 60 )) $H bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err < /dev/null
t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
timeout $(( $(left) - 5 )) $H run --only attention --seed ${SEED:-2122} > $R/ra.txt 2>&1 < /dev/null
t "C host run --only attention --seed ${SEED:-2122} rc=$? $(grep -E 'passed|failed' $R/ra.txt | tail -1)"
t end
