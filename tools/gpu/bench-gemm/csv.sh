#!/usr/bin/env bash
# (session 16, lead) The full `host bench gemm` (SGEMM, bf16/fp16 in both timings, FP8 rows against cuBLASLt, fused rows
# against cuBLASLt's GELU_BIAS) of d9511e5's default release host (the suspend hint, the peel, the FP8 tile rule).
# Package (D, default .gpu/s16h): host.xz, stub.ptx + stub-families.txt.   D=.gpu/s16h bash tools/gpu/bench-gemm/csv.sh
BUDGET=${BUDGET:-330}; . tools/gpu/lib.sh s16h
timeout 290 $H bench gemm --csv > $R/bench.csv 2> $R/bench.err; t "B host bench gemm rc=$? $(wc -l < $R/bench.csv) rows"
cp $R/bench.csv $OUT/; cat $R/bench.csv | cut -c1-200
t end
