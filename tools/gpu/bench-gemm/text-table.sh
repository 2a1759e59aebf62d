#!/usr/bin/env bash
# (session 18, lead) host bench gemm on the merged tree's release host (closing/scheduler-params-on-host.sh's package). It prints its table
# only at the end: the 54 bf16/fp16 timings and the FP8 rows need about 250 s of its own clock, after the driver's JIT
# of every module (about 90 s in a fresh JIT cache: this script's name gives it its own). Session 18 ran it with a 230 s
# limit and got no table (row 52 of 54 at 136 s of the bench's clock); give it the 290 s below.
#      D=.gpu/s18f bash tools/gpu/bench-gemm/text-table.sh
BUDGET=${BUDGET:-320}; . tools/gpu/lib.sh s18g
timeout 290 $H bench gemm > $R/bg.txt 2>&1 < /dev/null; t "P host bench gemm rc=$?"
grep -vE "^\[gemm\]" $R/bg.txt | sed -E 's/ +/ /g' | cut -c1-170 | tee -a $S
t end
