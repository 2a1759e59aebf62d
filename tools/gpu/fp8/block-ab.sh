#!/usr/bin/env bash
# Two builds of the FP8 block-scaled entries side by side (sourced by a session's script after `. tools/gpu/lib.sh NAME`):
# the new PTX ($D/newp.ptx.xz) checked (`--check` at five shapes, the FP8 sweep, memcheck on both staged entries), then
# block rows of new and old ($D/old.ptx.xz) alternated in $ROUNDS rounds over $SHAPES ("M N K" each), one process each.
mkdir -p /tmp/pnew /tmp/pold; x $D/newp.ptx.xz /tmp/pnew/hgemm.ptx; x $D/old.ptx.xz /tmp/pold/hgemm.ptx
export CUTE_RS_PTX_DIR=/tmp/pnew
B="gemm --dtype e4m3 --block-scales"
timeout 150 $H $B --m 128 --n 7168 --k 6144 --check > $R/c.txt 2>&1 < /dev/null; t "jit + check (staged pp64) rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for s in "1000 1030 1024" "300 200 528" "2048 1700 1008" "132 7200 6144"; do set -- $s
  timeout 100 $H $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null; t "check $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
timeout 100 $H gemm --dtype e4m3 > $R/f8.txt 2>&1 < /dev/null; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/f8.txt | tail -1)"
timeout 100 compute-sanitizer --tool memcheck $H $B --m 1000 --n 1030 --k 1024 --check > $R/m1.txt 2>&1 < /dev/null; t "memcheck n192 rc=$? $(grep 'ERROR SUMMARY' $R/m1.txt) $(grep -Eo 'PASS|FAIL' $R/m1.txt | head -1)"
CUTE_RS_FP8_BLOCK=stagedpp64 timeout 100 compute-sanitizer --tool memcheck $H $B --m 128 --n 7168 --k 2048 --check > $R/m2.txt 2>&1 < /dev/null; t "memcheck pp64 rc=$? $(grep 'ERROR SUMMARY' $R/m2.txt) $(grep -Eo 'PASS|FAIL' $R/m2.txt | head -1)"
CUTE_RS_PTX_DIR=/tmp/pold timeout 150 $H $B --m 512 --n 1024 --k 2048 --check > $R/c.txt 2>&1 < /dev/null; t "jit old rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for i in $(seq $ROUNDS); do for s in "${SHAPES[@]}"; do [ $(left) -gt 15 ] || break
  set -- $s; GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"; g new X=1; g old CUTE_RS_PTX_DIR=/tmp/pold; done; done
t end
