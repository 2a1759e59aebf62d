#!/bin/bash
# helper "ampere": the sm_80 build on the H200 (forced with --arch sm_80), beside the default.
cd "$(dirname "$0")"
H=./host
chmod +x $H
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv | tee $OUT/gpu.txt
{ echo '== host info'; $H info | grep -v '^kernel:'; echo "rc=$?"
  echo '== host --arch sm_80 info'; $H --arch sm_80 info | grep -v '^kernel:'; echo "rc=$?"
  echo '== typed error: bf16 GEMM under --arch sm_80'; $H --arch sm_80 gemm --m 256 --dtype bf16 --check; echo "rc=$?"
} > $OUT/info.txt 2>&1
cat $OUT/info.txt | head -60
echo '== host --arch sm_80 run'
( time timeout 110 $H --arch sm_80 run ) > $OUT/run-sm80.txt 2>&1; echo "rc=$?" >> $OUT/run-sm80.txt
tail -6 $OUT/run-sm80.txt
echo '== host run (default: best build per family)'
( time timeout 80 $H run ) > $OUT/run-default.txt 2>&1; echo "rc=$?" >> $OUT/run-default.txt
tail -6 $OUT/run-default.txt
echo '== compute-sanitizer memcheck, sm_80 build: copy checks, small GEMM checks'
{ time timeout 40 compute-sanitizer --tool memcheck --print-limit 5 $H --arch sm_80 copy check; echo "rc=$?"
  time timeout 40 compute-sanitizer --tool memcheck --print-limit 5 $H --arch sm_80 gemm --small; echo "rc=$?"
} > $OUT/sanitize-sm80.txt 2>&1
grep -E "ERROR SUMMARY|rc=|real|passed" $OUT/sanitize-sm80.txt
