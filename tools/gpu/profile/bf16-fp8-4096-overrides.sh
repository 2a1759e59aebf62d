#!/usr/bin/env bash
# (session 19, lead) What limits bf16 4096^3 (0.98 of cuBLAS; target 1.02) and FP8 per-tensor: measuring overrides on
# main's release host (.gpu/s18f: host.xz, families not measured stubbed), one call.
#  G bf16 TN 4096^3 --bench: default / CUTE_RS_HGEMM_CLUSTER=1 (B not multicast: twice its L2 reads) /
#    CUTE_RS_HGEMM_SWIZZLE=hilbert / CUTE_RS_HGEMM_SMS=128, two rounds;
#  F e4m3 per-tensor 4096^3 and 8192^3: default / CLUSTER=1;
#  N ncu (one launch each, --clock-control none) of ours and the reference at bf16 TN 4096^3, FP8 4096^3 and FP8
#    128x7168x16384: time, clock, tensor pipe, L2 and DRAM throughput, grid and cluster.
#      D=.gpu/s18f bash tools/gpu/profile/bf16-fp8-4096-overrides.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh s19a
timeout 150 $H gemm --ta --dtype bf16 --m 300 --n 200 --k 520 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
g() { local tag=$1; shift; timeout 60 env "$@" $H gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-220 | tr '\n' '|')"; }
for i in 1 2; do
  GARGS="--ta --dtype bf16 --m 4096"
  g default X=0; g cluster1 CUTE_RS_HGEMM_CLUSTER=1; g hilbert CUTE_RS_HGEMM_SWIZZLE=hilbert; g sms128 CUTE_RS_HGEMM_SMS=128
done
for m in 4096 8192; do GARGS="--dtype e4m3 --m $m"; g default X=0; g cluster1 CUTE_RS_HGEMM_CLUSTER=1; done
M="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__block_size,launch__shared_mem_per_block_dynamic,smsp__inst_executed.sum"
prof() { local n=$1 c=$2; shift 2
  [ $(left) -gt 25 ] || { t "N $n SKIP (time)"; return; }
  timeout $(( $(left) - 10 )) ncu --clock-control none --launch-count $c --print-summary per-kernel $M "$@" > $R/n-$n.txt 2>&1
  t "N $n rc=$?"
  grep -E "^\s+[a-zA-Z_].*\(|gpu__time|per_second|dram__|lts__|gmma|grid_size|cluster_dim|block_size|shared_mem|inst_executed" $R/n-$n.txt | tr -s ' ' | cut -c1-160 | tee -a $S; }
prof bf16-4096 12 $H gemm --ta --dtype bf16 --m 4096 --bench
prof fp8-4096 12 $H gemm --dtype e4m3 --m 4096 --bench
prof fp8skinny 12 $H gemm --dtype e4m3 --m 128 --n 7168 --k 16384 --bench
t end
