#!/usr/bin/env bash
# (session 27, lead; prepared for session 28, not yet run; branch `s27-small-m-sk`) Block scales at small and middle M:
# `_staged1_tma5sk` (128 × 128, one temporary, the per-tensor entries' split-K / stream-K scheduler, 0 spills;
# `CUTE_RS_FP8_BLOCK=stagedonetma5sk`) against the default and the paired `_staged_tma5sk` (run s27g: +15–17 % at
# 256×7168×8192, level at 128×7168×16384, −25 % at 64 rows), beside the per-tensor default: checks, memcheck, rows
# alternated, two rounds. Package (built by session 27): $D/host.xz (the branch's release host at `18dae69`, before its
# candidate rule: `default` is the 128 × 192 entry at 256-512 rows, the 64-row one at 128), $D/hgemm.ptx.xz (the
# default FP8 entries + the two split entries, from a CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants build).
#          D=.gpu/s28a bash tools/gpu/fp8/block-small-m-split-k-one-temporary.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s28a}
B="gemm --dtype e4m3 --block-scales"
timeout 150 $H $B --m 128 --n 7168 --k 2048 --check > $R/c.txt 2>&1 < /dev/null; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for s in "128 7168 2048" "132 7200 1024" "256 7168 2048" "2048 1700 1008" "1000 1030 1024"; do set -- $s
  CUTE_RS_FP8_BLOCK=stagedonetma5sk timeout 100 $H $B --m $1 --n $2 --k $3 --check > $R/c.txt 2>&1 < /dev/null; t "check sk1 $s rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -1)"; done
CUTE_RS_FP8_BLOCK=stagedonetma5sk timeout 100 compute-sanitizer --tool memcheck $H $B --m 256 --n 7168 --k 2048 --check > $R/m.txt 2>&1 < /dev/null; t "memcheck sk1 rc=$? $(grep 'ERROR SUMMARY' $R/m.txt)"
CUTE_RS_FP8_BLOCK=stagedonetma5sk timeout 100 compute-sanitizer --tool racecheck $H $B --m 256 --n 7168 --k 2048 --check > $R/r.txt 2>&1 < /dev/null; t "racecheck sk1 rc=$? $(grep 'RACECHECK SUMMARY' $R/r.txt)"
for i in 1 2; do for s in "256 7168 8192" "384 7168 8192" "512 7168 8192" "256 4096 8192" "128 7168 16384" "128 7168 8192" "1024 7168 4096"; do
  [ $(left) -gt 15 ] || break; set -- $s; GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"
  g default X=1; g sk1 CUTE_RS_FP8_BLOCK=stagedonetma5sk; g sk CUTE_RS_FP8_BLOCK=stagedtma5sk
  GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g pt X=1; done; done
t end
