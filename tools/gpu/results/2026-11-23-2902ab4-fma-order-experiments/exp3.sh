#!/bin/bash
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
S="--section SpeedOfLight --section SchedulerStats --section WarpStateStats --section InstructionStats --section Occupancy --section MemoryWorkloadAnalysis --section SourceCounters --metrics sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum"
for t in "" "--tb" "--ta --tb"; do
  tag=nn; [ "$t" = "--tb" ] && tag=nt; [ "$t" = "--ta --tb" ] && tag=tt
  timeout 150 ncu --clock-control none $S -k regex:sgemm_128 -c 1 .gpu/exp-a/host gemm --m 4096 $t --bench > $O/r/ncu-$tag.txt 2>&1
done
tar czf $O/exp3.tgz -C $O r
grep -h "Issue Slots Busy\|No Eligible\|Warp Cycles Per Issued\|Stall\|bank_conflicts\|hit_rate\|dram__bytes\|Duration\|inst_executed.sum" $O/r/ncu-*.txt
