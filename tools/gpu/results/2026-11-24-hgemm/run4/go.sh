#!/bin/bash
# hgemm step 3: memcheck with slack after A and B (cuBLAS's vector reads), sweep again
H=.gpu/gemm/host
S="compute-sanitizer --print-limit 5"
SECONDS=0; timeout 100 $S --tool memcheck $H run --only hgemm --sweep-hgemm 20 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? ${SECONDS}s" | tee -a $OUT/memcheck.txt
grep -E "ERROR SUMMARY|passed|FAIL" $OUT/memcheck.txt | cut -c1-200
SECONDS=0; timeout 60 $H run --only hgemm --sweep-hgemm 300 > $OUT/run_hgemm.txt 2>&1; echo "run rc=$? in ${SECONDS}s"; grep -E "sweep|passed" $OUT/run_hgemm.txt | cut -c1-250
