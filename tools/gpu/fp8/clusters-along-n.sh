#!/usr/bin/env bash
# (session 20, lead) Clusters along N (A's tile multicast) on the per-tensor FP8 128x192 kernel
# (`CUTE_RS_FP8_PROMOTED=n192tmacn`, gemm_fp8_e4m3_tn_promoted_n192tma_cn) against the default (n192tma, clusters along
# M): --check on edge shapes, then ours / cuBLASLt per-tensor e4m3 alternated, three rounds; ncu of M = 128 both ways.
#      D=.gpu/s20b bash tools/gpu/fp8/clusters-along-n.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh s20b
CN="CUTE_RS_FP8_PROMOTED=n192tmacn"
timeout 200 env $CN $H gemm --dtype e4m3 --m 128 --n 7168 --k 4096 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check cn 128x7168x4096 rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
for s in "100 1000 640" "128 200 512" "64 192 1024" "128 7232 2048" "300 520 640" "1000 1030 1024" "128 7168 16384" "7 4000 3000"; do
  set -- $s; timeout 60 env $CN $H gemm --dtype e4m3 --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null
  t "check cn $s rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1) $(grep -iE 'max|err' $R/c.txt | head -2 | tr -s ' ' | tr '\n' ' ' | cut -c1-200)"; done
timeout 60 env $CN $H gemm --dtype e4m3 --m 128 --n 7168 --k 16384 --out f32 --check > $R/c.txt 2>&1 < /dev/null
t "check cn f32 out rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
g() { local tag=$1; shift; timeout 60 env "$@" $H gemm $GARGS --bench > $R/g.txt 2>&1 < /dev/null
  t "G $tag rc=$? | $GARGS | $(grep -E 'TFLOP' $R/g.txt | tr -s ' ' | cut -c1-220 | tr '\n' '|')"; }
for i in 1 2 3; do
  for m in 128 64; do GARGS="--dtype e4m3 --m $m --n 7168 --k 16384"; g default X=0; g cn $CN; done
  GARGS="--dtype e4m3 --m 128 --n 4096 --k 8192"; g default X=0; g cn $CN
  GARGS="--dtype e4m3 --m 256 --n 7168 --k 16384"; g default X=0; g cn $CN
done
M="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,launch__grid_size,launch__cluster_dim_x,smsp__inst_executed.sum"
prof() { local n=$1 c=$2; shift 2
  [ $(left) -gt 25 ] || { t "N $n SKIP (time)"; return; }
  timeout $(( $(left) - 10 )) ncu --clock-control none --launch-count $c --print-summary per-kernel $M "$@" > $R/n-$n.txt 2>&1
  t "N $n rc=$?"
  grep -E "^\s+[a-zA-Z_].*\(|gpu__time|per_second|dram__|lts__|grid_size|cluster_dim|inst_executed" $R/n-$n.txt | tr -s ' ' | cut -c1-160 | tee -a $S; }
prof m128cn 8 env $CN $H gemm --dtype e4m3 --m 128 --n 7168 --k 16384 --bench
t end
