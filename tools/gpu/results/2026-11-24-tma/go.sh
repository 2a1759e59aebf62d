#!/bin/bash
# TMA copy (issue #25, helper tma): the `host run --only tma` section, `host bench copy`,
# SASS of tma.ptx, compute-sanitizer memcheck/racecheck/synccheck on the section. Logs in $OUT.
D=.gpu/tma   # host (cargo build -p host --release) and target/ptx/tma.ptx copied here
cd "$(dirname "$0")/../.." || exit 1
export PATH="$PATH:/usr/local/cuda/bin"
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $OUT/gpu.txt
echo "== host run --only tma --sweep-copy 60"
timeout 90 $D/host run --only tma --sweep-copy 60 > $OUT/run.txt 2>&1; echo "rc=$? $((SECONDS-t0))s"
grep -vE "^\[run\]" $OUT/run.txt | grep -E "FAIL|sweep|refused|device" | head -24; echo "PASS rows: $(grep -c ' PASS ' $OUT/run.txt)  FAIL rows: $(grep -c ' FAIL ' $OUT/run.txt)"
echo "== SASS"
ptxas -arch=sm_90a -v $D/tma.ptx -o /tmp/tma.cubin > /tmp/ptxas.txt 2>&1; grep -A1 "tma_copy_row_b4'" /tmp/ptxas.txt | tail -1; echo "ptxas rc=$?"
cuobjdump -sass /tmp/tma.cubin > /tmp/sass.txt
for e in tma_copy_row_b4 tma_copy_col_b2; do
  awk -v f="Function : $e" 'index($0,f){p=1;next} /Function :/{p=0} p' /tmp/sass.txt > /tmp/$e.sass
  echo "$e: UTMALDG $(grep -c UTMALDG /tmp/$e.sass) UTMASTG $(grep -c UTMASTG /tmp/$e.sass) SYNCS $(grep -c SYNCS /tmp/$e.sass) LDL/STL $(grep -c 'LDL\|STL' /tmp/$e.sass)"
done
grep -m16 -E "UTMALDG|UTMASTG|SYNCS|UTMACMDFLUSH|UBLKCP|ELECT|DEPBAR|UTMAPF" /tmp/tma_copy_row_b4.sass > $OUT/sass_excerpt.txt; cat $OUT/sass_excerpt.txt
echo "== host bench copy $((SECONDS-t0))s"
timeout 150 $D/host bench copy > $OUT/bench.txt 2>&1; echo "rc=$? $((SECONDS-t0))s"
grep -E "^\[copy\]" $OUT/bench.txt | grep -E "(256|1024) MiB" | grep -E "memcpy D2D [0-9]|tma_copy|tiled_copy_row_f32_v4" | sed 's/^\[copy\] [0-9]*\/[0-9]* //' 
for t in memcheck synccheck racecheck; do
  s=$SECONDS
  timeout 70 compute-sanitizer --tool $t --error-exitcode 1 $D/host run --only tma --sweep-copy 8 > $OUT/san-$t.txt 2>&1
  echo "$t rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$t.txt | tail -2 | tr '\n' ' ')"
done
echo "total $((SECONDS-t0))s"
echo "== full host run --sweep-gemm 0 (every section, default copy sweep)"
s=$SECONDS
timeout 150 $D/host run --sweep-gemm 0 > $OUT/run_all.txt 2>&1; echo "rc=$? $((SECONDS-s))s PASS $(grep -c ' PASS ' $OUT/run_all.txt) FAIL $(grep -c ' FAIL ' $OUT/run_all.txt)"
grep -E " FAIL |sweep " $OUT/run_all.txt | grep -v "^\[run\]" | head -10
echo "total $((SECONDS-t0))s"
