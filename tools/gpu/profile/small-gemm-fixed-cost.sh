#!/usr/bin/env bash
# (session 22, lead) The small GEMMs' fixed cost: ncu kernel time of ours and the reference (cuBLASLt FP8 / cuBLAS bf16)
# from one tile up to the skinny bench shape, and ncu's per-SASS source counters of ours at 128x7168x2048 (38 CTAs, no
# split: the fixed cost is half its time). Package (D): host.xz, hgemm.ptx.xz, stub.ptx, stub-families.txt.
#      D=.gpu/s22a bash tools/gpu/profile/small-gemm-fixed-cost.sh
BUDGET=${BUDGET:-280}; . tools/gpu/lib.sh s22a
timeout 200 $H gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --check > $R/jit.txt 2>&1 < /dev/null
t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/jit.txt | head -1)"
M="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,launch__grid_size,sm__cycles_active.avg,smsp__inst_executed.sum"
ncut() { # dtype m n k [extra host args]
  local d=$1 m=$2 n=$3 k=$4; shift 4
  timeout 60 ncu --clock-control none --launch-skip 4 --launch-count 8 --print-summary per-kernel $M $H gemm --dtype $d --m $m --n $n --k $k "$@" --bench > $R/n.txt 2>&1
  t "N $d $m $n $k $* :: $(grep -E 'TFLOP' $R/n.txt | tail -1 | tr -s ' ' | cut -c1-120)"
  grep -E "^\s+[a-zA-Z_].*\(|gpu__time|per_second|grid_size|cycles_active|inst_executed" $R/n.txt | tr -s ' ' | cut -c1-150 | tee -a $S
}
ncut e4m3 128 128 128
ncut e4m3 128 128 4096
ncut e4m3 128 128 4096 --fast-accum
ncut e4m3 128 7168 2048
ncut e4m3 128 7168 16384
ncut bf16 128 256 64 --ta
ncut bf16 128 7168 2048 --ta
SEC="--section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats"
ncu_src f8-ours -k regex:gemm_fp8 --launch-skip 3 $H gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --bench
ncu_src f8-lt -k regex:nvjet --launch-skip 3 $H gemm --dtype e4m3 --m 128 --n 7168 --k 2048 --bench
ncu_src f8-split -k regex:gemm_fp8 --launch-skip 3 $H gemm --dtype e4m3 --m 128 --n 7168 --k 16384 --bench
t end
