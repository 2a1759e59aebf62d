#!/usr/bin/env bash
# Session 42: racecheck with compute-sanitizer's kernel filters (run s42d: `--kernel-name-exclude kns=nvjet` ended in an
# illegal address), this build's module (pn) and main's before it (pm), and with the include filter instead.
#   D=.gpu/s42a NAME=s42e BUDGET=220 bash tools/gpu/sanitize/racecheck-kernel-filters.sh
BUDGET=${BUDGET:-220}; . tools/gpu/lib.sh ${NAME:-s42e}
for v in n m; do mkdir -p /tmp/p$v; x $D/$v/hgemm.ptx.xz /tmp/p$v/hgemm.ptx; x $D/$v/hgemm_fp8.ptx.xz /tmp/p$v/hgemm_fp8.ptx; done
CUTE_RS_PTX_DIR=/tmp/pm timeout 240 $H gemm --dtype f16 --m 256 --n 256 --k 1024 --beta 1 --check > $R/w2.txt 2>&1 < /dev/null &
CUTE_RS_PTX_DIR=/tmp/pn timeout 240 $H gemm --dtype f16 --m 256 --n 256 --k 1024 --beta 1 --check > $R/w0.txt 2>&1 < /dev/null
wait; t "warm $(cat $R/w?.txt | grep -Eo 'PASS|FAIL' | tr '\n' ' ')"
i=0
rc() { i=$((i+1)); local v=$1 tool=$2 f=$3; shift 3
  CUTE_RS_PTX_DIR=/tmp/p$v timeout 100 compute-sanitizer --tool $tool $f --print-limit 5 $H gemm "$@" --check > $R/s$i.txt 2>&1 < /dev/null
  t "S $tool $v rc=$? $f $* | $(grep -E 'SUMMARY|Internal|rror:' $R/s$i.txt | grep -v Frame | head -3 | tr '\n' ' ') $(grep -Eo 'PASS|FAIL' $R/s$i.txt | head -1)"; cp $R/s$i.txt $OUT/; }
A="--dtype f16 --m 1032 --n 2048 --k 1024 --beta 1"
rc n racecheck "--kernel-name-exclude kns=nvjet" $A
rc m racecheck "--kernel-name-exclude kns=nvjet" $A
rc n racecheck "--kernel-name kns=hgemm" $A
rc m racecheck "--kernel-name kns=hgemm" $A
rc n memcheck "--kernel-name-exclude kns=nvjet" $A
rc n racecheck "--kernel-name-exclude kns=nvjet" --dtype bf16 --m 1024 --n 2064 --k 256 --ta --beta 1 --ldc 1040
t end
