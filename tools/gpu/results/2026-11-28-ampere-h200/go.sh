#!/bin/bash
# helper "ampere", issue #35 items 2-4 on the H200: the Ampere GEMM (kernels/hgemm_sm80) forced:
# its fixed checks + 300-problem sweep vs cuBLAS GemmEx, the bench vs CuTe's sm80 tutorial GEMM
# (built here as compute_80 PTX) and cuBLAS, compute-sanitizer memcheck/racecheck, and the sm_80
# build's `host --arch sm_80 run`. At most 8 files come back: 5 logs.
cd "$(dirname "$0")"
# the release host (stripped, xz) and CuTe 4.2's headers + the tutorial (xz tar), unpacked by python
python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('host.xz'),open('/tmp/host','wb'))"
H=/tmp/host
chmod +x $H
mkdir -p /tmp/cl && python3 -c "import tarfile;tarfile.open('cutlass-min.tar.xz').extractall('/tmp/cl')"
{ nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm --format=csv; nvcc --version | tail -2; } > $OUT/1-gpu-build.txt 2>&1
# CuTe's tutorial, built in the background while the sweep runs
( cd /tmp/cl &&
  time nvcc -arch=compute_80 -code=compute_80 -std=c++17 -O3 -I include -I tools/util/include \
    examples/cute/tutorial/sgemm_sm80.cu -o sgemm_sm80 ) >> $OUT/1-gpu-build.txt 2>&1 &
BUILD=$!
echo '== host run --only hgemm_sm80 --sweep-hgemm-sm80 300' > $OUT/2-sweep.txt
( time timeout 90 $H run --only hgemm_sm80 --sweep-hgemm-sm80 300 ) >> $OUT/2-sweep.txt 2>&1; echo "rc=$?" >> $OUT/2-sweep.txt
grep -E "sweep|rc=|passed|FAIL" $OUT/2-sweep.txt | head
wait $BUILD
B=$OUT/3-bench.txt
tut() { for s in 2048 4096 8192; do echo "== tutorial TN $s"; /tmp/cl/sgemm_sm80 $s $s $s T N 2>&1 | grep -E "CUTE_GEMM|rror"; done; }
{ tut
  # ours as the tutorial runs: the sm_80 PTX (JIT-compiled by the driver), the Ampere kernel
  for s in 2048 4096 8192; do echo "== ours sm80 f16 TN $s (--arch sm_80)"; timeout 25 $H --arch sm_80 gemm --m $s --dtype f16 --ta --kernel sm80 --bench; done
  for t in "NN:" "NT:--tb" "TT:--ta --tb"; do echo "== ours sm80 f16 ${t%%:*} 4096 (--arch sm_80)"; timeout 25 $H --arch sm_80 gemm --m 4096 --dtype f16 ${t#*:} --kernel sm80 --bench; done
  echo "== ours sm80 bf16 TN 4096 (--arch sm_80)"; timeout 25 $H --arch sm_80 gemm --m 4096 --dtype bf16 --ta --kernel sm80 --bench
  echo "== ours sm80 f16 TN 4096 f32 C (--arch sm_80)"; timeout 25 $H --arch sm_80 gemm --m 4096 --dtype f16 --out f32 --ta --kernel sm80 --bench
  echo "== ours sm80 f16 TN 4096 (the family's sm_90a build)"; timeout 25 $H gemm --m 4096 --dtype f16 --ta --kernel sm80 --bench
  tut
} > $B 2>&1
grep -E "==|CUTE_GEMM|TFLOP|ratio" $B | head -60
S=$OUT/4-sanitize.txt
{ echo '== memcheck: host run --only hgemm_sm80 --sweep-hgemm-sm80 6'
  timeout 60 compute-sanitizer --tool memcheck --print-limit 5 $H run --only hgemm_sm80 --sweep-hgemm-sm80 6; echo "rc=$?"
  for t in "--ta" "--tb"; do echo "== racecheck: gemm --m 300 --n 200 --k 100 $t --kernel sm80 --check"
    timeout 25 compute-sanitizer --tool racecheck --print-limit 5 $H gemm --m 300 --n 200 --k 100 --dtype bf16 $t --kernel sm80 --check; echo "rc=$?"; done
} > $S 2>&1
grep -E "==|ERROR SUMMARY|RACECHECK SUMMARY|rc=" $S
echo '== host --arch sm_80 run (reduced sweeps)' > $OUT/5-run-sm80.txt
( time timeout 60 $H --arch sm_80 run --sweep-gemm 40 --sweep-copy 40 --sweep-hgemm 60 --sweep-hgemm-sm80 0 --sweep-attention 10 ) >> $OUT/5-run-sm80.txt 2>&1; echo "rc=$?" >> $OUT/5-run-sm80.txt
tail -5 $OUT/5-run-sm80.txt
