#!/usr/bin/env bash
# (session 61; issue #37) The per-tensor tile rule of session 60 (128 × 192 where its estimated use is above
# 128 × 128's: 8192³ and 8192×8192×16384 move) measured as the default: one round of the default against 128 × 128
# forced (`CUTE_RS_FP8_PROMOTED=n128tma6`) at both shapes, each `--bench` sustained and burst against cuBLASLt in the
# same process; then the closing `host bench gemm --json` (every row, the FP8 rows on the new rule); then, with the time
# left, both tiles forced at two shapes where the rule keeps 128 × 128 (4096×7168×16384, 6144³).
# Package $D: host.xz (this tree's release host, default kernel build).
#   BUDGET=570 D=.gpu/s61a NAME=s61a bash tools/gpu/fp8/per-tensor-closing.sh   (~500 s)
# Run s61a (H100): the default 128 × 192 10–11 % ahead of 128 × 128 at both shapes, and 11–13 % at 6144³ (a tie in the
# rule's estimate: 128 × 192 since session 61); level at 4096×7168×16384.
BUDGET=${BUDGET:-570}; . tools/gpu/lib.sh ${NAME:-s61a}
warm
for a in "--m 8192 --n 8192 --k 8192" "--m 8192 --n 8192 --k 16384"; do
  GARGS="--dtype e4m3 $a"; g default-1; g n128-1 CUTE_RS_FP8_PROMOTED=n128tma6
done
timeout $(( $(left) - 15 )) $H bench gemm --json > $R/bench-gemm.json 2> $R/bench-gemm.err < /dev/null
t "bench gemm rc=$? rows=$(grep -o '"variant"' $R/bench-gemm.json | wc -l)"
cp $R/bench-gemm.json $OUT/ 2>/dev/null
for a in "--m 4096 --n 7168 --k 16384" "--m 6144 --n 6144 --k 6144"; do
  [ $(left) -gt 45 ] || break
  GARGS="--dtype e4m3 $a"; g n192-1 CUTE_RS_FP8_PROMOTED=n192tma; g n128-1 CUTE_RS_FP8_PROMOTED=n128tma6
done
t end
