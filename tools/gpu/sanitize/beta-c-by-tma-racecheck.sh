#!/usr/bin/env bash
# Session 42: racecheck of the cooperative kernel with `beta ≠ 0` (C by TMA), this build's module and main's, full
# reports kept.   D=.gpu/s42a NAME=s42b BUDGET=200 bash tools/gpu/sanitize/beta-c-by-tma-racecheck.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s42b}
for v in n m; do mkdir -p /tmp/p$v; x $D/$v/hgemm.ptx.xz /tmp/p$v/hgemm.ptx; x $D/$v/hgemm_fp8.ptx.xz /tmp/p$v/hgemm_fp8.ptx; done
CUTE_RS_PTX_DIR=/tmp/pm timeout 240 $H gemm --dtype f16 --m 256 --n 256 --k 1024 --beta 1 --check > $R/w2.txt 2>&1 < /dev/null &
CUTE_RS_PTX_DIR=/tmp/pn timeout 240 $H gemm --dtype f16 --m 256 --n 256 --k 1024 --beta 1 --check > $R/w0.txt 2>&1 < /dev/null
wait; t "warm $(cat $R/w?.txt | grep -Eo 'PASS|FAIL' | tr '\n' ' ')"
i=0
rc() { i=$((i+1)); CUTE_RS_PTX_DIR=/tmp/p$1 timeout 150 compute-sanitizer --tool racecheck --racecheck-report all --print-limit 20 $H gemm "${@:2}" --check > $R/race-$1-$i.txt 2>&1 < /dev/null
  t "S racecheck $1 rc=$? ${*:2} | $(grep -E 'RACECHECK SUMMARY' $R/race-$1-$i.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/race-$1-$i.txt | head -1)"; cp $R/race-$1-$i.txt $OUT/; }
rc n --dtype f16 --m 1032 --n 2048 --k 1024 --beta 1
rc m --dtype f16 --m 1032 --n 2048 --k 1024 --beta 1
rc n --dtype f16 --m 1024 --n 2048 --k 1024 --beta 1
rc n --dtype f16 --m 1032 --n 2048 --k 1024
rc m --dtype f16 --m 1032 --n 2048 --k 1024
t end
