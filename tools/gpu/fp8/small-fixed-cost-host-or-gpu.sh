#!/usr/bin/env bash
# (session 20, lead) Is the FP8 GEMM's fixed cost at small problems on the GPU or on the host? ncu's kernel duration
# of ours and cuBLASLt's beside `host gemm --bench`'s per-launch time (events around back-to-back launches), new host.
#      D=.gpu/s20d bash tools/gpu/fp8/small-fixed-cost-host-or-gpu.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh s20e
timeout 200 $H gemm --dtype e4m3 --m 128 --n 7168 --k 4096 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
M="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size"
for s in "128 4096 8192" "128 7168 2048" "128 7168 4096" "128 2112 7168" "128 7168 16384" "4096 4096 4096"; do set -- $s
  timeout 60 $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --bench > $R/g.txt 2>&1 < /dev/null
  t "G $s | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-200 | tr '\n' '|')"
  timeout 60 ncu --clock-control none --launch-count 6 --print-summary per-kernel $M $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --bench > $R/n.txt 2>&1
  grep -E "^\s+[a-zA-Z_].*\(|gpu__time|per_second|dram__|grid_size" $R/n.txt | tr -s ' ' | cut -c1-140 | tee -a $S; done
t end
