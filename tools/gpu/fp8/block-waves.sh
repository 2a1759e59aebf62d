#!/usr/bin/env bash
# (session 52; issue #37) Whether the block entry's shortfall at 4096³ and 4096×7168×16384 (0.85 / 0.87 of our
# per-tensor kernel, run s51a) is its 128 × 192 tile's waves: at 4096³ 352 cluster tiles on 66 clusters (6 waves, the
# last 22 of 66; the last N-tile 64 of 192 columns), at 4096×7168×16384 608 (10 waves, the last 14 of 66) — against N
# one tile-column narrower, whose waves are whole: 4096×3840×4096 (320 cluster tiles, 5 waves, the last 56 of 66) and
# 4096×6912×16384 (576, 9 waves, the last 48). If the waves are the cost, block TFLOP/s rise ~12 % and ~7 % there while
# the per-tensor kernel (stream-K tail, 128 × 128 at 4096³) moves less. Main's host and FP8 module, ROUNDS rounds.
# Package $D: host.xz (main's), stub.ptx + stub-families.txt, hgemm_fp8.ptx.xz (main's, cut to the promoted entries).
#   D=.gpu/s52c NAME=s52c bash tools/gpu/fp8/block-waves.sh   (~60 s)
BUDGET=${BUDGET:-150}; . tools/gpu/lib.sh ${NAME:-s52c}
ROUNDS=${ROUNDS:-3}
c gemm --dtype e4m3 --block-scales --m 4096 --n 3840 --k 4096
for i in $(seq $ROUNDS); do
  for s in "4096 4096 4096" "4096 3840 4096" "4096 4224 4096" "4096 7168 16384" "4096 6912 16384"; do
    [ $(left) -gt 15 ] || break 2
    set -- $s; GARGS="--dtype e4m3 --m $1 --n $2 --k $3"; g "pt$i"
    GARGS="--dtype e4m3 --block-scales --m $1 --n $2 --k $3"; g "block$i"
  done
done
t end
