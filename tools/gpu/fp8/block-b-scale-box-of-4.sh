#!/usr/bin/env bash
# (session 36, lead; branch `s36-scale-b`) B's block scales a box of 4 k-blocks at a time (`GmmaFp8AccumulationStaged`:
# the box with the stages at a box's start and a run's first k-tile, the consumers keeping its values in registers):
# `host run --only hgemm` (the FP8 sweep) and `--check`s on the branch's full modules, sanitizers on the small-M entry,
# then main's staged entries ($D/old) against the branch's ($D/new), cut modules, alternated, two rounds.
# Also run s36f (branch `s36-scale-bg`: B's scales from global memory, a k-tile or a pair ahead), its package built the
# same way:  BUDGET=230 D=.gpu/s36f NAME=s36f bash tools/gpu/fp8/block-b-scale-box-of-4.sh
#   D=.gpu/s36e NAME=s36e bash tools/gpu/fp8/block-b-scale-box-of-4.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s36e}
timeout 300 $H run --only hgemm --seed 3601 --sweep-hgemm 40 > $R/run.txt 2>&1 < /dev/null
t "C host run --only hgemm --seed 3601 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
grep -E 'FAIL' $R/run.txt | head -5 | cut -c1-200 | tee -a $S
B="gemm --dtype e4m3 --block-scales"
for s in "128 7168 8192" "256 7168 8192" "128 1000 6160" "132 7200 8192" "64 4104 8192" "300 200 528" "512 7168 2000"; do set -- $s
  timeout 60 $H $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null; t "C check $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for e in stagedpp64 stagedonetma5sk; do
  CUTE_RS_FP8_BLOCK=$e timeout 60 $H $B --m 1000 --n 1030 --k 1040 --check > $R/c.txt 2>&1 < /dev/null; t "C check $e 1000x1030x1040 rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
for tool in memcheck racecheck synccheck; do [ $(left) -gt 200 ] || break
  CUTE_RS_FP8_BLOCK=stagedpp64 timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H $B --m 132 --n 2048 --k 2064 --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool stagedpp64 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done
for m in old new; do mkdir -p /tmp/p$m; cp $P/*.ptx /tmp/p$m/; x $D/$m/hgemm_fp8.ptx.xz /tmp/p$m/hgemm_fp8.ptx
  CUTE_RS_PTX_DIR=/tmp/p$m timeout 100 $H $B --m 128 --n 1024 --k 8192 --check > $R/c.txt 2>&1 < /dev/null; t "jit $m rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
for i in 1 2; do for s in "128 7168 16384" "128 7168 8192" "256 7168 8192" "512 7168 8192" "4096 7168 16384"; do [ $(left) -gt 12 ] || break
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt CUTE_RS_PTX_DIR=/tmp/pold
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  if [ $i = 1 ]; then g old CUTE_RS_PTX_DIR=/tmp/pold; g new CUTE_RS_PTX_DIR=/tmp/pnew; else g new CUTE_RS_PTX_DIR=/tmp/pnew; g old CUTE_RS_PTX_DIR=/tmp/pold; fi
done; done
t end
