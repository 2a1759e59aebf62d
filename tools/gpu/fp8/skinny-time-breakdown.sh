#!/usr/bin/env bash
# (session 20, lead) Where the FP8 skinny GEMM's time goes (128xNxK, per-tensor e4m3): ours / cuBLASLt over K (a fixed
# cost shows as the intercept), the tile (n192tma, n128tma6, n192tmacn), fewer split-K clusters (CUTE_RS_HGEMM_SMS), two
# rounds; ncu stall reasons of the default at 128x7168x16384.
#      D=.gpu/s20c bash tools/gpu/fp8/skinny-time-breakdown.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh s20c
timeout 200 $H gemm --dtype e4m3 --m 128 --n 7168 --k 4096 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
g() { local tag=$1; shift; timeout 60 env "$@" $H gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-220 | tr '\n' '|')"; }
for i in 1 2; do
  for k in 2048 4096 8192 16384 32768; do GARGS="--dtype e4m3 --m 128 --n 7168 --k $k"; g default X=0; done
  GARGS="--dtype e4m3 --m 128 --n 7168 --k 16384"
  g n128tma6 CUTE_RS_FP8_PROMOTED=n128tma6; g cn CUTE_RS_FP8_PROMOTED=n192tmacn
  for s in 38 56 76 100 114; do g sms$s CUTE_RS_HGEMM_SMS=$s; done
  g n128sms56 CUTE_RS_FP8_PROMOTED=n128tma6 CUTE_RS_HGEMM_SMS=56; g n128sms114 CUTE_RS_FP8_PROMOTED=n128tma6 CUTE_RS_HGEMM_SMS=114
done
M="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_gmma_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,l1tex__m_xbar2l1tex_read_bytes.sum,smsp__inst_executed.sum"
prof() { local n=$1 c=$2; shift 2
  [ $(left) -gt 25 ] || { t "N $n SKIP (time)"; return; }
  timeout $(( $(left) - 10 )) ncu --clock-control none --launch-count $c --print-summary per-kernel $M "$@" > $R/n-$n.txt 2>&1
  t "N $n rc=$?"
  grep -E "^\s+[a-zA-Z_].*\(|gpu__time|per_second|dram__|smsp__|sm__pipe|l1tex" $R/n-$n.txt | tr -s ' ' | cut -c1-160 | tee -a $S; }
prof m128 8 $H gemm --dtype e4m3 --m 128 --n 7168 --k 16384 --bench
t end
