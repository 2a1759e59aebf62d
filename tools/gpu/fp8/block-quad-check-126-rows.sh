#!/usr/bin/env bash
# (session 38, prepared for the next) The quad schedule's build on the GPU: `host run --only hgemm` (the FP8 sweep over
# block and per-tensor problems among its 54) and `--check`s at tails 0-3 mod 4 k-tiles on the three quad entries, then
# the one figure session 38 left unexplained: the block default at 126 rows (`_block_pp64`, quad) ran 0.61 of the same
# entry forced at 128. Per-tensor and block at 120 / 124 / 126 / 128 rows (×7168×16384), and ncu (speed of light,
# memory) of the block launch at 126 and at 128 (forced `pp64`); the staged entry's K rule against the quad global one. $D/host.xz: main's release host (embedded PTX; the FP8
# module's JIT takes over 150 s, so the first launch is given 400).
#   D=.gpu/s39a NAME=s39a bash tools/gpu/fp8/block-quad-check-126-rows.sh
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s39a}
B="gemm --dtype e4m3 --block-scales"
timeout 400 $H $B --m 128 --n 7168 --k 2048 --check > $R/w.txt 2>&1 < /dev/null; t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"
timeout 300 $H run --only hgemm --seed 3801 > $R/run.txt 2>&1 < /dev/null
t "C host run --only hgemm --seed 3801 rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
grep -E 'FAIL' $R/run.txt | head -5 | cut -c1-200 | tee -a $S
# k-tiles 12, 13, 14, 15 (tails 0-3) on each quad entry: global small-M (126 rows), staged small-M, cooperative global
for k in 1536 1664 1792 1920; do
  for e in "pp64 126" "stagedpp64 128" "global 1026"; do set -- $e
    CUTE_RS_FP8_BLOCK=$1 timeout 60 $H $B --m $2 --n 1030 --k $k --check > $R/c.txt 2>&1 < /dev/null
    t "C check $1 $2x1030x$k rc=$? $(grep -Eo 'PASS|FAIL|rror.*' $R/c.txt | head -2 | tr '\n' ' ')"; done; done
for i in 1 2; do for m in 120 124 126 128; do [ $(left) -gt 60 ] || break
  GARGS="--dtype e4m3 --m $m --n 7168 --k 16384"; g pt; GARGS="$GARGS --block-scales"; g blk; done
  GARGS="--dtype e4m3 --block-scales --m 128 --n 7168 --k 16384"; g pp64-at-128 CUTE_RS_FP8_BLOCK=pp64; done
# the staged entry's K rule (`STAGED_PP64_MIN_K`, set against the paired global entry) against the quad global one
for i in 1 2; do for k in 4096 6144 8192; do [ $(left) -gt 60 ] || break
  GARGS="--dtype e4m3 --block-scales --m 128 --n 7168 --k $k"
  g staged CUTE_RS_FP8_BLOCK=stagedpp64; g global CUTE_RS_FP8_BLOCK=pp64; done; done
export SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats"
ncu_src b126 -k regex:gemm_fp8 $H $B --m 126 --n 7168 --k 16384
CUTE_RS_FP8_BLOCK=pp64 ncu_src b128 -k regex:gemm_fp8 $H $B --m 128 --n 7168 --k 16384
t end
