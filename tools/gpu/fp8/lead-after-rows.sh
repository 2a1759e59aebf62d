#!/usr/bin/env bash
# (session 72; issues #34, #37) Where main stands after the fixup's rows (`StreamKScheduler::ROWS`): both GEMM modules'
# JIT, the whole `host bench gemm --csv` (every family row in both timings, cuBLAS / cuBLASLt beside), then the block
# split's lead (`CUTE_RS_FP8_BLOCK_LEAD`; the rule `Fp8BlockEntry::lead_percent`: 0 at 4096³, 125 at 4096×7168×16384)
# now that a split tile's tails move half (128-wide) of what they did: at 4096³ 0, 60, 125 and at 4096×7168×16384 125,
# 90, 60, `host gemm --dtype e4m3 --block-scales --bench` alternated, rounds while the budget lasts.
# Package $D: host.xz (main's release host, default kernel build).
#   BUDGET=585 D=.gpu/s72b NAME=s72b bash tools/gpu/fp8/lead-after-rows.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s72b}
timeout 300 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null &
timeout 300 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --check > $R/w0.txt 2>&1 < /dev/null
wait; t "warm $(cat $R/w0.txt $R/w1.txt | grep -Eo 'PASS|FAIL|rror.*' | tr '\n' ' ')"
timeout $(( $(left) - 120 )) $H bench gemm --csv > $R/bench.csv 2> $R/bench.err; t "B host bench gemm rc=$? $(wc -l < $R/bench.csv) rows"
cp $R/bench.csv $OUT/; cut -d, -f1-6 $R/bench.csv | tee -a $S
B="--dtype e4m3 --block-scales"
for i in 1 2 3; do
  for l in 0 60 125; do [ $(left) -gt 20 ] || break 2; GARGS="$B --m 4096 --n 4096 --k 4096"; g "l$l-$i" CUTE_RS_FP8_BLOCK_LEAD=$l; done
  for l in 125 90 60; do [ $(left) -gt 20 ] || break 2; GARGS="$B --m 4096 --n 7168 --k 16384"; g "l$l-$i" CUTE_RS_FP8_BLOCK_LEAD=$l; done
done
t end
