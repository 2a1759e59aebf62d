#!/usr/bin/env bash
# (session 15, lead) Diagnosis by ncu, one launch each of ours and the reference in the same process
# (--clock-control none: the GPU's own clocks), per-kernel summaries:
#  N1 FP8 e4m3 per-tensor 128x7168x16384 (split-K; 0.70 of cuBLASLt) and 4096^3 (0.82-0.87), ours vs cuBLASLt;
#  N2 bf16 TN 2048^3 (0.93 of cuBLAS sustained), ours vs cuBLAS;
#  N3 attention d128 non-causal, 128 x 128 (CUTE_RS_ATTENTION=overlap) at 8k and 16k keys (633 vs 580 TFLOP/s
#     in session 15's call 1), and the default 176-key tile at 16k.
# Package (D, default .gpu/s15b): host.xz, hgemm.ptx.xz (cut: the FP8 per-tensor/fast entries, hgemm_bf16_tn),
# stub.ptx + stub-families.txt. Run from the repo root with $OUT set:  D=.gpu/s15b bash tools/gpu/profile/ncu-fp8-bf16-attention.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh s15b
# warm the JIT cache and check the plumbing
timeout 60 $H gemm --dtype e4m3 --m 128 --n 7168 --k 16384 --bench > $R/b1.txt 2>&1; t "B fp8 skinny rc=$? $(grep -E 'TFLOP|e4m3' $R/b1.txt | tail -2 | tr -s ' ' | cut -c1-200)"
timeout 60 $H gemm --ta --dtype bf16 --m 2048 --bench > $R/b2.txt 2>&1; t "B bf16 2048 rc=$? $(grep -E 'TFLOP|bf16' $R/b2.txt | tail -2 | tr -s ' ' | cut -c1-200)"
M="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x,launch__block_size,launch__shared_mem_per_block_dynamic,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum"
prof() { # name, launches, cmd...
  local n=$1 c=$2; shift 2
  [ $(left) -gt 25 ] || { t "N $n SKIP (time)"; return; }
  timeout $(( $(left) - 10 )) ncu --clock-control none --launch-count $c --print-summary per-kernel $M "$@" > $R/n-$n.txt 2>&1
  t "N $n rc=$?"
  grep -E "^\s+[a-zA-Z_].*\(|gpu__time_duration|cycles_elapsed.avg.per|dram__throughput|dram__bytes_read|hit_rate|gmma_cycles|hmma_cycles|grid_size|cluster_dim|block_size|shared_mem|sm__throughput|inst_executed" $R/n-$n.txt | tr -s ' ' | cut -c1-160 | tee -a $S
}
prof fp8skinny 12 $H gemm --dtype e4m3 --m 128 --n 7168 --k 16384 --bench
prof fp8-4096 12 $H gemm --dtype e4m3 --m 4096 --bench
prof bf16-2048 12 $H gemm --ta --dtype bf16 --m 2048 --bench
CUTE_RS_ATTENTION=overlap prof att128-8k 4 -k regex:attention $H attention --batch 2 --heads 16 --seqlen-q 8192 --head-dim 128 --bench
CUTE_RS_ATTENTION=overlap prof att128-16k 4 -k regex:attention $H attention --batch 1 --heads 16 --seqlen-q 16384 --head-dim 128 --bench
prof att176-16k 4 -k regex:attention $H attention --batch 1 --heads 16 --seqlen-q 16384 --head-dim 128 --bench
t end
