#!/usr/bin/env bash
# (session 25, lead) Run s25f's one failure again, its output kept: memcheck on the staged small-M block entry
# (CUTE_RS_FP8_BLOCK=stagedpp64, 128×7168×2048 --check: rc 1 with 0 memcheck errors in s25f), twice, and the same check
# without a sanitizer three times.     Package: $D/host.xz (run s25f's).     D=.gpu/s25g bash tools/gpu/sanitize/fp8-block-staged-pp64-memcheck.sh
BUDGET=${BUDGET:-250}; . tools/gpu/lib.sh ${NAME:-s25g}
unset CUTE_RS_PTX_DIR
export CUTE_RS_FP8_BLOCK=stagedpp64
for i in 1 2 3; do timeout 150 $H gemm --dtype e4m3 --block-scales --m 128 --n 7168 --k 2048 --check > $R/c$i.txt 2>&1 < /dev/null
  t "check $i rc=$? $(grep -E 'PASS|FAIL' $R/c$i.txt | tr -s ' ' | cut -c1-220)"; done
for i in 1 2; do [ $(left) -gt 20 ] || break
  timeout $(( $(left) - 10 )) compute-sanitizer --tool memcheck --print-limit 5 $H gemm --dtype e4m3 --block-scales --m 128 --n 7168 --k 2048 --check > $R/m$i.txt 2>&1 < /dev/null
  t "memcheck $i rc=$? $(grep -E 'ERROR SUMMARY' $R/m$i.txt) | $(grep -E 'PASS|FAIL|rror' $R/m$i.txt | tr -s ' ' | cut -c1-220 | tr '\n' '|')"; done
t end
