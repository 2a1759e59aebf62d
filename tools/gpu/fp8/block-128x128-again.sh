#!/usr/bin/env bash
# (session 27, lead; branch `s27-block128`, not for main) Block scales on 128 × 128 tiles again, beside the default 128 × 192: `_staged_tma5` (paired, 5 stages,
# two chunk buffers), `_staged_tma6` (paired, 6 stages as the per-tensor `_n128tma6`, one chunk buffer a warpgroup),
# `_staged1_tma6` (one temporary, DeepGEMM's schedule): `--check` and memcheck on the new ones, then the block rows and
# the per-tensor row alternated, two rounds.
# Package: $D/host.xz (main + the two variants' host names), $D/hgemm.ptx.xz (the FP8 default entries + the three, from
#          a build with CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants).
#          D=.gpu/s27b bash tools/gpu/fp8/block-128x128-again.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s27b}
B="gemm --dtype e4m3 --block-scales"
timeout 150 $H $B --m 512 --n 1024 --k 2048 --check > $R/c.txt 2>&1 < /dev/null; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for e in stagedtma6 stagedonetma6; do
  for s in "1000 1030 1024" "300 200 528" "2048 1700 1008" "132 7200 6144"; do set -- $s
    CUTE_RS_FP8_BLOCK=$e timeout 100 $H $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null; t "check $e $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done
  CUTE_RS_FP8_BLOCK=$e timeout 100 compute-sanitizer --tool memcheck $H $B --m 1000 --n 1030 --k 1024 --check > $R/m.txt 2>&1 < /dev/null; t "memcheck $e rc=$? $(grep 'ERROR SUMMARY' $R/m.txt) $(grep -Eo 'PASS|FAIL' $R/m.txt | head -1)"
done
CUTE_RS_FP8_BLOCK=stagedtma6 timeout 100 compute-sanitizer --tool racecheck $H $B --m 1000 --n 1030 --k 1024 --check > $R/r.txt 2>&1 < /dev/null; t "racecheck stagedtma6 rc=$? $(grep 'RACECHECK SUMMARY\|ERROR SUMMARY' $R/r.txt | head -1)"
for i in 1 2; do for s in "4096 4096 4096" "4096 7168 16384" "8192 8192 8192" "4096 2112 7168"; do [ $(left) -gt 20 ] || break
  set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt X=1
  GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  for e in stagedn192tma stagedtma5 stagedtma6 stagedonetma6; do g $e CUTE_RS_FP8_BLOCK=$e; done; done; done
t end
