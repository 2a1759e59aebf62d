#!/usr/bin/env bash
# (session 20, lead) The whole `host bench gemm` table (SGEMM, bf16/fp16 sustained and burst, fused, FP8) of the
# session's tree in one call, as JSON (printed at the end: give it the time), after a first launch that JIT-compiles
# the hgemm module.
#      D=.gpu/s20i bash tools/gpu/bench-gemm/json-after-jit.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh s20i
timeout 200 $H gemm --dtype e4m3 --m 128 --n 7168 --k 4096 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
timeout $(( $(left) - 8 )) $H bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err < /dev/null
t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
t end
