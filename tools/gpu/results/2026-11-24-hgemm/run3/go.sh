#!/bin/bash
# hgemm step 2: sweep after the cuBLAS math-mode fix, sanitizers, bench (one run)
H=.gpu/gemm/host
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
SECONDS=0; timeout 60 $H run --only hgemm --sweep-hgemm 300 > $OUT/run_hgemm.txt 2>&1; echo "run rc=$? in ${SECONDS}s"; grep -v "PASS" $OUT/run_hgemm.txt | cut -c1-220 | tail -12
( timeout 10 $H gemm --m 64 --alpha nan --check; timeout 10 $H gemm --dtype bf16 --m 64 --alpha nan --check; $H gemm --m -3; $H gemm --m 64 --split 0; $H gemm --dtype bf16 --m 100 --lda 100 ) > $OUT/mends.txt 2>&1
S="compute-sanitizer --print-limit 5"
SECONDS=0; timeout 70 $S --tool memcheck $H run --only hgemm --sweep-hgemm 20 > $OUT/sanitize.txt 2>&1; echo "memcheck rc=$? ${SECONDS}s" | tee -a $OUT/sanitize.txt
SECONDS=0; timeout 50 $S --tool racecheck --racecheck-report all $H gemm --dtype bf16 --m 300 --n 300 --k 700 --beta 0.5 --ta --check >> $OUT/sanitize.txt 2>&1; echo "racecheck rc=$? ${SECONDS}s" | tee -a $OUT/sanitize.txt
SECONDS=0; timeout 40 $S --tool synccheck $H gemm --dtype f16 --m 300 --n 300 --k 700 --tb --check >> $OUT/sanitize.txt 2>&1; echo "synccheck rc=$? ${SECONDS}s" | tee -a $OUT/sanitize.txt
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASS|FAIL" $OUT/sanitize.txt | cut -c1-150
for d in bf16 f16; do
 for s in "--m 2048" "--m 4096" "--m 8192" "--m 16384" "--m 8192 --n 8192 --k 512" "--m 512 --n 8192 --k 8192" "--m 4096 --tb" "--m 4096 --ta" "--m 4096 --ta --tb"; do
  timeout 15 $H gemm --dtype $d $s --bench 2>&1 | grep -i "hgemm \|error"
 done
done > $OUT/bench.txt; cat $OUT/bench.txt
