#!/bin/bash
# helper "ampere" round 5, issue #35: the Ampere GEMM at 4 warps, 128x128 (two CTAs a SM):
# s4 = 128x128x32 4 stages (64 KiB, the candidate), s3 = 128x128x32 3 stages (48 KiB: two CTAs
# on an RTX 4090 too), k64 = 128x128x64 3 stages (96 KiB; spills in NN/NT/TT: TN only) vs CuTe's
# sm80 tutorial (compute_80 PTX, nvcc 13.0) and cuBLAS; forced sweeps, sm_80 run, ncu.
cd "$(dirname "$0")"
un() { python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),open(sys.argv[2],'wb'))" $1 $2; chmod +x $2; }
for v in s4 s3 k64; do un host-$v.xz /tmp/h-$v; done; un sgemm_sm80.xz /tmp/tut
T=/tmp/tut
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $OUT/summary.txt; }
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
t unpacked
S=$OUT/sweep-s4.txt
timeout 50 /tmp/h-s4 --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 300 > $S 2>&1; t "forced sweep s4 rc=$?"
grep -E "passed|FAIL" $S | tail -4 | tee -a $OUT/summary.txt
S=$OUT/sweep-s3.txt
timeout 30 /tmp/h-s3 --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 100 > $S 2>&1; t "forced sweep s3 rc=$?"
grep -E "passed|FAIL" $S | tail -4 | tee -a $OUT/summary.txt
R=$OUT/run-sm80.txt
timeout 30 /tmp/h-s4 --arch sm_80 run --sweep-gemm 10 --sweep-copy 10 --sweep-hgemm 20 --sweep-hgemm-sm80 0 --sweep-attention 5 > $R 2>&1; t "sm_80 run s4 rc=$?"
grep -E "^FAIL" $R | head -5 | tee -a $OUT/summary.txt; tail -1 $R | tee -a $OUT/summary.txt
B=$OUT/bench.txt
tut() { for s in 2048 4096 8192; do echo "== tutorial TN $s"; timeout 15 $T $s $s $s T N 2>&1 | grep -E "CUTE_GEMM|rror"; done; }
g() { v=$1; shift; echo "== $v ${@}"; timeout 20 /tmp/h-$v --arch sm_80 gemm --kernel sm80 --bench "$@" 2>&1 | grep -E "kernel:|TFLOP|rror"; }
{ tut
  for s in 2048 4096 8192; do g s4 --m $s --dtype f16 --ta; done
  for s in 2048 4096 8192; do g s3 --m $s --dtype f16 --ta; done
  for s in 2048 4096 8192; do g k64 --m $s --dtype f16 --ta; done
  g s4 --m 4096 --dtype f16; g s4 --m 4096 --dtype f16 --tb; g s4 --m 4096 --dtype f16 --ta --tb
  g s4 --m 4096 --dtype bf16 --ta; g s4 --m 4096 --dtype f16 --out f32 --ta
  g s4 --m 3000 --n 5000 --k 2000 --dtype bf16 --ta
  g s3 --m 4096 --dtype f16
  tut
} > $B 2>&1; t "bench"
grep -E "==|CUTE_GEMM|TFLOP|kernel:" $B | tee -a $OUT/summary.txt
N=$OUT/ncu.txt
SEC="--section SpeedOfLight --section WarpStateStats --section Occupancy"
MET="--metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio"
{ echo "== ncu s4 4096 TN f16"; timeout 30 ncu -k regex:hgemm_sm80 -c 1 $SEC $MET /tmp/h-s4 --arch sm_80 gemm --kernel sm80 --m 4096 --dtype f16 --ta
  echo "== ncu k64 4096 TN f16"; timeout 25 ncu -k regex:hgemm_sm80 -c 1 $SEC $MET /tmp/h-k64 --arch sm_80 gemm --kernel sm80 --m 4096 --dtype f16 --ta
} > $N 2>&1; t "ncu"
grep -E "==|Duration|Registers|Achieved Active|Theoretical Occ|Block Limit|hmma|inst_executed|stalled_(barrier|long|short|wait|math|lg)|Warp Cycles Per Issued" $N | tee -a $OUT/summary.txt
Z=$OUT/memcheck.txt
timeout 20 compute-sanitizer --tool memcheck --print-limit 5 /tmp/h-s4 --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 2 > $Z 2>&1; t "memcheck s4 rc=$?"
grep -E "ERROR SUMMARY|passed" $Z | tail -2 | tee -a $OUT/summary.txt
t end
