#!/bin/bash
# helper "ampere" round 4, issue #35: the Ampere GEMM with the whole-tile mainloop (no copy
# predicates after the first k-tile) and epilogue (no bound checks) vs CuTe's sm80 tutorial
# (compute_80 PTX, built off the GPU with nvcc 13.0) and cuBLAS; forced sweep, sm_80 run, ncu.
cd "$(dirname "$0")"
un() { python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),open(sys.argv[2],'wb'))" $1 $2; chmod +x $2; }
un host.xz /tmp/h; un sgemm_sm80.xz /tmp/tut
H=/tmp/h; T=/tmp/tut
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $OUT/summary.txt; }
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
S=$OUT/sweep.txt
timeout 70 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 300 > $S 2>&1; t "forced sweep rc=$?"
grep -E "passed|FAIL" $S | tail -4 | tee -a $OUT/summary.txt
R=$OUT/run-sm80.txt
timeout 45 $H --arch sm_80 run --sweep-gemm 10 --sweep-copy 10 --sweep-hgemm 20 --sweep-hgemm-sm80 0 --sweep-attention 5 > $R 2>&1; t "sm_80 run rc=$?"
tail -2 $R | tee -a $OUT/summary.txt
B=$OUT/bench.txt
tut() { for s in 2048 4096 8192; do echo "== tutorial TN $s"; timeout 20 $T $s $s $s T N 2>&1 | grep -E "CUTE_GEMM|rror"; done; }
g() { echo "== ${@}"; timeout 25 $H --arch sm_80 gemm --kernel sm80 --bench "$@" 2>&1 | grep -E "kernel:|TFLOP|rror"; }
{ tut
  for s in 2048 4096 8192; do g --m $s --dtype f16 --ta; done
  g --m 4096 --dtype f16; g --m 4096 --dtype f16 --tb; g --m 4096 --dtype f16 --ta --tb
  g --m 4096 --dtype bf16 --ta; g --m 4096 --dtype f16 --out f32 --ta
  g --m 3000 --n 5000 --k 2000 --dtype bf16 --ta
  tut
} > $B 2>&1; t "bench"
grep -E "==|CUTE_GEMM|TFLOP" $B | tee -a $OUT/summary.txt
N=$OUT/ncu.txt
SEC="--section SpeedOfLight --section WarpStateStats --section Occupancy"
MET="--metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio"
{ echo "== ncu ours 4096 TN f16"; timeout 60 ncu -k regex:hgemm_sm80 -c 1 $SEC $MET $H --arch sm_80 gemm --kernel sm80 --m 4096 --dtype f16 --ta
  echo "== ncu tutorial 4096 TN"; timeout 60 ncu -k regex:gemm_device -c 1 $SEC $MET $T 4096 4096 4096 T N
} > $N 2>&1; t "ncu"
grep -E "==|Duration|Registers|Achieved Active|hmma|inst_executed|stalled|Warp Cycles Per Issued|Executed Ipc A" $N | tee -a $OUT/summary.txt
Z=$OUT/memcheck.txt
timeout 40 compute-sanitizer --tool memcheck --print-limit 5 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 4 > $Z 2>&1; t "memcheck rc=$?"
grep -E "ERROR SUMMARY|passed" $Z | tail -2 | tee -a $OUT/summary.txt
t end
