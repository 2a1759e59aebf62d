#!/usr/bin/env bash
# (session 20, lead) Is the FP8 skinny GEMM limited by L2 bytes? B multicast (clusters of 2 along M) halves B's L2
# reads per CTA: at M = 256 (two M-tiles) clusters of 2 against 1, beside M = 128 (one M-tile: no multicast) and
# 4096x7168x16384; ours / cuBLASLt per-tensor e4m3 in each process, two rounds; then ncu of M = 256 both ways.
#      D=.gpu/s20a bash tools/gpu/fp8/skinny-l2-multicast-probe.sh
BUDGET=${BUDGET:-520}; . tools/gpu/lib.sh s20a
timeout 200 $H gemm --dtype e4m3 --m 300 --n 200 --k 520 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
timeout 100 $H gemm --dtype e4m3 --m 256 --n 7168 --k 16384 --check > $R/chk.txt 2>&1 < /dev/null
t "check 256x7168x16384 rc=$? $(grep -Eo 'PASS|FAIL' $R/chk.txt | head -1)"
g() { local tag=$1; shift; timeout 60 env "$@" $H gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-220 | tr '\n' '|')"; }
for i in 1 2; do
  GARGS="--dtype e4m3 --m 256 --n 7168 --k 16384"; g c2 X=0; g c1 CUTE_RS_HGEMM_CLUSTER=1
  GARGS="--dtype e4m3 --m 128 --n 7168 --k 16384"; g default X=0
  GARGS="--dtype e4m3 --m 512 --n 7168 --k 16384"; g c2 X=0; g c1 CUTE_RS_HGEMM_CLUSTER=1
  GARGS="--dtype e4m3 --m 4096 --n 7168 --k 16384"; g c2 X=0; g c1 CUTE_RS_HGEMM_CLUSTER=1
done
M="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x,smsp__inst_executed.sum"
prof() { local n=$1 c=$2; shift 2
  [ $(left) -gt 25 ] || { t "N $n SKIP (time)"; return; }
  timeout $(( $(left) - 10 )) ncu --clock-control none --launch-count $c --print-summary per-kernel $M "$@" > $R/n-$n.txt 2>&1
  t "N $n rc=$?"
  grep -E "^\s+[a-zA-Z_].*\(|gpu__time|per_second|dram__|lts__|gmma|grid_size|cluster_dim|inst_executed" $R/n-$n.txt | tr -s ' ' | cut -c1-160 | tee -a $S; }
prof m256c2 12 $H gemm --dtype e4m3 --m 256 --n 7168 --k 16384 --bench
prof m256c1 12 env CUTE_RS_HGEMM_CLUSTER=1 $H gemm --dtype e4m3 --m 256 --n 7168 --k 16384 --bench
t end
