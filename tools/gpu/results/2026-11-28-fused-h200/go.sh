#!/bin/bash
# helper "collectives": the fused GEMM epilogue (issue #34) on the H200, one call.
cd "$(dirname "$0")"
gunzip -c host.gz > /tmp/host && chmod +x /tmp/host
H=/tmp/host
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
echo '== host run --only hgemm --sweep-hgemm 150'
( time timeout 90 $H run --only hgemm --sweep-hgemm 150 ) > $OUT/run-hgemm.txt 2>&1; echo "rc=$?" >> $OUT/run-hgemm.txt
tail -40 $OUT/run-hgemm.txt
echo '== refusals (exit 2 before launch)'
{ $H gemm --m 256 --dtype bf16 --act relu --check; echo "NN fused rc=$?"
  $H gemm --m 256 --ta --dtype f16 --act relu --check; echo "f16 fused rc=$?"
  $H gemm --m 256 --act relu --check; echo "f32 fused rc=$?"
  $H gemm --m 256 --ta --dtype bf16 --out f32 --act relu --check; echo "f32 C fused rc=$?"
} > $OUT/refusals.txt 2>&1; cat $OUT/refusals.txt
echo '== fused checks + bench (sustained and burst; bias m vs cuBLASLt GELU_BIAS)'
for args in "--m 4096 --bias m --act gelu --check" "--m 4096" "--m 8192 --bias m --act gelu" "--m 8192" "--m 4096 --bias n --act gelu-erf --check"; do
  echo "-- host gemm --ta --dtype bf16 $args --bench"
  timeout 30 $H gemm --ta --dtype bf16 $args --bench; echo "rc=$?"
done > $OUT/gemm-bench.txt 2>&1; cat $OUT/gemm-bench.txt
echo '== small fused checks'
for args in "--m 1000 --n 1030 --k 512 --bias n --act gelu-erf" "--m 129 --n 257 --k 65 --bias m --act silu --beta 1" "--m 70 --n 264 --k 200 --act relu"; do
  echo "-- host gemm --ta --dtype bf16 $args --check"
  timeout 20 $H gemm --ta --dtype bf16 $args --check; echo "rc=$?"
done > $OUT/gemm-small.txt 2>&1; cat $OUT/gemm-small.txt
