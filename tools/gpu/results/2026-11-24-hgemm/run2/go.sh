#!/bin/bash
# hgemm step 1: correctness first, then bench
H=.gpu/gemm/host
cd "$(dirname "$0")/../.." 
nvidia-smi --query-gpu=name --format=csv,noheader
ptxas -arch=sm_90a .gpu/gemm/hgemm.ptx -o /tmp/h.cubin && cuobjdump -sass /tmp/h.cubin > /tmp/h.sass && grep -c HGMMA /tmp/h.sass && grep -m3 HGMMA /tmp/h.sass
awk '/Function : hgemm_bf16_tn/{f=1} f&&/HGMMA/{print; n++} n>=4{exit}' /tmp/h.sass > $OUT/sass_hgmma.txt
timeout 15 $H gemm --dtype bf16 --m 1000 --n 1030 --k 999 --check 2>&1 | tee $OUT/smoke.txt
for t in "" "--ta" "--tb" "--ta --tb"; do timeout 10 $H gemm --dtype f16 --m 257 --n 300 --k 130 --beta 0.5 $t --check 2>&1 | tail -3; done | tee -a $OUT/smoke.txt
timeout 20 $H gemm --m 64 --alpha nan --check 2>&1 | tail -4 | tee -a $OUT/smoke.txt
SECONDS=0; timeout 130 $H run --only hgemm --sweep-hgemm 300 > $OUT/run_hgemm.txt 2>&1; echo "run rc=$? in ${SECONDS}s"; grep -v "PASS" $OUT/run_hgemm.txt | tail -30; grep -c PASS $OUT/run_hgemm.txt
for d in bf16 f16; do
 for s in "--m 2048" "--m 4096" "--m 8192" "--m 16384" "--m 8192 --n 8192 --k 512" "--m 512 --n 8192 --k 8192" "--m 4096 --tb" "--m 4096 --ta" "--m 4096 --ta --tb"; do
  timeout 15 $H gemm --dtype $d $s --bench 2>&1 | grep -i "hgemm\|error" 
 done
done | tee $OUT/bench.txt
