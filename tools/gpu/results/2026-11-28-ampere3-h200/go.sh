#!/bin/bash
# helper "ampere" round 3, issue #35: the Ampere GEMM at 128x256x32 / 8 warps / 4 stages (host-n256,
# sm_80 PTX only) vs the previous 128x128x32 / 4 warps (host-old, 4a4d669) vs CuTe's sm80 tutorial
# (compute_80 PTX) and cuBLAS; forced sweep, sanitizers, the sm_80 run, ncu of ours and the tutorial.
cd "$(dirname "$0")"
un() { python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),open(sys.argv[2],'wb'))" $1 $2; chmod +x $2; }
un host-n256.xz /tmp/hn; un host-old.xz /tmp/ho
H=/tmp/hn; O=/tmp/ho
mkdir -p /tmp/cl && python3 -c "import tarfile;tarfile.open('cutlass-min.tar.xz').extractall('/tmp/cl')"
{ nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm --format=csv; nvcc --version | tail -2; which ncu; } > $OUT/1-gpu-build.txt 2>&1
( cd /tmp/cl && time nvcc -arch=compute_80 -code=compute_80 -std=c++17 -O3 -I include -I tools/util/include \
    examples/cute/tutorial/sgemm_sm80.cu -o sgemm_sm80 ) >> $OUT/1-gpu-build.txt 2>&1 &
BUILD=$!
S=$OUT/2-sweep.txt
echo '== host --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 300' > $S
( time timeout 90 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 300 ) >> $S 2>&1; echo "rc=$?" >> $S
grep -E "sweep|rc=|passed|FAIL|real" $S | head
wait $BUILD
B=$OUT/3-bench.txt
tut() { for s in 2048 4096 8192; do echo "== tutorial TN $s"; timeout 20 /tmp/cl/sgemm_sm80 $s $s $s T N 2>&1 | grep -E "CUTE_GEMM|rror"; done; }
g() { echo "== $1: ${@:3}"; timeout 25 $2 --arch sm_80 gemm --kernel sm80 --bench "${@:3}" 2>&1 | grep -E "kernel:|TFLOP|rror"; }
{ tut
  for s in 2048 4096 8192; do g new $H --m $s --dtype f16 --ta; done
  for s in 2048 4096 8192; do g old $O --m $s --dtype f16 --ta; done
  g new $H --m 4096 --dtype f16; g new $H --m 4096 --dtype f16 --tb; g new $H --m 4096 --dtype f16 --ta --tb
  g new $H --m 4096 --dtype bf16 --ta; g new $H --m 4096 --dtype f16 --out f32 --ta
  g new $H --m 3000 --n 5000 --k 2000 --dtype bf16 --ta
  tut
} > $B 2>&1
grep -E "==|CUTE_GEMM|TFLOP" $B | head -70
N=$OUT/4-ncu.txt
SEC="--section SpeedOfLight --section WarpStateStats --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables"
MET="--metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__cycles_elapsed.avg"
{ echo "== ncu new 4096 TN f16"; timeout 70 ncu -k regex:hgemm_sm80 -c 1 $SEC $MET $H --arch sm_80 gemm --kernel sm80 --m 4096 --dtype f16 --ta
  echo "== ncu tutorial 4096 TN"; timeout 70 ncu -k regex:gemm_device -c 1 $SEC $MET /tmp/cl/sgemm_sm80 4096 4096 4096 T N
} > $N 2>&1
grep -E "==|Duration|Compute \(SM\) Throughput|Memory Throughput|Registers|Achieved Occ|bank_conflicts|hmma|Issue Slots|Warp Cycles Per Issued|No Eligible" $N | head -50
Z=$OUT/5-sanitize.txt
{ echo '== memcheck: run --only hgemm_sm80 --sweep-hgemm-sm80 6'
  timeout 60 compute-sanitizer --tool memcheck --print-limit 5 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 6 | tail -3; echo "rc=${PIPESTATUS[0]}"
  for t in "--ta" "--tb"; do echo "== racecheck: gemm --m 300 --n 300 --k 100 $t --kernel sm80 --check"
    timeout 30 compute-sanitizer --tool racecheck --print-limit 5 $H --arch sm_80 gemm --m 300 --n 300 --k 100 --dtype bf16 $t --kernel sm80 --check | tail -3; echo "rc=${PIPESTATUS[0]}"; done
} > $Z 2>&1
grep -E "==|ERROR SUMMARY|RACECHECK SUMMARY|rc=" $Z
R=$OUT/6-run-sm80.txt
echo '== host --arch sm_80 run (reduced sweeps)' > $R
( time timeout 60 $H --arch sm_80 run --sweep-gemm 30 --sweep-copy 30 --sweep-hgemm 60 --sweep-hgemm-sm80 0 --sweep-attention 10 ) >> $R 2>&1; echo "rc=$?" >> $R
tail -5 $R
