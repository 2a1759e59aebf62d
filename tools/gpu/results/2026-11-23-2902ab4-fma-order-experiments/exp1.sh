#!/bin/bash
# exp1: ncu ours vs cuBLAS at 4096^3 NN/TN; bench of after / exp-nc / exp-serp interleaved
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi > $O/smi.txt 2>&1
for r in 1 2; do
  for b in after exp-nc exp-serp; do
    .gpu/$b/host bench gemm --csv > $O/bench-$b-$r.csv 2> $O/bench-$b-$r.err
    echo "$b $r rc=$?"
  done
done
# kernel names
ncu --clock-control none --metrics gpu__time_duration.sum -c 8 .gpu/after/host gemm --m 4096 --bench > $O/ncu-names.txt 2>&1
for t in "" "--ta"; do
  tag=nn; [ "$t" = "--ta" ] && tag=tn
  S="--section SpeedOfLight --section SchedulerStats --section WarpStateStats --section InstructionStats --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis --metrics sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active"
  timeout 200 ncu --clock-control none $S -k regex:sgemm_128 -c 1 .gpu/after/host gemm --m 4096 $t --bench > $O/ncu-ours-$tag.txt 2>&1
  timeout 200 ncu --clock-control none $S -k regex:'^(?!sgemm_)' -c 1 .gpu/after/host gemm --m 4096 $t --bench > $O/ncu-cublas-$tag.txt 2>&1
  timeout 200 ncu --clock-control none $S -k regex:sgemm_128 -c 1 .gpu/exp-serp/host gemm --m 4096 $t --bench > $O/ncu-serp-$tag.txt 2>&1
done
for f in $O/bench-*.csv; do echo "== $f"; cat $f; done
grep -h "sgemm\|gemm\|Duration\|SM Frequency\|Issue Slots Busy\|Executed Ipc A\|Registers Per\|Achieved Occ\|No Eligible\|Stall\|Warp Cycles Per Issued" $O/ncu-*.txt | head -150
