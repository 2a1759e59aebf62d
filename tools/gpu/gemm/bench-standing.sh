#!/usr/bin/env bash
# (session 69; issues #34, #37) Where main stands: both GEMM modules' JIT, then the whole `host bench gemm --csv`
# (every family row in both timings, cuBLAS / cuBLASLt beside), then further rounds of the rows the issues still
# miss (`beta 1` 4096³; e4m3 per-tensor 4096³ and 4096×7168×16384; block scales 4096³ and 512×7168×8192), each
# `--bench` sustained and burst, while the budget lasts.
# Package $D: host.xz (main's release host, default kernel build).
#   BUDGET=570 D=.gpu/s69a NAME=s69a bash tools/gpu/gemm/bench-standing.sh
BUDGET=${BUDGET:-570}; . tools/gpu/lib.sh ${NAME:-s69a}
timeout 300 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w1.txt 2>&1 < /dev/null &
timeout 300 $H gemm --dtype bf16 --m 256 --n 256 --k 64 --check > $R/w0.txt 2>&1 < /dev/null
wait; t "warm $(cat $R/w0.txt $R/w1.txt | grep -Eo 'PASS|FAIL|rror.*' | tr '\n' ' ')"
timeout $(( $(left) - 60 )) $H bench gemm --csv > $R/bench.csv 2> $R/bench.err; t "B host bench gemm rc=$? $(wc -l < $R/bench.csv) rows"
cp $R/bench.csv $OUT/; cut -d, -f1-6 $R/bench.csv | tee -a $S
for i in 1 2 3; do
  for a in "--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" "--dtype e4m3 --m 4096 --n 7168 --k 16384" \
    "--dtype e4m3 --m 4096 --n 4096 --k 4096" "--dtype e4m3 --block-scales --m 4096 --n 4096 --k 4096" \
    "--dtype e4m3 --block-scales --m 512 --n 7168 --k 8192"; do
    [ $(left) -gt 20 ] || break 2; GARGS="$a"; g "r$i"
  done
done
t end
