#!/bin/bash
# final check of the merged branch (TMA map cache from hopper-tma): hgemm section, a few bench rows
H=.gpu/gemm/host
SECONDS=0; timeout 60 $H run --only hgemm --sweep-hgemm 300 > $OUT/run_hgemm.txt 2>&1; echo "run rc=$? in ${SECONDS}s"; grep -E "sweep|passed|FAIL" $OUT/run_hgemm.txt | cut -c1-200
for d in bf16 f16; do for s in "--m 4096" "--m 8192"; do timeout 15 $H gemm --dtype $d $s --bench 2>&1 | grep -i 'hgemm \|error'; done; done | tee $OUT/bench.txt
