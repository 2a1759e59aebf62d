#!/usr/bin/env bash
# (session 39) The closing call on the landed epilogue (main eef21aa's kernels): `host bench gemm --json`, every row, after
# the FP8 module's JIT.   D=.gpu/s39d NAME=s39e bash tools/gpu/bench-gemm/json-after-fp8-jit.sh
BUDGET=${BUDGET:-370}; . tools/gpu/lib.sh ${NAME:-s39e}
unset CUTE_RS_PTX_DIR
timeout 300 $H gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --check > $R/w.txt 2>&1 < /dev/null; t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"
timeout $(( $(left) - 15 )) $H bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err < /dev/null
t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
t end
