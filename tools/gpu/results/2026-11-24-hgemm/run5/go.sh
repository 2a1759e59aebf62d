#!/bin/bash
# hgemm step: persistent CTAs (grid = min(tiles, SMs)) vs one CTA per tile, same binary
H=.gpu/gemm/host
SECONDS=0; timeout 60 $H run --only hgemm --sweep-hgemm 300 > $OUT/run_hgemm.txt 2>&1; echo "run rc=$? in ${SECONDS}s"; grep -E "sweep|passed|FAIL" $OUT/run_hgemm.txt | cut -c1-250
SECONDS=0; timeout 80 compute-sanitizer --print-limit 5 --tool memcheck $H run --only hgemm --sweep-hgemm 20 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? ${SECONDS}s" | tee -a $OUT/memcheck.txt; grep -E "ERROR SUMMARY|passed" $OUT/memcheck.txt
for d in bf16 f16; do
 for s in "--m 2048" "--m 4096" "--m 8192" "--m 16384" "--m 8192 --n 8192 --k 512" "--m 512 --n 8192 --k 8192" "--m 4096 --tb" "--m 4096 --ta" "--m 4096 --ta --tb"; do
  echo "persistent $d $s: $(timeout 15 $H gemm --dtype $d $s --bench 2>&1 | grep -i 'hgemm \|error')"
  case "$s" in "--m 2048"|"--m 4096"|"--m 8192"|"--m 8192 --n 8192 --k 512") echo "tile/CTA   $d $s: $(CUTE_RS_HGEMM_PERSISTENT=0 timeout 15 $H gemm --dtype $d $s --bench 2>&1 | grep -i 'hgemm \|error')";; esac
 done
done > $OUT/bench.txt; cat $OUT/bench.txt
